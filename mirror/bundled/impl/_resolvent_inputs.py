"""The inputs of the resolvent operator (:mod:`mirror.bundled.impl.resolvent`): its switches,
the refusal of non-finite inputs, and the checking and reshaping of its arrays.

Every public function of the operator checks its arguments here first, so that a wrong
shape, a complex or non-numeric array, or a NaN/infinite entry is refused with a message that
names the argument, what came and what was expected, before any arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from bridge.errors import InvalidArgument, LeanMirrorError

#: The input classes :class:`NonFinite` may name, in the order :func:`operator` checks them
#: (``value`` is checked by :func:`readout` only).
NON_FINITE_INPUTS = (
    "switch",
    "query",
    "key",
    "magnitude",
    "phase",
    "blended phase",
    "logit",
    "value",
)


class NonFinite(LeanMirrorError, ArithmeticError):
    """A NaN or infinite input (or derived quantity) was refused.

    ``input`` names the class that was non-finite: one of ``query``, ``key``, ``magnitude``,
    ``phase``, ``switch``, ``blended phase``, ``logit`` (and ``value`` for :func:`readout`).
    """

    def __init__(self, input: str, detail: str = "") -> None:
        self.input = input
        self.detail = detail
        message = f"non-finite {input}"
        if detail:
            message += f": {detail}"
        message += f"; expected every {input} to be finite"
        super().__init__(message)


def _real_scalar(value: Any, name: str) -> float:
    """A Python float from a real scalar; anything else is refused."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        raise InvalidArgument(f"{name} is {value!r}; expected a real number")
    return float(value)


@dataclass(frozen=True)
class Switches:
    """The three switches ``(beta, qk, g)`` of the head.

    ``beta`` is the exponent of the row normaliser ``Z_i`` (1: softmax-class rows, 0: no
    normalisation), ``qk`` scales the logit ``s_ij`` (0 removes queries and keys exactly) and
    ``g`` blends the gate in (0 removes the gates exactly). Values are stored as floats;
    non-finite values are allowed here and refused by :func:`operator` with
    ``NonFinite(input="switch")``.
    """

    beta: float
    qk: float
    g: float

    SOFTMAX: ClassVar["Switches"]
    UNNORMALIZED_KERNEL: ClassVar["Switches"]
    PATH_PRODUCT: ClassVar["Switches"]

    def __post_init__(self) -> None:
        for name in ("beta", "qk", "g"):
            value = getattr(self, name)
            object.__setattr__(self, name, _real_scalar(value, f"Switches.{name}"))


Switches.SOFTMAX = Switches(1.0, 1.0, 0.0)
Switches.UNNORMALIZED_KERNEL = Switches(0.0, 1.0, 0.0)
Switches.PATH_PRODUCT = Switches(0.0, 0.0, 1.0)

#: Causal softmax attention, ``(beta, qk, g) = (1, 1, 0)``.
SOFTMAX = Switches.SOFTMAX
#: The unnormalized exponential kernel, ``(0, 1, 0)``.
UNNORMALIZED_KERNEL = Switches.UNNORMALIZED_KERNEL
#: The exact path product of the gated chain, ``(0, 0, 1)``.
PATH_PRODUCT = Switches.PATH_PRODUCT


# --------------------------------------------------------------------------- arrays


def _switches(value: Any) -> Switches:
    """Accept a :class:`Switches` or a ``(beta, qk, g)`` triple."""
    if isinstance(value, Switches):
        return value
    if isinstance(value, (tuple, list)) and len(value) == 3:
        return Switches(*value)
    raise InvalidArgument(
        f"operator: switches is {value!r}; expected a Switches or a (beta, qk, g) triple"
    )


