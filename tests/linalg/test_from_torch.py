"""PyTorch programs in: the checked-in exports equal PyTorch's CPU result and equal a live
re-export; programs that no fixture contains import correctly. Skipped without torch and
torch-mlir (the optional extra `torch`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from linalg.programs import BENCHMARKS, Fixture, fixtures, rel_error
from linalg.test_fixtures import function, import_fixture, only_kernel_ops
from xdsl.dialects.builtin import ModuleOp

from mirage.dialects.semantics import FloatDomain, evaluate_function
from mirage.passes.linalg.constants import resolve_wrapper

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")
sys.path.insert(0, str(BENCHMARKS))
import torch_programs  # noqa: E402
from torch.nn import functional as F  # noqa: E402

from mirage.tools.from_torch import import_module  # noqa: E402

CASES = {c.stem: c for c in torch_programs.cases()}
F32 = [f for f in fixtures() if not f.half]


def run_kernel(
    module: ModuleOp, name: str, inputs: list[np.ndarray], domain: FloatDomain
) -> list[np.ndarray]:
    entry = function(module, name)
    resolved = resolve_wrapper(module, entry)
    if resolved is not None:
        entry, constants = resolved
        inputs = [*inputs, *constants]
    assert only_kernel_ops(entry)
    return evaluate_function(entry, inputs, domain)


@pytest.mark.parametrize(
    "f", [pytest.param(f, marks=pytest.mark.slow) if f.benchmark_shape else f for f in F32], ids=str
)
def test_fixture_equals_pytorch(f: Fixture) -> None:
    case = CASES[f.path.stem]
    module, args = case.module(case.tensors())
    with torch.no_grad():
        want = module(*args).double().numpy()
    got = run_kernel(import_fixture(f), f.name, [a.double().numpy() for a in args], FloatDomain())
    assert rel_error(got[0], want) < 1e-5


@pytest.mark.slow
@pytest.mark.parametrize("stem", sorted(CASES))
def test_live_export_imports_like_the_fixture(stem: str) -> None:
    case = CASES[stem]
    module, args = case.module(case.tensors())
    live = import_module(module, args, func_name=case.name)
    (fixture,) = [f for f in fixtures() if f.path.stem == stem]
    checked_in = import_fixture(fixture)
    if not case.constants:
        assert str(live) == str(checked_in)
        return
    # Resource names differ between parses; the kernels and the weights must not.
    live_kernel, live_weights = resolve_wrapper(live, function(live, case.name)) or (None, [])
    kernel, weights = resolve_wrapper(checked_in, function(checked_in, case.name)) or (None, [])
    assert str(live_kernel) == str(kernel)
    assert all(np.array_equal(a, b) for a, b in zip(live_weights, weights, strict=True))


def _check(fn: Callable[..., Any], *args: Any, tol: float = 1e-5) -> ModuleOp:
    module = import_module(fn, list(args))
    with torch.no_grad():
        want = fn(*args)
    half = args[0].dtype in (torch.float16, torch.bfloat16)
    domain = FloatDomain(np.float32, round_to_storage=True) if half else FloatDomain()
    inputs = [a.float().numpy() if half else a.double().numpy() for a in args]
    (got,) = run_kernel(module, "main", inputs, domain)
    assert rel_error(np.asarray(got, np.float64), want.double().numpy()) < tol
    return module


def _ops(module: ModuleOp) -> list[str]:
    entry = function(module, "main")
    return [op.name.removeprefix("kernel.") for op in entry.body.block.ops][:-1]


def _r(*shape: int, dtype: Any = None) -> Any:
    return torch.randn(*shape, generator=_GEN, dtype=dtype or torch.float32)


_GEN = torch.Generator().manual_seed(7)


def test_elementwise_chain_is_recognized_kind_by_kind() -> None:
    m = _check(
        lambda x, y: F.gelu(F.silu(x) * torch.exp(y) - x / 3.0) + torch.relu(y), _r(4, 8), _r(4, 8)
    )
    assert {"silu", "exp", "gelu", "relu"} <= set(_ops(m))


@pytest.mark.parametrize(
    ("kind", "dim"), [("sum", 0), ("mean", 1), ("amax", 2), ("sum", (0, 2)), ("amax", 0)]
)
def test_reductions_over_any_dim(dim: int | tuple[int, ...], kind: str) -> None:
    fn = {"sum": torch.sum, "mean": torch.mean, "amax": torch.amax}[kind]
    _check(lambda x: fn(x * x, dim=dim, keepdim=isinstance(dim, int)), _r(3, 4, 5))


def test_broadcasts() -> None:
    m = _check(
        lambda x, row, col: (x + row) * col - torch.exp(row).expand(4, 6), _r(4, 6), _r(6), _r(4, 1)
    )
    assert "reshape" in _ops(m)


def test_softmax_and_layer_norm() -> None:
    _check(lambda x: torch.softmax(x, -1) + F.layer_norm(x, (8,)), _r(4, 8))


@pytest.mark.parametrize(
    ("fn", "x", "w"),
    [
        (lambda x, w: x @ w.T, (4, 6), (5, 6)),
        (lambda x, w: x.T @ w.T, (6, 4), (5, 6)),
        (lambda x, w: F.linear(x.T, w), (6, 4), (5, 6)),
    ],
    ids=["a_bT", "aT_bT", "linear_aT"],
)
def test_matmuls_with_transposed_operands(
    fn: Callable[..., Any], x: tuple[int, int], w: tuple[int, int]
) -> None:
    m = _check(fn, _r(*x), _r(*w))
    assert "matmul" in _ops(m)


def test_batched_transposed_matmul_and_broadcast_batch() -> None:
    m = _check(
        lambda q, k, w: torch.matmul(q, k.transpose(-1, -2)) @ w, _r(2, 4, 8), _r(2, 6, 8), _r(6, 5)
    )
    assert _ops(m).count("matmul") == 2


def test_half_precision() -> None:
    m = _check(
        lambda x, w: F.silu(x @ w) * x.sum(-1, keepdim=True),
        _r(4, 8, dtype=torch.float16),
        _r(8, 8, dtype=torch.float16),
        tol=4e-3,
    )
    entry = function(m, "main")
    assert "f32" not in str(entry)


def test_bfloat16() -> None:
    m = _check(
        lambda x, w: torch.softmax(x @ w, -1),
        _r(4, 8, dtype=torch.bfloat16),
        _r(8, 6, dtype=torch.bfloat16),
        tol=2e-2,
    )
    assert "bf16" in str(function(m, "main").function_type)


def test_parameters_become_kernel_arguments() -> None:
    lin = torch.nn.Linear(8, 6)
    m = import_module(lin, [_r(4, 8)], func_name="lin")
    wrapper = function(m, "lin")
    kernel = function(m, "lin_kernel")
    assert len(wrapper.body.block.args) == 1 and len(kernel.body.block.args) == 3
    x = _r(4, 8)
    with torch.no_grad():
        want = lin(x).double().numpy()
    (got,) = run_kernel(m, "lin", [x.double().numpy()], FloatDomain())
    assert rel_error(got, want) < 1e-5


def test_random_programs() -> None:
    """Seeded random compositions of elementwise ops, reductions and matmuls."""
    rng = np.random.default_rng(11)
    unary = [
        torch.exp,
        torch.sigmoid,
        F.silu,
        F.gelu,
        torch.relu,
        torch.tanh,
        lambda t: t * t,
        lambda t: -t / 2.0,
    ]
    for _ in range(4):
        ops = [unary[i] for i in rng.choice(len(unary), 3)]
        dim = int(rng.integers(0, 2))

        def program(x: Any, w: Any, ops: list[Any] = ops, dim: int = dim) -> Any:
            y = ops[0](x @ w)
            z = ops[1](y) * y.sum(dim, keepdim=True)
            return ops[2](z) + torch.amax(z, dim=1 - dim, keepdim=True)

        _check(program, _r(5, 7) * 0.5, _r(7, 6) * 0.5)


def test_where_through_a_boolean_tensor_and_clamp() -> None:
    """torch.where stores the comparison as an i1 tensor between two generics."""
    m = _check(lambda x, y: torch.where(x > y, x, y) + x.clamp(-0.5, 0.5), _r(4, 8), _r(4, 8))
    assert "max" in _ops(m)


def test_a_selection_on_another_value_is_refused_by_name() -> None:
    from mirage.passes.linalg.conversion_errors import ConversionError

    with pytest.raises(ConversionError, match=r"'arith.cmpf' op computes a comparison"):
        import_module(lambda x, y: torch.where(x > 0, y, 2 * y), [_r(4, 8), _r(4, 8)])
