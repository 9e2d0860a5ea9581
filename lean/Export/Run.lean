import Export.Decl

/-!
# Exporter: load modules at run time and build the document

See `docs/export-format.md`. `exportDocument` initialises the search path from the
toolchain's sysroot and `LEAN_PATH` (which `lake env` / `lake exe` set), checks that each
requested module has a compiled `.olean` (a missing one becomes an entry of `errors`),
imports the found modules together with `Lean.importModules`, and then, in one `MetaM` run
over that environment, turns every constant each requested module *declares* (not what it
imports) into a DECL with `declToJson`. A failure on one declaration becomes an `errors`
entry naming it; the run goes on. A failing import is reported once per module it covered.

`errors` entries are `{"module", "message", "line", "column"}`; `line` and `column` are
`null` when the failure has no source position (a missing `.olean`, an import failure, a
meta-level failure on a declaration), which is every case this exporter can see: elaboration
errors stop `lake build` before an `.olean` exists.

Status: written against the Lean 4 sources (v4.2x–v4.3x API); never compiled or run here
(no Lean toolchain on the machine it was written on).
-/

namespace LeanMirror.Export

open Lean Meta

/-- The exporter's name, as written in `meta.exporter`. -/
def exporterName : String := "leanmirror-export"

/-- The exporter's version, as written in `meta.exporter_version`. -/
def exporterVersion : String := "0.1.0"

/-- The format version this exporter writes. -/
def formatVersion : Nat := 1

/-- A problem with one requested module. -/
structure ModuleProblem where
  /-- The module the problem belongs to. -/
  module : Name
  /-- What went wrong and what was expected. -/
  message : String
  /-- 1-based line, when known. -/
  line : Option Nat := none
  /-- 0-based column, when known. -/
  column : Option Nat := none

/-- An optional number as JSON (`null` when absent). -/
def optNatJson : Option Nat → Json
  | some n => toJson n
  | none => Json.null

/-- The `errors` entry of a module error. -/
def ModuleProblem.toJson (e : ModuleProblem) : Json :=
  Json.mkObj [
    ("module", Json.str (nameString e.module)),
    ("message", Json.str e.message),
    ("line", optNatJson e.line),
    ("column", optNatJson e.column)]

/-- The document's `meta` object. -/
def metaJson (modules : Array Name) : Json :=
  Json.mkObj [
    ("exporter", Json.str exporterName),
    ("exporter_version", Json.str exporterVersion),
    ("format_version", toJson formatVersion),
    ("lean_version", Json.str Lean.versionString),
    ("lean_githash", Json.str Lean.githash),
    ("modules", Json.arr (modules.map fun m => Json.str (nameString m)))]

/-- Split the requested modules into those with a compiled `.olean` on the search path and
errors for the others. -/
def locateModules (modules : Array Name) : IO (Array Name × Array ModuleProblem) := do
  let mut found : Array Name := #[]
  let mut errors : Array ModuleProblem := #[]
  for m in modules do
    try
      let path ← findOLean m
      if (← path.pathExists) then
        found := found.push m
      else
        errors := errors.push {
          module := m
          message := s!"no compiled module at {path}: expected `lake build {m}` to have run" }
    catch e =>
      errors := errors.push {
        module := m
        message := s!"module {m} is not on the search path ({e}); expected a module of a \
          package of this workspace, run through `lake exe leanmirror-export`" }
  return (found, errors)

/-- The DECL records of every exported constant `module` declares, and an error per
declaration that could not be exported. -/
def moduleDeclarations (settings : ExportSettings) (module : Name) :
    MetaM (Array Json × Array ModuleProblem) := do
  let env ← getEnv
  let some idx := env.getModuleIdx? module
    | return (#[], #[{ module, message := s!"module {module} is not in the environment" }])
  let names := env.header.moduleData[idx]!.constNames
  let mut decls : Array Json := #[]
  let mut errors : Array ModuleProblem := #[]
  for n in names do
    let some info := env.find? n | continue
    try
      if let some decl := (← declToJson settings module n info) then
        decls := decls.push decl
    catch e =>
      errors := errors.push {
        module
        message := s!"declaration {n} could not be exported: {← e.toMessageData.toString}" }
  return (decls, errors)

/-- The result of an export run. -/
structure ExportResult where
  /-- The whole JSON document. -/
  document : Json
  /-- How many `errors` entries the document holds. -/
  errorCount : Nat

/-- Build the export document for the requested modules. -/
def exportDocument (settings : ExportSettings) (modules : Array Name) :
    IO ExportResult := do
  initSearchPath (← findSysroot)
  let (found, missing) ← locateModules modules
  let mut errors := missing
  let mut decls : Array Json := #[]
  unless found.isEmpty do
    try
      -- needed for modules that register syntax or extensions through `initialize`
      unsafe enableInitializersExecution
      let imports := found.map fun m => ({ module := m } : Import)
      let env ← importModules imports {} (loadExts := true)
      let ctx : Core.Context := {
        fileName := "<leanmirror-export>"
        fileMap := default
        maxHeartbeats := 0
        options := {} }
      let run : MetaM (Array Json × Array ModuleProblem) := do
        let mut ds : Array Json := #[]
        let mut es : Array ModuleProblem := #[]
        for m in found do
          let (d, e) ← moduleDeclarations settings m
          ds := ds ++ d
          es := es ++ e
        return (ds, es)
      let ((ds, es), _, _) ← run.toIO ctx { env }
      decls := ds
      errors := errors ++ es
    catch e =>
      errors := errors ++ found.map fun m =>
        ({ module := m, message := s!"loading or exporting {found.toList} failed: {e}" } :
          ModuleProblem)
  let document := Json.mkObj [
    ("meta", metaJson modules),
    ("declarations", Json.arr decls),
    ("errors", Json.arr (errors.map ModuleProblem.toJson))]
  return { document, errorCount := errors.size }

end LeanMirror.Export
