"""The ulps measure where Lean's value lies beyond float64's range (issue 20): round-to-nearest
overflows such a real value to ``±inf``, and rounds each lane of a complex value on its own,
so an infinite lane is the correct rounding exactly when Lean's lane is beyond the range with
the same sign. Nothing else non-finite passes."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from mirror.bind.binding import runtime_bindings
from mirror.judge.accuracy import replay_conformance
from mirror.judge.ulps import errors
from mirror.product.generator import project_bindings
from tests.mirror.conftest import ROOT

MP = mpmath.mp.clone()
MP.dps = 60
BIG = MP.mpf("2.0410904740444468e380")
INF = math.inf


@pytest.mark.parametrize("kernel, lean", [
    (complex(-INF, 1.697395700347547e+276), MP.mpc(-BIG, "1.6973957003475469e276")),
    (complex(INF, -INF), MP.mpc(BIG, -BIG)),  # Resolvent.head's draw of round 19
    (complex(3.0, INF), MP.mpc(3, BIG)),
    (-INF, -BIG),
], ids=["one-lane", "both-lanes", "imaginary-lane", "real"])
def test_an_infinite_lane_beyond_the_range_is_the_correct_rounding(kernel, lean):
    ulps, _, reason = errors(np.array([kernel]), [lean], "float64")
    assert ulps <= 0.5, reason


@pytest.mark.parametrize("kernel, lean", [
    # the finite lane off by 2e300: 1e8 ulps of the largest finite number (the ulp of a
    # modulus beyond the range)
    (complex(INF, 1e300), MP.mpc(BIG, "-1e300")),
    (complex(-INF, 1.0), MP.mpc(BIG, 1)),         # the wrong sign
    (complex(INF, 1.0), MP.mpc("1e308", 1)),      # Lean's lane is in range
    (complex(INF, math.nan), MP.mpc(BIG, BIG)),   # a NaN lane
    (INF, MP.mpf("1e300")),
    (math.nan, BIG),
], ids=["finite-lane-off", "sign", "in-range", "nan-lane", "real-in-range", "real-nan"])
def test_anything_else_non_finite_is_refuted(kernel, lean):
    ulps, _, _ = errors(np.array([kernel]), [lean], "float64")
    assert ulps > 4


def test_the_path_product_row_holds_where_its_value_overflows():
    # round 19's failing pathProd draw: a_5 a_6 has real part -2.04e380 (beyond float64),
    # imaginary part 1.70e276; the kernel's (-inf + 1.70e276 i) is its correct rounding
    import mirrors.leanmirror_mirror_resolvent as module

    prop = module.prop_Mirror__Resolvent__pathProd__conformance
    table = project_bindings(ROOT, prop.lean_name, sorted(prop.bound_to))
    bindings = runtime_bindings(set(prop.bound_to), table)
    a = [0j] * 5 + [complex(-6.962525350693161e+16, 2.4006291436227164e+259),
                    complex(7.070628567751446e+16, 8.502314818040987e+120)]
    verdict, _, method = replay_conformance(prop, prop.plan,
                                            bindings["Mirror.Resolvent.pathProd"], bindings,
                                            {"i": 6, "j": 4, "a": a})
    assert verdict == "holds", method
