"""The Pratt parser: every supported construct → the normalized AST of bridge/term.py."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bridge import term as T
from bridge.parser import LeanParseError, parse_term
from bridge.term import App, Binder, Const, Lam, Lit, Pi, Var, app

L = ("x", "y", "s", "f", "g", "n", "a", "b", "c", "p", "q", "r", "A", "v", "h")


def P(text: str) -> T.Term:
    return parse_term(text, locals=L)


x, y, s, f, g, n, a, b, c = (Var(k) for k in "x y s f g n a b c".split())
p, q, r = Var("p"), Var("q"), Var("r")


def lam(name: str, body: T.Term, ty: T.Term | None = None) -> Lam:
    return Lam((Binder(name, ty),), body)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a + b * c", app("HAdd.hAdd", a, app("HMul.hMul", b, c))),
        ("a - b - c", app("HSub.hSub", app("HSub.hSub", a, b), c)),
        ("a ^ b ^ c", app("HPow.hPow", a, app("HPow.hPow", b, c))),
        ("-x ^ 2", app("Neg.neg", app("HPow.hPow", x, Lit(2)))),
        ("-x * y", app("HMul.hMul", app("Neg.neg", x), y)),
        ("f x y + 1", app("HAdd.hAdd", App(f, (x, y)), Lit(1))),
        ("a = b ∧ b = c ∧ p", app("And", app("Eq", a, b), app("And", app("Eq", b, c), p))),
        ("p ∨ q ∨ r", app("Or", p, app("Or", q, r))),
        ("p ∧ q ∨ r", app("Or", app("And", p, q), r)),
        ("p ↔ q ∧ r", app("Iff", p, app("And", q, r))),
        ("p → q → r", Pi((Binder("_", p),), Pi((Binder("_", q),), r))),
        ("¬ a = b", app("Not", app("Eq", a, b))),
        ("¬p ∧ q", app("And", app("Not", p), q)),
        ("a ≠ b", app("Ne", a, b)),
        ("a ≤ b", app("LE.le", a, b)),
        ("a ≥ b", app("GE.ge", a, b)),
        ("a > b", app("GT.gt", a, b)),
        ("x ∈ s", app("Membership.mem", s, x)),
        ("x ∉ s", app("Not", app("Membership.mem", s, x))),
        ("a • b", app("HSMul.hSMul", a, b)),
        ("f ∘ g", app("Function.comp", f, g)),
        ("a ∣ b", app("Dvd.dvd", a, b)),
        ("a % b", app("HMod.hMod", a, b)),
        ("|x|", app("abs", x)),
        ("‖x‖", app("Norm.norm", x)),
        ("|x - y| ≤ |x| + |y|", app("LE.le", app("abs", app("HSub.hSub", x, y)),
                                    app("HAdd.hAdd", app("abs", x), app("abs", y)))),
        ("x⁻¹", app("Inv.inv", x)),
        ("Aᵀ", app("Matrix.transpose", Var("A"))),
        ("(x : ℝ)", T.Typed(x, Const("Real"))),
        ("↑x", T.Coe(x)),
        ("(↑n : ℝ)", T.Typed(T.Coe(n), Const("Real"))),
        ("⟨a, b⟩", T.Anon((a, b))),
        ("x.val", T.Proj(x, "val")),
        ("x.1 + x.2", app("HAdd.hAdd", T.Proj(x, 1), T.Proj(x, 2))),
        ("(f x).val", T.Proj(App(f, (x,)), "val")),
        ("ℕ → ℤ", Pi((Binder("_", Const("Nat")),), Const("Int"))),
        ("ℚ × ℝ × ℂ", app("Prod", Const("Rat"), app("Prod", Const("Real"), Const("Complex")))),
        ("Prop", T.Sort(0)),
        ("Type", T.Sort(1)),
        ("Sort u", T.Sort("u")),
        ("Type u", T.Sort("u+1")),
        ("Type*", T.Sort("u_1+1")),
        ("0.5", Lit(Fraction(1, 2))),
        ("1e-3", Lit(Fraction(1, 1000))),
        ("37", Lit(37)),
        ("Real.exp x", App(Const("Real.exp"), (x,))),
        ("fun z => z + 1", lam("z", app("HAdd.hAdd", Var("z"), Lit(1)))),
        ("fun (z : ℝ) ↦ z", lam("z", Var("z"), Const("Real"))),
        ("λ z => z", lam("z", Var("z"))),
        ("fun z w => w", Lam((Binder("z", None), Binder("w", None)), Var("w"))),
        ("∀ z, p", Pi((Binder("z", None),), p)),
        ("∀ (z : ℕ) (w : Fin z), p",
         Pi((Binder("z", Const("Nat")), Binder("w", App(Const("Fin"), (Var("z"),)))), p)),
        ("∀ z ∈ s, 0 ≤ z", Pi((Binder("z", None),),
                             Pi((Binder("_", app("Membership.mem", s, Var("z"))),),
                                app("LE.le", Lit(0), Var("z"))))),
        ("∀ z < n, p", Pi((Binder("z", None),), Pi((Binder("_", app("LT.lt", Var("z"), n)),), p))),
        ("∃ z, p", app("Exists", lam("z", p))),
        ("∃ z ∈ s, p", app("Exists", lam("z", app("And", app("Membership.mem", s, Var("z")), p)))),
        ("∑ i ∈ s, f i", app("Finset.sum", s, lam("i", App(f, (Var("i"),))))),
        ("∑ i : Fin n, f i", app("Finset.sum", Const("Finset.univ"),
                                 lam("i", App(f, (Var("i"),)), App(Const("Fin"), (n,))))),
        ("∑ i, f i", app("Finset.sum", Const("Finset.univ"), lam("i", App(f, (Var("i"),))))),
        ("∏ i ∈ s, f i", app("Finset.prod", s, lam("i", App(f, (Var("i"),))))),
        ("∑ i ∈ s, f i + 1", app("HAdd.hAdd", app("Finset.sum", s, lam("i", App(f, (Var("i"),)))), Lit(1))),
        ("∑ i ∈ s, f i * g i",
         app("Finset.sum", s, lam("i", app("HMul.hMul", App(f, (Var("i"),)), App(g, (Var("i"),)))))),
        ("if p then a else b", app("ite", p, a, b)),
        ("if hp : p then a else b",
         app("dite", p, Lam((Binder("hp", p),), a), Lam((Binder("hp", app("Not", p)),), b))),
        ("let z := x + 1; z * z",
         T.Let("z", None, app("HAdd.hAdd", x, Lit(1)), app("HMul.hMul", Var("z"), Var("z")))),
        ("let z := x\nz", T.Let("z", None, x, Var("z"))),
        ("(· + 1)", Lam((Binder("x1✝", None),), app("HAdd.hAdd", Var("x1✝"), Lit(1)))),
        ("{z | 0 < z}", app("setOf", lam("z", app("LT.lt", Lit(0), Var("z"))))),
        ("Finset.sum s fun i => f i", app("Finset.sum", s, lam("i", App(f, (Var("i"),))))),
        ("f <| g x", App(f, (App(g, (x,)),))),
        ("foo.bar x", App(Const("foo.bar"), (x,))),
    ],
)
def test_constructs(text: str, expected: T.Term) -> None:
    assert P(text) == expected


def test_both_sum_syntaxes_agree() -> None:
    assert P("∑ i in Finset.range n, f i") == P("∑ i ∈ Finset.range n, f i")
    assert P("∏ i in s, f i") == P("∏ i ∈ s, f i")


def test_maps_to_and_arrow_agree() -> None:
    assert P("fun z ↦ z + 1") == P("fun z => z + 1") == P("λ z => z + 1")


def test_locals_and_consts() -> None:
    term = parse_term("f x + c", locals=("x",))
    assert term == app("HAdd.hAdd", App(Const("f"), (Var("x"),)), Const("c"))
    assert T.free_vars(parse_term("∀ z, z = w", locals=("w",))) == {"w"}


def test_resolve_callback_only_touches_written_names() -> None:
    term = parse_term("exp x + 1", locals=("x",), resolve=lambda name: "Real." + name)
    assert term == app("HAdd.hAdd", App(Const("Real.exp"), (Var("x"),)), Lit(1))


def test_fun_anonymous_constructor_is_hole() -> None:
    term = P("fun ⟨u, w⟩ => u")
    assert isinstance(term, Lam) and isinstance(term.body, T.Hole)


@pytest.mark.parametrize(
    "text, line, column",
    [("a + ", 1, 4), ("(a + b", 1, 7), ("f x =\n  )", 2, 3), ("", 1, 1), ("∀ x, ", 1, 5)],
)
def test_errors_are_located(text: str, line: int, column: int) -> None:
    with pytest.raises(LeanParseError) as info:
        parse_term(text)
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert err.expected
    assert isinstance(err, ValueError)


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    with pytest.raises(LeanParseError, match="nested too deeply"):
        parse_term("(" * 500 + "x" + ")" * 500)
