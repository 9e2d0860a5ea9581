import Export.Expr

/-!
# Exporter: one declaration to a DECL record of format version 1

See `docs/export-format.md`. For each constant a module declares, `declToJson`

* skips internal and auxiliary declarations the way doc-gen4 does (`Name.isInternal`,
  `Name.isInternalDetail`, auxiliary recursors, `noConfusion`, recursors, matchers,
  constructors, equation lemmas `f.eq_<n>` / `f.eq_def`, and anything without a declaration
  range); `_private` names are skipped unless `includePrivate` is set;
* classifies the kind (`theorem`, `def`, `abbrev`, `instance`, `structure`, `inductive`,
  `axiom`, `opaque`), keeping instances (by the `instance` attribute);
* splits the type into its leading `∀` binders and the rest (`binders`, `type`); for a
  definition the number of binders is the smaller of the type's `∀` count and the value's
  `fun` count, and `value` is the body after that many `fun` binders, so `type` and `value`
  refer to the same binders by de Bruijn index;
* pretty-prints the whole type and each binder type (`Lean.Meta.ppExpr`);
* reads the range (`Lean.findDeclarationRanges?`), the docstring (`Lean.findDocString?`), the
  axioms (`Lean.collectAxioms`) and, for definitions by pattern matching, the equation lemmas
  (`Lean.Meta.getEqnsFor?`).

Equations: each equation lemma `∀ xs, f args = rhs` is opened with `forallTelescope`; its
`patterns` are the *explicit* arguments of the left-hand side (including the parameters
before the colon, which are plain `fvar`s) and `rhs` is the right-hand side, with the
pattern variables as named `fvar`s. Equations are exported only when some pattern is not a
plain variable (a real pattern match); otherwise `value` already says everything.

`range.file` is the module's path under the source directory (`--src-dir`, default `lean`):
`Mirror.Resolvent` ↦ `lean/Mirror/Resolvent.lean`. `error` is always `null`: a declaration
that failed to elaborate makes `lake build` fail, so its module has no `.olean` and is
reported in the document's `errors`.

Status: written against the Lean 4 sources (v4.2x–v4.3x API); never compiled or run here
(no Lean toolchain on the machine it was written on).
-/

namespace LeanMirror.Export

open Lean Meta

/-- Settings of one export run. -/
structure ExportSettings where
  /-- The directory (relative to the package root) that holds the sources. -/
  srcDir : String := "lean"
  /-- Export `_private` declarations too. -/
  includePrivate : Bool := false
  deriving Inhabited

/-- Whether `n` is an equation lemma name `f.eq_<k>`, `f.eq_def` or `f.eq_unfold` of a
declaration `f`. -/
def isEquationLemmaName (env : Environment) (n : Name) : Bool :=
  match n with
  | .str p s =>
    let digits := s.toList.drop 3
    env.contains p && (s == "eq_def" || s == "eq_unfold" ||
      (s.startsWith "eq_" && !digits.isEmpty && digits.all Char.isDigit))
  | _ => false

/-- Whether the declaration `n` is left out of the export (internal, auxiliary, or without a
source range), following doc-gen4's blacklist. -/
def isSkipped (settings : ExportSettings) (n : Name) (info : ConstantInfo) :
    MetaM Bool := do
  let env ← getEnv
  let isPrivate := isPrivateName n
  if (isPrivate && !settings.includePrivate) ||
      (!isPrivate && (n.isInternal || n.isInternalDetail)) then
    return true
  if isAuxRecursor env n || isNoConfusion env n || isRecCore env n then return true
  if (← isMatcher n) then return true
  if isEquationLemmaName env n then return true
  if info matches .ctorInfo _ | .recInfo _ | .quotInfo _ then return true
  return (← findDeclarationRanges? n).isNone

/-- The format's kind of a declaration, or `none` when it is not exported. -/
def declKind (n : Name) (info : ConstantInfo) : MetaM (Option String) := do
  let env ← getEnv
  match info with
  | .thmInfo _ => return some (if (← isInstance n) then "instance" else "theorem")
  | .defnInfo v =>
    if (← isInstance n) then return some "instance"
    else if v.hints.isAbbrev then return some "abbrev"
    else return some "def"
  | .axiomInfo _ => return some "axiom"
  | .opaqueInfo _ => return some "opaque"
  | .inductInfo _ => return some (if isStructure env n then "structure" else "inductive")
  | _ => return none

/-- The number of leading `∀` binders of `e` (syntactic, through `mdata`). -/
partial def forallCount (e : Expr) : Nat :=
  match e with
  | .forallE _ _ body _ => forallCount body + 1
  | .mdata _ inner => forallCount inner
  | _ => 0

/-- The number of leading `fun` binders of `e` (syntactic, through `mdata`). -/
partial def lambdaCount (e : Expr) : Nat :=
  match e with
  | .lam _ _ body _ => lambdaCount body + 1
  | .mdata _ inner => lambdaCount inner
  | _ => 0

/-- Drop `n` leading `∀` binders (or `fun` binders when `lam` is set) of `e`, keeping the
body's loose bound variables as they are. -/
partial def stripBinders (lam : Bool) (e : Expr) (n : Nat) : Expr :=
  match e, n with
  | e, 0 => e
  | .mdata _ inner, n => stripBinders lam inner n
  | .forallE _ _ body _, n + 1 => if lam then e else stripBinders lam body n
  | .lam _ _ body _, n + 1 => if lam then stripBinders lam body n else e
  | e, _ => e

