"""Exponential equations solved exactly: ``4 ^ a = 5``, ``2 ^ x * 3 ^ y = 1296``, ``7 ^ (x + 7) = 8 ^ x``.

An equation whose sides are *power products* — ``c · b₁ ^ e₁ ⋯ bₖ ^ eₖ`` with positive
rational numerals ``c, bᵢ`` and exponents polynomial in the unknowns — holds exactly when the
logarithms of its sides agree (``exp`` is injective; a power of a positive base is ``exp (e ·
log b)``, Lean's ``Real.rpow`` as much as a monoid power): ``Σ eᵢ log bᵢ + log c = …``. The
logarithm of a positive rational is written over the logarithms of primes (``log 1296 =
4 log 2 + 4 log 3``), kept as symbols ``L₂, L₃ …``; then

- when every unknown of the equation is rational (ℕ, ℤ, ℚ), the equation splits into one
  polynomial equation per prime, the coefficient of each ``L_p`` being ``0`` (``Π p ^ a_p = 1``
  with rational ``a_p`` forces every ``a_p = 0``: unique factorization) — ``2 ^ x * 3 ^ y =
  1296`` over ℕ is ``x = 4 ∧ y = 4``, complete, no search;
- over ℝ the equation is linear in the unknowns with coefficients in ``ℚ(L₂, L₃ …)``, and a
  system of them is solved by ``linsolve`` over that field (``4 ^ a = 5`` gives ``a = L₅ /
  (2 L₂)``, i.e. ``log 5 / log 4``).

A constant term is moved across (``4 ^ b + 8 = 12`` is ``4 ^ b = 4``); a positive power
product equal to a non-positive number has no solution. Equations solved so are substituted
into the others and the reading repeats (``2 ^ a = 32`` then ``a ^ b = 125``). The result is
a :class:`~mirror.sample.solve.Solutions`: the values of the unknowns it pins, with ``L_p``
back as ``log p`` — complete for the equations read, decided at each by
:mod:`mirror.judge.presettle` (zero of a difference of logarithms: :func:`log_zero`).
"""

from __future__ import annotations

import sympy as sp

from mirror.sample.solve import Solutions
from mirror.translate.reals import LeanRpow
from mirror.translate.values import Statement

_RATIONAL_KINDS = ("Nat", "Int", "Rat", "PNat")
_KINDS = _RATIONAL_KINDS + ("Real", "NNReal")
#: The most rounds of solve-and-substitute.
MAX_ROUNDS = 6
#: The most equations (and unknowns) read.
MAX_EQUATIONS = 8


def prime_log(q: sp.Rational, logs: dict[int, sp.Symbol]) -> sp.Basic:
    """``log q`` of a positive rational as ``Σ v_p(q) L_p`` over prime-log symbols."""
    out = sp.Integer(0)
    for part, sign in ((q.p, 1), (q.q, -1)):
        for prime, exponent in sp.factorint(int(part)).items():
            symbol = logs.setdefault(prime, sp.Symbol(f"L{prime}", positive=True))
            out += sign * exponent * symbol
    return out


def _log_of_product(term: sp.Basic, unknowns: set, logs: dict) -> sp.Basic | None:
    """``log term`` for a power product with a positive value (``None`` otherwise)."""
    out = sp.Integer(0)
    for factor in sp.Mul.make_args(term):
        if factor.is_Rational:
            if factor <= 0:
                return None
            out += prime_log(factor, logs)
            continue
        if isinstance(factor, (sp.Pow, LeanRpow)):
            base, exponent = factor.args
            if base.is_Rational and base > 0 and not (exponent.free_symbols - unknowns):
                out += exponent * prime_log(base, logs)
                continue
        return None
    return out


