"""The six benchmark programs of the Mirage paper as kernel-dialect functions, written with the
Python builder (`python benchmarks/programs/generate.py` rewrites the .mlir files beside
it). Inputs and stored results are f16, as the paper's programs run in fp16.

Also `program(name, shapes)`: the same programs at any shapes, for tests.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from mirage.dialects.builder import KernelBuilder, Value

Shapes = Sequence[tuple[int, ...]]


def _rms_norm_dim1(b: KernelBuilder, k: Value, extent: int) -> Value:
    """rms_norm over dim 1 of a rank-3 tensor (kernel.rms_norm normalizes the last dim)."""
    mean = b.mul_scalar(b.reduce_sum(b.square(k), 1), 1.0 / extent)
    return b.div(k, b.sqrt(mean))


def _attention(b: KernelBuilder, q: Value, k: Value, v: Value) -> Value:
    e = b.exp(b.matmul(q, k))
    return b.matmul(b.div(e, b.reduce_sum(e, 2)), v)


def gqa(b: KernelBuilder, s: Shapes) -> None:
    q, k, v = (b.input(x, "f16", n) for x, n in zip(s, "qkv", strict=True))
    b.output(_attention(b, q, k, v))


def qknorm(b: KernelBuilder, s: Shapes) -> None:
    q, k, v = (b.input(x, "f16", n) for x, n in zip(s, "qkv", strict=True))
    b.output(_attention(b, b.rms_norm(q), _rms_norm_dim1(b, k, s[1][1]), v))


def rmsnorm_linear(b: KernelBuilder, s: Shapes) -> None:
    x, w = b.input(s[0], "f16", "x"), b.input(s[1], "f16", "w")
    b.output(b.matmul(b.rms_norm(x), w))


def lora(b: KernelBuilder, s: Shapes) -> None:
    x, w, a, bb = (b.input(t, "f16", n) for t, n in zip(s, ("x", "w", "a", "b"), strict=True))
    b.output(b.add(b.matmul(x, w), b.matmul(b.matmul(x, a), bb)))


def gated_mlp(b: KernelBuilder, s: Shapes) -> None:
    x, w1, w2 = (b.input(t, "f16", n) for t, n in zip(s, ("x", "w1", "w2"), strict=True))
    b.output(b.mul(b.silu(b.matmul(x, w1)), b.matmul(x, w2)))


def ntrans(b: KernelBuilder, s: Shapes) -> None:
    h, x, alpha = (b.input(t, "f16", n) for t, n in zip(s, ("h", "x", "alpha"), strict=True))
    b.output(b.rms_norm(b.add(x, b.mul(alpha, b.sub(b.rms_norm(h), x)))))


PROGRAMS: dict[str, Callable[[KernelBuilder, Shapes], None]] = {
    "gqa": gqa,
    "qknorm": qknorm,
    "rmsnorm_linear": rmsnorm_linear,
    "lora": lora,
    "gated_mlp": gated_mlp,
    "ntrans": ntrans,
}


def _attention_shapes(b: int) -> Shapes:
    return ((2 * b, 256, 64), (2 * b, 64, 4096), (2 * b, 4096, 64))


BENCHMARKS: dict[str, tuple[str, Shapes]] = {
    "gqa_b1": ("gqa", _attention_shapes(1)),
    "gqa_b8": ("gqa", _attention_shapes(8)),
    "qknorm_b1": ("qknorm", _attention_shapes(1)),
    "qknorm_b8": ("qknorm", _attention_shapes(8)),
    "rmsnorm_linear_b1": ("rmsnorm_linear", ((2, 4096), (4096, 6144))),
    "rmsnorm_linear_b8": ("rmsnorm_linear", ((16, 4096), (4096, 6144))),
    "lora": ("lora", ((16, 256), (256, 4096), (256, 16), (16, 4096))),
    "gated_mlp": ("gated_mlp", ((8, 4096), (4096, 4096), (4096, 4096))),
    "ntrans_b1": ("ntrans", ((8, 4096),) * 3),
    "ntrans_b8": ("ntrans", ((64, 4096),) * 3),
}
"""File name -> (program, shapes): the paper's shapes, both batch sizes where it has two."""


def program(name: str, shapes: Shapes, function: str = "program") -> ModuleOp:
    b = KernelBuilder()
    PROGRAMS[name](b, shapes)
    return b.build(function)


def main() -> None:
    here = Path(__file__).parent
    for file, (name, shapes) in BENCHMARKS.items():
        text = str(program(name, shapes))
        (here / f"{file}.mlir").write_text(
            f"// {file}: {name} at the paper's benchmark shapes (generate.py)\n{text}\n"
        )
        sys.stdout.write(f"{file}.mlir\n")


if __name__ == "__main__":
    main()
