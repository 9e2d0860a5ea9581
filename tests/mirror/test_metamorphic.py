"""Metamorphic soundness: generated Lean statements through scanner → translator → planner →
codegen → checks.

Two rules hold whatever the statement: ``P`` and ``¬P`` are never both ``tested``/``symbolic``,
and a statement and a copy whose left side is a definition (unfolded by the translator) are
never one ``refuted`` and the other ``tested``/``symbolic``. No exception escapes the pipeline;
constructs it does not know are ``untranslatable``/``unbound``, never ``error``.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from bridge.declaration import Extraction
from bridge.scanner import scan_file
from mirror.product.pipeline import CheckSettings, build_mirrors, check_mirror

PROVED_OR_TESTED = {"tested", "certified", "symbolic"}
CHECK = CheckSettings(max_examples=12, sweep=32, statement_timeout=60)

REAL_ATOMS = ["x", "y", "(n : ℝ)", "0", "1", "2", "(1 / 2 : ℝ)", "(10 ^ 20 : ℝ)", "π"]
NAT_ATOMS = ["n", "m", "0", "1", "3"]
UNSUPPORTED = ["Real.Gamma x", "mysteryFn x", "(Classical.choice ⟨x⟩ : ℝ)"]


def _real_terms() -> st.SearchStrategy[str]:
    atoms = st.sampled_from(REAL_ATOMS)

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.tuples(inner, st.sampled_from(["+", "-", "*", "/"]), inner).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})")
        unary = st.tuples(st.sampled_from(["Real.exp", "Real.log", "Real.sqrt", "Real.sin",
                                            "Real.cos", "Real.tan", "Real.arctan", "-"]),
                          inner).map(lambda t: f"{t[0]} ({t[1]})")
        power = st.tuples(inner, st.integers(0, 3)).map(lambda t: f"({t[0]}) ^ {t[1]}")
        minmax = st.tuples(st.sampled_from(["max", "min"]), inner, inner).map(
            lambda t: f"{t[0]} ({t[1]}) ({t[2]})")
        cast = st.tuples(st.sampled_from(NAT_ATOMS), st.sampled_from(["-", "+", "/", "%"]),
                         st.sampled_from(NAT_ATOMS)).map(
            lambda t: f"(({t[0]} {t[1]} {t[2]} : ℕ) : ℝ)")
        return st.one_of(binary, unary, power, minmax, cast, st.sampled_from(UNSUPPORTED))

    return st.recursive(atoms, extend, max_leaves=5)


@st.composite
def statements(draw) -> tuple[str, str, str]:
    """``(lhs, relation, rhs)`` of a closed-over-binders statement."""
    return (draw(_real_terms()), draw(st.sampled_from(["=", "≤", "<", "≠"])),
            draw(_real_terms()))


BINDERS = "(x y : ℝ) (n m : ℕ)"


def _source(lhs: str, rel: str, rhs: str) -> str:
    prop = f"{lhs} {rel} {rhs}"
    return (
        "import Mathlib\n\nopen Real\n\nnamespace Meta\n\n"
        f"/-- The left side. -/\nnoncomputable def lhs {BINDERS} : ℝ := {lhs}\n\n"
        f"theorem p {BINDERS} : {prop} := by\n  sorry\n\n"
        f"theorem not_p {BINDERS} : ¬ ({prop}) := by\n  sorry\n\n"
        f"theorem p_unfolded {BINDERS} : lhs x y n m {rel} {rhs} := by\n  sorry\n\n"
        "end Meta\n"
    )


def _verdicts(text: str) -> dict[str, str]:
    declarations, _ = scan_file("Meta.lean", "Meta", text=text)
    mirrors = build_mirrors(Extraction(declarations=declarations), statement_timeout=60)
    return {m.name.rsplit(".", 1)[-1]: check_mirror(m, CHECK) for m in mirrors}


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(statements())
def test_a_statement_and_its_negation_are_never_both_tested(statement):
    text = _source(*statement)
    rows = _verdicts(text)
    assert set(rows) == {"p", "not_p", "p_unfolded"}, text
    statuses = {name: row.mirror_status for name, row in rows.items()}
    errors = {name: row.reason for name, row in rows.items() if row.mirror_status == "error"}
    assert errors == {}, text
    assert not {statuses["p"], statuses["not_p"]} <= PROVED_OR_TESTED, (text, statuses)
    pair = {statuses["p"], statuses["p_unfolded"]}
    assert not ("refuted" in pair and pair & PROVED_OR_TESTED), (text, statuses,
                                                                 rows["p"].counterexample,
                                                                 rows["p_unfolded"].counterexample)
