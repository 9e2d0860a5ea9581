"""Auto-bound implicit variables, as Lean's elaborator binds them.

With ``autoImplicit`` (Lean's default), an unbound identifier in a theorem's signature that
is a valid auto-bound name becomes an implicit binder ``{x}`` in front of the others, its
type a metavariable that the rest of the statement solves (``theorem t (h : x + (1 : ℝ) = 3)
: x = 2`` is about ``x : ℝ``). Lean's ``isValidAutoBoundImplicitName`` (non-relaxed) admits a
lower-case or Greek letter followed only by digits, subscripts, ``_`` and ``'``; only those are
read here, and only when no constant of the table or the project has the name (nor ends in
``.name``, which an ``open`` could make it mean). The type comes from use (unification, a
numeral's default ℕ) or the row is ``cannot infer the type of x``: nothing defaults.
"""

from __future__ import annotations

from typing import Callable

from bridge import term as T
from bridge.lexer import tokenize
from mirror.translate.binder_types import infer_types
from mirror.translate.term_rewriter import TermRewriter
from mirror.translate.values import Untranslatable

_SUFFIX = set("0123456789_'₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₔₕₖₗₘₙₚₛₜᵢᵣᵤᵥⱼ")


def is_auto_bound_name(name: str) -> bool:
    """Lean's ``isValidAutoBoundImplicitName name (relaxed := false)``."""
    if not name or "." in name:
        return False
    first = name[0]
    greek = "α" <= first <= "ω" and first != "λ" or "Α" <= first <= "Ω" and first != "Π" \
        and first != "Σ"
    return (first.islower() and first.isascii() or greek) and all(c in _SUFFIX for c in name[1:])


class _Bind(TermRewriter):
    def __init__(self, names: set[str]) -> None:
        super().__init__(set())
        self.names = names

    def term(self, t: T.Term) -> T.Term:
        if isinstance(t, T.Const) and t.name in self.names:
            return T.Var(t.name)
        return self.structural(t)


#: Tokens after which an identifier is bound by the syntax (``let c := …``, ``∀ x, …``).
_BINDING_KEYWORDS = frozenset({"let", "letI", "have", "haveI", "fun", "λ", "∀", "∃", "∃!", "∑",
                               "∏", "⨆", "⨅", "⋃", "⋂", "Π", "Σ", "obtain", "set"})


def bound_in_text(text: str) -> set[str]:
    """The names Lean source ``text`` binds itself: after a binding keyword, or in a run of
    identifiers followed by ``:`` / ``:=`` (``(h : a < b) →``, ``letI c := v``). A name the
    front end met there and still left free was lost by its parse, not auto-bound."""
    tokens = tokenize(text)
    out: set[str] = set()
    for i, token in enumerate(tokens):
        if token.kind != "ident":
            continue
        if i and tokens[i - 1].text in _BINDING_KEYWORDS:
            out.add(token.text)
        j = i
        while j < len(tokens) and tokens[j].kind == "ident":
            j += 1
        if j < len(tokens) and tokens[j].text in (":", ":="):
            out.add(token.text)
    return out


def auto_bound(binders: list[T.Binder], body: T.Term, is_constant: Callable[[str], bool],
               text: str = "") -> tuple[list[T.Binder], T.Term]:
    """``binders`` with the statement's auto-bound implicits in front (typed from their use
    where it fixes a type, else untyped), and ``body`` with them as variables. A free name the
    statement's ``text`` also binds (``∃ ε, …`` elsewhere) is untranslatable with that
    reason: auto-bound or a binder the front end lost, which is not guessed."""
    terms = [b.type for b in binders if b.type is not None] + [body]
    in_text = bound_in_text(text)
    bound = {b.name for b in binders}
    names: list[str] = []
    for t in terms:
        for node in T.walk(t):
            if isinstance(node, T.Const) and node.name not in names and node.name not in bound \
                    and is_auto_bound_name(node.name) and not is_constant(node.name):
                if node.name in in_text:
                    # ``(h : ∃ ε, …) : ε = …``: auto-bound past the ∃'s scope, or a binder our
                    # parse lost — which one is not guessed, and binding it is no advice
                    raise Untranslatable(f"free variable {node.name}",
                                         "the statement also binds a variable of that name "
                                         "elsewhere, so it is either auto-bound here or a "
                                         "binder the source reader lost; write its binder")
                names.append(node.name)
    if not names:
        return binders, body
    rewriter = _Bind(set(names))
    out = [T.Binder(n, None, "implicit") for n in names]
    out += [T.Binder(b.name, None if b.type is None else rewriter.term(b.type), b.info)
            for b in binders]
    body = rewriter.term(body)
    return infer_types(out, body), body


__all__ = ["auto_bound", "bound_in_text", "is_auto_bound_name"]
