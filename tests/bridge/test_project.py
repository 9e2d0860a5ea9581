"""Reading Lake projects: lakefile.toml, lakefile.lean, manifests, toolchains, sources."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bridge.errors import ProjectError
from bridge.project import module_name, read_manifest, read_project

from .conftest import PROJECTS


def test_toml_project(new_project: Path) -> None:
    project = read_project(new_project)
    assert project.name == "newsyntax"
    assert project.toolchain == "leanprover/lean4:v4.15.0"
    assert [lib.name for lib in project.libs] == ["NewSyn"]
    assert project.libs[0].src_dir == "Lean"
    assert project.requires[0].name == "mathlib" and project.requires[0].scope == "leanprover-community"
    assert project.manifest is not None and project.manifest.version == "1.1.0"
    assert project.mathlib_rev == "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"
    batteries = project.manifest.package("batteries")
    assert batteries is not None and batteries.inherited and batteries.input_rev == "main"
    modules = [s.module for s in project.source_files()]
    assert modules == ["NewSyn", "NewSyn.Basic", "NewSyn.Broken"]


def test_lean_lakefile_project(old_project: Path) -> None:
    project = read_project(old_project)
    assert project.name == "oldsyntax"
    assert project.libs[0].name == "OldSyn" and project.libs[0].roots == ("OldSyn",)
    req = project.requires[0]
    assert req.name == "mathlib"
    assert req.git == "https://github.com/leanprover-community/mathlib4.git"
    assert req.rev == "v4.3.0"
    assert project.manifest is not None and project.manifest.version == 7
    assert project.mathlib_rev == "00c6a8a5f1e7b1d1e4f3c2b1a09f8e7d6c5b4a39"
    assert [s.module for s in project.source_files()] == ["OldSyn", "OldSyn.Sums"]


def test_lakefile_lean_new_require_and_srcdir(tmp_path: Path) -> None:
    (tmp_path / "lakefile.lean").write_text(
        'import Lake\nopen Lake DSL\n\npackage demo where\n  srcDir := "src"\n\n'
        'require "leanprover-community" / "mathlib" @ git "v4.20.0"\n\n'
        "lean_lib Demo where\n  roots := #[`Demo.Main]\n\nlean_exe tool where\n  root := `Main\n",
        encoding="utf-8",
    )
    (tmp_path / "src" / "Demo").mkdir(parents=True)
    (tmp_path / "src" / "Demo" / "Main.lean").write_text("theorem t : True := trivial\n", encoding="utf-8")
    project = read_project(tmp_path)
    assert project.src_dir == "src"
    assert project.requires[0].scope == "leanprover-community"
    assert project.requires[0].name == "mathlib" and project.requires[0].rev == "v4.20.0"
    assert project.exes == ["tool"]
    assert [s.module for s in project.source_files()] == ["Demo.Main"]
    assert project.toolchain is None and project.manifest is None


@pytest.mark.parametrize("version", [4, 5])
def test_manifest_versions_4_and_5(tmp_path: Path, version: int) -> None:
    # version 4 (Lake, mid-2023; e.g. kokic/ineq) has version 5's layout
    file = tmp_path / "lake-manifest.json"
    file.write_text(
        json.dumps(
            {
                "version": version,
                "packagesDir": "lake-packages",
                "packages": [
                    {"git": {"url": "https://github.com/leanprover-community/mathlib4.git",
                             "subDir?": None, "rev": "deadbeef", "name": "mathlib",
                             "inputRev?": "master"}},
                    {"path": {"name": "local", "dir": "./local"}},
                ],
            }
        ),
        encoding="utf-8",
    )
    manifest = read_manifest(file)
    assert manifest is not None and manifest.version == version
    mathlib = manifest.package("mathlib")
    assert mathlib is not None and mathlib.rev == "deadbeef" and mathlib.input_rev == "master"
    local = manifest.package("local")
    assert local is not None and local.type == "path" and local.path == "./local"


@pytest.mark.parametrize("version", [3, 9, "2.0.0", True, None])
def test_manifest_bad_version(tmp_path: Path, version: object) -> None:
    file = tmp_path / "lake-manifest.json"
    file.write_text(json.dumps({"version": version, "packages": []}), encoding="utf-8")
    with pytest.raises(ProjectError, match="version"):
        read_manifest(file)


def test_missing_and_malformed(tmp_path: Path) -> None:
    with pytest.raises(ProjectError, match="expected a directory"):
        read_project(tmp_path / "nope")
    with pytest.raises(ProjectError, match="lakefile.toml or lakefile.lean"):
        read_project(tmp_path)
    (tmp_path / "lakefile.toml").write_text("name = [unclosed", encoding="utf-8")
    with pytest.raises(ProjectError, match="lakefile.toml"):
        read_project(tmp_path)
    (tmp_path / "lakefile.toml").write_text('name = "x"\n', encoding="utf-8")
    (tmp_path / "lake-manifest.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ProjectError, match="lake-manifest.json"):
        read_project(tmp_path)


def test_module_name() -> None:
    assert module_name(Path("lean/Mirror/Resolvent.lean"), Path("lean")) == "Mirror.Resolvent"


def test_fixture_projects_exist() -> None:
    assert (PROJECTS / "newsyntax" / "lakefile.toml").is_file()
    assert (PROJECTS / "oldsyntax" / "lakefile.lean").is_file()