/-- The leading `∀` binders of `e`, at most `n`, as (name, binder info, type) with each type
under the previous binders (de Bruijn). -/
partial def leadingBinders (e : Expr) (n : Nat) (acc : Array (Name × BinderInfo × Expr)) :
    Array (Name × BinderInfo × Expr) :=
  match e, n with
  | .forallE name ty body bi, k + 1 => leadingBinders body k (acc.push (name, bi, ty))
  | .mdata _ inner, k => leadingBinders inner k acc
  | _, _ => acc

/-- Pretty-print an expression to a string. -/
def ppString (e : Expr) : MetaM String := do
  return toString (← ppExpr e)

/-- The `binders` list of a DECL: the first `n` leading binders of `type`, each with its
type as EXPR (de Bruijn, under the previous binders) and pretty-printed in context. -/
def bindersJson (type : Expr) (n : Nat) : MetaM (Array Json) := do
  let raw := leadingBinders type n #[]
  let pps ← forallBoundedTelescope type (some n) fun xs _ =>
    xs.mapM fun x => do ppString (← inferType x)
  let mut out : Array Json := #[]
  let mut i := 0
  for (name, bi, ty) in raw do
    out := out.push <| Json.mkObj [
      ("name", Json.str (nameString name)),
      ("info", Json.str (binderInfoName bi)),
      ("type", ← exprToJson ty),
      ("type_pp", Json.str (pps.getD i ""))]
    i := i + 1
  return out

/-- The source path of a module under the source directory. -/
def moduleFile (settings : ExportSettings) (module : Name) : String :=
  let parts := module.components.map nameString
  settings.srcDir ++ "/" ++ "/".intercalate parts ++ ".lean"

/-- The `range` of a DECL, or `null` when Lean recorded none. -/
def rangeJson (settings : ExportSettings) (module : Name) (n : Name) : MetaM Json := do
  match ← findDeclarationRanges? n with
  | none => return Json.null
  | some ranges =>
    let r := ranges.range
    return Json.mkObj [
      ("file", Json.str (moduleFile settings module)),
      ("line", toJson r.pos.line),
      ("column", toJson r.pos.column),
      ("end_line", toJson r.endPos.line),
      ("end_column", toJson r.endPos.column)]

/-- Whether an expression is a plain free variable (a parameter rather than a pattern). -/
def isPlainFVar (e : Expr) : Bool :=
  e.consumeMData.isFVar

/-- One equation lemma as `{"patterns", "rhs"}` plus whether it has a real pattern, or
`none` when its statement is not an equation. -/
def equationJson (eqn : Name) : MetaM (Option (Json × Bool)) := do
  let info ← getConstInfo eqn
  forallTelescope info.type fun _ body => do
    let some (_, lhs, rhs) := body.consumeMData.eq? | return none
    let fn := lhs.getAppFn
    let args := lhs.getAppArgs
    let infos ← headBinderInfos fn args.size
    let mut pats : Array Json := #[]
    let mut real := false
    let mut i := 0
    for a in args do
      if (argBinderInfo infos i).isExplicit then
        pats := pats.push (← exprToJson a)
        if !isPlainFVar a then real := true
      i := i + 1
    let json := Json.mkObj [("patterns", Json.arr pats), ("rhs", ← exprToJson rhs)]
    return some (json, real)

/-- The `equations` of a DECL: the equation lemmas of a definition by pattern matching, or
`[]` when it has none or none of them matches on a pattern. -/
def equationsJson (n : Name) : MetaM (Array Json) := do
  let some eqns ← getEqnsFor? n | return #[]
  let mut out : Array Json := #[]
  let mut anyReal := false
  for eqn in eqns do
    if let some (json, real) := (← equationJson eqn) then
      out := out.push json
      anyReal := anyReal || real
  return if anyReal then out else #[]

/-- Whether an expression mentions `sorryAx`. -/
def mentionsSorry (e : Expr) : Bool :=
  (e.find? fun sub => sub.isConstOf ``sorryAx).isSome

/-- One DECL record for the constant `n` declared in `module`, or `none` when it is skipped.
-/
def declToJson (settings : ExportSettings) (module : Name) (n : Name)
    (info : ConstantInfo) : MetaM (Option Json) := do
  if (← isSkipped settings n info) then return none
  let some kind ← declKind n info | return none
  let type := info.type
  let value? : Option Expr :=
    match info with
    | .defnInfo v => some v.value
    | _ => none
  let proofOrValue? : Option Expr :=
    match info with
    | .defnInfo v => some v.value
    | .thmInfo v => some v.value
    | .opaqueInfo v => some v.value
    | _ => none
  let nBinders :=
    match value? with
    | some v => min (forallCount type) (lambdaCount v)
    | none => forallCount type
  let binders ← bindersJson type nBinders
  let typeJson ← exprToJson (stripBinders false type nBinders)
  let isDefLike := kind == "def" || kind == "abbrev"
  let valueJson ← match value? with
    | some v => if isDefLike then exprToJson (stripBinders true v nBinders) else pure Json.null
    | none => pure Json.null
  let equations ← if isDefLike then equationsJson n else pure #[]
  let axioms ← collectAxioms n
  let doc ← findDocString? (← getEnv) n
  return some <| Json.mkObj [
    ("name", Json.str (nameString n)),
    ("kind", Json.str kind),
    ("module", Json.str (nameString module)),
    ("range", ← rangeJson settings module n),
    ("docstring", (doc.map Json.str).getD Json.null),
    ("binders", Json.arr binders),
    ("type", typeJson),
    ("type_pp", Json.str (← ppString type)),
    ("value", valueJson),
    ("equations", Json.arr equations),
    ("axioms", Json.arr (axioms.map fun a => Json.str (nameString a))),
    ("uses_sorry", Json.bool ((proofOrValue?.map mentionsSorry).getD false)),
    ("error", Json.null)]

end LeanMirror.Export
