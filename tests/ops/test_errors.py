"""Bad input to the Op Spec kernels raises InvalidArgument naming the argument and shape."""

from __future__ import annotations

import numpy as np
import pytest

from bridge.errors import InvalidArgument
from mirror.bundled.impl import ops


def test_attention_shape_mismatch_names_argument() -> None:
    q = np.zeros((4, 2, 3, 8))
    k = np.zeros((5, 3, 8))
    with pytest.raises(InvalidArgument, match=r"'k' has shape \(5, 3, 8\)"):
        ops.causal_gqa(1.0, np.arange(4), q, k, np.zeros((5, 2, 8)))
    with pytest.raises(InvalidArgument, match="'pos'"):
        ops.causal_gqa(1.0, np.arange(3), q, np.zeros((5, 2, 8)), np.zeros((5, 2, 8)))
    with pytest.raises(ValueError, match="'q'"):  # InvalidArgument is also a ValueError
        ops.decode_gqa(1.0, np.zeros((5, 8)), np.zeros((5, 2, 8)), np.zeros((5, 2, 8)))


def test_deltanet_shape_mismatch() -> None:
    with pytest.raises(InvalidArgument, match="'v' has shape"):
        ops.gated_delta_rule(np.ones(4), np.ones(4), np.zeros((4, 3)), np.zeros((4, 3)),
                             np.zeros((5, 2)))
    with pytest.raises(InvalidArgument, match="'alpha'"):
        ops.chunk_gated_delta_rule(np.ones(3), np.ones(4), np.zeros((4, 3)), np.zeros((4, 3)),
                                   np.zeros((4, 2)))
    with pytest.raises(InvalidArgument, match="'chunk_size'"):
        ops.chunk_gated_delta_rule(np.ones(4), np.ones(4), np.zeros((4, 3)), np.zeros((4, 3)),
                                   np.zeros((4, 2)), 0)
    with pytest.raises(InvalidArgument, match="'initial_state'"):
        ops.gated_delta_rule(np.ones(4), np.ones(4), np.zeros((4, 3)), np.zeros((4, 3)),
                             np.zeros((4, 2)), initial_state=np.zeros((3, 2)))


def test_other_bad_inputs() -> None:
    with pytest.raises(InvalidArgument, match="'w' has shape"):
        ops.rmsnorm(1e-6, np.zeros((2, 4)), np.zeros(5))
    with pytest.raises(InvalidArgument, match="'rot'"):
        ops.rope(np.zeros((2, 4)), [0, 1], 1e4, 6, 6, 3)
    with pytest.raises(InvalidArgument, match="'tokens'"):
        ops.embed([0, 9], np.zeros((4, 2)))
    with pytest.raises(InvalidArgument, match="'dtype'"):
        ops.silu(np.zeros(3), dtype=np.int32)
    with pytest.raises(InvalidArgument, match="'x' has dtype"):
        ops.silu(np.array(["a"]))
    with pytest.raises(InvalidArgument, match="'gu'"):
        ops.silu_mul(np.zeros((2, 3)))
    with pytest.raises(InvalidArgument, match="'visible'"):
        ops.softmax(np.zeros(3), np.ones(3))
    with pytest.raises(InvalidArgument, match="'w' has shape"):
        ops.causal_conv_silu(np.zeros((4, 3)), np.zeros((2, 4)))
    with pytest.raises(InvalidArgument, match="'window'"):
        ops.sliding_gqa(1.0, -1, [0], np.zeros((1, 1, 1, 2)), np.zeros((1, 1, 2)),
                        np.zeros((1, 1, 2)))
