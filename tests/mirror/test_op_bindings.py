"""The Op Spec bindings: every Lean Op Spec is bound to its NumPy kernel, and the generated
conformance property ``kernel(args) ≈ unfolded Lean definition(args)`` holds (or refutes a
wrong kernel)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from bridge.scanner import scan_project
from mirror.bind.binding import Binding
from mirror.bundled import BINDINGS, OP_BINDINGS
from mirror.bundled.impl.ops import OP_SPECS, rmsnorm
from mirror.product.pipeline import CheckSettings, build_mirrors, check_mirror

ROOT = Path(__file__).resolve().parents[2]
SMALL = CheckSettings(max_examples=30, sweep=64)
OPS_MODULES = [f"Mirror.Ops.{m}" for m in
               ("Scalar", "Norm", "Linear", "Attention", "Rope", "DeltaNet", "Conv")]


@pytest.fixture(scope="module")
def extraction():
    return scan_project(ROOT, modules=OPS_MODULES)


@pytest.fixture(scope="module")
def conformance(extraction):
    mirrors = build_mirrors(extraction)
    return {m.name: m for m in mirrors if m.role == "conformance"}


def test_every_lean_defined_op_spec_is_bound_to_its_registry_kernel(extraction):
    declarations = extraction.by_name()
    defined = [spec for spec in OP_SPECS.values() if spec.lean_defined]
    assert len(defined) == 29
    for spec in defined:
        binding = BINDINGS.get(spec.lean_name)
        assert binding is not None, f"no binding for {spec.lean_name}"
        decl = declarations.get(spec.lean_name)
        assert decl is not None, f"{spec.lean_name} is not defined in lean/Mirror/Ops"
        assert decl.kind in ("def", "abbrev")
        assert binding.load() is spec.kernel, (binding.implementation, spec.kernel)
    # the Op Spec table binds nothing else, and the spec's Lean-less label stays unbound
    assert {b.lean_name for b in OP_BINDINGS} == {s.lean_name for s in defined}
    assert "slidingDecodeGQA" not in {b.lean_name.rsplit(".", 1)[-1] for b in OP_BINDINGS}


@pytest.mark.parametrize(
    "op", ["sigmoid", "rmsnormOffset", "causalGQA", "gatedDeltaRule", "rope", "chunkDeltaRule"]
)
def test_conformance_of_a_representative_kernel(conformance, op):
    mirror = conformance[f"Mirror.Ops.{op}.conformance"]
    assert mirror.status == "ready", mirror.reason
    result = check_mirror(mirror, SMALL)
    assert result.mirror_status == "tested", result.reason
    assert result.kind == "conformance"
    assert result.examples > 0 and result.rejected <= result.examples
    assert result.bound_to == [BINDINGS[f"Mirror.Ops.{op}"].implementation]


def _weightless_rmsnorm(kernel, args: list, dims: list) -> np.ndarray:
    """A planted wrong kernel: RMSNorm that forgets its weight (otherwise the real
    ``rmsnormUnit`` adapter, so that only the weight differs)."""
    eps, x, _w = args
    return BINDINGS["Mirror.Ops.rmsnormUnit"].call(kernel, [eps, x], dims)


def test_a_kernel_that_forgets_the_weight_is_refuted(extraction, conformance):
    # the real binding passes on the same budget …
    real = check_mirror(conformance["Mirror.Ops.rmsnorm.conformance"], SMALL)
    assert real.mirror_status == "tested", real.reason
    # … a local table binding a weightless kernel to the same Lean definition does not
    wrong = Binding("Mirror.Ops.rmsnorm", "mirror.bundled.impl.ops:rmsnorm_unit", _weightless_rmsnorm,
                    "rmsnorm_unit(eps, x): the weight is ignored")
    mirrors = build_mirrors(extraction, bindings={wrong.lean_name: wrong})
    (mirror,) = [m for m in mirrors if m.name == "Mirror.Ops.rmsnorm.conformance"]
    result = check_mirror(mirror, SMALL)
    assert result.mirror_status == "refuted", result.reason
    assert result.bound_to == ["mirror.bundled.impl.ops:rmsnorm_unit"]
    example = result.counterexample
    eps = np.float64(example["eps"])
    x, w = np.array(example["x"], dtype=float), np.array(example["w"], dtype=float)
    right = BINDINGS["Mirror.Ops.rmsnorm"]
    # the counterexample really separates the two: there the weight changes the output
    with_weight = right.call(rmsnorm, [eps, x, w], [])
    assert not np.allclose(with_weight, right.call(rmsnorm, [eps, x, np.ones_like(w)], []))


def _lean_rope(theta: float, rot: int, denom: int, active: int, pos, x) -> np.ndarray:
    """``Mirror.Ops.rope`` transcribed entry by entry (``coord`` reads 0 out of range)."""

    def inv_freq(i: int) -> float:
        return theta ** (-(2 * i / denom)) if i < active else 0.0

    def coord(row, j: int) -> float:
        return row[j] if j < len(row) else 0.0

    out = np.empty_like(x)
    half = rot // 2
    for t, row in enumerate(x):
        for d in range(len(row)):
            if d < half:
                phi = pos[t] * inv_freq(d)
                out[t, d] = row[d] * math.cos(phi) - coord(row, d + half) * math.sin(phi)
            elif d < rot:
                phi = pos[t] * inv_freq(d - half)
                out[t, d] = row[d] * math.cos(phi) + coord(row, d - half) * math.sin(phi)
            else:
                out[t, d] = row[d]
    return out


@pytest.mark.parametrize("rot", [0, 1, 2, 3, 5, 6, 7, 9])
def test_rope_adapter_covers_odd_and_oversized_rot(rot):
    rng = np.random.default_rng(rot)
    x = rng.uniform(-5, 5, size=(3, 6))
    pos = np.array([0, 2, 5])
    binding = BINDINGS["Mirror.Ops.rope"]
    got = binding.call(binding.load(), [10000.0, rot, 6, 2, pos, x], [3, 6])
    np.testing.assert_allclose(got, _lean_rope(10000.0, rot, 6, 2, pos, x), rtol=1e-12,
                               atol=1e-12)


def test_decode_adapter_reads_query_head_c_g_as_flat_head_c_times_g_plus_g():
    rng = np.random.default_rng(0)
    hkv, groups, depth, length = 2, 3, 4, 5
    q = rng.normal(size=(hkv, groups, depth))
    k, v = rng.normal(size=(2, length, hkv, depth))
    binding = BINDINGS["Mirror.Ops.decodeGQA"]
    got = binding.call(binding.load(), [0.5, q, k, v], [length, hkv, groups, depth])
    # Lean's decodeGQA written out: query head (c, g) attends over every key of kv head c
    expected = np.zeros((hkv, groups, depth))
    for c in range(hkv):
        for g in range(groups):
            logits = [0.5 * sum(q[c, g, i] * k[l, c, i] for i in range(depth)) for l in range(length)]
            weights = np.exp(np.array(logits) - max(logits))
            expected[c, g] = (weights / weights.sum()) @ v[:, c]
    np.testing.assert_allclose(np.reshape(got, expected.shape), expected, rtol=1e-12, atol=1e-12)


def test_norm_adapter_gives_lean_zero_where_the_normaliser_is_not_positive():
    binding = BINDINGS["Mirror.Ops.rmsnorm"]
    x = np.array([[0.0, 0.0], [3.0, 4.0]])
    w = np.array([2.0, -1.0])
    got = binding.call(binding.load(), [np.float64(-1.0), x, w], [2, 2])
    # row 0: √(0 − 1) is Lean's 0 and 0 / 0 = 0; row 1: √(12.5 − 1)
    np.testing.assert_allclose(got, [[0.0, 0.0], [3 / math.sqrt(11.5) * 2, -4 / math.sqrt(11.5)]])


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z))


def _gelu_tanh(z: float) -> float:
    return 0.5 * z * (1 + math.tanh(math.sqrt(2 / math.pi) * (z + 0.044715 * z ** 3)))


def _call(op: str, args: list, dims: list) -> np.ndarray:
    binding = BINDINGS[f"Mirror.Ops.{op}"]
    return np.asarray(binding.call(binding.load(), args, dims))


def test_adapters_whose_conformance_rows_the_pipeline_cannot_draw_yet():
    """``gateUp``/``siluMul``/``geluMul`` (``Fin (I + I)``), ``embed`` (``Fin T → Fin V``) and
    ``lmHead`` (a ``Bool`` condition) against entry-by-entry transcriptions of the Lean
    definitions."""
    rng = np.random.default_rng(1)
    T, K, I, V = 3, 4, 2, 5
    x = rng.uniform(-5, 5, size=(T, K))
    wg, wu = rng.uniform(-5, 5, size=(2, I, K))
    fused = _call("gateUp", [x, wg, wu], [T, K, I])
    for t in range(T):
        for i in range(I):  # Fin.castAdd I i is column i, Fin.natAdd I i is column I + i
            assert fused[t, i] == pytest.approx(sum(x[t, k] * wg[i, k] for k in range(K)))
            assert fused[t, I + i] == pytest.approx(sum(x[t, k] * wu[i, k] for k in range(K)))
    gu = rng.uniform(-5, 5, size=(T, 2 * I))
    swiglu, geglu = _call("siluMul", [gu], [T, I]), _call("geluMul", [gu], [T, I])
    for t in range(T):
        for i in range(I):
            a, b = gu[t, i], gu[t, I + i]
            assert swiglu[t, i] == pytest.approx(a * _sigmoid(a) * b)
            assert geglu[t, i] == pytest.approx(_gelu_tanh(a) * b)
    table = rng.uniform(-5, 5, size=(V, K))
    tokens = np.array([4, 0, 4])
    np.testing.assert_allclose(_call("embed", [np.float64(-1.5), table, tokens], [V, T, K]),
                               -1.5 * table[tokens])
    # lmHead is vectorized: a batch of draws, the Bool `cap` off in one and on in the other
    W = rng.uniform(-5, 5, size=(2, V, K))
    mul, cap, c = np.array([0.5, -1.5]), np.array([False, True]), np.array([2.0, 3.0])
    z = _call("lmHead", [mul, cap, c, np.stack([x, 2 * x]), W], [T, K, V])
    assert z.shape == (2, T, V)
    for b, xb in enumerate((x, 2 * x)):
        for t in range(T):
            for v in range(V):
                plain = mul[b] * sum(xb[t, k] * W[b, v, k] for k in range(K))
                expected = c[b] * math.tanh(plain / c[b]) if cap[b] else plain
                assert z[b, t, v] == pytest.approx(expected)


def test_gdn_state_adapter_stacks_every_state_or_returns_the_one_asked_for():
    """Vectorized: a batch of two draws; each draw's own ``t``, and ``t > T`` refused for
    that draw only."""
    from mirror.bind.binding import RefusedDraws

    rng = np.random.default_rng(2)
    B, T, Dk, Dv = 2, 3, 2, 4
    alpha, beta = rng.uniform(-1, 1, size=(2, B, T))
    k, v = rng.normal(size=(B, T, Dk)), rng.normal(size=(B, T, Dv))
    stacked = _call("gdnState", [alpha, beta, k, v], [T, Dk, Dv])
    assert stacked.shape == (B, T + 1, Dv, Dk)
    np.testing.assert_array_equal(stacked[:, 0], np.zeros((B, Dv, Dk)))
    for b in range(B):
        state = np.zeros((Dv, Dk))
        for t in range(T):  # S_{t+1} = α S (I − β k kᵀ) + β v kᵀ
            state = (alpha[b, t] * state @ (np.eye(Dk) - beta[b, t] * np.outer(k[b, t], k[b, t]))
                     + beta[b, t] * np.outer(v[b, t], k[b, t]))
            np.testing.assert_allclose(stacked[b, t + 1], state, rtol=1e-12, atol=1e-12)
    picked = _call("gdnState", [alpha, beta, k, v, np.array([1, T])], [T, Dk, Dv])
    np.testing.assert_array_equal(picked, [stacked[0, 1], stacked[1, T]])
    with pytest.raises(RefusedDraws) as refused:
        _call("gdnState", [alpha, beta, k, v, np.array([T + 1, 0])], [T, Dk, Dv])
    assert refused.value.refused.tolist() == [True, False]


VECTORIZED = ["sigmoid", "silu", "softplus", "geluTanh", "softcap", "rmsnorm", "rmsnormOffset",
              "rmsnormUnit", "rmsnormGated", "l2norm", "linear", "gateUp", "siluMul", "geluMul",
              "residual", "embed", "lmHead", "softmax", "sigmoidGate", "causalConvSilu",
              "gdnState", "gatedDeltaRule", "gdnStep"]


def test_which_bundled_bindings_are_vectorized():
    """25 of the 40 bundled bindings take a batch in one call; the rest are per draw, each
    for the reason its adapter states (a per-draw prefix, a per-call scalar or structure, one
    matrix per solve)."""
    vectorized = sorted(n for n, b in BINDINGS.items() if b.vectorized)
    assert vectorized == sorted([f"Mirror.Ops.{op}" for op in VECTORIZED]
                                + ["Mirror.Resolvent.gate", "Mirror.Resolvent.blendMag"])
    assert len(BINDINGS) == 40


def _one_by_one(binding, draws: list[list]) -> np.ndarray:
    """The binding's value per draw: a batch of one draw at a time."""
    return np.concatenate([
        np.asarray(binding.call(binding.load(), [np.asarray(a)[None] for a in draw], []))
        for draw in draws])


