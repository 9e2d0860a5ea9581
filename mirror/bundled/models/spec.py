"""``ModelSpec``: a model's compute graph as data, each node naming the Op Spec it uses.

Model specs are the JSON files beside this module. A node is ``{"name", "op", "layers",
"params", "basis"}``: ``op`` is a Lean Op Spec name (a key of
:data:`mirror.bundled.impl.ops.OP_SPECS`), ``layers`` says where the node occurs (``"model"``,
``"all"`` or a layer type such as ``"sliding_attention"``), ``basis`` says where the node
comes from (``"spec"`` text, the ``"transformers"`` implementation, or ``"assumed"``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Iterable, Any, Mapping

from bridge.errors import InvalidArgument
from mirror.bundled.impl.ops import OP_SPECS

#: Node statuses, strongest first.
NODE_STATUSES = ("proved", "tested", "UNKNOWN")
#: Where a node's description comes from.
NODE_BASES = ("spec", "transformers", "assumed")


@dataclass(frozen=True)
class Node:
    """One compute-graph node and the Op Spec it uses."""

    name: str
    op: str
    layers: str = "all"
    params: Mapping[str, Any] = field(default_factory=dict)
    basis: str = "spec"


@dataclass(frozen=True)
class ModelSpec:
    """A model as data: its nodes, constants and (when any) its transformers classes."""

    key: str
    name: str
    family: str
    description: str
    nodes: tuple[Node, ...]
    constants: Mapping[str, Any] = field(default_factory=dict)
    #: ``{"module", "config", "model"}`` or ``None`` when transformers does not carry it.
    transformers: Mapping[str, str] | None = None
    #: The spec model this one stands in for in end-to-end checks, if any.
    proxy_for: str | None = None
    notes: tuple[str, ...] = ()

    def node(self, name: str) -> Node:
        """The node called ``name``."""
        for node in self.nodes:
            if node.name == name:
                return node
        known = ", ".join(n.name for n in self.nodes)
        raise InvalidArgument(
            f"argument 'name' is {name!r}; expected a node of model {self.name!r} ({known})"
        )

    def has_node(self, name: str) -> bool:
        """Whether the spec has a node called ``name``."""
        return any(node.name == name for node in self.nodes)

    def ops(self) -> list[str]:
        """The Op Specs the model uses, in first-use order, without repeats."""
        seen: list[str] = []
        for node in self.nodes:
            if node.op not in seen:
                seen.append(node.op)
        return seen


def _node(data: Any, where: str) -> Node:
    """Parse one node object."""
    if not isinstance(data, dict):
        raise InvalidArgument(f"{where} is {data!r}; expected a JSON object with 'name' and 'op'")
    name, op = data.get("name"), data.get("op")
    if not isinstance(name, str) or not name:
        raise InvalidArgument(f"{where}: 'name' is {name!r}; expected a non-empty string")
    if op not in OP_SPECS:
        raise InvalidArgument(
            f"{where} ({name}): 'op' is {op!r}; expected an Op Spec name, one of "
            f"{sorted(OP_SPECS)}"
        )
    basis = data.get("basis", "spec")
    if basis not in NODE_BASES:
        raise InvalidArgument(f"{where} ({name}): 'basis' is {basis!r}; expected one of {NODE_BASES}")
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise InvalidArgument(f"{where} ({name}): 'params' is {params!r}; expected an object")
    layers = data.get("layers", "all")
    if not isinstance(layers, str):
        raise InvalidArgument(f"{where} ({name}): 'layers' is {layers!r}; expected a string")
    return Node(name=name, op=op, layers=layers, params=params, basis=basis)


def model_spec_from_json(data: Any, key: str = "<memory>") -> ModelSpec:
    """Build a :class:`ModelSpec` from parsed JSON, checking every field."""
    if not isinstance(data, dict):
        raise InvalidArgument(f"model spec {key!r} is {type(data).__name__}; expected a JSON object")
    for required in ("name", "family", "nodes"):
        if required not in data:
            raise InvalidArgument(f"model spec {key!r} has no {required!r}; expected one")
    nodes = data["nodes"]
    if not isinstance(nodes, list) or not nodes:
        raise InvalidArgument(f"model spec {key!r}: 'nodes' is {nodes!r}; expected a non-empty list")
    parsed = tuple(_node(n, f"model spec {key!r} node {i}") for i, n in enumerate(nodes))
    names = [n.name for n in parsed]
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise InvalidArgument(f"model spec {key!r} repeats node names {dup}; expected unique names")
    hf = data.get("transformers")
    if hf is not None and not (isinstance(hf, dict) and {"module", "config", "model"} <= set(hf)):
        raise InvalidArgument(
            f"model spec {key!r}: 'transformers' is {hf!r}; expected null or an object with "
            f"'module', 'config' and 'model'"
        )
    return ModelSpec(
        key=key,
        name=str(data["name"]),
        family=str(data["family"]),
        description=str(data.get("description", "")),
        nodes=parsed,
        constants=dict(data.get("constants", {})),
        transformers=hf,
        proxy_for=data.get("proxy_for"),
        notes=tuple(data.get("notes", ())),
    )


def available_model_specs() -> list[str]:
    """Keys (file stems) of the model specs shipped with leanmirror."""
    folder = resources.files("mirror.bundled.models")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def load_model_spec(key_or_path: str | Path) -> ModelSpec:
    """Load a shipped model spec by key (``"qwen3-0.6b"``) or any spec file by path."""
    path = Path(key_or_path)
    if path.suffix == ".json" and path.is_file():
        text, key = path.read_text(encoding="utf-8"), path.stem
    else:
        key = str(key_or_path)
        if key not in available_model_specs():
            raise InvalidArgument(
                f"argument 'key_or_path' is {key!r}; expected a spec file or one of "
                f"{available_model_specs()}"
            )
        text = resources.files("mirror.bundled.models").joinpath(f"{key}.json").read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidArgument(f"model spec {key!r} is not valid JSON: {exc}") from exc
    return model_spec_from_json(data, key)


def load_model_specs() -> list[ModelSpec]:
    """Every shipped model spec."""
    return [load_model_spec(key) for key in available_model_specs()]


def conformance_names() -> dict[str, str]:
    """The conformance row of each Op Spec with a Lean definition: row name → Op Spec name
    (the Lean names come from ``OP_SPECS``, the model specs' data)."""
    return {f"{spec.lean_name}.conformance": name
            for name, spec in OP_SPECS.items() if spec.lean_defined}


def op_statuses(results: Iterable[tuple[str, str | None]]) -> dict[str, str]:
    """Op Spec name → ``tested`` when its kernel passed conformance (``(row name, mirror
    status)`` pairs of a run or a report), else the status it got."""
    rows = conformance_names()
    return {rows[name]: "tested" if status in ("tested", "symbolic") else str(status)
            for name, status in results if name in rows}


def node_statuses(spec: ModelSpec, op_status: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """``(node, op, status)`` for every node of ``spec``.

    ``op_status`` maps Op Spec names to the Lean/Python evidence gathered for them; a value
    ``"proved"`` or ``"tested"`` is taken as is, anything else (or no entry) is ``UNKNOWN``.
    An Op Spec with no Lean definition (``slidingDecodeGQA``) is ``UNKNOWN`` whatever
    ``op_status`` says: there is no spec to prove or test its kernel against.
    """
    if not isinstance(spec, ModelSpec):
        raise InvalidArgument(f"argument 'spec' is {type(spec).__name__}; expected a ModelSpec")
    if not isinstance(op_status, Mapping):
        raise InvalidArgument(
            f"argument 'op_status' is {type(op_status).__name__}; expected a mapping of Op Spec "
            f"name to status"
        )
    rows = []
    for node in spec.nodes:
        status = op_status.get(node.op)
        if not OP_SPECS[node.op].lean_defined or status not in ("proved", "tested"):
            status = "UNKNOWN"
        rows.append((node.name, node.op, status))
    return rows
