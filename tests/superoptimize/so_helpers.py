"""Shared helpers of the superoptimize tests: small programs and a quick search."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from mirage.dialects.builder import KernelBuilder
from mirage.dialects.hardware import SM_90
from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.passes.equivalence.verifier import Verifier
from mirage.passes.superoptimize.module_pass import PrunerFactory
from mirage.passes.superoptimize.search import Search, SearchOptions, SearchResult

ROOT = Path(__file__).resolve().parents[2]


def _load_programs() -> ModuleType:
    """benchmarks/programs/generate.py, under a name of its own (other tests load other
    scripts named generate.py)."""
    path = ROOT / "benchmarks" / "programs" / "generate.py"
    spec = importlib.util.spec_from_file_location("superoptimize_benchmark_programs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


benchmark_program: Callable[..., ModuleOp] = _load_programs().program

__all__ = [
    "benchmark_program",
    "build",
    "equal_in_float64",
    "load_ugraph",
    "only_func",
    "repeat_kv",
    "search",
]


def load_ugraph(name: str) -> Graph:
    """The hand-written μGraph benchmarks/ugraphs/NAME.mlir."""
    from xdsl.parser import Parser

    from mirage.tools.registry import make_context

    text = (ROOT / "benchmarks" / "ugraphs" / f"{name}.mlir").read_text()
    return graph_from_func(only_func(Parser(make_context(), text).parse_module()))


def only_func(module: ModuleOp) -> FuncOp:
    funcs = [op for op in module.ops if isinstance(op, FuncOp)]
    assert len(funcs) == 1
    return funcs[0]


def build(fn: object) -> Graph:
    """The model of a program that `fn(b)` builds with a KernelBuilder."""
    b = KernelBuilder()
    fn(b)  # type: ignore[operator]
    return graph_from_func(only_func(b.build("program")))


def search(program: Graph, **options: object) -> SearchResult:
    opts = SearchOptions(
        **{"time_budget": 120.0, "workers": 1, "target": SM_90, "keep": 2, **options}  # type: ignore[arg-type]
    )
    return Search(program, opts, PrunerFactory(None), Verifier(program)).run()


def assert_same_values(a: Graph, b: Graph, seed: int = 0) -> None:
    """`b` computes what `a` does, in float64 on inputs in [-1, 1), output by output."""
    rng = np.random.default_rng(seed)
    inputs = [rng.uniform(-1, 1, t.shape) for t in a.args]
    want = evaluate(a, inputs, FloatDomain(np.float64))
    got = evaluate(b, inputs, FloatDomain(np.float64))
    for x, y in zip(got, want, strict=True):
        assert np.asarray(x).shape == np.asarray(y).shape
        assert np.allclose(x, y, rtol=1e-10, atol=1e-12)


def op_kinds(g: Graph) -> list[str]:
    return [op.kind for op in g.ops]


def equal_in_float64(a: Graph, b: Graph, seed: int = 0) -> bool:
    rng = np.random.default_rng(seed)
    inputs = [rng.uniform(0.5, 1.5, size=t.shape) for t in a.args]
    domain = FloatDomain(np.float64)
    got = evaluate(b, inputs, domain)
    want = evaluate(a, inputs, domain)
    return all(np.allclose(x, y, rtol=1e-9, atol=1e-12) for x, y in zip(got, want, strict=True))


def repeat_kv(b: int, kv: int, g: int, s: int, d: int, tiled: bool = False) -> str:
    """Grouped-query attention as torch-mlir exports `repeat_kv` and the batched matmuls
    over (batch x heads): the keys and values expanded by a multiplication with a splat
    one, the heads merged into the batch dim. Query head h reads KV head h // g, or, where
    `tiled`, h % kv (the KV heads repeated as a whole: another program)."""
    h, bh = kv * g, b * kv * g
    t = "xf32>"

    def ty(*dims: int) -> str:
        return "tensor<" + "x".join(map(str, dims)) + t

    unit = ty(b, 1, kv, s, d) if tiled else ty(b, kv, 1, s, d)
    full = ty(b, g, kv, s, d) if tiled else ty(b, kv, g, s, d)
    signature = f"(%q: {ty(b, h, s, d)}, %k: {ty(b, kv, s, d)}, %v: {ty(b, kv, s, d)})"
    return f"""
func.func @gqa{signature} -> {ty(b, h, s, d)} {{
  %0 = kernel.reshape %q : {ty(b, h, s, d)} -> {ty(bh, s, d)}
  %1 = kernel.reshape %k : {ty(b, kv, s, d)} -> {unit}
  %2 = kernel.constant 1.0 : {full}
  %3 = kernel.mul %1, %2 : {unit}, {full} -> {full}
  %4 = kernel.reshape %3 : {full} -> {ty(b, h, s, d)}
  %5 = kernel.transpose %4 permutation [0, 1, 3, 2] : {ty(b, h, s, d)} -> {ty(b, h, d, s)}
  %6 = kernel.reshape %5 : {ty(b, h, d, s)} -> {ty(bh, d, s)}
  %7 = kernel.matmul %0, %6 : {ty(bh, s, d)}, {ty(bh, d, s)} -> {ty(bh, s, s)}
  %8 = kernel.reshape %7 : {ty(bh, s, s)} -> {ty(b, h, s, s)}
  %9 = kernel.mul_scalar %8, 0.25 : {ty(b, h, s, s)} -> {ty(b, h, s, s)}
  %10 = kernel.reduce_max %9 dim 3 : {ty(b, h, s, s)} -> {ty(b, h, s, 1)}
  %11 = kernel.sub %9, %10 : {ty(b, h, s, s)}, {ty(b, h, s, 1)} -> {ty(b, h, s, s)}
  %12 = kernel.exp %11 : {ty(b, h, s, s)} -> {ty(b, h, s, s)}
  %13 = kernel.reduce_sum %12 dim 3 : {ty(b, h, s, s)} -> {ty(b, h, s, 1)}
  %14 = kernel.div %12, %13 : {ty(b, h, s, s)}, {ty(b, h, s, 1)} -> {ty(b, h, s, s)}
  %15 = kernel.reshape %14 : {ty(b, h, s, s)} -> {ty(bh, s, s)}
  %16 = kernel.reshape %v : {ty(b, kv, s, d)} -> {unit}
  %17 = kernel.mul %16, %2 : {unit}, {full} -> {full}
  %18 = kernel.reshape %17 : {full} -> {ty(bh, s, d)}
  %19 = kernel.matmul %15, %18 : {ty(bh, s, s)}, {ty(bh, s, d)} -> {ty(bh, s, d)}
  %20 = kernel.reshape %19 : {ty(bh, s, d)} -> {ty(b, h, s, d)}
  func.return %20 : {ty(b, h, s, d)}
}}
"""
