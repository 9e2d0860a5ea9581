"""Configuration that validates, and ``leanmirror init`` that writes only comments.

Each bad domain is a one-line error naming the binding, the key and the fix; a domain naming a
parameter the Lean definition does not have is an error, not silently ignored.
"""

from __future__ import annotations

import tomllib

import pytest

from bridge.declaration import Declaration, Extraction
from mirror.bind.config import ConfigError, parse_domain, read_config
from mirror.bind.onboarding import init_section, write_init
from tests.product.test_bindings_config import make_project, registry_of


@pytest.mark.parametrize("text, expected", [
    ("> nan", "a bound must be a finite number"),
    (">= inf", "a bound must be a finite number"),
    ("< -inf", "a bound must be a finite number"),
    ("> 1, < 0", "which no number satisfies"),
    ("> 1, < 1", "which no number satisfies"),
    ("> 0, > 1", "at most one lower and one upper"),
    ("", "expected a bound"),
    ("positive", "expected bounds such as"),
])
def test_a_bad_domain_is_one_line_naming_the_binding_and_key(tmp_path, text, expected):
    project = make_project(tmp_path / "p", f'"Cfg.relu" = {{ impl = "PKG.ops:relu", domain = '
                           f'{{ x = "{text}" }} }}\n', package="cfgdom")
    with pytest.raises(ConfigError) as info:
        read_config(project)
    message = str(info.value)
    assert message.startswith("binding Cfg.relu (") and "domain x" in message
    assert expected in message and "\n" not in message


def test_a_closed_point_domain_is_accepted():
    assert parse_domain(">= 1, <= 1", "w") == {"lo": 1.0, "strict": False, "hi": 1.0,
                                               "hi_strict": False}


def test_a_domain_naming_no_parameter_of_the_definition_is_an_error(tmp_path):
    project = make_project(tmp_path / "p", '"Cfg.relu" = { impl = "PKG.ops:relu", domain = '
                           '{ y = "> 0" } }\n', package="cfgdom2")
    message = registry_of(project).errors["Cfg.relu"]
    assert message == (f"binding Cfg.relu ({project / 'pyproject.toml'}): domain names 'y', "
                       "which is not an explicit parameter of Cfg.relu (x); fix domain")


def _extraction(*names: str) -> Extraction:
    from bridge.term import Const

    return Extraction([Declaration(name, "def", "P", value=Const("Nat.zero")) for name in names])


@pytest.mark.parametrize("name", ["P.«bad\nname»", 'P.«quo"te»', "P.«back\\slash»",
                                  "P.«x\n[tool.leanmirror]\nmodules = [\"evil\"]»",
                                  "P.«\x07bell»"])
def test_init_writes_only_comments_whatever_the_lean_names_are(tmp_path, name):
    (tmp_path / "lakefile.toml").write_text('name = "p"\n', encoding="utf-8")
    section = init_section(_extraction("P.good", name))
    parsed = tomllib.loads(section)
    assert parsed == {"tool": {"leanmirror": {"python-path": ["."], "bindings": {}}}}
    path = write_init(tmp_path, _extraction("P.good", name))
    assert tomllib.loads(path.read_text(encoding="utf-8"))["tool"]["leanmirror"]["bindings"] == {}
    for line in section.splitlines():  # every line is a comment, blank, or the two headers
        assert (not line.strip() or line.startswith("#") or line in (
            "[tool.leanmirror]", "[tool.leanmirror.bindings]")
            or line.startswith('python-path = ["."]'))


def test_an_uncommented_init_line_is_a_binding_of_exactly_that_name(tmp_path):
    name = 'P.«quo"te»'
    section = init_section(_extraction(name))
    line = next(l for l in section.splitlines() if l.startswith("# \"P."))
    live = tomllib.loads("[b]\n" + line[2:])
    assert list(live["b"]) == [name]


def test_atol_is_a_positive_number_of_a_binding(tmp_path):
    project = make_project(tmp_path / "p", '"Cfg.relu" = { impl = "PKG.ops:relu", atol = 1e-12 }\n',
                           package="cfgatol")
    spec = read_config(project).bindings[0]
    assert spec.profile.atol == 1e-12
    bad = make_project(tmp_path / "q", '"Cfg.relu" = { impl = "PKG.ops:relu", atol = -1 }\n',
                       package="cfgatol2")
    with pytest.raises(ConfigError, match="atol"):
        read_config(bad)


def test_atol_passes_a_kernel_within_it_and_only_then():
    import numpy as np

    from mirror.judge.accuracy import _within_atol

    assert _within_atol(np.array([0.0]), [-1.27e-16], 1e-12)
    assert not _within_atol(np.array([1e-9]), [0.0], 1e-12)
    assert not _within_atol(np.array([np.nan]), [0.0], 1e-12)
    assert not _within_atol(np.array([0.0]), [0.0], None)
