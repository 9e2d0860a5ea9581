"""Code generation: sympy → Python source of an executable property.

:class:`PropertyPrinter` follows SymPy's printers: one ``_print_<Kind>`` method per node kind
and tables of known functions. The printed code calls a runtime object ``rt`` for everything
that is not plain arithmetic, so one source runs batched in float64 (NumPy) and in 50-digit
mpmath (confirmation). Only whitelisted constructs are printed: every identifier comes from
:func:`python_identifier` and every constant is a number or ``repr`` of a string, so a Lean
name can never inject Python. A node with no printer raises :class:`CodegenError`.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp
from sympy.printing.printer import Printer

from bridge.errors import LeanMirrorError
from mirror.translate.identifiers import binder_identifiers, readable
from mirror.translate.layout import WIDTH, wrap_assignment
from mirror.translate.translation import NAT_DOMAIN, Statement
from mirror.translate.reals import known_nonzero


class CodegenError(LeanMirrorError, NotImplementedError):
    """A sympy node has no NumPy printer; add a ``_print_<Kind>`` method to PropertyPrinter."""


#: Integer literals are printed in decimal; Python refuses to convert an integer of more than
#: ``sys.get_int_max_str_digits()`` (4300) digits, so a literal beyond this many bits (about
#: 3900 digits) is not printed: ``2001 ^ 1002`` stays untranslatable with that reason.
LITERAL_BITS = 13_000


def _printable(value: int) -> int:
    if value.bit_length() > LITERAL_BITS:
        raise CodegenError(f"an integer literal of {value.bit_length()} bits (more than "
                           f"{LITERAL_BITS}) in the property: too long to print in decimal")
    return value


def python_identifier(name: str) -> str:
    """A safe Python identifier for a Lean name (deterministic, ASCII, never a keyword).

    Readable, not injective: scopes settle clashes with
    :mod:`mirror.translate.identifiers`."""
    ident = readable(name)
    return "v_" + ("_" + ident if ident[0].isdigit() else ident)


_UNARY = {
    "exp": "exp",
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "tanh": "tanh",
    "sinh": "sinh",
    "cosh": "cosh",
    "atan": "arctan",
    "log": "log_pos",
    "re": "re",
    "im": "im",
    "conjugate": "conj",
    "Abs": "abs",
    "sqrt": "sqrt_pos",
    "floor": "floor",
    "ceiling": "ceil",
    "sign": "sign",
    "factorial": "factorial",
    "cot": "real_cot",
    "asin": "arcsin",
}

_LEAN = {
    "LeanDiv": "div",
    "NatDiv": "nat_div",
    "IntDiv": "int_div",
    "NatMod": "mod",
    "NatSub": "nat_sub",
    "LeanLog": "log",
    "LeanSqrt": "sqrt",
    "LeanRpow": "rpow",
    "FinWrap": "fin_wrap",
    "LMatMul": "matmul",
    "LMatAdd": "mat_add",
    "LMatSub": "mat_sub",
    "LMatNeg": "mat_neg",
    "LMatSMul": "mat_smul",
    "LMatPow": "mat_pow",
    "LMatInv": "mat_inv",
    "LMatDet": "det",
    "PosDef": "pos_def",
    "LMatOne": "eye",
    "LMatZero": "zeros",
    "LMatTranspose": "transpose",
    "VecMulVec": "outer",
    "MulVec": "mul_vec",
    "ArrayEq": "array_eq",
    "Holds": "holds",
    "LeanTan": "real_tan",
    "LeanCot": "real_cot",
    "LeanArcsin": "arcsin",
    "NatSqrt": "nat_sqrt",
    "NatLog": "nat_log",
    "NatChoose": "choose",
    "NatGcd": "gcd",
    "NatLcm": "lcm",
    "DigitSum": "digit_sum",
    "DigitLength": "digit_length",
    "Digit": "digit_at",
    "RatNum": "rat_num",
    "RatDen": "rat_den",
    "IntTDiv": "int_tdiv",
    "IntFDiv": "int_fdiv",
    "IntTMod": "int_tmod",
    "IntFMod": "int_fmod",
    "ENNAdd": "enn_add",
    "ENNSub": "enn_sub",
    "ENNMul": "enn_mul",
    "ENNInv": "enn_inv",
    "ENNToReal": "enn_to_real",
}

_RANGED = {
    "FinSum": "sum_range",
    "FinProd": "prod_range",
    "LMatSum": "sum_range",
    "FinAll": "forall_range",
    "FinExists": "exists_range",
}


#: sympy constants: class name → the runtime's value.
_CONSTANTS = {
    "Pi": "rt.pi", "Exp1": "rt.exp(1)", "ImaginaryUnit": "rt.I", "Infinity": "rt.inf",
    "NegativeInfinity": "(-rt.inf)", "BooleanTrue": "rt.truth(True)",
    "BooleanFalse": "rt.truth(False)",
}


class PropertyPrinter(Printer):
    """Prints sympy (with :mod:`mirror.translate.vocabulary` nodes) as Python calling a runtime ``rt``."""

    printmethod = "_leanmirror_code"

    def __init__(self, names: dict[sp.Symbol, str] | None = None) -> None:
        super().__init__()
        self.names: dict[sp.Basic, str] = dict(names or {})
        self._dummy_count = 0

    # ---- fallback -----------------------------------------------------------------------------

    def emptyPrinter(self, expr):  # noqa: N802 - sympy's name
        constant = _CONSTANTS.get(type(expr).__name__)
        if constant is not None:
            return constant
        raise CodegenError(
            f"no NumPy printer for {type(expr).__name__} ({expr}); "
            f"add _print_{type(expr).__name__} to mirror.translate.codegen.PropertyPrinter"
        )

    def _print_Function(self, expr):
        name = type(expr).__name__
        if name in _LEAN:
            return f"rt.{_LEAN[name]}({', '.join(self._print(a) for a in expr.args)})"
        if name in _RANGED:
            body, lo, hi = expr.args
            return f"rt.{_RANGED[name]}({self._print(body)}, {self._print(lo)}, {self._print(hi)})"
        if name in _UNARY:
            return f"rt.{_UNARY[name]}({self._print(expr.args[0])})"
        return self.emptyPrinter(expr)

    _print_BooleanFunction = _print_Function

    # ---- atoms --------------------------------------------------------------------------------

    def _print_Symbol(self, expr):
        if expr == NAT_DOMAIN:
            return "rt.nat_domain"
        if expr in self.names:
            return self.names[expr]
        raise CodegenError(f"free symbol {expr} is not a parameter of the property")

    def _print_Dummy(self, expr):
        if expr == NAT_DOMAIN:
            return "rt.nat_domain"
        if expr not in self.names:
            self._dummy_count += 1
            base = python_identifier(expr.name).removeprefix("v_")
            self.names[expr] = f"b_{base}_{self._dummy_count}"
        return self.names[expr]

    def _print_Integer(self, expr):
        value = _printable(int(expr))
        if abs(value) >= 2 ** 53:  # beyond float64's integers: the runtime decides its type
            return f"rt.integer({str(value)!r})"
        return str(value)

    _print_Zero = _print_One = _print_NegativeOne = _print_Integer

    def _print_Rational(self, expr):
        return f"rt.rational({_printable(int(expr.p))}, {_printable(int(expr.q))})"

    _print_Half = _print_Rational

    def _print_Float(self, expr):
        return f"rt.number({repr(str(expr))})"

    def _print_LeanIntegral(self, expr):
        body, lo, hi = expr.args
        return f"rt.integral({self._print(body)}, {self._print(lo)}, {self._print(hi)})"

    def _print_Tuple(self, expr):
        inner = ", ".join(self._print(a) for a in expr.args)
        return f"({inner},)" if len(expr.args) == 1 else f"({inner})"

    # ---- arithmetic ---------------------------------------------------------------------------

    def _print_Add(self, expr):
        terms = [self._print(a) for a in expr.as_ordered_terms()]
        return "(" + " + ".join(terms) + ")"

    def _print_Mul(self, expr):
        factors = [self._print(a) for a in expr.as_ordered_factors()]
        return "(" + " * ".join(factors) + ")"

    def _print_FinWrap(self, expr):
        value, n = expr.args
        if isinstance(value, sp.Pow) and value.args[1].is_integer:
            base, exp = value.args
            return f"rt.power_mod({self._print(base)}, {self._print(exp)}, {self._print(n)})"
        return f"rt.fin_wrap({self._print(value)}, {self._print(n)})"

    def _print_Pow(self, expr):
        base, exp = expr.args
        if exp == sp.Rational(1, 2):
            return f"rt.sqrt_pos({self._print(base)})"
        if exp == -1:
            if known_nonzero(base):  # no junk branch to take
                return f"rt.reciprocal({self._print(base)})"
            return f"rt.div(1, {self._print(base)})"
        if exp.is_Integer and int(exp) < 0:
            return f"rt.div(1, rt.power({self._print(base)}, {-int(exp)}))"
        if exp.is_Rational and not exp.is_Integer:
            return f"rt.rpow({self._print(base)}, {self._print(exp)})"
        if exp.is_integer:
            return f"rt.power({self._print(base)}, {self._print(exp)})"
        return f"rt.rpow({self._print(base)}, {self._print(exp)})"

    def _print_exp(self, expr):
        return f"rt.exp({self._print(expr.args[0])})"

    def _print_frac(self, expr):
        arg = self._print(expr.args[0])
        return f"({arg} - rt.floor({arg}))"

    def _print_Max(self, expr):
        return "rt.maximum(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Min(self, expr):
        return "rt.minimum(" + ", ".join(self._print(a) for a in expr.args) + ")"

    # ---- arrays and calls ---------------------------------------------------------------------

    def _lazy_ite(self, fn: str, expr) -> str:
        cond, then, other = expr.args
        return (f"rt.{fn}({self._print(cond)}, (lambda: {self._print(then)}), "
                f"(lambda: {self._print(other)}))")

    def _print_LeanIte(self, expr):
        return self._lazy_ite("ite", expr)

    def _print_PropIte(self, expr):
        return self._lazy_ite("prop_ite", expr)

    def _print_Index(self, expr):
        return "rt.index(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Lambda(self, expr):
        params = ", ".join(self._print(v) for v in expr.variables)
        return f"(lambda {params}: {self._print(expr.expr)})"

    def _print_BoundCall(self, expr):
        name, dims, *args = expr.args
        rendered = ", ".join([repr(str(name)), self._print(dims), *(self._print(a) for a in args)])
        return f"rt.call({rendered})"

    def _print_Recursion(self, expr):
        base, step, n = expr.args
        return f"rt.nat_rec({self._print(base)}, {self._print(step)}, {self._print(n)})"

    def _print_RecursiveEval(self, expr):
        name, system, *args = expr.args
        members = ", ".join(
            f"{member.name!r}: ({bool(truth)}, (lambda rt, call, "
            f"{', '.join(self._print(v) for v in body.variables)}: {self._print(body.expr)}))"
            for member, body, truth in system.args)
        rendered = ", ".join([f"{{{members}}}", repr(name.name), *(self._print(a) for a in args)])
        return f"rt.recursive({rendered})"

    def _print_RecursiveCall(self, expr):
        name, *args = expr.args
        return f"call({', '.join([repr(name.name), *(self._print(a) for a in args)])})"

    _print_RecursiveEvalTruth = _print_RecursiveEval
    _print_RecursiveTruth = _print_RecursiveCall

    def _print_Tabulate(self, expr):
        lam, sizes = expr.args
        return f"rt.tabulate({self._print(lam)}, {self._print(sizes)})"

    def _print_FinMax(self, expr, direction: int = 1):
        body, lo, hi, empty = expr.args
        junk = "None" if empty is sp.nan else self._print(empty)
        return (f"rt.extremum_range({self._print(body)}, {self._print(lo)}, {self._print(hi)}, "
                f"{direction}, {junk})")

    def _print_FinMin(self, expr):
        return self._print_FinMax(expr, -1)

    def _print_SupNorm(self, expr):
        lam, size = expr.args
        return f"rt.sup_range({self._print(lam)}, 0, {self._print(size)})"

    # ---- propositions -------------------------------------------------------------------------

    def _relational(self, fn: str, expr) -> str:
        return f"rt.{fn}({self._print(expr.lhs)}, {self._print(expr.rhs)})"

    def _print_Equality(self, expr):
        return self._relational("eq", expr)

    def _print_Unequality(self, expr):
        return self._relational("ne", expr)

    def _print_StrictLessThan(self, expr):
        return self._relational("lt", expr)

    def _print_LessThan(self, expr):
        return self._relational("le", expr)

    def _print_StrictGreaterThan(self, expr):
        return f"rt.lt({self._print(expr.rhs)}, {self._print(expr.lhs)})"

    def _print_GreaterThan(self, expr):
        return f"rt.le({self._print(expr.rhs)}, {self._print(expr.lhs)})"

    def _print_And(self, expr):
        return "rt.and_(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Or(self, expr):
        return "rt.or_(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Not(self, expr):
        return f"rt.not_({self._print(expr.args[0])})"

    def _print_Implies(self, expr):
        return f"rt.implies({self._print(expr.args[0])}, {self._print(expr.args[1])})"

    def _print_Equivalent(self, expr):
        return "rt.iff(" + ", ".join(self._print(a) for a in expr.args) + ")"


@dataclass
class PropertySource:
    """The generated source of one property and the names of its parameters."""

    function_name: str
    source: str
    #: Lean variable name → Python parameter name, in drawing order.
    parameters: dict[str, str]


def _comment(text: str) -> str:
    """A Lean name as comment text: one line, whatever it contains."""
    return " ".join(text.split())


def _unique(ident: str, used: set[str]) -> str:
    """``ident``, or ``ident_1``, ``ident_2``… : the first that is not in ``used`` (added)."""
    candidate, count = ident, 0
    while candidate in used:
        count += 1
        candidate = f"{ident}_{count}"
    used.add(candidate)
    return candidate


def parameter_names(statement: Statement) -> dict[str, str]:
    """Lean variable name → Python parameter name, injective within the statement.

    :func:`python_identifier` is readable but not injective (``x'`` and ``x_p`` both read
    ``v_x_p``); :func:`~mirror.translate.identifiers.binder_identifiers` settles clashes
    with a stable suffix (whatever the order), so the planner, the printer and the
    generated mirrors' helpers agree."""
    identifiers = binder_identifiers(v.name for v in statement.variables)
    return {v.name: identifiers[v.name] for v in statement.variables}


