import Lean

/-!
# Exporter: `Lean.Expr` to the EXPR JSON of format version 1

See `docs/export-format.md`. Binders stay de Bruijn indices (`{"bvar": n}`); `mdata` is
stripped; an application is one flattened spine whose arguments carry the binder info of
the parameter they fill (`"bi"`), so the reader can drop implicit and instance arguments.

Binder infos of an application are read by walking the *type of the head constant*
(`paramBinderInfos`): this needs no local context, so it works under loose bound variables.
Heads that are not constants (a bound variable, a lambda, a projection) get `"default"` for
every argument, and so do arguments beyond the constant type's syntactic `∀` binders.

Status: written against the Lean 4 sources (v4.2x–v4.3x API); never compiled or run here
(no Lean toolchain on the machine it was written on).
-/

namespace LeanMirror.Export

open Lean Meta

/-- The format's spelling of a binder info. -/
def binderInfoName : BinderInfo → String
  | .default => "default"
  | .implicit => "implicit"
  | .strictImplicit => "strictImplicit"
  | .instImplicit => "instImplicit"

/-- A name as the format writes it: macro scopes erased, no `«»` escaping. -/
def nameString (n : Name) : String :=
  n.eraseMacroScopes.toString (escape := false)

/-- Walk the `∀` spine of `type`, appending to `acc` the binder infos of at most `n` more
binders (`mdata` is looked through). -/
partial def collectBinderInfos (type : Expr) (n : Nat) (acc : Array BinderInfo) :
    Array BinderInfo :=
  match type, n with
  | .forallE _ _ body bi, k + 1 => collectBinderInfos body k (acc.push bi)
  | .mdata _ inner, k => collectBinderInfos inner k acc
  | _, _ => acc

/-- The binder infos of the first `n` leading `∀` binders of `type` (fewer when the type has
fewer syntactic binders). -/
def paramBinderInfos (type : Expr) (n : Nat) : Array BinderInfo :=
  collectBinderInfos type n #[]

/-- The binder info of argument `i` of an application whose head has parameter infos
`infos`; `default` past the known parameters. -/
def argBinderInfo (infos : Array BinderInfo) (i : Nat) : BinderInfo :=
  infos.getD i .default

/-- The parameter binder infos of an application head applied to `nargs` arguments:
walked from the constant's type when the head is a constant, empty otherwise. -/
def headBinderInfos (fn : Expr) (nargs : Nat) : MetaM (Array BinderInfo) := do
  let .const n _ := fn | return #[]
  let some info := (← getEnv).find? n | return #[]
  return paramBinderInfos info.type nargs

/-- The user name of a free variable, or its internal id when it is not in the local
context. -/
def fvarName (id : FVarId) : MetaM String := do
  match (← getLCtx).find? id with
  | some decl => return nameString decl.userName
  | none => return nameString id.name

/-- Convert an expression to the format's EXPR. Metavariables are refused (they never occur
in exported declarations); `mdata` is stripped. -/
partial def exprToJson (e : Expr) : MetaM Json := do
  match e with
  | .bvar i => return Json.mkObj [("bvar", toJson i)]
  | .fvar id => return Json.mkObj [("fvar", Json.str (← fvarName id))]
  | .mvar id =>
    throwError "leanmirror-export: metavariable {id.name} in an exported term; \
      expected a closed, fully elaborated term"
  | .sort l => return Json.mkObj [("sort", Json.str (toString l))]
  | .const n ls =>
    return Json.mkObj [
      ("const", Json.str (nameString n)),
      ("levels", Json.arr (ls.toArray.map fun l => Json.str (toString l)))]
  | .app .. =>
    let fn := e.getAppFn
    let args := e.getAppArgs
    let infos ← headBinderInfos fn args.size
    let mut out : Array Json := #[]
    let mut i := 0
    for a in args do
      out := out.push <| Json.mkObj [
        ("e", ← exprToJson a),
        ("bi", Json.str (binderInfoName (argBinderInfo infos i)))]
      i := i + 1
    return Json.mkObj [("app", ← exprToJson fn), ("args", Json.arr out)]
  | .lam n ty body bi =>
    return Json.mkObj [
      ("lam", Json.mkObj [
        ("name", Json.str (nameString n)),
        ("bi", Json.str (binderInfoName bi)),
        ("type", ← exprToJson ty)]),
      ("body", ← exprToJson body)]
  | .forallE n ty body bi =>
    return Json.mkObj [
      ("forall", Json.mkObj [
        ("name", Json.str (nameString n)),
        ("bi", Json.str (binderInfoName bi)),
        ("type", ← exprToJson ty)]),
      ("body", ← exprToJson body)]
  | .letE n ty val body _ =>
    return Json.mkObj [
      ("let", Json.mkObj [
        ("name", Json.str (nameString n)),
        ("type", ← exprToJson ty),
        ("value", ← exprToJson val)]),
      ("body", ← exprToJson body)]
  | .lit (.natVal n) => return Json.mkObj [("lit", Json.mkObj [("nat", toJson n)])]
  | .lit (.strVal s) => return Json.mkObj [("lit", Json.mkObj [("str", Json.str s)])]
  | .mdata _ inner => exprToJson inner
  | .proj s i inner =>
    return Json.mkObj [
      ("proj", Json.mkObj [
        ("struct", Json.str (nameString s)),
        ("idx", toJson i),
        ("e", ← exprToJson inner)])]

end LeanMirror.Export
