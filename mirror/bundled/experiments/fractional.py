"""The fractional-power experiment (``leanmirror experiment fractional``).

A 6-layer residual MLP at width ``d = 64`` on scikit-learn's digits (64 features; ships in
the wheel) or, given a directory of the standard CIFAR-10 python batches, on CIFAR-10
projected to 64 features by a fixed Gaussian map. Three kinds of residual block at matched
parameter count (each block is ``x + W_o gelu(T(LN(x)) + b)``; only ``T`` differs):

``linear``      ``T(h) = h Wᵀ``                                  (``d²`` parameters)
``symmetric``   ``T(h) = h S^r``, ``S = L Lᵀ + δI``, ``L: d×d``, via ``torch.linalg.eigh``
``accretive``   ``T(h) = h (A^r)ᵀ``, ``A = L Lᵀ + δI + K``, ``L: d×q``, ``K`` skew stored as its
                ``d(d−1)/2`` free entries; ``A^r ≈ Σ_j c_j (λ_j I + A)^{-1} A`` with one batched
                ``torch.linalg.solve`` over the shifts; ``(δ, Λ)`` re-estimated from a detached
                ``S`` every ``refresh_every`` steps (not differentiated) and the quadrature rule
                rebuilt (``elliptic-fitted`` on ``[1, Λ/δ]``, the ratio rounded up to ``2^(k/4)``
                so rules are cached and reused; then scaled by ``δ``).

Measured over seeds: training loss at equal updates, validation accuracy, variance of the
gradient norm, failure rate (steps whose solve/eigh/loss/gradient was non-finite; such a
step is skipped), wall-clock. Results go to ``out_dir/results.json`` and three PNGs.
"""

from __future__ import annotations

import functools
import json
import math
import pickle
import platform
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from bridge.errors import InvalidArgument
from mirror.bundled.impl.fractional import SolveFailure, estimate_bounds
from mirror.bundled.impl.quadrature import build_rule, error_table

#: Block kinds, in the order results and plots list them.
KINDS = ("linear", "symmetric", "accretive")
#: Placements drawn in the error-vs-shifts plot.
PLOT_PLACEMENTS = ("log", "de", "elliptic", "elliptic-fitted", "rational")


# ----------------------------------------------------------------------------- data


class _BatchUnpickler(pickle.Unpickler):
    """Unpickler for CIFAR-10 python batches: only the numpy reconstruction globals a batch
    needs are allowed (a batch file is untrusted input; nothing else is importable)."""

    _ALLOWED = {
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "_reconstruct"),
        ("numpy", "ndarray"),
        ("numpy", "dtype"),
        ("numpy.core.multiarray", "scalar"),
        ("numpy._core.multiarray", "scalar"),
    }

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in self._ALLOWED:
            return super().find_class(module, name)
        raise InvalidArgument(f"dataset: a CIFAR batch references {module}.{name}, expected plain arrays")


def _read_batch(path: Path) -> tuple[np.ndarray, np.ndarray]:
    with path.open("rb") as handle:
        batch = _BatchUnpickler(handle, encoding="bytes").load()
    if not isinstance(batch, dict):
        raise InvalidArgument(f"dataset: {path} holds {type(batch).__name__}, expected a CIFAR batch dict")
    data = batch.get(b"data", batch.get("data"))
    labels = batch.get(b"labels", batch.get("labels"))
    if data is None or labels is None:
        raise InvalidArgument(f"dataset: {path} lacks 'data'/'labels', expected a CIFAR-10 python batch")
    array = np.asarray(data)
    if array.ndim != 2 or array.shape[1] != 3072:
        raise InvalidArgument(f"dataset: {path} data has shape {array.shape}, expected (N, 3072)")
    return array.astype(np.float64), np.asarray(labels, dtype=np.int64)


