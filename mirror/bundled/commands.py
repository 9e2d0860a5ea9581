"""The bundled demo's own commands: ``leanmirror models`` and ``leanmirror experiment``.

They belong to the bundled project (its model specifications and experiments), so the generic
command line does not name them: :func:`register` is the ``leanmirror.commands`` entry point
of this distribution (``pyproject.toml``), which :func:`mirror.product.cli.build_parser` loads
like any package's.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from mirror.product import cli

MODELS_HELP = ("the bundled demo: list its model specification nodes and their statuses "
               "(run in leanmirror's repository)")
MODELS_DESCRIPTION = (
    "List the compute-graph nodes of the bundled model specifications and, per "
    "node, whether the Op Spec it uses is proved, tested or UNKNOWN. A node is tested when its "
    "NumPy kernel passed conformance against the Lean definition; UNKNOWN when the Op Spec has "
    "no Lean definition (slidingDecodeGQA) or its conformance did not pass.")


def op_statuses_of(args: argparse.Namespace) -> dict[str, str]:
    """Op Spec name → ``tested`` when its kernel passed conformance against the Lean definition.

    A NumPy kernel is never ``proved``: no Lean proof is about it. The evidence comes from a
    report JSON (``--report``) or from a conformance run of the Op Specs' definitions now."""
    from mirror.bundled.models.spec import conformance_names, op_statuses

    if args.report is not None:
        path = Path(args.report)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            rows = data["statements"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise cli.CommandError(
                f"--report {args.report!r} is not a readable report.json ({exc}); "
                "run `leanmirror report` first or leave --report out"
            ) from exc
        results = [(r.get("name", ""), r.get("mirror_status")) for r in rows]
    else:
        from mirror.product.pipeline import CheckSettings, run

        project = cli.resolve_project(args.project)
        _bundled_only("models", project)
        settings = CheckSettings(max_examples=args.examples, sweep=64)
        run_result = run(project, method=args.method, settings=settings,
                         select=sorted(conformance_names()))
        results = [(r.name, r.mirror_status) for r in run_result.results]
    return op_statuses(results)


def _bundled_only(command: str, project: Path) -> None:
    """``models`` checks the bundled project's Op Specs: in another project it has nothing to
    check, so it says where it belongs instead of listing every node as UNKNOWN."""
    from mirror.bundled import ROOT

    if Path(project).resolve() != ROOT.resolve():
        raise cli.CommandError(
            f"`leanmirror {command}` belongs to the bundled demo (leanmirror's own Lake project "
            f"at {str(ROOT)!r}), not to {str(project)!r}; run it at that repository's root or "
            "pass --project with it (or --report with its report.json)")


def cmd_models(args: argparse.Namespace) -> int:
    """``leanmirror models``: each bundled model spec's nodes and their statuses."""
    from mirror.bundled.models.spec import available_model_specs, load_model_spec, node_statuses

    keys = args.model or available_model_specs()
    unknown = [k for k in keys if k not in available_model_specs()]
    if unknown:
        raise cli.CommandError(
            f"--model {unknown[0]!r} is not a bundled model spec; "
            f"choose from {', '.join(available_model_specs())}"
        )
    op_status = op_statuses_of(args)
    for key in keys:
        spec = load_model_spec(key)
        rows = node_statuses(spec, op_status)
        counts = Counter(status for _, _, status in rows)
        summary = ", ".join(f"{counts[s]} {s}" for s in ("proved", "tested", "UNKNOWN") if counts[s])
        print(f"{spec.name} ({key}): {len(rows)} nodes — {summary}")
        width = max((len(node) for node, _, _ in rows), default=4)
        for node, op, status in rows:
            print(f"  {node:<{width}}  {op:<18}  {status}")
    return cli.EXIT_OK


def cmd_experiment(args: argparse.Namespace) -> int:
    """``leanmirror experiment fractional``: run the experiment, print its summary."""
    from mirror.bundled.experiments import fractional  # needs the extra leanmirror[experiment]

    options: dict[str, Any] = {}
    if args.seeds is not None:
        options["seeds"] = tuple(range(args.seeds))
    if args.steps is not None:
        options["steps"] = args.steps
    if args.cifar is not None:
        cifar = Path(args.cifar)
        if not cifar.is_dir():
            raise cli.CommandError(
                f"--cifar {args.cifar!r} is not a directory; pass the directory of the CIFAR-10 "
                "python batches (data_batch_1 … test_batch) or leave --cifar out"
            )
        options["dataset"] = str(cifar)
    out = Path(args.out)
    results = fractional.run(out, **options)
    summary = results.get("summary", {}) if isinstance(results, dict) else {}
    for kind, row in summary.items():
        accuracy = row.get("val_accuracy", {})
        loss = row.get("final_train_loss", {})
        speed = row.get("ms_per_step", {})
        print(
            f"{kind:10s} val. accuracy {accuracy.get('mean', float('nan')):.4f} "
            f"± {accuracy.get('std', float('nan')):.4f}  final loss "
            f"{loss.get('mean', float('nan')):.3g}  {speed.get('mean', float('nan')):.1f} ms/step"
        )
    print(f"results: {out / 'results.json'}")
    return cli.EXIT_OK



def register(sub: argparse._SubParsersAction) -> None:
    """Add ``models`` and ``experiment`` to the command line's subparsers ``sub``."""
    p = sub.add_parser("models", help=MODELS_HELP, description=MODELS_DESCRIPTION)
    cli._add_project(p)
    p.set_defaults(handler=cmd_models)
    p.add_argument("--model", nargs="+", metavar="KEY",
                   help="only these model specs (default: all bundled ones)")
    p.add_argument("--report", metavar="FILE",
                   help="take the conformance results from a report.json instead of running them")
    p.add_argument("--examples", type=int, default=30, metavar="N",
                   help="Hypothesis examples per conformance check when running them (default: 30)")

    p = sub.add_parser(
        "experiment",
        help="the bundled demo: run one of its experiments (fractional)",
        description="Run an experiment of the bundled demo (leanmirror's own layers) and write "
        "its results; it needs no Lake project.",
    )
    exp = p.add_subparsers(dest="experiment", metavar="EXPERIMENT", required=True)
    q = exp.add_parser(
        "fractional",
        help="the fractional-power layer experiment",
        description="Train and compare the fractional-power layer (needs the extra "
        "leanmirror[experiment]); writes metrics and figures into --out.",
    )
    q.add_argument("--out", metavar="DIR", default="experiment-fractional", help="output directory (default: experiment-fractional/)")
    q.add_argument("--seeds", metavar="N", type=cli._positive_int, help="number of seeds")
    q.add_argument("--steps", metavar="N", type=cli._positive_int, help="training steps per run")
    q.add_argument("--cifar", metavar="PATH", help="directory of CIFAR-10 python batches (default: scikit-learn's digits)")
    q.set_defaults(handler=cmd_experiment)


__all__ = ["cmd_experiment", "cmd_models", "op_statuses_of", "register"]
