"""One FX graph at one set of input shapes, cut into the subgraphs our kernels run.

The graph is run once on the real inputs (`ShapeProp`) so that every node has static
shapes; each node is asked of the importer (`capability.py`); torch's
`CapabilityBasedPartitioner` groups the expressible nodes into maximal subgraphs that
keep the graph acyclic; each subgraph becomes a submodule, is imported as a whole, gets
its μGraph (`searching.py`) and is replaced by a call of that μGraph's runner. Whatever
is not expressible, or fails on the way, stays in the graph as PyTorch runs it. Another
shape of a subgraph already imported is not imported again: its program follows from the
first by the dialect's shape rules (`family.reshape_program`), where its ops allow.
"""

from __future__ import annotations

import copy
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import fx
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase
from torch.fx.passes.shape_prop import ShapeProp
from torch.fx.passes.utils.fuser_utils import fuse_by_partitions, validate_partition

from mirage.dialects.opkinds import LAYOUT_OPS
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph, TensorType
from mirage.passes.superoptimize.family import reshape_program
from mirage.tools.from_torch import import_module
from mirage.torch.capability import DTYPES, Answer, Capability, tensor_meta
from mirage.torch.options import BackendOptions
from mirage.torch.searching import Searcher
from mirage.torch.staging import cut_by_stage

log = logging.getLogger("mirage.torch")
PREFIX = "mirage_"

Runner = Callable[..., tuple[torch.Tensor, ...]]


@dataclass
class SubgraphReport:
    name: str
    nodes: list[str]
    how: str
    """'cache', 'retiled', 'searched', 'as imported', or 'pytorch' where it fell back."""
    detail: str
    where: str
    kernels: int = 0


@dataclass
class Report:
    """What ran where, and why, for one graph at one set of shapes."""

    shapes: list[str]
    nodes: list[tuple[str, str, str]] = field(default_factory=lambda: [])
    """(node, where, why) for every compute node."""
    subgraphs: list[SubgraphReport] = field(default_factory=lambda: [])
    seconds: float = 0.0
    note: str = ""
    cuts: list[str] = field(default_factory=lambda: [])
    """Partitions cut at their contraction stages (`staging.py`), one line each."""

    def __str__(self) -> str:
        lines = [f"graph at {', '.join(self.shapes) or 'no tensor inputs'}: {self.note}".rstrip()]
        lines.extend(f"  cut: {c}" for c in self.cuts)
        for s in self.subgraphs:
            lines.append(f"  {s.name}: {len(s.nodes)} nodes -> {s.where}; {s.how}: {s.detail}")
        for node, where, why in self.nodes:
            lines.append(f"    {node:40s} {where:12s} {why}")
        return "\n".join(lines)


