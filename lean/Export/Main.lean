import Export

/-!
# `leanmirror-export`: command-line entry point

```
lake exe leanmirror-export [--out FILE] [--src-dir DIR] [--private] [--pretty] MODULE...
```

Writes one JSON document in the format of `docs/export-format.md` (format version 1) for the
named modules, to `FILE` or to standard output. `--src-dir` is the source directory used in
`range.file` (default `lean`, this package's `srcDir`); `--private` also exports `_private`
declarations; `--pretty` indents the JSON.

Design: the exporter is a `lean_exe` (root `Export.Main`) over a `lean_lib` `Export` whose
modules import only `Lean`, never Mathlib. The modules to export are loaded at *run time*
with `Lean.importModules` from the `.olean` files on `LEAN_PATH`, which `lake exe` sets for
this workspace; so the exporter is built once and can read any module of the workspace
(`Mirror.*`, or Mathlib's own) without being rebuilt. The work is in `Export.Run`,
`Export.Decl` and `Export.Expr`; this `main` only parses arguments and writes the output.

Exit status: `0` when the document has no `errors`, `1` when it was written with `errors`,
`2` for bad arguments (nothing written).

Status: never compiled or run (no Lean toolchain on the machine it was written on).
-/

open Lean LeanMirror.Export

/-- Parsed command-line arguments. -/
structure CliArgs where
  /-- Where to write the document (`none`: standard output). -/
  out : Option System.FilePath := none
  /-- Export settings. -/
  settings : ExportSettings := {}
  /-- Indent the JSON. -/
  pretty : Bool := false
  /-- The modules to export, in the order given. -/
  modules : Array Name := #[]

/-- The usage line. -/
def usageText : String :=
  "usage: leanmirror-export [--out FILE] [--src-dir DIR] [--private] [--pretty] MODULE..."

/-- Parse the command line; an error names the argument, what came and what was expected. -/
partial def parseArgs (args : List String) (acc : CliArgs) : Except String CliArgs :=
  match args with
  | [] => .ok acc
  | "--out" :: path :: rest => parseArgs rest { acc with out := some path }
  | ["--out"] => .error "argument --out: got nothing after it, expected a file path"
  | "--src-dir" :: dir :: rest =>
    parseArgs rest { acc with settings := { acc.settings with srcDir := dir } }
  | ["--src-dir"] => .error "argument --src-dir: got nothing after it, expected a directory"
  | "--private" :: rest =>
    parseArgs rest { acc with settings := { acc.settings with includePrivate := true } }
  | "--pretty" :: rest => parseArgs rest { acc with pretty := true }
  | arg :: rest =>
    if arg.startsWith "-" then
      .error s!"unknown option {arg}: expected --out, --src-dir, --private or --pretty"
    else
      let n := arg.toName
      if n.isAnonymous then
        .error s!"module argument {arg.quote}: expected a module name such as Mirror.Resolvent"
      else
        parseArgs rest { acc with modules := acc.modules.push n }

/-- Entry point: parse the arguments, export, write the document. -/
def main (argv : List String) : IO UInt32 := do
  match parseArgs argv {} with
  | .error msg =>
    IO.eprintln s!"leanmirror-export: {msg}\n{usageText}"
    return 2
  | .ok args =>
    if args.modules.isEmpty then
      IO.eprintln s!"leanmirror-export: no MODULE given, expected at least one\n{usageText}"
      return 2
    let result ← exportDocument args.settings args.modules
    let text := if args.pretty then result.document.pretty else result.document.compress
    match args.out with
    | some path => IO.FS.writeFile path (text ++ "\n")
    | none => IO.println text
    return if result.errorCount == 0 then 0 else 1