def load_cifar(directory: str | Path, width: int = 64, seed: int = 0) -> dict[str, np.ndarray]:
    """CIFAR-10 from the standard python batches in ``directory`` (``data_batch_1..5``,
    ``test_batch``), standardized per pixel and projected to ``width`` features by a fixed
    Gaussian map (seeded). The test batch is the validation split."""
    root = Path(directory)
    names = [f"data_batch_{i}" for i in range(1, 6)]
    missing = [n for n in names + ["test_batch"] if not (root / n).is_file()]
    if missing:
        raise InvalidArgument(f"dataset: {str(root)!r} lacks {', '.join(missing)}; expected the CIFAR-10 python batches")
    parts = [_read_batch(root / n) for n in names]
    x_train = np.concatenate([p[0] for p in parts])
    y_train = np.concatenate([p[1] for p in parts])
    x_val, y_val = _read_batch(root / "test_batch")
    mean, std = x_train.mean(axis=0), x_train.std(axis=0)
    std[std == 0] = 1.0
    projection = np.random.default_rng(seed).standard_normal((3072, width)) / math.sqrt(3072)
    return {
        "x_train": ((x_train - mean) / std) @ projection,
        "y_train": y_train,
        "x_val": ((x_val - mean) / std) @ projection,
        "y_val": y_val,
    }


