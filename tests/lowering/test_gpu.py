"""Lowered fixtures on a GPU: fresh random inputs, outputs poisoned, against the float64
evaluation of the same function (skipped without a CUDA device)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from tests.conftest import FIXTURES, get_func, parse_module

DATA = Path(__file__).parent / "data"

CASES = [
    (FIXTURES / "rmsnorm_linear_small.mlir", "program", 1.0),
    (FIXTURES / "rmsnorm_linear_small.mlir", "ugraph", 1.0),
    (FIXTURES / "attention_small.mlir", "ugraph", 0.5),
    (FIXTURES / "rmsnorm_linear.mlir", "ugraph", 1.0),
    (FIXTURES / "attention.mlir", "ugraph", 0.5),
    (DATA / "blocks.mlir", "online_softmax", 1.0),
    (DATA / "blocks.mlir", "post_matmul", 1.0),
    (DATA / "chain.mlir", "chain", 0.5),
    (DATA / "online_chain.mlir", "online_rows64", 1.0),
    (DATA / "online_chain.mlir", "online_ragged", 1.0),
    (DATA / "online_chain.mlir", "online_batched", 1.0),
    (DATA / "online_chain.mlir", "online_split", 1.0),
    (DATA / "online_chain.mlir", "online_scaled", 1.0),
    (DATA / "online_chain.mlir", "online_d128", 0.5),
    (DATA / "online_chain.mlir", "online_rows48", 1.0),
    (DATA / "online_chain.mlir", "online_rows128", 1.0),
    (DATA / "online_chain.mlir", "online_wide", 0.5),
    (DATA / "online_chain.mlir", "online_many", 0.5),
    (DATA / "ops.mlir", "layout", 1.0),
    (DATA / "wide_rows.mlir", "norm_chain", 1.0),
    (DATA / "wide_rows.mlir", "row_max_sum", 1.0),
    (DATA / "wide_rows.mlir", "looped_row_sums", 1.0),
    (DATA / "invariant.mlir", "norm_then_matmul", 1.0),
    (DATA / "norms.mlir", "affine_norm", 1.0),
    (DATA / "norms.mlir", "looped_norm", 1.0),
    (DATA / "norms.mlir", "mean_eps", 1.0),
    (DATA / "norms.mlir", "norm_in_place", 1.0),
    (DATA / "norms.mlir", "norm_in_epilogue", 1.0),
    (DATA / "norms.mlir", "column_norm", 1.0),
    (DATA / "long_k.mlir", "long_k", 1.0),
    (DATA / "long_k.mlir", "long_k_deep", 1.0),
    (DATA / "long_k.mlir", "long_k_looped", 1.0),
    (DATA / "views.mlir", "transposed_weight", 1.0),
    (DATA / "views.mlir", "head_split_attention", 1.0),
    (DATA / "slices.mlir", "swiglu_chunk", 1.0),
    (DATA / "slices.mlir", "rotate_half", 1.0),
    (DATA / "slices.mlir", "swiglu_windows", 0.5),
    (DATA / "views.mlir", "linear_f16", 1.0),
    (DATA / "views.mlir", "scores_f16", 1.0),
    (DATA / "immediates.mlir", "immediates", 1.0),
    (DATA / "immediates.mlir", "kernel_immediates", 1.0),
    (DATA / "epilogue.mlir", "linear_bias", 1.0),
    (DATA / "epilogue.mlir", "nn_linear_bias", 0.5),
    (DATA / "epilogue.mlir", "gpt2_fc", 0.25),
    (DATA / "split_pairs.mlir", "split8", 0.5),
    (DATA / "split_pairs.mlir", "split4_swapped", 0.5),
    (DATA / "split_pairs.mlir", "split4_tma", 0.5),
    (DATA / "split_pairs.mlir", "split4_once", 0.5),
    (DATA / "split_pairs.mlir", "split4_tall", 0.5),
    (DATA / "direct_outputs.mlir", "lora_ragged", 0.5),
    (DATA / "direct_outputs.mlir", "scaled_narrow", 1.0),
    (DATA / "direct_outputs.mlir", "biased_rows64", 0.5),
    (DATA / "direct_outputs.mlir", "gated_once", 0.5),
]

PAIRS = [
    (FIXTURES / "attention_small.mlir", "ugraph"),
    (DATA / "split_pairs.mlir", "split8"),
    (DATA / "split_pairs.mlir", "split4_swapped"),
    (DATA / "split_pairs.mlir", "split4_tma"),
    (DATA / "split_pairs.mlir", "split4_once"),
]
"""Split-KV pairs, built as two launches by default: also joined into one launch of
clusters."""


ONLINE = [
    "online_rows64",
    "online_split",
    "online_scaled",
    "online_d128",
    "online_rows128",
    "online_wide",
]
"""Online chains that matmuls=auto runs on wgmma on sm_90a: also built on mma.sync."""


@pytest.mark.gpu
@pytest.mark.parametrize(("path", "func", "scale"), CASES, ids=lambda c: str(c).rsplit("/", 1)[-1])
def test_lowered_function_matches_float64(path: Path, func: str, scale: float) -> None:
    _check(path, func, scale, "auto")


@pytest.mark.gpu
@pytest.mark.parametrize("func", ONLINE)
def test_online_chain_on_mma_sync_matches_float64(func: str) -> None:
    _check(DATA / "online_chain.mlir", func, 0.5, "mma-sync")


@pytest.mark.gpu
@pytest.mark.parametrize("func", ["lora_ragged", "biased_rows64"])
def test_outputs_stored_from_wgmma_registers_match_float64(func: str) -> None:
    _check(DATA / "direct_outputs.mlir", func, 0.5, "wgmma")


@pytest.mark.gpu
@pytest.mark.parametrize(("path", "func"), PAIRS, ids=lambda c: str(c).rsplit("/", 1)[-1])
def test_split_pair_joined_matches_float64(path: Path, func: str) -> None:
    _check(path, func, 0.5, "auto", clusters=True)


@pytest.mark.gpu
def test_split_pair_joined_after_tensor_map_loads_matches_float64() -> None:
    # split4_tma's first graph by tensor maps, where asked: a producer warp that sits out
    # the combine
    _check(DATA / "split_pairs.mlir", "split4_tma", 0.5, "auto", clusters=True, loads="tma")


def _check(
    path: Path,
    func: str,
    scale: float,
    matmuls: str,
    clusters: bool = False,
    loads: str | None = None,
) -> None:
    from mirage.lowering.ptx.compile import compile_function
    from mirage.lowering.runtime.gpu_run import default_arch, run_program

    f = get_func(parse_module(path.read_text()), func)
    graph = graph_from_func(f)
    program = compile_function(f, default_arch(), loads=loads, matmuls=matmuls, clusters=clusters)
    assert len(program.launches) == 1 or not clusters
    if matmuls == "mma-sync":
        assert "wgmma" not in program.ptx
    rng = np.random.default_rng(3)
    for _ in range(2):
        inputs = [
            rng.uniform(0.25, 1.0, size=t.shape) * scale * rng.choice([-1.0, 1.0], size=t.shape)
            for t in graph.args
        ]
        result = run_program(program, inputs)
        want = evaluate(graph, result.inputs, FloatDomain(np.float64))
        for got, ref in zip(result.outputs, want, strict=True):
            ref = np.asarray(ref, dtype=np.float64)
            assert np.isfinite(got).all()
            err = np.linalg.norm(got - ref) / (np.linalg.norm(ref) or 1.0)
            assert err < 1e-2, err


@pytest.mark.gpu
@pytest.mark.parametrize(
    ("path", "func", "loads"),
    [
        (DATA / "online_chain.mlir", "online_wide", None),
        (Path(__file__).parents[2] / "benchmarks/found/gqa_b8.mlir", "ugraph", None),
        (Path(__file__).parents[2] / "benchmarks/found/gqa_b8.mlir", "ugraph", "tma"),
    ],
    ids=["online_wide", "gqa_b8", "gqa_b8_tma"],
)
def test_chain_warpgroups_taking_turns_match_float64(
    path: Path, func: str, loads: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ping-pong chain (off by default, `plan.PINGPONG_CHAINS`): every arrival at the
    turn barriers has its wait, or the block hangs."""
    from mirage.lowering.optimize import plan

    monkeypatch.setattr(plan, "PINGPONG_CHAINS", True)
    _check(path, func, 0.5, "auto", loads=loads)