def log_form(difference: sp.Basic, unknowns: set, logs: dict) -> sp.Basic | None:
    """An equation ``difference = 0`` as ``log-form = 0`` over the prime logs, or
    ``sp.false`` when it has no solution (a positive product equal to a non-positive
    number), or ``None`` when it is not an equation between power products. Without
    ``unknowns`` (a closed difference) every term that is not a rational numeral moves."""
    terms = sp.Add.make_args(sp.expand(difference, power_exp=False, mul=True))
    if unknowns:
        moving = [t for t in terms if t.free_symbols & unknowns]
    else:
        moving = [t for t in terms if not t.is_Rational]
    constant = sum((t for t in terms if t not in moving), sp.Integer(0))
    if not constant.is_Rational:
        return None
    if len(moving) == 1 and constant != 0:
        left = _log_of_product(moving[0], unknowns, logs)
        negated = _log_of_product(-moving[0], unknowns, logs)
        if left is None and negated is None:
            return None
        if left is not None:  # positive product = -constant
            return sp.false if -constant <= 0 else left - prime_log(-constant, logs)
        return sp.false if constant <= 0 else negated - prime_log(constant, logs)
    if len(moving) == 2 and constant == 0:
        for plus, minus in ((moving[0], moving[1]), (moving[1], moving[0])):
            left, right = (_log_of_product(plus, unknowns, logs),
                           _log_of_product(-minus, unknowns, logs))
            if left is not None and right is not None:
                return left - right
    return None


def _rational_polynomial(expr: sp.Basic, unknowns: list[sp.Symbol]) -> bool:
    try:
        sp.Poly(expr, *unknowns, domain="QQ")
    except (sp.PolynomialError, sp.CoercionFailed, sp.GeneratorsNeeded):
        return expr.is_Rational is True
    return True


def _polynomial_in(expr: sp.Basic, unknowns: list[sp.Symbol], degree: int) -> bool:
    try:
        return sp.Poly(expr, *unknowns).total_degree() <= degree
    except (sp.PolynomialError, sp.GeneratorsNeeded):
        return False


