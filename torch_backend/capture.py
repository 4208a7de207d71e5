"""`mode="reduce-overhead"`: each specialization replayed as one CUDA graph.

The callable is warmed up on a side stream, then captured once with static copies of the
inputs that change between calls; parameters and other static inputs (Dynamo marks them)
are captured in place, so a weight updated in place is seen by the next replay, and one
replaced by a new tensor (another address) is captured again. Each call copies the
changing inputs in, replays, and returns copies of the outputs (a later call must not
overwrite what an earlier one returned).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch


def _static(value: Any) -> bool:
    return isinstance(value, torch.nn.Parameter) or hasattr(value, "_dynamo_static_input_type")


class GraphReplay:
    def __init__(self, fn: Callable[..., Any], args: Sequence[Any]) -> None:
        self.fn = fn
        self._capture(args)

    def _capture(self, args: Sequence[Any]) -> None:
        self.static = [isinstance(a, torch.Tensor) and _static(a) for a in args]
        self.inputs: list[Any] = [
            a.clone() if isinstance(a, torch.Tensor) and not s else a
            for a, s in zip(args, self.static, strict=True)
        ]
        self.addresses = [a.data_ptr() if s else 0 for a, s in zip(args, self.static, strict=True)]
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(2):  # kernels load, the allocator fills
                self.fn(*self.inputs)
        torch.cuda.current_stream().wait_stream(side)
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            self.outputs = self.fn(*self.inputs)

    def __call__(self, *args: Any) -> Any:
        for a, s, addr in zip(args, self.static, self.addresses, strict=True):
            if s and a.data_ptr() != addr:
                self._capture(args)
                break
        for mine, a, s in zip(self.inputs, args, self.static, strict=True):
            if isinstance(a, torch.Tensor) and not s:
                mine.copy_(a)
        self.graph.replay()
        return _clone(self.outputs)


def _clone(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.clone()
    if isinstance(value, tuple | list):
        return type(value)(_clone(v) for v in value)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    return value
