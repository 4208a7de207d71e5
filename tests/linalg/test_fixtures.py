"""The benchmark programs exported from PyTorch (checked-in fixtures) import and compute
what the programs compute: equal to a float64 numpy oracle everywhere, and to PyTorch's
CPU result where torch is installed."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from linalg.programs import REFERENCE, Fixture, fixtures, random_inputs, rel_error
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp

from mirage.dialects.semantics import FloatDomain, evaluate_function
from mirage.passes.linalg.constants import resolve_wrapper
from mirage.passes.linalg.to_kernel import ConvertLinalgToKernelPass
from mirage.tools.from_torch import parse_linalg
from mirage.tools.registry import make_context

FIXTURES = fixtures()
SMALL = [f for f in FIXTURES if not f.benchmark_shape]
BENCH_F32 = [f for f in FIXTURES if f.benchmark_shape and not f.half]
BENCH_F16 = [f for f in FIXTURES if f.benchmark_shape and f.half]


def import_fixture(f: Fixture) -> ModuleOp:
    module = parse_linalg(f.path.read_text())
    ConvertLinalgToKernelPass().apply(make_context(), module)
    module.verify()
    return module


def function(module: ModuleOp, name: str) -> FuncOp:
    return next(op for op in module.ops if isinstance(op, FuncOp) and op.sym_name.data == name)


def shapes_of(func: FuncOp) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for a in func.body.block.args:
        assert isinstance(a.type, TensorType)
        out.append(tuple(int(d) for d in a.type.get_shape()))
    return out


def only_kernel_ops(func: FuncOp) -> bool:
    return all(
        op.name.startswith("kernel.") or op.name == "func.return" for op in func.body.block.ops
    )


def check_against_oracle(f: Fixture) -> None:
    module = import_fixture(f)
    entry = function(module, f.name)
    resolved = resolve_wrapper(module, entry)
    domain = FloatDomain(np.float64)
    if resolved is None:
        assert only_kernel_ops(entry)
        inputs = random_inputs(shapes_of(entry), seed=len(f.path.stem))
        (got,) = evaluate_function(entry, inputs, domain)
        want = REFERENCE[f.name](*inputs)
        assert rel_error(got, want) < 1e-9
        return
    # Weights lifted: the kernel takes the activations, then the constants.
    kernel, constants = resolved
    assert only_kernel_ops(kernel)
    header = f.path.read_text().splitlines()[0]
    positions = [int(p) for p in re.findall(r"\d+", header.split("arguments", 1)[1].split("]")[0])]
    activations = random_inputs(shapes_of(entry), seed=3)
    (got,) = evaluate_function(kernel, [*activations, *constants], domain)
    matches = 0
    for order in itertools.permutations(constants):
        args = list(activations)
        for p, c in sorted(zip(positions, order, strict=True)):
            args.insert(p, c)
        try:
            want = REFERENCE[f.name](*args)
        except ValueError:  # shapes do not fit this assignment
            continue
        matches += want.shape == got.shape and rel_error(got, want) < 1e-9
    assert matches == 1


@pytest.mark.parametrize("f", SMALL, ids=str)
def test_small_shapes_equal_the_oracle(f: Fixture) -> None:
    check_against_oracle(f)


@pytest.mark.parametrize("f", BENCH_F32, ids=str)
def test_benchmark_shapes_equal_the_oracle(f: Fixture) -> None:
    check_against_oracle(f)


@pytest.mark.slow
@pytest.mark.parametrize("f", BENCH_F16, ids=str)
def test_half_benchmark_shapes_equal_the_oracle(f: Fixture) -> None:
    check_against_oracle(f)


def test_every_program_has_benchmark_and_two_other_shapes() -> None:
    for name in REFERENCE:
        tags = {f.tag for f in FIXTURES if f.name == name and not f.half and not f.consts}
        assert len(tags - {"b1", "b8", "bench"}) == 2, name
        assert tags & {"b1", "b8", "bench"}, name


@pytest.mark.parametrize("f", BENCH_F16, ids=str)
def test_half_programs_stay_half(f: Fixture) -> None:
    """torch-mlir accumulates f16 matmuls in f32 and truncates: the kernel program is a
    matmul of f16 tensors into f16, and every tensor it stores is f16."""
    entry = function(import_fixture(f), f.name)
    assert only_kernel_ops(entry)
    types = [str(v.type) for op in entry.body.block.ops for v in op.results]
    types += [str(a.type) for a in entry.body.block.args]
    assert types and all(t.endswith("xf16>") for t in types), types
