"""Smoke test of the fractional experiment (tiny steps) and the CIFAR batch reader."""

from __future__ import annotations

import json
import math
import pickle

import matplotlib  # noqa: F401  (test dependencies: a missing one fails, never skips)
import numpy as np
import pytest
import sklearn  # noqa: F401
import torch

from bridge.errors import InvalidArgument
from mirror.bundled.experiments.fractional import load_cifar, parameter_counts, run


def test_parameter_counts_are_matched() -> None:
    counts = parameter_counts()
    totals = [entry["total"] for entry in counts.values()]
    assert max(totals) - min(totals) <= 0.01 * max(totals)
    assert counts["linear"]["mixer"] == 64 * 64 == counts["symmetric"]["mixer"]


def test_smoke_run_writes_results_and_plots(tmp_path) -> None:
    results = run(tmp_path, seeds=(0,), steps=12, progress=False, refresh_every=5, eval_every=6, shifts=6,
                  error_shifts=(4, 8))
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["dataset"] == "digits"
    assert {run["kind"] for run in data["runs"]} == {"linear", "symmetric", "accretive"}
    for entry in data["runs"]:
        assert len(entry["loss"]) == 12 and entry["failures"] + sum(v is not None for v in entry["loss"]) == 12
        assert 0.0 <= entry["val_accuracy"] <= 1.0
        assert math.isfinite(entry["seconds"]) and entry["seconds"] > 0
    accretive = next(entry for entry in data["runs"] if entry["kind"] == "accretive")
    assert accretive["bound_refreshes"] == 6 * 3  # 6 blocks, refreshed at steps 0, 5, 10
    for name in results["plots"]:
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_run_refuses_bad_arguments(tmp_path) -> None:
    with pytest.raises(InvalidArgument):
        run(tmp_path, steps=0, progress=False)
    with pytest.raises(InvalidArgument):
        run(tmp_path, steps=2, r=1.5, progress=False)
    with pytest.raises(InvalidArgument):
        run(tmp_path, steps=2, dataset=str(tmp_path / "missing"), progress=False)


def _write_batch(path, rows: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    batch = {b"data": rng.integers(0, 256, (rows, 3072), dtype=np.uint8), b"labels": list(rng.integers(0, 10, rows))}
    path.write_bytes(pickle.dumps(batch))


def test_cifar_reader_projects_to_width(tmp_path) -> None:
    for i in range(1, 6):
        _write_batch(tmp_path / f"data_batch_{i}", 4, i)
    _write_batch(tmp_path / "test_batch", 3, 9)
    data = load_cifar(tmp_path, width=64)
    assert data["x_train"].shape == (20, 64) and data["x_val"].shape == (3, 64)
    assert data["y_train"].shape == (20,) and np.all(np.isfinite(data["x_train"]))


def test_cifar_reader_refuses_foreign_pickles(tmp_path) -> None:
    for i in range(1, 6):
        _write_batch(tmp_path / f"data_batch_{i}", 2, i)
    (tmp_path / "test_batch").write_bytes(pickle.dumps({b"data": InvalidArgument("x"), b"labels": [1]}))
    with pytest.raises(InvalidArgument):
        load_cifar(tmp_path)


def test_torch_accretive_mixer_computes_the_fractional_power() -> None:
    """The training block's solve-based operator agrees with scipy's A^r (float32 tolerance)."""
    from mirror.bundled.experiments.fractional import _build_model
    from mirror.bundled.impl.fractional import fractional_power_reference

    torch.manual_seed(3)
    model = _build_model("accretive", width=64, depth=1, features=64, classes=10, r=0.5,
                         delta=0.1, shifts=8, refresh_every=10)
    mixer = model.blocks[0].mixer
    mixer.refresh(0)
    with torch.no_grad():
        op = mixer(torch.eye(64)).T.double().numpy()
        A = (mixer.sym() + mixer.skew_matrix()).double().numpy()
    ref = fractional_power_reference(A, 0.5)
    assert np.linalg.norm(op - ref, 2) <= 1e-3 * np.linalg.norm(ref, 2)
    low, high = mixer.bounds
    s = np.linalg.eigvalsh((A + A.T) / 2)
    assert low <= s[0] and high >= s[-1]


@pytest.mark.slow
def test_the_full_digits_experiment_runs_end_to_end(tmp_path) -> None:
    """The spec's comparison on digits with the default budget (3 seeds × 1500 updates)."""
    results = run(tmp_path, progress=False)
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["dataset"] == "digits"
    totals = [entry["total"] for entry in data["parameter_counts"].values()]
    assert max(totals) - min(totals) <= 0.01 * max(totals)  # matched parameter count
    for kind in ("linear", "symmetric", "accretive"):
        summary = data["summary"][kind]
        assert summary["runs"] == 3
        assert summary["val_accuracy"]["mean"] > 0.9  # every block learns digits
        assert 0.0 <= summary["failure_rate"]["mean"] <= 1.0
    for name in results["plots"]:
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
