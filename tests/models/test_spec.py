"""Model specs as data: loading, validation and node statuses."""

from __future__ import annotations

import json

import pytest

from bridge.errors import InvalidArgument
from mirror.bundled.impl.ops import OP_SPECS
from mirror.bundled.models.spec import (
    ModelSpec,
    available_model_specs,
    load_model_spec,
    load_model_specs,
    model_spec_from_json,
    node_statuses,
)


def test_the_five_spec_models_and_proxies_are_shipped() -> None:
    keys = set(available_model_specs())
    assert {"qwen3-0.6b", "granite", "gemma4", "qwen3.8", "muse-glimmer"} <= keys
    assert {"qwen3-next", "gemma3"} <= keys
    by_key = {s.key: s for s in load_model_specs()}
    for key in ("gemma4", "qwen3.8", "muse-glimmer"):
        assert by_key[key].transformers is None
    assert by_key["qwen3-0.6b"].transformers["config"] == "Qwen3Config"
    assert by_key["qwen3-next"].proxy_for == by_key["qwen3.8"].name
    for spec in by_key.values():
        assert all(node.op in OP_SPECS for node in spec.nodes)


def test_spec_facts_from_the_spec_text() -> None:
    qwen38 = load_model_spec("qwen3.8")
    assert qwen38.node("attn.rope").params["rot"] == 64
    assert qwen38.node("linear_attn.out_norm").op == "rmsnormGated"
    assert qwen38.node("linear_attn.qk_norm").op == "l2norm"
    assert qwen38.node("attn.norm").op == "rmsnormOffset"
    gemma4 = load_model_spec("gemma4")
    assert gemma4.node("attn.rope").params["active"] == 64
    assert gemma4.node("attn.v_norm").op == "rmsnormUnit"
    glimmer = load_model_spec("muse-glimmer")
    assert not glimmer.has_node("attn.rope")  # NoPE global layers
    assert glimmer.node("embed.norm").op == "rmsnormUnit"
    assert load_model_spec("qwen3-0.6b").node("attn.norm").op == "rmsnorm"


def test_node_statuses() -> None:
    spec = load_model_spec("muse-glimmer")
    everything_proved = {name: "proved" for name in OP_SPECS}
    rows = node_statuses(spec, everything_proved)
    assert len(rows) == len(spec.nodes)
    status = {node: st for node, _, st in rows}
    assert status["attn.decode_sliding"] == "UNKNOWN"  # slidingDecodeGQA has no Lean definition
    assert status["attn.core_sliding"] == "proved"
    partial = node_statuses(spec, {"rmsnormOffset": "tested", "linear": "stated"})
    status = {node: st for node, _, st in partial}
    assert status["attn.norm"] == "tested"
    assert status["attn.q"] == "UNKNOWN"
    assert status["embed"] == "UNKNOWN"
    assert {st for _, _, st in partial} <= {"proved", "tested", "UNKNOWN"}


def test_bad_specs_are_rejected(tmp_path) -> None:
    with pytest.raises(InvalidArgument, match="'op' is 'rmsNorm'"):
        model_spec_from_json({"name": "x", "family": "f", "nodes": [{"name": "n", "op": "rmsNorm"}]})
    with pytest.raises(InvalidArgument, match="repeats node names"):
        model_spec_from_json({"name": "x", "family": "f", "nodes": [
            {"name": "n", "op": "rmsnorm"}, {"name": "n", "op": "linear"}]})
    with pytest.raises(InvalidArgument, match="no 'nodes'"):
        model_spec_from_json({"name": "x", "family": "f"})
    with pytest.raises(InvalidArgument, match="expected a spec file or one of"):
        load_model_spec("no-such-model")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(InvalidArgument, match="not valid JSON"):
        load_model_spec(bad)
    good = tmp_path / "mine.json"
    good.write_text(json.dumps({"name": "Mine", "family": "qwen3",
                                "nodes": [{"name": "lm_head", "op": "lmHead"}]}), encoding="utf-8")
    spec = load_model_spec(good)
    assert isinstance(spec, ModelSpec) and spec.ops() == ["lmHead"]
    with pytest.raises(InvalidArgument, match="'spec'"):
        node_statuses("qwen3", {})
