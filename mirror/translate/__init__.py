"""Stage 1, translate: the normalized Lean AST to sympy, and sympy to NumPy source.

Owns Lean's types (``types``), the elaborator and its typing forms, unfolding of project
definitions, the vocabulary tables (one family per module: integers, reals, ennreals, big
operators, matrices), data types (records, collections), type-class carriers (``instances``),
the translated ``Statement`` (``translation``), the code printer (``codegen``, with
``layout`` of its lines) and the injective Python names of Lean names (``identifiers``).

May import: ``bridge`` (the front ends' AST). Never ``evaluate``, ``sample``, ``judge``,
``bind`` or ``product`` (the nodes a later stage evaluates, such as a recursive system's, are
defined here: ``recursive_nodes``).
"""
