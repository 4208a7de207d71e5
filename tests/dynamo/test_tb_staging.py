"""mirage.torch cuts a partition of many contraction stages (a whole transformer block) into
one subgraph per stage: attention stays whole, a norm that only the next stage reads is
that stage's prologue, an activation stays its stage's epilogue; programs of few stages
are not cut."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from dynamo.tb_helpers import compiled, rand  # noqa: E402
from torch import fx, nn  # noqa: E402
from torch.fx.passes.shape_prop import ShapeProp  # noqa: E402

import mirage.torch  # noqa: E402
from mirage.torch.capability import Capability  # noqa: E402
from mirage.torch.options import OptionError  # noqa: E402
from mirage.torch.staging import cut_by_stage, node_stages  # noqa: E402


class Block(nn.Module):
    """Attention over given keys and values, its projection with a residual, an RMSNorm,
    and a ReLU MLP with a residual: four contraction stages (the shapes are not the
    benchmark's: batch 3, two heads, a cache of 24)."""

    def __init__(self, d: int = 32, hidden: int = 40) -> None:
        super().__init__()
        self.wo = nn.Parameter(rand(d, d, seed=3) * 0.2, requires_grad=False)
        self.w1 = nn.Parameter(rand(d, hidden, seed=4) * 0.2, requires_grad=False)
        self.w2 = nn.Parameter(rand(hidden, d, seed=5) * 0.2, requires_grad=False)

    def forward(self, x: Any, q: Any, k: Any, v: Any) -> Any:
        scores = torch.matmul(q, k.transpose(1, 2)) * 0.25
        o = torch.matmul(torch.softmax(scores, dim=-1), v)  # (2, 3, 16)
        x = x + torch.matmul(o.transpose(0, 1).reshape(3, 32), self.wo)
        h = x * torch.rsqrt(torch.mean(x * x, dim=-1, keepdim=True))
        return x + torch.matmul(torch.relu(torch.matmul(h, self.w1)), self.w2)


def _inputs() -> list[Any]:
    return [rand(3, 32, seed=6), rand(2, 3, 16, seed=7), rand(2, 24, 16, seed=8) * 0.5,
            rand(2, 24, 16, seed=9)]  # fmt: skip


def _stages(module: Any, args: list[Any], cache: Path) -> dict[str, int]:
    gm = fx.symbolic_trace(module)
    ShapeProp(gm).propagate(*args)
    capability = Capability(str(cache))
    nodes = [n for n in gm.graph.nodes if n.op in ("call_function", "call_method")]
    answers = {n: capability.answer(n) for n in nodes}
    assert all(a.ok for a in answers.values()), answers
    return {n.name: s for n, s in zip(nodes, node_stages(nodes, answers), strict=True)}


def test_stages_keep_attention_whole_and_move_the_norm_forward(tmp_path: Path) -> None:
    stage = _stages(Block(), _inputs(), tmp_path)
    # the scores, their softmax and the weighted sum: one stage (one online kernel)
    assert stage["matmul"] == stage["softmax"] == stage["matmul_1"] == stage["mul"] == 1
    assert stage["transpose"] == 1  # the keys' transpose: the prologue of its reader
    # the projection and its residual
    assert stage["matmul_2"] == stage["add"] == 2
    # the norm of the residual's sum is read by the MLP's first matmul only: its prologue
    norm = [n for n in stage if n.startswith(("pow", "mean", "rsqrt", "mul_"))]
    assert norm and {stage[n] for n in norm} == {3} and stage["matmul_3"] == 3
    # the activation stays the epilogue of the matmul it follows
    assert stage["relu"] == 3 and stage["matmul_4"] == stage["add_1"] == 4


def test_a_program_of_few_stages_is_not_cut(tmp_path: Path) -> None:
    m = Block()
    gm = fx.symbolic_trace(m)
    ShapeProp(gm).propagate(*_inputs())
    capability = Capability(str(tmp_path))
    nodes = [n for n in gm.graph.nodes if n.op in ("call_function", "call_method")]
    answers = {n: capability.answer(n) for n in nodes}
    assert cut_by_stage(nodes, answers, 4) == ([nodes], [])
    pieces, views = cut_by_stage(nodes, answers, 3)
    assert len(pieces) == 4 and not views
    assert sorted(n.name for p in pieces for n in p) == sorted(n.name for n in nodes)


def test_a_block_runs_as_one_subgraph_per_stage_and_matches_eager(tmp_path: Path) -> None:
    m = Block()
    args = _inputs()
    fast, backend = compiled(m, cache_dir=str(tmp_path), time_budget=4, unimproved="ours")
    with torch.no_grad():
        got, want = fast(*args), m(*args)
    assert torch.allclose(got.double(), want.double(), rtol=1e-4, atol=1e-4)
    report = backend.reports[0]
    assert len(report.subgraphs) == 4 and all(s.how != "pytorch" for s in report.subgraphs)
    assert "4 contraction stages, one subgraph each (max_stages=2)" in str(report)
    fast, backend = compiled(m, cache_dir=str(tmp_path), time_budget=4, max_stages=4)
    with torch.no_grad():
        fast(*args)
    assert len(backend.reports[0].subgraphs) == 1 and not backend.reports[0].cuts


def test_max_stages_is_checked() -> None:
    with pytest.raises(OptionError, match="option max_stages: must be at least 1, got 0"):
        mirage.torch.BackendOptions(max_stages=0)


def test_a_decode_step_keeps_its_views_out_of_the_stages(tmp_path: Path) -> None:
    import e2e  # benchmarks/, on the path through tb_helpers

    shape = e2e.LlamaShape(dim=48, heads=3, kv_len=20, hidden=40)
    torch.manual_seed(0)
    step = e2e.DecodeStep(shape, torch.float32, "cpu").eval()
    x, k, v = torch.randn(1, 48), torch.randn(3, 20, 16), torch.randn(3, 20, 16)
    fast, backend = compiled(step, cache_dir=str(tmp_path), time_budget=3, unimproved="ours")
    with torch.no_grad():
        for got, want in zip(fast(x, k, v), step(x, k, v), strict=True):
            assert torch.allclose(got.double(), want.double(), rtol=1e-4, atol=1e-4)
    report = backend.reports[0]
    where = {node.split(" = ")[0]: (w, why) for node, w, why in report.nodes}
    # the K and V returned for the cache: PyTorch's view of the projection's result
    assert where["getitem_1"] == ("pytorch", "a view of a stage's result that only PyTorch reads")
    # the queries' slice and reshape: views of the attention's input, not the projection's
    # outputs; the heads merged: a view of the output projection's input
    assert where["getitem"][0] == where["q"][0] == where["matmul_1"][0] != where["qkv"][0]
    assert where["o"][0] == where["matmul_3"][0] != where["matmul_2"][0]
    assert len(report.subgraphs) == 5