def solve_exponentials(statement: Statement) -> Solutions | None:
    """The values the statement's exponential (and linear) equations pin, or the proof that
    they have none; ``None`` when no exponential equation is read or nothing is pinned."""
    scalars = [v for v in statement.variables if not v.ty.is_array]
    if len(scalars) != len(statement.variables) or any(v.ty.kind not in _KINDS for v in scalars):
        return None
    kinds = {v.symbol: v.ty.kind for v in scalars}
    names = {v.symbol: v.name for v in scalars}
    equations = [a.lhs - a.rhs for _, h in statement.hypotheses for a in sp.And.make_args(h)
                 if isinstance(a, sp.Eq)]
    if not any(e.atoms(sp.Pow, LeanRpow) and any(p.args[1].free_symbols
                                                 for p in e.atoms(sp.Pow, LeanRpow))
               for e in equations):
        return None
    if len(equations) > MAX_EQUATIONS or len(kinds) > MAX_EQUATIONS:
        return None  # sympy's linear algebra over ℚ(L₂, …) is not bounded in time
    logs: dict[int, sp.Symbol] = {}
    known: dict[sp.Symbol, sp.Basic] = {}
    read: list[str] = []
    for _ in range(MAX_ROUNDS):
        unknowns = set(kinds) - set(known)
        linear: list[sp.Basic] = []
        rational: list[sp.Basic] = []
        for equation in equations:
            equation = equation.xreplace(known)
            present = sorted(equation.free_symbols & unknowns, key=sp.default_sort_key)
            if not present or equation.free_symbols - set(kinds):
                continue
            form = log_form(equation, unknowns, logs)
            if form is sp.false:
                return Solutions(sorted(names[s] for s in present), [], [sp.sstr(equation)],
                                 vacuous=f"{sp.sstr(equation)} = 0 has no solution: a power of a "
                                 "positive base is positive")
            if form is None:
                if _polynomial_in(equation, present, 1):  # a linear equation: as it is
                    linear.append(equation)
                    read.append(sp.sstr(equation))
                continue
            read.append(sp.sstr(equation))
            if all(kinds[s] in _RATIONAL_KINDS for s in present):
                # rational unknowns: one equation per prime (unique factorization)
                form = sp.expand(form)
                for symbol in logs.values():
                    coefficient = form.coeff(symbol)
                    if coefficient == 0:
                        continue
                    if not (coefficient.free_symbols <= unknowns
                            and _rational_polynomial(coefficient, present)):
                        return None  # a coefficient that is not rational: no splitting
                    rational.append(coefficient)
                if sp.expand(form.xreplace({s: 0 for s in logs.values()})) != 0:
                    return None
            elif _polynomial_in(form, present, 1):
                linear.append(form)
        solved = _solve_round(linear + rational, unknowns, logs)
        if solved is None:
            return None
        if solved == "none":
            return Solutions(sorted(names[s] for s in unknowns), [], sorted(set(read)),
                             vacuous=f"the equations {', '.join(sorted(set(read)))} = 0, read "
                             "through logarithms of primes, have no solution (linear system "
                             "over ℚ(log 2, log 3, …))")
        if not solved:
            break
        known.update(solved)
    if not known:
        return None
    back = {symbol: sp.log(prime) for prime, symbol in logs.items()}
    values = {s: v.xreplace(back) for s, v in known.items()}
    for symbol, value in values.items():
        if kinds[symbol] in _RATIONAL_KINDS and not (value.is_Rational and (
                kinds[symbol] in ("Rat",) or value.is_Integer)):
            return Solutions([names[symbol]], [], sorted(set(read)),
                             vacuous=f"{names[symbol]} = {sp.sstr(value)} is the only solution "
                             f"of {', '.join(sorted(set(read)))} = 0, and it is not a value of "
                             f"{names[symbol]}'s type")
        if kinds[symbol] in ("Nat", "PNat", "NNReal") and value.is_Rational and value < (
                1 if kinds[symbol] == "PNat" else 0):
            return Solutions([names[symbol]], [], sorted(set(read)),
                             vacuous=f"{names[symbol]} = {sp.sstr(value)} is the only solution, "
                             "below the least value of its type")
    free = [names[s] for s in kinds if s not in known]
    order = [s for s in kinds if s in known]
    return Solutions([names[s] for s in order], [{names[s]: values[s] for s in order}],
                     sorted(set(read)), free=free)


def _arb_sign(expr: sp.Basic, logs: dict) -> int | None:
    """The sign of a closed expression over the prime-log symbols at their true values
    (``L_p = log p``), by Arb balls (:func:`log_ball`); ``None`` when the enclosure contains
    ``0`` or there is none."""
    value = log_ball(expr.xreplace({s: sp.log(p) for p, s in logs.items()}))
    if value is None:
        return None
    if value > 0:
        return 1
    if value < 0:
        return -1
    return None


def _solve_round(equations: list[sp.Basic], unknowns: set, logs: dict):
    """The unknowns a linear system over ``ℚ(L₂, L₃ …)`` pins: ``{symbol: value}`` (the
    empty dict when none), ``"none"`` for an inconsistent system over ℚ, ``None`` when it
    is not shown to have exactly one solution. With prime logs among the coefficients the
    system is solved generically by ``linsolve`` and the answer kept only when it is the
    solution at the true logarithms: ``det(AᵀA) > 0`` there (full column rank, so at most one
    solution; Arb), the generic solution satisfies every equation identically, and its
    denominators are non-zero there (Arb)."""
    equations = [sp.expand(e) for e in equations]
    equations = [e for e in equations if e != 0]
    if not equations:
        return {}
    present = sorted(set().union(*(e.free_symbols for e in equations)) & unknowns,
                     key=sp.default_sort_key)
    if not present or not all(_polynomial_in(e, present, 1) for e in equations):
        return {}
    exact = not any(e.free_symbols & set(logs.values()) for e in equations)
    try:
        found = sp.linsolve(equations, *present)
    except (NotImplementedError, ValueError, TypeError):
        return None
    if found == sp.EmptySet:
        return "none" if exact else None
    if not isinstance(found, sp.FiniteSet) or len(found) != 1:
        return None
    (values,) = found
    if exact:
        return {symbol: value for symbol, value in zip(present, values)
                if not value.free_symbols & set(present)}
    if any(v.free_symbols & set(present) for v in values):
        return None  # an under-determined system with log coefficients: nothing claimed
    matrix, _ = sp.linear_eq_to_matrix(equations, present)
    gram = sp.expand((matrix.T * matrix).det())
    if _arb_sign(gram, logs) != 1:
        return None
    solution = {symbol: sp.cancel(sp.together(value)) for symbol, value in zip(present, values)}
    for equation in equations:
        if sp.cancel(sp.together(equation.xreplace(solution))) != 0:
            return None
    for value in solution.values():
        denominator = sp.fraction(value)[1]
        if denominator.free_symbols and _arb_sign(sp.expand(denominator), logs) is None:
            return None
    return solution