def load_digits_split(val_fraction: float = 0.2, seed: int = 0) -> dict[str, np.ndarray]:
    """scikit-learn's digits (1797 × 64), stratified train/validation split, standardized
    with the training statistics."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    bunch = load_digits()
    x_train, x_val, y_train, y_val = train_test_split(
        bunch.data.astype(np.float64), bunch.target.astype(np.int64),
        test_size=val_fraction, random_state=seed, stratify=bunch.target,
    )
    mean, std = x_train.mean(axis=0), x_train.std(axis=0)
    std[std == 0] = 1.0
    return {"x_train": (x_train - mean) / std, "y_train": y_train, "x_val": (x_val - mean) / std, "y_val": y_val}


# ----------------------------------------------------------------------------- model


def _build_model(kind: str, *, width: int, depth: int, features: int, classes: int, r: float,
                 delta: float, shifts: int, refresh_every: int) -> Any:
    import torch
    from torch import nn

    class _FractionalMixer(nn.Module):
        """``T(h)`` of one block."""

        def __init__(self) -> None:
            super().__init__()
            d = width
            self.kind = kind
            if kind == "linear":
                self.weight = nn.Parameter(torch.randn(d, d) / math.sqrt(d))
            elif kind == "symmetric":
                self.lower = nn.Parameter(torch.randn(d, d) / math.sqrt(d))
            else:
                skew_free = d * (d - 1) // 2
                q = max(1, round((d * d - skew_free) / d))
                self.lower = nn.Parameter(torch.randn(d, q) / math.sqrt(q))
                self.skew = nn.Parameter(0.1 * torch.randn(skew_free) / math.sqrt(d))
                self.register_buffer("rows", torch.triu_indices(d, d, offset=1), persistent=False)
                self.nodes = torch.ones(shifts)
                self.coeffs = torch.zeros(shifts)
                self.bounds: tuple[float, float] | None = None
                self.refreshes = 0
                self.refresh_seconds = 0.0
                self.last_refresh = -(10**9)

        def sym(self) -> Any:
            return self.lower @ self.lower.T + delta * torch.eye(width, dtype=self.lower.dtype)

        def skew_matrix(self) -> Any:
            upper = torch.zeros(width, width, dtype=self.skew.dtype)
            upper = upper.index_put((self.rows[0], self.rows[1]), self.skew)
            return upper - upper.T

        def refresh(self, step: int) -> None:
            """Re-estimate (δ, Λ) from a detached S (and ‖K‖) and rebuild the rule."""
            if self.kind != "accretive" or step - self.last_refresh < refresh_every:
                return
            with torch.no_grad():
                s_np = self.sym().detach().double().numpy()
                k_np = self.skew_matrix().detach().double().numpy()
            low, high = estimate_bounds(s_np, margin=1.5, skew=k_np)
            started = time.perf_counter()
            rule = _normalized_rule(r, shifts, _quantize_ratio(high / low)).scaled(low)
            self.refresh_seconds += time.perf_counter() - started
            self.nodes = torch.tensor(rule.nodes, dtype=self.lower.dtype)
            self.coeffs = torch.tensor(rule.coefficients, dtype=self.lower.dtype)
            self.bounds = (low, high)
            self.refreshes += 1
            self.last_refresh = step

        def forward(self, h: Any) -> Any:
            if self.kind == "linear":
                return h @ self.weight.T
            if self.kind == "symmetric":
                values, vectors = torch.linalg.eigh(self.sym())
                power = (vectors * values.clamp_min(0.0).pow(r)) @ vectors.T
                return h @ power
            a = self.sym() + self.skew_matrix()
            eye = torch.eye(width, dtype=a.dtype)
            shifted = a.unsqueeze(0) + self.nodes.view(-1, 1, 1) * eye
            solved = torch.linalg.solve(shifted, a.expand(shifts, width, width))
            operator = torch.einsum("j,jab->ab", self.coeffs, solved)
            if not bool(torch.isfinite(operator).all()):
                raise SolveFailure("accretive block: the shifted solve produced non-finite values")
            return h @ operator.T

    class _Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.norm = nn.LayerNorm(width)
            self.mixer = _FractionalMixer()
            self.bias = nn.Parameter(torch.zeros(width))
            self.out = nn.Linear(width, width, bias=False)
            nn.init.normal_(self.out.weight, std=0.5 / math.sqrt(width * depth))

        def forward(self, x: Any) -> Any:
            return x + self.out(torch.nn.functional.gelu(self.mixer(self.norm(x)) + self.bias))

    class _Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inp = nn.Linear(features, width)
            self.blocks = nn.ModuleList(_Block() for _ in range(depth))
            self.norm = nn.LayerNorm(width)
            self.head = nn.Linear(width, classes)

        def forward(self, x: Any) -> Any:
            h = self.inp(x)
            for block in self.blocks:
                h = block(h)
            return self.head(self.norm(h))

        def refresh(self, step: int) -> None:
            for block in self.blocks:
                block.mixer.refresh(step)

    return _Net()


def _quantize_ratio(kappa: float) -> float:
    """``Λ/δ`` rounded *up* to the grid ``2^(k/4)``: the rule built for the rounded ratio covers
    the estimated interval, and rules are reused across refreshes (the cache below)."""
    return float(2.0 ** (math.ceil(4.0 * math.log2(max(kappa, 1.0 + 1e-9))) / 4.0))


@functools.lru_cache(maxsize=128)
def _normalized_rule(r: float, shifts: int, kappa: float) -> Any:
    """The ``elliptic-fitted`` rule on ``[1, kappa]`` (scale it to ``[δ, κδ]``)."""
    return build_rule("elliptic-fitted", r, shifts, 1.0, kappa)


def parameter_counts(width: int = 64, depth: int = 6, features: int = 64, classes: int = 10) -> dict[str, dict[str, int]]:
    """Total and per-mixer parameter counts of the three models."""
    import torch

    counts: dict[str, dict[str, int]] = {}
    for kind in KINDS:
        torch.manual_seed(0)
        model = _build_model(kind, width=width, depth=depth, features=features, classes=classes,
                             r=0.5, delta=0.1, shifts=4, refresh_every=1)
        mixer = sum(p.numel() for p in model.blocks[0].mixer.parameters())
        counts[kind] = {"total": int(sum(p.numel() for p in model.parameters())), "mixer": int(mixer)}
    return counts


# ----------------------------------------------------------------------------- training


def _train_one(kind: str, seed: int, data: dict[str, np.ndarray], *, steps: int, batch_size: int, lr: float,
               r: float, delta: float, shifts: int, refresh_every: int, width: int, depth: int,
               eval_every: int, bar: Any) -> dict[str, Any]:
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    x_train = torch.tensor(data["x_train"], dtype=torch.float32)
    y_train = torch.tensor(data["y_train"])
    x_val = torch.tensor(data["x_val"], dtype=torch.float32)
    y_val = torch.tensor(data["y_val"])
    classes = int(max(int(y_train.max()), int(y_val.max())) + 1)
    model = _build_model(kind, width=width, depth=depth, features=x_train.shape[1], classes=classes,
                         r=r, delta=delta, shifts=shifts, refresh_every=refresh_every)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    losses: list[float | None] = []
    grad_norms: list[float | None] = []
    val_curve: list[tuple[int, float]] = []
    failures = 0
    start = time.perf_counter()
    n = x_train.shape[0]
    order = rng.permutation(n)
    cursor = 0
    for step in range(steps):
        if cursor + batch_size > n:
            order, cursor = rng.permutation(n), 0
        idx = torch.from_numpy(order[cursor: cursor + batch_size])
        cursor += batch_size
        model.refresh(step)
        optimizer.zero_grad(set_to_none=True)
        try:
            loss = torch.nn.functional.cross_entropy(model(x_train[idx]), y_train[idx])
            if not bool(torch.isfinite(loss)):
                raise SolveFailure("non-finite loss")
            loss.backward()
            norm = float(torch.sqrt(sum((p.grad.double() ** 2).sum() for p in model.parameters() if p.grad is not None)))
            if not math.isfinite(norm):
                raise SolveFailure("non-finite gradient")
        except (SolveFailure, torch.linalg.LinAlgError, RuntimeError):
            failures += 1
            losses.append(None)
            grad_norms.append(None)
            optimizer.zero_grad(set_to_none=True)
        else:
            optimizer.step()
            losses.append(loss.item())
            grad_norms.append(norm)
        if (step + 1) % eval_every == 0 or step + 1 == steps:
            val_curve.append((step + 1, _accuracy(model, x_val, y_val)))
        if bar is not None:
            bar.update(1)
    seconds = time.perf_counter() - start
    finite_norms = np.array([g for g in grad_norms[steps // 10:] if g is not None])
    finite_losses = [v for v in losses if v is not None]
    tail = finite_losses[-max(1, steps // 20):]
    refreshes = sum(getattr(b.mixer, "refreshes", 0) for b in model.blocks)
    refresh_seconds = sum(getattr(b.mixer, "refresh_seconds", 0.0) for b in model.blocks)
    return {
        "kind": kind,
        "seed": seed,
        "loss": losses,
        "grad_norm": grad_norms,
        "val_curve": val_curve,
        "final_train_loss": float(np.mean(tail)) if tail else None,
        "val_accuracy": val_curve[-1][1] if val_curve else None,
        "grad_norm_mean": float(finite_norms.mean()) if finite_norms.size else None,
        "grad_norm_variance": float(finite_norms.var()) if finite_norms.size else None,
        "grad_norm_cv": float(finite_norms.std() / finite_norms.mean()) if finite_norms.size else None,
        "grad_norm_log_variance": float(np.log(finite_norms[finite_norms > 0]).var()) if finite_norms.size else None,
        "loss_at": _loss_checkpoints(losses),
        "failures": failures,
        "failure_rate": failures / steps,
        "seconds": seconds,
        "ms_per_step": 1000.0 * seconds / steps,
        "bound_refreshes": int(refreshes),
        "refresh_seconds": float(refresh_seconds),
    }


def _loss_checkpoints(losses: list[float | None]) -> dict[str, float | None]:
    """Mean training loss over a window of 20 updates ending at 50, 100, 200, 400, 800 and the
    last update (the ones a run reached)."""
    out: dict[str, float | None] = {}
    marks = [m for m in (50, 100, 200, 400, 800) if m <= len(losses)] + [len(losses)]
    for mark in marks:
        window = [v for v in losses[max(0, mark - 20): mark] if v is not None]
        out[str(mark)] = float(np.mean(window)) if window else None
    return out


def _accuracy(model: Any, x: Any, y: Any) -> float:
    import torch

    with torch.no_grad():
        try:
            logits = model(x)
        except (SolveFailure, torch.linalg.LinAlgError, RuntimeError):
            return float("nan")
        return float((logits.argmax(dim=1) == y).float().mean())


def _summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for kind in KINDS:
        mine = [run for run in runs if run["kind"] == kind]
        if not mine:
            continue
        entry: dict[str, Any] = {"runs": len(mine)}
        for key in ("final_train_loss", "val_accuracy", "grad_norm_mean", "grad_norm_variance",
                    "grad_norm_cv", "grad_norm_log_variance", "failure_rate", "seconds", "ms_per_step"):
            values = np.array([run[key] for run in mine if run[key] is not None and math.isfinite(run[key])])
            entry[key] = {"mean": float(values.mean()), "std": float(values.std())} if values.size else None
        entry["failed_runs"] = sum(1 for run in mine if run["failures"] > 0)
        marks = mine[0]["loss_at"].keys()
        entry["loss_at"] = {}
        for mark in marks:
            values = np.array([run["loss_at"][mark] for run in mine if run["loss_at"].get(mark) is not None])
            entry["loss_at"][mark] = {"mean": float(values.mean()), "std": float(values.std())} if values.size else None
        summary[kind] = entry
    return summary


def _plot(out: Path, runs: list[dict[str, Any]], table: list[dict[str, Any]], steps: int) -> list[str]:
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    colors = {"linear": "tab:blue", "symmetric": "tab:orange", "accretive": "tab:green"}
    files: list[str] = []

    fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(11, 4))
    window = max(1, steps // 50)
    for kind in KINDS:
        mine = [run for run in runs if run["kind"] == kind]
        if not mine:
            continue
        curves = np.array([[np.nan if v is None else v for v in run["loss"]] for run in mine], dtype=float)
        kernel = np.ones(window) / window
        smooth = np.array([np.convolve(np.nan_to_num(c, nan=np.nanmean(c)), kernel, mode="valid") for c in curves])
        xs = np.arange(smooth.shape[1]) + window
        ax_loss.plot(xs, smooth.mean(axis=0), color=colors[kind], label=kind)
        ax_loss.fill_between(xs, smooth.min(axis=0), smooth.max(axis=0), color=colors[kind], alpha=0.2)
        for i, run in enumerate(mine):
            pts = np.array(run["val_curve"], dtype=float)
            ax_acc.plot(pts[:, 0], pts[:, 1], color=colors[kind], alpha=0.7, label=kind if i == 0 else None)
    ax_loss.set(xlabel="update", ylabel=f"training loss (moving mean, {window})", yscale="log", title="loss at equal updates")
    ax_acc.set(xlabel="update", ylabel="validation accuracy", title="validation accuracy (each seed)")
    ax_loss.legend()
    ax_acc.legend()
    fig.tight_layout()
    path = out / "loss_curves.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    files.append(path.name)

    fig, ax = plt.subplots(figsize=(6, 4))
    for pos, kind in enumerate(KINDS):
        values = [run["grad_norm_variance"] for run in runs if run["kind"] == kind and run["grad_norm_variance"] is not None]
        if values:
            ax.bar(pos, float(np.mean(values)), color=colors[kind], alpha=0.6)
            ax.scatter([pos] * len(values), values, color="k", s=12, zorder=3)
    ax.set_xticks(range(len(KINDS)), KINDS)
    ax.set(ylabel="variance of gradient norm over steps", yscale="log", title="gradient-norm variance (bar: mean; dots: seeds)")
    fig.tight_layout()
    path = out / "grad_norm_variance.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    files.append(path.name)

    exponents = sorted({float(row["r"]) for row in table})
    fig, axes = plt.subplots(1, len(exponents), figsize=(5 * len(exponents), 4.2), sharey=True, squeeze=False)
    for ax, exponent in zip(axes[0], exponents):
        for placement in PLOT_PLACEMENTS:
            rows = [row for row in table if row["placement"] == placement and row["r"] == exponent]
            ax.semilogy([row["m"] for row in rows], [row["error"] for row in rows], marker="o", ms=3, label=placement)
        ax.axhline(1e-3, color="gray", ls="--", lw=0.8)
        ax.axhline(1e-8, color="gray", ls=":", lw=0.8)
        ax.set(xlabel="number of shifts m", title=f"t^{exponent:g} on [δ, 1e4 δ] (held-out)")
    axes[0][0].set_ylabel("max relative error")
    axes[0][0].legend()
    fig.tight_layout()
    path = out / "scalar_error_vs_shifts.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    files.append(path.name)
    return files


def run(
    out_dir: str | Path,
    *,
    seeds: Sequence[int] = (0, 1, 2),
    steps: int = 1500,
    dataset: str = "digits",
    progress: bool = True,
    kinds: Sequence[str] = KINDS,
    r: float = 0.5,
    shifts: int = 8,
    delta: float = 0.1,
    refresh_every: int = 100,
    batch_size: int = 128,
    lr: float = 2e-3,
    width: int = 64,
    depth: int = 6,
    eval_every: int = 50,
    threads: int | None = 1,
    error_shifts: Sequence[int] = tuple(range(4, 17)),
) -> dict[str, Any]:
    """Train every block kind for every seed for ``steps`` updates; write ``results.json`` and
    PNGs into ``out_dir``; return the results dict. ``dataset``: ``"digits"`` or a directory of
    CIFAR-10 python batches. ``threads``: torch intra-op threads during training
    (default 1: at width 64 more threads only contend; restored afterwards). ``error_shifts``: the shift counts of the scalar-error table/plot."""
    try:
        import torch
    except ImportError:
        raise InvalidArgument("the fractional experiment needs torch: pip install 'leanmirror[experiment]'") from None
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise InvalidArgument(f"steps: got {steps!r}, expected an integer >= 1")
    seed_list = [int(s) for s in seeds]
    if not seed_list:
        raise InvalidArgument(f"seeds: got {seeds!r}, expected at least one seed")
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        raise InvalidArgument(f"kinds: got {list(kinds)!r}, expected a non-empty subset of {KINDS}")
    if not (0.0 < float(r) < 1.0):
        raise InvalidArgument(f"r: got {r!r}, expected a real number in (0, 1)")
    if width != 64 and dataset == "digits":
        raise InvalidArgument(f"width: got {width!r}, expected 64 for digits (64 features)")
    if dataset == "digits":
        data, name = load_digits_split(), "digits"
    else:
        data, name = load_cifar(dataset, width=width), f"cifar10:{dataset}"
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    previous_threads = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(int(threads))  # restored below; small matrices gain nothing from more

    from tqdm import tqdm

    bar = tqdm(total=steps * len(seed_list) * len(kinds), desc="fractional", disable=not progress, unit="step")
    runs: list[dict[str, Any]] = []
    started = time.perf_counter()
    try:
        for seed in seed_list:
            for kind in kinds:
                bar.set_postfix_str(f"{kind} seed {seed}")
                runs.append(_train_one(kind, seed, data, steps=steps, batch_size=batch_size, lr=lr, r=float(r),
                                       delta=delta, shifts=shifts, refresh_every=refresh_every, width=width,
                                       depth=depth, eval_every=eval_every, bar=bar))
    finally:
        bar.close()
        used_threads = torch.get_num_threads()
        torch.set_num_threads(previous_threads)
    training_seconds = time.perf_counter() - started
    table = error_table(PLOT_PLACEMENTS, exponents=tuple(sorted({0.25, 0.5, 0.75, float(r)})), counts=tuple(int(m) for m in error_shifts))
    counts = parameter_counts(width, depth, data["x_train"].shape[1], int(data["y_train"].max()) + 1)
    results: dict[str, Any] = {
        "experiment": "fractional",
        "dataset": name,
        "config": {"seeds": seed_list, "steps": steps, "kinds": list(kinds), "r": float(r), "shifts": shifts,
                   "delta": delta, "refresh_every": refresh_every, "batch_size": batch_size, "lr": lr,
                   "width": width, "depth": depth, "placement": "elliptic-fitted", "dtype": "float32",
                   "bounds_margin": 1.5, "ratio_grid": "2^(k/4), rounded up"},
        "parameter_counts": counts,
        "summary": _summarize(runs),
        "runs": runs,
        "scalar_error_table": table,
        "training_seconds": training_seconds,
        "machine": {"python": platform.python_version(), "torch": torch.__version__, "threads": used_threads},
    }
    results["plots"] = _plot(out, runs, table, steps)
    results["total_seconds"] = time.perf_counter() - started
    (out / "results.json").write_text(json.dumps(_json_ready(results), indent=1))
    return results


def _json_ready(value: Any) -> Any:
    """NaN/inf → strings (JSON has none); tuples → lists."""
    if isinstance(value, dict):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


__all__ = ["KINDS", "load_cifar", "load_digits_split", "parameter_counts", "run"]
