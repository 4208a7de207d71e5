"""Running a chosen μGraph on the caller's tensors: built kernels on the current CUDA
stream, or the reference evaluator on the host (`reference=True`).

The GPU path's launch does only what CUDA-graph capture allows: outputs come from
PyTorch's caching allocator (capture-safe, and replays reuse the graph's pool), kernels
are launched with the tensors' addresses on `torch.cuda.current_stream()`; the program's
own intermediates were allocated when it was loaded. Nothing synchronizes the host.
Built programs are kept under `<cache>/torch/programs/` by μGraph and arch; their cubins
are the runtime's own module cache, by PTX.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.graph import Graph
from mirage.dialects.ugraph.to_ir import func_from_graph
from mirage.lowering.runtime.program import CompiledProgram, ProgramError

log = logging.getLogger("mirage.torch")

TORCH_DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


class ReferenceRunner:
    """The μGraph on the reference evaluator, in float64: what the kernels compute, without
    a GPU."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.where = "reference evaluator (float64, host)"

    def __call__(self, *tensors: torch.Tensor) -> tuple[torch.Tensor, ...]:
        inputs = [t.detach().to("cpu", torch.float64).numpy() for t in tensors]
        outputs: list[np.ndarray[Any, Any]] = evaluate(self.graph, inputs, FloatDomain())
        device = tensors[0].device if tensors else torch.device("cpu")
        results: list[torch.Tensor] = []
        for out, t in zip(outputs, self.graph.output_types, strict=True):
            host: torch.Tensor = torch.from_numpy(np.array(out, np.float64))  # pyright: ignore[reportUnknownMemberType]
            results.append(host.to(device, TORCH_DTYPES[t.dtype]))
        return tuple(results)


def built_program(graph: Graph, arch: str, cache_dir: str) -> CompiledProgram:
    """The μGraph lowered to PTX for `arch`, from the cache when this lowering built it
    before (a program built by other code is built again)."""
    from mirage.lowering.fingerprint import lowering_fingerprint

    key = f"{arch}\n{lowering_fingerprint()}\n{graph!r}"
    digest = hashlib.sha256(key.encode()).hexdigest()
    path = Path(cache_dir) / "torch" / "programs" / f"{digest}.json" if cache_dir else None
    if path is not None and path.exists():
        try:
            return CompiledProgram.from_json(path.read_text())
        except (OSError, ProgramError):
            pass
    from mirage.lowering import compile_function

    began = time.time()
    program = compile_function(func_from_graph("mirage_subgraph", graph), arch)
    log.info(
        "mirage: built %d kernels for %s in %.1f s",
        len(program.launches),
        arch,
        time.time() - began,
    )
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(program.to_json())
        os.replace(tmp, path)
    return program


class GpuRunner:
    """The μGraph's kernels on the GPU of the tensors, on the current stream."""

    def __init__(self, graph: Graph, arch: str, cache_dir: str, device: torch.device) -> None:
        from mirage.lowering.runtime import load

        self.graph = graph
        self.program = built_program(graph, arch, cache_dir)
        index = torch.cuda.current_device() if str(device) == "cuda" else device.index
        self.device = torch.device("cuda", index)
        self.loaded = load(self.program, index)
        self.where = (
            f"{len(self.program.launches)} kernels on cuda:{index} ({self.loaded.image_source})"
        )
        self._out = [(tuple(spec.shape), TORCH_DTYPES[spec.dtype]) for spec in self.program.outputs]

    def __call__(self, *tensors: torch.Tensor) -> tuple[torch.Tensor, ...]:
        ins: Sequence[torch.Tensor] = [t if t.is_contiguous() else t.contiguous() for t in tensors]
        outs = [torch.empty(shape, dtype=dtype, device=self.device) for shape, dtype in self._out]
        stream = torch.cuda.current_stream(self.device).cuda_stream
        self.loaded.device.activate()  # a thread other than the loader's may call
        self.loaded.launch([t.data_ptr() for t in ins] + [o.data_ptr() for o in outs], stream)
        return tuple(outs)