def _query_key(
    q: Any,
    k: Any,
    u: np.ndarray,
    theta: np.ndarray,
    seq: int | None,
    head_dim: int | None,
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Check and reshape ``q``/``k`` to ``(seq, head_dim)``; shapes must all agree."""
    q_arr = _real_array(q, "q")
    k_arr = _real_array(k, "k")
    for name, value in (("seq", seq), ("head_dim", head_dim)):
        is_int = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
        if value is not None and (not is_int or value < 0):
            raise InvalidArgument(f"operator: {name} is {value!r}; expected a non-negative int")
    n = u.size if seq is None else int(seq)
    if q_arr.ndim == 2:
        d = q_arr.shape[1] if head_dim is None else int(head_dim)
    elif q_arr.ndim == 1:
        if head_dim is not None:
            d = int(head_dim)
        elif n > 0 and q_arr.size % n == 0:
            d = q_arr.size // n
        else:
            d = 0
    else:
        raise InvalidArgument(
            f"operator: q has shape {q_arr.shape}; expected (seq, head_dim) or flat"
        )
    expected = (n, d)
    if q_arr.size != n * d or (q_arr.ndim == 2 and q_arr.shape != expected):
        raise InvalidArgument(
            f"operator: q has shape {q_arr.shape}; expected {expected} "
            f"(seq={n}, head_dim={d}) or flat of length {n * d}"
        )
    if k_arr.ndim not in (1, 2) or k_arr.size != n * d or (
        k_arr.ndim == 2 and k_arr.shape != expected
    ):
        raise InvalidArgument(
            f"operator: k has shape {k_arr.shape} and q has shape {q_arr.shape}; expected "
            f"{expected} (seq={n}, head_dim={d}) or flat of length {n * d}"
        )
    if u.size != n or theta.size != n:
        raise InvalidArgument(
            f"operator: u has shape {u.shape} and theta has shape {theta.shape}; "
            f"expected length seq={n} each"
        )
    if n > 0 and d == 0:
        raise InvalidArgument(
            f"operator: head_dim is 0 with seq={n} (q shape {q_arr.shape}); "
            "expected head_dim > 0 when seq > 0"
        )
    return q_arr.reshape(n, d), k_arr.reshape(n, d), n, d


def _refuse_non_finite(values: np.ndarray, input_class: str, argument: str) -> None:
    """Raise :class:`NonFinite` naming the first non-finite entry of ``values``."""
    if np.isfinite(values).all():
        return
    bad = ~np.isfinite(values)
    if bad.any():
        index = tuple(int(x) for x in np.argwhere(bad)[0])
        shown = ", ".join(str(x) for x in index)
        raise NonFinite(input_class, f"{argument}[{shown}] = {float(values[index])!r}")


def _as_array(value: Any, name: str, *, allow_complex: bool = False) -> np.ndarray:
    """``np.asarray`` with a readable error for anything that is not numeric."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise InvalidArgument(f"{name} is {value!r}; expected a numeric array ({exc})") from None
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_
    ):
        raise InvalidArgument(
            f"{name} has dtype {arr.dtype} ({_short(value)}); expected real numbers"
        )
    if np.iscomplexobj(arr) and not allow_complex:
        raise InvalidArgument(f"{name} is complex ({_short(value)}); expected real numbers")
    return arr


def _real_array(value: Any, name: str) -> np.ndarray:
    """A float64 array (any shape) from ``value``; complex or non-numeric is refused."""
    return _as_array(value, name).astype(np.float64, copy=False)


def _real_vector(value: Any, name: str) -> np.ndarray:
    """A 1-D float64 array from ``value``."""
    arr = _real_array(value, name)
    if arr.ndim != 1:
        raise InvalidArgument(f"{name} has shape {arr.shape}; expected a 1-D vector")
    return arr


def _complex_vector(value: Any, name: str) -> np.ndarray:
    """A 1-D complex128 array from ``value`` (real input is promoted exactly)."""
    arr = _as_array(value, name, allow_complex=True)
    if arr.ndim != 1:
        raise InvalidArgument(f"{name} has shape {arr.shape}; expected a 1-D vector")
    out = np.empty(arr.shape, dtype=np.complex128)
    if np.iscomplexobj(arr):
        out.real = arr.real
        out.imag = arr.imag
    else:
        out.real = arr
        out.imag = 0.0
    return out


def _short(value: Any) -> str:
    """A bounded repr for error messages."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
