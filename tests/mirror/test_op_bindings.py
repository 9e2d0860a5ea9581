"""The Op Spec bindings: every Lean Op Spec is bound to its NumPy kernel, and the generated
conformance property ``kernel(args) ≈ unfolded Lean definition(args)`` holds (or refutes a
wrong kernel)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from bridge.scanner import scan_project
from mirror.binding import BINDINGS, OP_BINDINGS, Binding
from mirror.impl.ops import OP_SPECS, rmsnorm
from mirror.pipeline import CheckSettings, build_mirrors, check_mirror

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
    wrong = Binding("Mirror.Ops.rmsnorm", "mirror.impl.ops:rmsnorm_unit", _weightless_rmsnorm,
                    "rmsnorm_unit(eps, x): the weight is ignored")
    mirrors = build_mirrors(extraction, bindings={wrong.lean_name: wrong})
    (mirror,) = [m for m in mirrors if m.name == "Mirror.Ops.rmsnorm.conformance"]
    result = check_mirror(mirror, SMALL)
    assert result.mirror_status == "refuted", result.reason
    assert result.bound_to == ["mirror.impl.ops:rmsnorm_unit"]
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
    W = rng.uniform(-5, 5, size=(V, K))
    for cap in (False, True):
        z = _call("lmHead", [np.float64(0.5), np.bool_(cap), np.float64(2.0), x, W], [T, K, V])
        for t in range(T):
            for v in range(V):
                plain = 0.5 * sum(x[t, k] * W[v, k] for k in range(K))
                assert z[t, v] == pytest.approx(2.0 * math.tanh(plain / 2.0) if cap else plain)


def test_gdn_state_adapter_stacks_every_state_or_returns_the_one_asked_for():
    rng = np.random.default_rng(2)
    T, Dk, Dv = 3, 2, 4
    alpha, beta = rng.uniform(-1, 1, size=(2, T))
    k, v = rng.normal(size=(T, Dk)), rng.normal(size=(T, Dv))
    stacked = _call("gdnState", [alpha, beta, k, v], [T, Dk, Dv])
    assert stacked.shape == (T + 1, Dv, Dk)
    np.testing.assert_array_equal(stacked[0], np.zeros((Dv, Dk)))
    state = np.zeros((Dv, Dk))
    for t in range(T):  # S_{t+1} = α S (I − β k kᵀ) + β v kᵀ
        state = (alpha[t] * state @ (np.eye(Dk) - beta[t] * np.outer(k[t], k[t]))
                 + beta[t] * np.outer(v[t], k[t]))
        np.testing.assert_allclose(stacked[t + 1], state, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(_call("gdnState", [alpha, beta, k, v, t + 1], [T, Dk, Dv]),
                                   state, rtol=1e-12, atol=1e-12)