def _prime_logs(expr: sp.Basic, logs: dict) -> sp.Basic | None:
    """``expr`` with each ``log q`` (``q`` a positive rational) over prime-log symbols."""
    found = expr.atoms(sp.log)
    if not all(a.args[0].is_Rational and a.args[0] > 0 for a in found):
        return None
    return expr.xreplace({a: prime_log(a.args[0], logs) for a in found})


def log_zero(expr: sp.Basic) -> bool:
    """``expr`` (closed) is exactly ``0``: a rational function of logarithms of positive
    rationals, each written over prime logs, that cancels to ``0`` — an identity, true
    whatever the values of ``log 2, log 3 …`` — or an equation between power products
    (``4 ^ (log 5 / log 4) - 5``) whose logarithms so agree. ``False``: not shown zero."""
    logs: dict[int, sp.Symbol] = {}
    if expr.atoms(sp.log) and not expr.atoms(sp.Pow, LeanRpow) - {
            p for p in expr.atoms(sp.Pow) if p.args[1].is_Integer}:
        rewritten = _prime_logs(expr, logs)
    else:
        form = log_form(expr, set(), logs)
        rewritten = None if form is None or form is sp.false else _prime_logs(form, logs)
    if rewritten is None or rewritten.atoms(sp.log) \
            or not rewritten.free_symbols <= set(logs.values()):
        return False
    return sp.cancel(sp.together(rewritten)) == 0


def log_ball(expr: sp.Basic, prec: int = 128):
    """An Arb ball (python-flint) around a closed expression of rationals, ``log`` of
    positive rationals, ``+``, ``·``, integer powers and powers of positive rational bases,
    or ``None`` for anything else (or a division by a ball containing ``0``). The ball is
    computed at ``prec`` bits; flint's global precision is restored afterwards."""
    import flint

    def ball(e):
        if e.is_Rational:
            return flint.arb(int(e.p)) / int(e.q)
        if isinstance(e, sp.log) and e.args[0].is_Rational and e.args[0] > 0:
            return ball(e.args[0]).log()
        if isinstance(e, sp.Add):
            out = flint.arb(0)
            for a in e.args:
                out += ball(a)
            return out
        if isinstance(e, sp.Mul):
            out = flint.arb(1)
            for a in e.args:
                out *= ball(a)
            return out
        if isinstance(e, (sp.Pow, LeanRpow)):
            base, exponent = e.args
            if exponent.is_Integer:
                b = ball(base)
                if exponent < 0 and (b.contains(0)):
                    raise ZeroDivisionError
                return b ** int(exponent) if exponent >= 0 else 1 / b ** int(-exponent)
            if base.is_Rational and base > 0:
                return (ball(exponent) * ball(base).log()).exp()
        raise ValueError(e)

    previous = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        return ball(expr)
    except (ValueError, ZeroDivisionError):
        return None
    finally:
        flint.ctx.prec = previous


__all__ = ["log_ball", "log_form", "log_zero", "prime_log", "solve_exponentials"]
