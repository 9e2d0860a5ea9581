"""The ball runtime's operations (``mirror.evaluate.ball_runtime``, ``mirror.evaluate.balls``)
against independent references: exact fractions, mpmath at 60 digits, hand-computed matrices.

A ball result is checked to *contain* the reference and to be narrow; an exact result to be
exactly the reference; an undecided guard to mark the runtime undecided with its reason.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from flint import acb, arb, fmpq

from mirror.evaluate import balls
from mirror.evaluate.ball_runtime import EXACT_POWER_BITS, BallRuntime, _ball_unary
from mirror.evaluate.batch import UNARY_FUNCTIONS
from mirror.evaluate.balls import working_precision


@pytest.fixture(autouse=True)
def _sixty_digits():
    """Every mpmath reference of this module at 60 digits."""
    with mpmath.workdps(60):
        yield


def _rt() -> BallRuntime:
    return BallRuntime(8)


def _obj(*values) -> np.ndarray:
    return np.array(values, dtype=object)


def _one(rt, method, *args):
    return getattr(rt, method)(*(_obj(a) for a in args)).reshape(-1)[0]


def _encloses(value, reference, tight: float = 1e-12) -> bool:
    """``value`` (a ball or an exact number) contains ``reference`` (an mpmath number) and is
    narrower than ``tight``."""
    with mpmath.workdps(60):
        if isinstance(value, (int, fmpq)):
            exact = Fraction(int(value.p), int(value.q)) if isinstance(value, fmpq) else value
            return abs(mpmath.mpf(exact.numerator) / exact.denominator - reference) < 1e-40
        b = arb(value) if not isinstance(value, arb) else value
        mid, rad = mpmath.mpf(b.mid().str(40, radius=False)), mpmath.mpf(b.rad().str(5, radius=False))
        return abs(mid - reference) <= rad + mpmath.mpf(10) ** -35 and rad < tight


MP_UNARY = {"exp": mpmath.exp, "sin": mpmath.sin, "cos": mpmath.cos, "tan": mpmath.tan,
            "tanh": mpmath.tanh, "sinh": mpmath.sinh, "cosh": mpmath.cosh,
            "arctan": mpmath.atan, "log_pos": mpmath.log, "sqrt_pos": mpmath.sqrt}


@pytest.mark.parametrize("name", sorted(UNARY_FUNCTIONS))
def test_each_unary_method_the_factory_makes_encloses_mpmath(name):
    numpy_name, mpmath_name = UNARY_FUNCTIONS[name]
    made = _ball_unary(name, numpy_name, mpmath_name)  # the factory itself, not its import
    rt = _rt()
    for x in (fmpq(1, 3), fmpq(5, 2), arb(0.75)):
        value = made(rt, _obj(x)).reshape(-1)[0]
        exact = mpmath.mpf(int(x.p)) / int(x.q) if isinstance(x, fmpq) else mpmath.mpf(0.75)
        reference = MP_UNARY[name](exact)
        assert _encloses(value, reference), (name, x, value)
        installed = getattr(rt, name)(_obj(x)).reshape(-1)[0]
        assert _encloses(installed, reference)


@pytest.mark.parametrize("name, value", [
    ("sin", 0), ("tan", 0), ("sinh", 0), ("tanh", 0), ("arctan", 0),
    ("exp", 1), ("cos", 1), ("cosh", 1),
])
def test_unary_functions_at_exact_zero_are_exact(name, value):
    numpy_name, mpmath_name = UNARY_FUNCTIONS[name]
    made = _ball_unary(name, numpy_name, mpmath_name)
    for zero in (0, fmpq(0)):
        out = made(_rt(), _obj(zero)).reshape(-1)[0]
        assert isinstance(out, int) and out == value, (name, out)
    # at an exact 1 the functions are not trivial
    one = made(_rt(), _obj(fmpq(1))).reshape(-1)[0]
    assert isinstance(one, arb)


def test_log_of_a_negative_ball_is_the_log_of_its_absolute_value():
    rt = _rt()
    assert _encloses(_one(rt, "log", arb(-2.5)), mpmath.log(2.5))
    assert _encloses(_one(rt, "log", fmpq(-1, 3)), mpmath.log(mpmath.mpf(1) / 3))
    assert _one(rt, "log", arb(0)) == 0  # a ball of radius 0 at 0 is exactly 0
    assert not rt.undecided


def test_sqrt_div_and_power_references():
    rt = _rt()
    assert _one(rt, "sqrt", arb(-0.5)) == 0
    assert _encloses(_one(rt, "sqrt", fmpq(2)), mpmath.sqrt(2))
    assert _one(rt, "div", fmpq(1, 3), fmpq(-2, 5)) == fmpq(-5, 6)
    assert _encloses(_one(rt, "div", arb(1), fmpq(3)), mpmath.mpf(1) / 3)
    q = _one(rt, "div", acb(1, 3), acb(2, 0))  # (1 + 3i) / 2, a complex ball of a real
    assert isinstance(q, acb) and q.real.contains(fmpq(1, 2)) and q.imag.contains(fmpq(3, 2))
    assert _one(rt, "reciprocal", fmpq(4)) == fmpq(1, 4)
    assert _one(rt, "reciprocal", 0) == 0
    assert _one(rt, "power", fmpq(2, 3), 3) == fmpq(8, 27)
    assert _one(rt, "power", fmpq(-2), -3) == fmpq(-1, 8)
    assert _one(rt, "power", 3, 0) == 1 and _one(rt, "power", 0, 0) == 1
    assert _encloses(_one(rt, "power", arb(1.5), 3), mpmath.mpf(1.5) ** 3)
    assert _encloses(_one(rt, "power", arb(2), -2), mpmath.mpf(0.25))
    assert not rt.undecided


def test_an_exact_power_beyond_the_bit_bound_is_a_ball_that_contains_it():
    rt = _rt()
    n = EXACT_POWER_BITS // 2 + 1  # 3/2 has 2-bit numerator: 2·n bits > the bound
    with working_precision(128):
        big = _one(rt, "power", fmpq(3, 2), n)
        assert isinstance(big, arb) and big.contains(arb(fmpq(3, 2)) ** n)
        small = _one(rt, "power", fmpq(3, 2), EXACT_POWER_BITS // 2)
        assert isinstance(small, fmpq)
        assert isinstance(_one(rt, "rpow", fmpq(3, 2), fmpq(n)), arb)
        assert isinstance(_one(rt, "rpow", fmpq(3, 2), fmpq(EXACT_POWER_BITS // 2)), fmpq)


def _rpow_reference(x: Fraction, y: Fraction):
    xm, ym = mpmath.mpf(x.numerator) / x.denominator, mpmath.mpf(y.numerator) / y.denominator
    if y == 0:
        return mpmath.mpf(1)
    if x == 0:
        return mpmath.mpf(0)
    magnitude = mpmath.exp(mpmath.log(abs(xm)) * ym)
    return magnitude if x > 0 else magnitude * mpmath.cos(ym * mpmath.pi)


@pytest.mark.parametrize("x", [Fraction(-8), Fraction(-3, 2), Fraction(0), Fraction(2, 7),
                               Fraction(5)])
@pytest.mark.parametrize("y", [Fraction(-2), Fraction(-1, 3), Fraction(0), Fraction(1, 2),
                               Fraction(3)])
def test_rpow_matches_mathlib_on_every_sign(x, y):
    rt = _rt()
    with working_precision(200):
        value = _one(rt, "rpow", fmpq(x.numerator, x.denominator),
                     fmpq(y.numerator, y.denominator))
        with mpmath.workdps(60):
            reference = _rpow_reference(x, y)
        if isinstance(value, arb) and reference == 0:
            assert value.contains(0) and value.rad() < 1e-40
        else:
            assert _encloses(value, reference, 1e-40), (x, y, value)
    assert not rt.undecided
    if y.denominator == 1 and x != 0:
        assert value == fmpq(x.numerator, x.denominator) ** int(y)  # exact


def test_rpow_of_balls_and_undecided_exponent_of_zero():
    rt = _rt()
    assert _encloses(_one(rt, "rpow", arb(2), arb(0.5)), mpmath.sqrt(2))
    assert _one(rt, "rpow", arb(-2), 0) == 1
    assert not rt.undecided
    _one(rt, "rpow", 0, arb(0, 1e-30))
    assert rt.undecided and rt.reasons == ["the exponent of 0 ^ y"]


def test_maximum_minimum_and_undecided_comparisons():
    # at a set precision: the enclosures below depend on it (the global one can be left
    # changed by an earlier test in the same worker)
    with working_precision(64):
        rt = _rt()
        assert rt.maximum(_obj(1), _obj(fmpq(5, 2)), _obj(2)).reshape(-1)[0] == fmpq(5, 2)
        assert rt.minimum(_obj(1), _obj(fmpq(5, 2)), _obj(2)).reshape(-1)[0] == 1
        assert rt.maximum(_obj(3), _obj(3)).reshape(-1)[0] == 3
        assert rt.minimum(_obj(fmpq(-1, 2)), _obj(0)).reshape(-1)[0] == fmpq(-1, 2)
        fuzzy = arb(1, 1e-20)
        hi = rt.maximum(_obj(fuzzy), _obj(1)).reshape(-1)[0]
        lo = rt.minimum(_obj(fuzzy), _obj(1)).reshape(-1)[0]
        assert hi.contains(1) and hi.contains(fuzzy) and lo.contains(1) and lo.contains(fuzzy)
        assert hi.upper() >= fuzzy.upper() and lo.lower() <= fuzzy.lower()
        wide = arb(1, 0.5)  # [0.5, 1.5] against 1.2: undecided, the result is arb's max / min
        hi = rt.maximum(_obj(wide), _obj(fmpq(6, 5))).reshape(-1)[0]
        lo = rt.minimum(_obj(wide), _obj(fmpq(6, 5))).reshape(-1)[0]
        assert hi.contains(1.5) and hi.contains(fmpq(6, 5)) and not hi.contains(0.75)
        assert lo.contains(0.5) and lo.contains(fmpq(6, 5)) and not lo.contains(1.4)


def test_integral_by_arb_integration():
    rt = _rt()
    with working_precision(64):
        half = rt.integral(lambda s: s, 0, 1).reshape(-1)[0]
        assert half.contains(fmpq(1, 2)) and half.rad() < 1e-15
        three_halves = rt.integral(lambda s: s, 1, 2).reshape(-1)[0]
        assert three_halves.contains(fmpq(3, 2)) and not three_halves.contains(fmpq(-3, 2))
        backwards = rt.integral(lambda s: rt.mul(s, s) if hasattr(rt, "mul") else s * s,
                                _obj(fmpq(1)), _obj(fmpq(0))).reshape(-1)[0]
        assert backwards.contains(fmpq(-1, 3)) and backwards.rad() < 1e-15
        sine = rt.integral(lambda s: rt.sin(s), 0, rt.pi).reshape(-1)[0]
        assert sine.contains(2) and sine.rad() < 1e-10
    assert not rt.undecided
    unbounded = rt.integral(lambda s: s, 0, rt.inf)
    assert unbounded.dtype == object and unbounded.shape == (1,)
    assert not unbounded[0].is_finite() and rt.reasons == ["an integral over an unbounded interval"]
    rt = _rt()
    lower = rt.integral(lambda s: s, -rt.inf, 0)
    assert not lower[0].is_finite() and rt.undecided
    rt = _rt()
    branch = rt.integral(lambda s: rt.log(s), -1, 1)  # log's junk guard undecided on the path
    assert branch.dtype == object and not branch[0].is_finite()
    assert rt.undecided and rt.reasons[-1] == (
        "an integral Arb cannot enclose (integrand not analytic on the path)")


# ---- matrices --------------------------------------------------------------------------------

def _mat(rows) -> np.ndarray:
    out = np.empty((1, len(rows), len(rows)), dtype=object)
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            out[0, i, j] = v
    return out


def test_determinant_and_identity():
    rt = _rt()
    assert rt.det(_mat([[1, 2], [3, 4]]))[0].contains(-2)
    assert rt.det(_mat([[2, 0, 1], [1, 3, 0], [0, 1, 4]]))[0].contains(25)
    assert rt.det(_mat([[fmpq(1, 2)]]))[0].contains(fmpq(1, 2))
    assert not rt.det(_mat([[5]]))[0].contains(1)
    empty = rt.det(np.zeros((1, 0, 0), dtype=object))
    assert list(empty) == [1] and empty.dtype == object
    eye = rt.eye(3)
    assert eye.shape == (1, 3, 3) and eye.dtype == object
    assert [[eye[0, i, j] for j in range(3)] for i in range(3)] == [
        [1, 0, 0], [0, 1, 0], [0, 0, 1]]


def test_matrix_power_and_matrix_vector_product():
    rt = _rt()
    shear = _mat([[1, 1], [0, 1]])
    cube = rt.mat_pow(shear, np.array([3]))
    assert [[cube[0, i, j] for j in range(2)] for i in range(2)] == [[1, 3], [0, 1]]
    zeroth = rt.mat_pow(_mat([[2, 1], [1, 2]]), 0)
    assert [[zeroth[0, i, j] for j in range(2)] for i in range(2)] == [[1, 0], [0, 1]]
    v = np.array([[fmpq(1, 2), 3]], dtype=object)
    out = rt.mul_vec(_mat([[1, 2], [3, 4]]), v)
    assert out.shape == (1, 2) and list(out[0]) == [fmpq(13, 2), fmpq(27, 2)]


def test_matrix_inverse_is_zero_for_a_singular_matrix_and_undecided_near_one():
    rt = _rt()
    inv = rt.mat_inv(_mat([[2, 1], [1, 1]]))  # inverse [[1, -1], [-1, 2]]
    assert inv.shape == (1, 2, 2)
    for (i, j), v in {(0, 0): 1, (0, 1): -1, (1, 0): -1, (1, 1): 2}.items():
        assert inv[0, i, j].contains(v) and inv[0, i, j].rad() < 1e-12
    singular = rt.mat_inv(_mat([[1, 2], [2, 4]]))
    assert all(singular[0, i, j] == 0 for i in range(2) for j in range(2))
    assert not rt.undecided
    assert rt.mat_inv(np.zeros((1, 0, 0), dtype=object)).shape == (1, 0, 0)
    fuzzy = rt.mat_inv(_mat([[arb(0, 1e-30), 0], [0, 1]]))
    assert rt.undecided and rt.reasons == ["whether a matrix is singular"]
    assert fuzzy[0, 1, 1] == 0


@pytest.mark.parametrize("rows, ok, sure", [
    ([[2, -1], [-1, 2]], True, True),
    ([[1, 2], [2, 1]], False, True),  # det < 0
    ([[1, 0], [0, -1]], False, True),
    ([[0, 0], [0, 1]], False, True),  # a leading minor 0: not definite
    ([[2, 1], [0, 2]], False, True),  # not symmetric
    ([[4, 1, 0], [1, 3, 1], [0, 1, 2]], True, True),
    ([[1, 0, 0], [0, 1, 0], [0, 0, -2]], False, True),  # only the last minor is negative
    ([[arb(1, 1e-30), 0], [0, 1]], True, True),
    ([[arb(0, 1e-30), 0], [0, 1]], False, False),  # the first minor's sign is undecided
    ([[1, arb(0, 1e-30)], [0, 1]], False, False),  # symmetry undecided
    ([[1]], True, True),
    ([[-1, 0], [0, -1]], False, True),  # det > 0 but the first minor is negative
])
def test_positive_definiteness_by_leading_minors(rows, ok, sure):
    t = _rt().pos_def(_mat(rows))
    assert (bool(t.ok[0]), bool(t.sure[0])) == (ok, sure)
    assert t.ok.shape == (1,)


def test_positive_definiteness_of_the_empty_matrix():
    t = _rt().pos_def(np.zeros((1, 0, 0), dtype=object))
    assert bool(t.ok[0]) and bool(t.sure[0])


# ---- numbers in and out ------------------------------------------------------------------------

def test_lift_is_exact():
    rt = _rt()
    lifted = rt.lift(np.array([0.1, -2.5, np.inf, np.nan, -np.inf]))
    assert lifted.dtype == object
    assert lifted[0] == fmpq(3602879701896397, 36028797018963968)  # 0.1 as a dyadic rational
    assert lifted[1] == fmpq(-5, 2) and balls.is_top(lifted[2])
    assert not lifted[3].is_finite() and not balls.is_top(lifted[4])
    ints = rt.lift(np.array([3, -4]))
    assert ints.dtype == object and [type(v) for v in ints] == [int, int]
    flags = rt.lift(np.array([True, False]))
    assert flags.dtype == bool
    z = rt.lift(np.array([1.5 - 2j]))
    assert isinstance(z[0], acb) and z[0].real == arb(1.5) and z[0].imag == arb(-2)
    assert rt.from_float(np.array([0.5]))[0] == fmpq(1, 2)


def test_to_float_of_balls_exact_numbers_and_complex():
    rt = _rt()
    out = rt.to_float(_obj(arb(2.5), fmpq(1, 4), 3))
    assert out.dtype == np.float64 and list(out) == [2.5, 0.25, 3.0]
    z = rt.to_float(_obj(acb(1, 2), fmpq(1, 2)))
    assert z.dtype == np.complex128 and list(z) == [1 + 2j, 0.5]
    grid = rt.to_float(np.array([[arb(1), fmpq(3, 2)]], dtype=object))
    assert grid.shape == (1, 2) and grid[0, 1] == 1.5
    plain = np.array([1.0, 2.0])
    assert rt.to_float(plain) is plain


def test_abs_re_im_conj():
    rt = _rt()
    assert _one(rt, "abs", fmpq(-3, 2)) == fmpq(3, 2) and _one(rt, "abs", -4) == 4
    assert _encloses(_one(rt, "abs", acb(3, -4)), mpmath.mpf(5))
    assert _one(rt, "abs", arb(-0.5)) == arb(0.5)
    z = acb(3, -4)
    assert _one(rt, "re", z) == arb(3) and _one(rt, "im", z) == arb(-4)
    assert _one(rt, "re", fmpq(2)) == fmpq(2) and _one(rt, "im", fmpq(2)) == 0
    assert _one(rt, "conj", z) == acb(3, 4) and _one(rt, "conj", fmpq(2)) == fmpq(2)


def test_literals_are_exact():
    rt = _rt()
    assert rt.rational(2, 6) == fmpq(1, 3) and rt.number("0.1") == fmpq(1, 10)
    assert rt.number("-2.5e-3") == fmpq(-1, 400)
    assert rt.integer("12") == 12 and isinstance(rt.integer("12"), int)
    assert rt.inf == arb.pos_inf() and rt.pi.contains(arb.pi()) and rt.I == acb(0, 1)


def test_an_if_then_else_on_an_undecided_condition_is_undecided():
    rt = _rt()
    decided = rt.lt(_obj(fmpq(1)), _obj(fmpq(2)))
    assert rt.ite(decided, lambda: _obj(1), lambda: _obj(2)).reshape(-1)[0] == 1
    assert not rt.undecided
    fuzzy = rt.lt(_obj(arb(0, 1e-30)), _obj(0))
    rt.ite(fuzzy, lambda: _obj(1), lambda: _obj(2))
    assert rt.undecided and rt.reasons == ["an if-then-else condition"]


# ---- relations: decisions and their recorded differences --------------------------------------

def test_relation_errors_and_the_trace():
    rt = _rt()
    false = rt.eq(_obj(fmpq(1)), _obj(fmpq(2)))
    assert false.err[0] == np.inf and not false.ok[0] and false.sure[0]
    true = rt.eq(_obj(fmpq(2)), _obj(2))
    assert true.err[0] == 0 and true.ok[0] and true.exact[0]
    lt = rt.lt(_obj(1), _obj(2))
    assert lt.err[0] == 0.0 and lt.ok[0]
    not_lt = rt.lt(_obj(2), _obj(1))
    assert not_lt.err[0] == np.inf and not not_lt.ok[0] and not_lt.sure[0]
    assert not rt.le(_obj(fmpq(3)), _obj(fmpq(5, 2))).ok[0]
    assert rt.le(_obj(fmpq(5, 2)), _obj(fmpq(5, 2))).ok[0]
    assert [r["relation"] for r in rt.trace] == ["=", "=", "<", "<", "≤", "≤"]
    assert rt.trace[0]["difference"] == {"mid": "-1", "rad": "0"}
    assert rt.trace[0]["decision"] == "false" and rt.trace[1]["decision"] == "true"
    fuzzy = rt.eq(_obj(arb(2).sqrt() ** 2), _obj(2))
    assert not fuzzy.sure[0] and rt.trace[-1]["decision"] == "undecided"
    ne = rt.ne(_obj(fmpq(1)), _obj(2))
    assert ne.ok[0] and ne.exact[0] and ne.sure[0] and ne.err[0] == 0
    ne_fuzzy = rt.ne(_obj(arb(2).sqrt() ** 2), _obj(2))
    assert not ne_fuzzy.ok[0] and not ne_fuzzy.sure[0]
    both = rt.eq(np.array([[1, fmpq(1, 2)]], dtype=object), np.array([[1, fmpq(1, 2)]],
                                                                         dtype=object))
    assert both.ok[0] and both.sure[0]
    one_off = rt.array_eq(np.array([[1, 2]], dtype=object), np.array([[1, 3]], dtype=object))
    assert not one_off.ok[0] and one_off.sure[0] and one_off.err[0] == np.inf
    bad = rt.eq(_obj(arb.nan()), _obj(1))
    assert not bad.sure[0]


# ---- balls.py helpers ----------------------------------------------------------------------------

def test_ball_of_each_kind_of_number():
    assert balls.ball(3) == arb(3) and balls.ball(fmpq(1, 4)) == arb(0.25)
    assert balls.ball(np.float64(0.5)) == arb(0.5) and balls.ball(0.5) == arb(0.5)
    assert balls.ball(Fraction(1, 4)) == arb(0.25)
    assert balls.ball(np.int64(7)) == arb(7)
    z = acb(1, 2)
    assert balls.ball(z) is z
    b = arb(2, 1e-10)
    assert balls.ball(b) is b


def test_exactness_and_signs():
    assert balls.is_exact(3) and balls.is_exact(fmpq(1, 2)) and balls.is_exact(np.int64(2))
    assert not balls.is_exact(Fraction(1, 3)) and not balls.is_exact(True)
    assert not balls.is_exact(arb(1)) and not balls.is_exact(1.5)
    assert balls.exact_value(Fraction(1, 3)) == fmpq(1, 3) and balls.exact_value(4) == 4
    assert balls.sign_of(fmpq(-1, 3)) == -1 and balls.sign_of(0) == 0 and balls.sign_of(5) == 1
    assert balls.sign_of(arb(0)) == 0 and balls.sign_of(arb(-1, 0.5)) == -1
    assert balls.sign_of(arb(1, 0.5)) == 1 and balls.sign_of(arb(0, 1e-30)) is None
    assert balls.sign_of(arb.pos_inf()) == 1
    assert balls.difference_sign(fmpq(1, 3), fmpq(1, 2)) == -1
    assert balls.difference_sign(arb(2), 1) == 1 and balls.difference_sign(1, 1) == 0
    assert balls.difference_sign(arb(1, 1e-20), 1) is None
    assert balls.decided_equal(fmpq(1, 2), arb(0.5)) is True
    assert balls.decided_equal(arb(1), arb(2)) is False
    assert balls.decided_equal(arb(1, 1e-20), 1) is None
    assert balls.decided_equal(arb(1, 1e-20), arb(1, 1e-20)) is None
    assert balls.decided_equal(acb(1, 1), acb(1, 1)) is True
    assert balls.decided_equal(acb(1, 1), acb(1, 2)) is False
    assert balls.decided_equal(acb(1, arb(0, 1e-20)), 1) is None
    assert balls.is_top(arb.pos_inf()) and not balls.is_top(arb(1)) and not balls.is_top(3)
    assert not balls.is_top(arb.nan()) and not balls.is_top(arb.neg_inf())


# ---- BallFunctions: the junk-value functions on balls ------------------------------------------

@pytest.mark.parametrize("method, args, reason", [
    ("real_tan", (arb.pi() / 2,), "the denominator of Real.tan"),
    ("real_cot", (arb.pi(),), "the denominator of Real.cot"),
    ("arcsin", (arb(-1, 1e-30),), "whether the argument of Real.arcsin lies in [-1, 1]"),
    ("floor", (arb(3, 1e-30),), "the integer floor of a ball"),
    ("ceil", (arb(3, 1e-30),), "the integer ceiling of a ball"),
    ("sign", (arb(0, 1e-30),), "the sign of a number (Real.sign)"),
    ("enn_sub", (arb(1, 1e-30), 1), "the truncation of a subtraction in ℝ≥0∞"),
    ("log", (arb(0, 1e-30),), "the sign of the argument of Real.log"),
    ("sqrt", (arb(0, 1e-30),), "the sign of the argument of Real.sqrt"),
    ("div", (1, arb(0, 1e-30)), "the sign of the argument of a division"),
    ("power", (arb(0, 1e-30), -2), "the sign of the argument of a negative power"),
    ("rpow", (arb(0, 1e-30), 2), "the sign of the argument of Real.rpow"),
])
def test_each_undecided_guard_names_itself(method, args, reason):
    rt = _rt()
    _one(rt, method, *args)
    assert rt.reasons == [reason]


def test_ball_tan_cot_arcsin_values():
    rt = _rt()
    assert _encloses(_one(rt, "real_tan", fmpq(1)), mpmath.tan(1))
    assert _encloses(_one(rt, "real_tan", arb(-0.5)), mpmath.tan(-0.5))
    assert _encloses(_one(rt, "real_cot", fmpq(1, 3)), mpmath.cot(mpmath.mpf(1) / 3))
    assert _one(rt, "real_cot", 0) == 0 and _one(rt, "real_tan", 0) == 0
    assert _encloses(_one(rt, "arcsin", fmpq(-1, 2)), -mpmath.pi / 6)
    assert _encloses(_one(rt, "arcsin", arb(0.25)), mpmath.asin(0.25))
    assert _encloses(_one(rt, "arcsin", arb(1.5)), mpmath.pi / 2)
    assert _encloses(_one(rt, "arcsin", arb(-1.5)), -mpmath.pi / 2)
    assert not rt.undecided


def test_ball_roundings_and_signs_are_integers():
    rt = _rt()
    for method, x, expected in (("floor", fmpq(7, 2), 3), ("ceil", fmpq(7, 2), 4),
                                ("floor", 5, 5), ("ceil", -5, -5), ("floor", arb(-2.5), -3),
                                ("ceil", arb(-2.5), -2), ("sign", arb(-0.1), -1),
                                ("sign", fmpq(1, 9), 1)):
        out = _one(rt, method, x)
        assert type(out) is int and out == expected, (method, x, out)
    assert not rt.undecided


def test_ball_integer_functions_are_exact():
    rt = _rt()
    assert _one(rt, "factorial", 25) == math.factorial(25)
    assert _one(rt, "choose", 6, 2) == 15 and _one(rt, "choose", 2, 6) == 0
    assert _one(rt, "gcd", 12, 18) == 6 and _one(rt, "lcm", 4, 6) == 12
    assert _one(rt, "nat_sqrt", 17) == 4 and _one(rt, "nat_sqrt", -3) == 0
    assert _one(rt, "nat_log", 3, 81) == 4
    assert _one(rt, "int_tdiv", -7, 2) == -3 and _one(rt, "int_fdiv", -7, 2) == -4
    assert _one(rt, "int_tmod", -7, 2) == -1 and _one(rt, "int_fmod", -7, 2) == 1
    assert _one(rt, "int_tdiv", 7, 0) == 0 and _one(rt, "int_tmod", 7, 0) == 7


def test_ball_ennreal_on_balls():
    rt = _rt()
    top = arb.pos_inf()
    assert _one(rt, "enn_sub", arb(2.5), fmpq(1, 2)) == 2
    assert _one(rt, "enn_sub", arb(0.5), fmpq(1)) == 0
    assert balls.is_top(_one(rt, "enn_sub", top, arb(2.5)))
    assert _one(rt, "enn_sub", arb(2.5), top) == 0
    assert balls.is_top(_one(rt, "enn_mul", arb(0.5), top))
    assert balls.is_top(_one(rt, "enn_mul", top, arb(0.5)))
    assert _one(rt, "enn_mul", arb(0.5), arb(4)) == 2
    assert _one(rt, "enn_inv", arb(4)) == arb(0.25)
    third = _one(rt, "enn_inv", fmpq(1, 3))
    assert type(third) is fmpq and third == 3  # exact, not a ball around 3
    assert _one(rt, "enn_inv", fmpq(0)) == top
    assert _one(rt, "enn_add", arb(0.5), fmpq(1, 4)) == arb(0.75)
    assert balls.is_top(_one(rt, "enn_add", top, top))
    assert _one(rt, "enn_to_real", arb(0.5)) == arb(0.5)
    assert not rt.undecided
    fuzzy = _rt()
    out = _one(fuzzy, "enn_mul", arb(0, 1e-30), top)
    assert not out.is_finite() and not balls.is_top(out)  # NaN: 0 or ⊤ undecided
    assert fuzzy.reasons == ["whether an operand of a product is 0"]


def test_exact_operands_are_compared_exactly_not_through_balls():
    third = fmpq(1, 3)  # as a ball 1/3 has a radius: a ball difference would contain 0
    assert balls.difference_sign(third, fmpq(2, 6)) == 0
    assert balls.decided_equal(third, fmpq(2, 6)) is True
    assert balls.difference_sign(third, fmpq(1, 3) + fmpq(1, 10 ** 40)) == -1


def test_enclosures_of_huge_and_tiny_balls_stay_exact_and_short():
    with working_precision(64):
        at_limit = balls.enclosure(arb(2) ** balls.DYADIC_EXPONENT_LIMIT)
        beyond = balls.enclosure(arb(2) ** (balls.DYADIC_EXPONENT_LIMIT + 1))
        tiny = balls.enclosure(arb(3) * arb(2) ** -5000)
    assert at_limit == {"mid": str(2 ** balls.DYADIC_EXPONENT_LIMIT), "rad": "0"}
    assert beyond == {"mid": f"1*2^{balls.DYADIC_EXPONENT_LIMIT + 1}", "rad": "0"}
    assert tiny == {"mid": "3*2^-5000", "rad": "0"}
    assert balls.enclosure(arb.pos_inf()) == {"mid": "inf", "rad": "0"}
    assert balls.enclosure(arb.nan()) == {"mid": "nan", "rad": "inf"}
    z = balls.enclosure(acb(fmpq(1, 2), -1))
    assert z == {"mid": "1/2", "rad": "0", "imag_mid": "-1", "imag_rad": "0"}


def test_ball_helpers_on_complex_boolean_and_foreign_values():
    assert balls.ball(1 + 2j) == acb(1, 2) and balls.ball(np.complex128(0.5j)) == acb(0, 0.5)
    assert balls.exact_value(True) == 1 and type(balls.exact_value(np.bool_(False))) is int
    assert balls.sign_of(acb(0)) == 0 and balls.sign_of(acb(-2)) == -1
    assert balls.sign_of(acb(1, 1)) is None
    with pytest.raises(TypeError, match="ball: cannot enclose a str rigorously"):
        balls.ball("1")


def test_sup_range_is_the_exact_maximum_from_bottom():
    # Finset.sup over ℕ-indexed terms with ⊥ = 0 (it raised AttributeError on any non-empty range)
    rt = BallRuntime(64)
    top = rt.sup_range(lambda j: np.array([fmpq(j, 3)], dtype=object), 0, 4)
    assert np.asarray(top).reshape(-1).tolist() == [fmpq(1)]
    below = rt.sup_range(lambda j: np.array([fmpq(-j - 1, 2)], dtype=object), 0, 3)
    assert np.asarray(below).reshape(-1).tolist() == [0]
