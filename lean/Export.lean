import Export.Expr
import Export.Decl
import Export.Run

/-!
# The leanmirror exporter (library)

Writes the declarations of Lean modules as the JSON document of `docs/export-format.md`
(format version 1), which `bridge/exporter.py` reads. The program is the `lean_exe`
`leanmirror-export` (root `Export.Main`); this library holds the work:

* `Export.Expr` — `Lean.Expr` to EXPR JSON (de Bruijn binders, flattened applications with
  the binder info of each argument);
* `Export.Decl` — one constant to a DECL record (kind, binders, type, value, equations,
  axioms, range, docstring), with doc-gen4's filter of internal declarations;
* `Export.Run` — module loading at run time (`Lean.importModules`), the `meta` object and
  the per-module `errors`.

It imports only `Lean`, never Mathlib. Status: never compiled or run (no Lean toolchain on
the machine it was written on).
-/