def test_a_vectorized_batch_equals_its_draws_one_at_a_time():
    """Per-draw scalars (``eps``, ``c``, ``r``, ``mul``) and per-draw weights travel with
    their rows: one call on a batch gives what each draw gives alone."""
    rng = np.random.default_rng(3)
    B, T, H, N, K, V = 4, 3, 5, 2, 3, 6
    eps = np.array([1e-6, -1.0, 0.5, 2.0])
    x = rng.uniform(-3, 3, size=(B, T, H))
    x[1, 0] = 0.0  # a row whose normaliser is not positive: Lean's 0
    w, z = rng.uniform(-2, 2, size=(B, H)), rng.uniform(-2, 2, size=(B, T, H))
    cases = {
        "rmsnorm": [eps, x, w], "rmsnormOffset": [eps, x, w], "rmsnormUnit": [eps, x],
        "rmsnormGated": [eps, x, z, w], "l2norm": [eps, x],
        "softcap": [np.array([0.0, 1.5, -2.0, 30.0]), rng.uniform(-5, 5, size=B)],
        "residual": [eps, x, z],
        "linear": [x, rng.uniform(-2, 2, size=(B, N, H))],
        "gateUp": [x, *rng.uniform(-2, 2, size=(2, B, N, H))],
        "embed": [eps, rng.uniform(-2, 2, size=(B, V, H)), rng.integers(0, V, size=(B, T))],
        "softmax": [x[..., 0], rng.random((B, T)) < 0.6],
        "causalConvSilu": [rng.uniform(-2, 2, size=(B, H, K)), x],
    }
    for op, args in cases.items():
        binding = BINDINGS[f"Mirror.Ops.{op}"]
        batch = np.asarray(binding.call(binding.load(), args, []))
        alone = _one_by_one(binding, [[a[b] for a in args] for b in range(B)])
        np.testing.assert_allclose(batch, alone, rtol=1e-13, atol=0, err_msg=op)


def test_a_per_row_scalar_of_the_wrong_shape_names_the_argument():
    from bridge.errors import InvalidArgument

    with pytest.raises(InvalidArgument) as caught:
        rmsnorm(np.ones(3), np.ones((2, 4)), np.ones(4))
    assert str(caught.value) == ("argument 'eps' has shape (3,); expected a real scalar or one "
                                 "per leading index, a shape that prefixes (2, 4)")
