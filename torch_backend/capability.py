"""Which FX nodes the kernel dialect expresses, decided by asking the importer.

A node is tried alone: a graph of that one node, its tensor operands as placeholders at the
shapes and dtypes it sees, goes through torch-mlir's FX importer and
`convert-linalg-to-kernel`. What imports is expressible; otherwise the reason is the
importer's own message. No list of ops here duplicates the importer's. Answers are kept by
the node's signature (target, operand ranks, unit dims and dtypes, constant arguments), in
memory and under `<cache>/torch/support.json`, so a second process, or another batch size,
asks the importer only about nodes it has not seen.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import fx

from mirage.dialects import opkinds
from mirage.dialects.opkinds import KERNEL
from mirage.tools.from_torch import MissingTorchError, import_module

log = logging.getLogger("mirage.torch")

DTYPES = {torch.float16: "f16", torch.bfloat16: "bf16", torch.float32: "f32"}
"""The element types the kernels compute in."""
SUPPORT_VERSION = f"support-5 torch {torch.__version__}"


@dataclass(frozen=True)
class Answer:
    ok: bool
    reason: str
    """Why not (empty when ok)."""
    compute_ops: int = 0
    """Kernel ops other than data movement that the node imports as."""
    kinds: frozenset[str] = frozenset()
    """The kinds of the kernel ops it imports as, data movement too (`matmul`, `exp`,
    `slice`, ...): where the node starts a contraction stage (`staging.py`)."""


def tensor_meta(node: fx.Node) -> tuple[tuple[int, ...], torch.dtype] | None:
    """The node's value as (shape, dtype) when it is one tensor of static shape, else None."""
    meta = node.meta.get("tensor_meta")
    if meta is not None and hasattr(meta, "shape") and hasattr(meta, "dtype"):
        return tuple(int(d) for d in meta.shape), meta.dtype
    val = node.meta.get("val")
    if isinstance(val, torch.Tensor):
        try:
            return tuple(int(d) for d in val.shape), val.dtype
        except (TypeError, ValueError):  # symbolic sizes
            return None
    return None


def _describe(value: Any) -> Any:
    if isinstance(value, fx.Node):
        meta = tensor_meta(value)
        if meta is None:
            return ("node", value.op)
        # Extents other than 1 do not change what imports (broadcasting does): a new batch
        # size asks the importer nothing new.
        return ("tensor", [1 if d == 1 else -1 for d in meta[0]], str(meta[1]))
    if isinstance(value, list | tuple):
        return [_describe(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, dict):
        return {str(k): _describe(v) for k, v in value.items()}  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    if isinstance(value, torch.dtype | torch.device | torch.memory_format | torch.layout):
        return str(value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


def target_name(node: fx.Node) -> str:
    t = node.target
    if isinstance(t, str):
        return t if node.op != "call_method" else f"Tensor.{t}"
    name = getattr(t, "__name__", None) or repr(t)
    module = getattr(t, "__module__", None)
    return f"{module}.{name}" if module and not str(name).startswith(module) else str(name)


def signature(node: fx.Node) -> str:
    return json.dumps(
        [node.op, target_name(node), _describe(node.args), _describe(node.kwargs)],
        sort_keys=True,
    )


def single_node_graph(node: fx.Node) -> tuple[fx.GraphModule, list[torch.Tensor]]:
    """A graph of `node` alone, its tensor operands as placeholders, and example inputs."""
    graph = fx.Graph()
    env: dict[fx.Node, fx.Node] = {}
    examples: list[torch.Tensor] = []
    for operand in node.all_input_nodes:
        meta = tensor_meta(operand)
        assert meta is not None
        env[operand] = graph.placeholder(f"in{len(env)}")
        examples.append(torch.zeros(meta[0], dtype=meta[1]))
    copied = graph.node_copy(node, lambda n: env[n])
    graph.output(copied)
    return fx.GraphModule(torch.nn.Module(), graph), examples


def kernel_ops(module: Any) -> list[str]:
    """The kinds of the kernel ops in `module`, one per op."""
    from xdsl.dialects.func import FuncOp

    return [
        op.name.removeprefix(f"{KERNEL}.")
        for func in module.ops
        if isinstance(func, FuncOp)
        for op in func.body.block.ops
        if op.dialect_name() == KERNEL
    ]


class Capability:
    """The importer's answers, by node signature."""

    def __init__(self, cache_dir: str = "") -> None:
        self.path = Path(cache_dir) / "torch" / "support.json" if cache_dir else None
        self.answers: dict[str, Answer] = {}
        self.programs: dict[str, Any] = {}
        """Imported subgraphs (kernel-level μGraphs) by their code and operand ranks, unit
        dims and dtypes: another shape of the subgraph is inferred from them, not imported."""
        self._dirty = False
        if self.path is not None:
            try:
                data: dict[str, Any] = json.loads(self.path.read_text())
            except (OSError, ValueError):
                data = {}
            if data.get("version") == SUPPORT_VERSION:
                stored: dict[str, list[Any]] = data.get("answers", {})
                try:
                    for key, (ok, reason, n, kinds) in stored.items():
                        self.answers[key] = Answer(
                            bool(ok), str(reason), int(n), frozenset(map(str, kinds))
                        )
                except (TypeError, ValueError, AttributeError):  # a damaged file: ask again
                    log.warning("mirage: %s is damaged; the importer is asked again", self.path)
                    self.answers.clear()

    def answer(self, node: fx.Node) -> Answer:
        pre = _precheck(node)
        if pre is not None:
            return pre
        key = signature(node)
        hit = self.answers.get(key)
        if hit is None:
            hit = self._ask(node)
            self.answers[key] = hit
            self._dirty = True
        return hit

    def _ask(self, node: fx.Node) -> Answer:
        gm, examples = single_node_graph(node)
        try:
            module = import_module(gm, examples)
        except MissingTorchError:
            raise  # no importer is not a refusal (and must not be cached as one)
        except Exception as e:  # the importer's refusal, whatever layer raised it
            first = (str(e).strip().splitlines() or [type(e).__name__])[0]
            log.debug("mirage: %s stays in PyTorch: %s", node.format_node(), first)
            return Answer(False, f"the importer refuses it: {first}")
        ops = kernel_ops(module)
        computing = [k for k in ops if k not in opkinds.DATA_MOVEMENT]
        return Answer(True, "", len(computing), frozenset(ops))

    def save(self) -> None:
        if self.path is None or not self._dirty:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "version": SUPPORT_VERSION,
            "answers": {
                k: [a.ok, a.reason, a.compute_ops, sorted(a.kinds)] for k, a in self.answers.items()
            },
        }
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, sort_keys=True)
        os.replace(tmp, self.path)
        self._dirty = False


def _precheck(node: fx.Node) -> Answer | None:
    """What is decided without the importer: the node must compute one tensor of a kernel
    element type from tensors of static shape."""
    if node.op not in ("call_function", "call_method"):
        return Answer(False, f"a {node.op} node")
    out = tensor_meta(node)
    if out is None:
        return Answer(False, "its value is not one tensor of static shape")
    if out[1] not in DTYPES:
        return Answer(False, f"its element type {out[1]} is not f16, bf16 or f32")
    if not node.all_input_nodes:
        return Answer(False, "it reads no tensor (a factory)")
    for operand in node.all_input_nodes:
        meta = tensor_meta(operand)
        if meta is None:
            return Answer(False, f"operand {operand.name} is not a tensor of static shape")
        if meta[1] not in DTYPES and meta[1] != torch.bool:
            return Answer(False, f"operand {operand.name} is {meta[1]}")
    return None