class KernelCall(torch.nn.Module):
    """A fused subgraph replaced by its μGraph's runner."""

    def __init__(self, runner: Runner) -> None:
        super().__init__()
        self.runner = runner

    def forward(self, *args: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return self.runner(*args)


class _Support(OperatorSupportBase):
    def __init__(self, answers: dict[fx.Node, Answer]) -> None:
        super().__init__()
        self.answers = answers

    def is_node_supported(self, submodules: Any, node: fx.Node) -> bool:
        del submodules
        answer = self.answers.get(node)
        return answer is not None and answer.ok


def _shapes(args: Sequence[Any]) -> list[str]:
    return [
        f"{'x'.join(map(str, a.shape)) or 'scalar'}:{str(a.dtype).removeprefix('torch.')}"
        for a in args
        if isinstance(a, torch.Tensor)
    ]


def specialize(
    gm: fx.GraphModule,
    args: Sequence[Any],
    options: BackendOptions,
    capability: Capability,
    searcher: Searcher,
) -> tuple[fx.GraphModule, Report]:
    """A copy of `gm` for inputs like `args`, its expressible subgraphs run as our kernels."""
    began = time.time()
    gm = fx.GraphModule(gm, copy.deepcopy(gm.graph))
    report = Report(_shapes(args))
    device = next(
        (a.device for a in args if isinstance(a, torch.Tensor) and a.is_cuda), torch.device("cpu")
    )
    with torch.no_grad():
        ShapeProp(gm).propagate(*args)
    answers: dict[fx.Node, Answer] = {}
    for node in gm.graph.nodes:
        if node.op in ("call_function", "call_method", "call_module"):
            answers[node] = capability.answer(node)
    capability.save()
    partitions = CapabilityBasedPartitioner(
        gm, _Support(answers), allows_single_node_partition=True
    ).propose_partitions()
    kept: list[dict[fx.Node, int | None]] = []
    for partition in partitions:
        # The partitioner moves every getitem of a node into that node's partition (for ops
        # with several results); a getitem that slices a tensor may not import.
        nodes = [n for n in gm.graph.nodes if n in partition.nodes and answers[n].ok]
        if not nodes:
            continue
        if not validate_partition(nodes):
            for n in nodes:
                answers[n] = Answer(False, "its subgraph would not be acyclic without a slice")
            continue
        pieces, views = cut_by_stage(nodes, answers, options.max_stages)
        for n in views:
            answers[n] = Answer(False, "a view of a stage's result that only PyTorch reads")
        if len(pieces) > 1:
            report.cuts.append(
                f"{len(nodes)} nodes from {nodes[0].name} to {nodes[-1].name}: "
                f"{len(pieces)} contraction stages, one subgraph each "
                f"(max_stages={options.max_stages})"
            )
        for piece in pieces:
            # Stages never decrease along an edge, so a piece of an acyclic partition is
            # acyclic too; checked all the same, as the partition was.
            if not validate_partition(piece):
                for n in piece:
                    answers[n] = Answer(False, "its stage's subgraph would not be acyclic")
                continue
            if sum(answers[n].compute_ops for n in piece) < options.min_compute_ops:
                for n in piece:
                    answers[n] = Answer(False, "computes nothing alone (only moves data)")
                continue
            kept.append(dict.fromkeys(piece))
    labels = {n: f"{n.name} = {_target(n)}" for n in answers}
    member: dict[fx.Node, int] = {n: i for i, p in enumerate(kept) for n in p}
    for node, answer in answers.items():
        where = f"{PREFIX}{member[node]}" if node in member else "pytorch"
        report.nodes.append(
            (labels[node], where, answer.reason if not answer.ok else "expressible")
        )
    if kept:
        gm = fuse_by_partitions(gm, kept, prefix=PREFIX, always_return_tuple=True)
    for node in list(gm.graph.nodes):
        if node.op == "call_module" and str(node.target).startswith(PREFIX):
            report.subgraphs.append(_replace(gm, node, options, capability, searcher, device))
    gm.recompile()
    report.seconds = time.time() - began
    ran = sum(1 for s in report.subgraphs if s.how != "pytorch")
    report.note = f"{ran} subgraphs as our kernels, ready in {report.seconds:.1f} s"
    return gm, report


def _target(node: fx.Node) -> str:
    t = node.target
    if isinstance(t, str):
        return t
    return getattr(t, "__name__", repr(t))


def _replace(
    gm: fx.GraphModule,
    node: fx.Node,
    options: BackendOptions,
    capability: Capability,
    searcher: Searcher,
    device: torch.device,
) -> SubgraphReport:
    name = str(node.target)
    sub = getattr(gm, name)
    assert isinstance(sub, fx.GraphModule)
    inner = [n.name for n in sub.graph.nodes if n.op in ("call_function", "call_method")]
    try:
        runner, how, detail, where, kernels = _build(
            name, sub, node, options, capability, searcher, device
        )
    except Unimproved as e:
        log.info("mirage: %s stays in PyTorch: %s", name, e)
        return SubgraphReport(name, inner, "pytorch", str(e), "pytorch")
    except Exception as e:  # any failure on the way leaves the subgraph to PyTorch
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        log.warning("mirage: %s stays in PyTorch: %s", name, first)
        return SubgraphReport(name, inner, "pytorch", first, "pytorch")
    setattr(gm, name, KernelCall(runner))
    return SubgraphReport(name, inner, how, detail, where, kernels)


class Unimproved(Exception):
    """The search found nothing faster than the program: PyTorch runs it (`unimproved`)."""


def _build(
    name: str,
    sub: fx.GraphModule,
    node: fx.Node,
    options: BackendOptions,
    capability: Capability,
    searcher: Searcher,
    device: torch.device,
) -> tuple[Runner, str, str, str, int]:
    from xdsl.dialects.func import FuncOp

    examples: list[torch.Tensor] = []
    for arg in node.args:
        meta = tensor_meta(arg) if isinstance(arg, fx.Node) else None
        if meta is None:
            raise ValueError(f"input {arg} of the subgraph is not a tensor of static shape")
        examples.append(torch.zeros(meta[0], dtype=meta[1]))
    key = json.dumps(
        [sub.code, [[[1 if d == 1 else -1 for d in e.shape], str(e.dtype)] for e in examples]]
    )
    program: Graph | None = None
    template: Graph | None = capability.programs.get(key)
    if template is not None and all(e.dtype in DTYPES for e in examples):
        args = tuple(TensorType(tuple(e.shape), DTYPES[e.dtype]) for e in examples)
        program = reshape_program(template, args)
    if program is None:
        module = import_module(sub, examples, func_name=name)
        funcs = {f.sym_name.data: f for f in module.ops if isinstance(f, FuncOp)}
        if set(funcs) != {name}:
            raise ValueError(f"the import made functions {sorted(funcs)}, expected only @{name}")
        program = graph_from_func(funcs[name])
        capability.programs[key] = program
    if len(program.args) != len(examples):
        raise ValueError(
            f"the import takes {len(program.args)} inputs, the subgraph {len(examples)}"
        )
    chosen = searcher.choose(name, program)
    if chosen.how == "as imported" and options.unimproved == "pytorch":
        raise Unimproved(f"{chosen.detail} (unimproved=pytorch)")
    kernels = sum(1 for op in chosen.graph.ops if op.kind not in LAYOUT_OPS)
    if options.reference:
        from mirage.torch.runner import ReferenceRunner

        ref = ReferenceRunner(chosen.graph)
        return ref, chosen.how, chosen.detail, ref.where, kernels
    from mirage.torch.runner import GpuRunner

    gpu = GpuRunner(chosen.graph, options.arch, options.cache, device)
    return gpu, chosen.how, chosen.detail, gpu.where, kernels
