"""Generic output parses in a real MLIR parser (torch-mlir-opt), and what MLIR prints back
parses here into the same programs. Skipped where torch-mlir-opt is not installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from dialect_programs import only_func, print_func, print_module
from hypothesis import given, settings
from hypothesis import strategies as st
from program_strategies import kernel_programs
from xdsl.dialects.func import FuncOp

from conftest import FIXTURES, parse_module
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.dialects.ugraph.to_ir import func_from_graph

TOOL = shutil.which("torch-mlir-opt")
pytestmark = pytest.mark.skipif(TOOL is None, reason="torch-mlir-opt is not installed")

OPS_FILES = sorted((Path(__file__).parent.parent / "filecheck" / "dialects").glob("*_ops.mlir"))


def through_mlir(generic_text: str) -> str:
    assert TOOL is not None
    proc = subprocess.run(
        [TOOL, "--allow-unregistered-dialect", "--mlir-print-op-generic"],
        input=generic_text,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def models(text: str) -> dict[str, Graph]:
    module = parse_module(text)
    return {op.sym_name.data: graph_from_func(op) for op in module.ops if isinstance(op, FuncOp)}


@pytest.mark.parametrize(
    "path",
    OPS_FILES + sorted(FIXTURES.glob("*.mlir")),
    ids=lambda p: p.name,
)
def test_file_survives_mlir(path: Path) -> None:
    module = parse_module(path.read_text())
    back = through_mlir(print_module(module, generic=True))
    assert models(back) == models(path.read_text())


def test_ops_files_are_found() -> None:
    assert {p.name for p in OPS_FILES} >= {"kernel_ops.mlir", "block_ops.mlir", "thread_ops.mlir"}


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_random_programs_survive_mlir(data: st.DataObject) -> None:
    graph = kernel_programs(data)
    back = through_mlir(print_func(func_from_graph("f", graph), generic=True))
    assert graph_from_func(only_func(back)) == graph