def print_property(statement: Statement, function_name: str | None = None) -> PropertySource:
    """Generate ``def prop_<name>(rt, *, <params>)`` returning ``(hypotheses, conclusion)``.

    A variable the statement defines by an equation hypothesis (``h : c = a ^ b``, see
    :attr:`~mirror.translate.translation.Statement.definitions`) is recomputed from its definition
    first, so the hypothesis holds exactly in every runtime."""
    params = parameter_names(statement)
    names: dict[sp.Basic, str] = {v.symbol: params[v.name] for v in statement.variables}
    printer = PropertyPrinter(names)
    fname = function_name or "prop_" + python_identifier(statement.name).removeprefix("v_")
    signature = ", ".join(["rt", "*", *params.values()]) if params else "rt"
    lines = [f"def {fname}({signature}):"]
    if len(lines[0]) > WIDTH:
        lines = [f"def {fname}(", *_packed(signature.split(", "), " " * 8, "):")]
    for definition in statement.definitions:
        ident = params[definition.name]
        lines.append(f"    # {_comment(definition.name)} is defined by hypothesis "
                     f"{_comment(definition.label)}")
        lines.append(f"    {ident} = rt.define({definition.name!r}, "
                     f"{printer.doprint(definition.expr)})")
    hyp_exprs: list[str] = []
    used: set[str] = set()
    for label, hyp in statement.hypotheses:
        code = printer.doprint(hyp)
        lines.append(f"    # hypothesis {_comment(label)}")
        hyp_name = _unique("h_" + python_identifier(label).removeprefix("v_"), used)
        lines.append(f"    {hyp_name} = {code}")
        hyp_exprs.append(hyp_name)
    hypotheses = f"rt.and_({', '.join(hyp_exprs)})" if hyp_exprs else "rt.truth(True)"
    lines.append("    # hypotheses, conclusion")
    lines.append(f"    return {hypotheses}, {printer.doprint(statement.conclusion)}")
    laid = [part for line in lines for part in wrap_assignment(line)]
    return PropertySource(fname, "\n".join(laid) + "\n", params)


def _packed(items: list[str], pad: str, closing: str) -> list[str]:
    """``items`` joined by ``, `` on lines of at most :data:`WIDTH` characters."""
    lines = [pad]
    for position, item in enumerate(items):
        piece = item + (closing if position == len(items) - 1 else ",")
        if lines[-1] != pad and len(lines[-1]) + 1 + len(piece) > WIDTH:
            lines.append(pad)
        lines[-1] += piece if lines[-1] == pad else " " + piece
    return lines


__all__ = ["CodegenError", "PropertyPrinter", "PropertySource", "parameter_names",
           "print_property", "python_identifier"]
