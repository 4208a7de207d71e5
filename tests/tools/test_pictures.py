"""Pictures of μGraphs: the dot text from Python and from `mirage-opt -t dot`, accepted by
Graphviz where it is installed, and the plain error where it is not."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, parse_module
from mirage.passes.pictures.dot import fuse_expressions
from mirage.passes.pictures.render import RenderError, render
from mirage.tools import draw

ROOT = Path(__file__).resolve().parents[2]
DRAWN = [
    *sorted(FIXTURES.glob("*.mlir")),
    *sorted((ROOT / "benchmarks" / "found").glob("*.mlir")),
    ROOT / "tools" / "examples" / "rmsnorm_linear.mlir",
]
HAS_DOT = shutil.which("dot") is not None


def mirage_opt(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["mirage-opt", *args], capture_output=True, text=True, check=False, env=env
    )


def test_draw_from_python_is_the_targets_text() -> None:
    path = FIXTURES / "attention.mlir"
    text = draw(parse_module(path.read_text()))
    assert text.startswith('digraph "mirage" {') and text.rstrip().endswith("}")
    assert text.count("subgraph cluster_graph") == 2
    assert text.count("subgraph cluster_loop") == 2
    assert text.count("subgraph cluster_after") == 2
    proc = mirage_opt(str(path), "-t", "dot")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == text


def test_draw_one_function() -> None:
    from xdsl.dialects.func import FuncOp

    module = parse_module((FIXTURES / "rmsnorm_linear.mlir").read_text())
    ugraph = [f for f in module.ops if isinstance(f, FuncOp) and f.sym_name.data == "ugraph"]
    text = draw(ugraph[0])
    assert text.startswith('digraph "ugraph" {')
    assert 'label="@ugraph"' in text and 'label="@program"' not in text


def _balanced(text: str) -> bool:
    depth = 0
    quoted = False
    escaped = False
    for ch in text:
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0 and not quoted


@pytest.mark.parametrize("path", DRAWN, ids=lambda p: p.name)
def test_every_fixture_and_found_ugraph_draws(path: Path) -> None:
    text = draw(parse_module(path.read_text()))
    assert _balanced(text)
    # every node named in an edge is declared
    declared = {line.split(" [", 1)[0].strip() for line in text.splitlines() if " [label=" in line}
    for line in text.splitlines():
        if " -> " in line:
            src, rest = line.strip().split(" -> ", 1)
            dst = rest.split(" ", 1)[0].rstrip(";")
            assert src in declared and dst in declared, line


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot is not installed")
@pytest.mark.parametrize("path", DRAWN, ids=lambda p: p.name)
def test_graphviz_accepts_the_dot_text(path: Path) -> None:
    text = draw(parse_module(path.read_text()))
    proc = subprocess.run(["dot", "-Tsvg"], input=text, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "<svg" in proc.stdout and "Warning" not in proc.stderr, proc.stderr


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz's dot is not installed")
def test_render_svg_target() -> None:
    proc = mirage_opt(str(FIXTURES / "rmsnorm_linear.mlir"), "-t", "dot{render=svg}")
    assert proc.returncode == 0, proc.stderr
    assert "<svg" in proc.stdout and "kernel.graph" in proc.stdout


def _path_without_dot() -> str:
    """The venv's own bin folder: mirage-opt and python, no Graphviz."""
    bin_dir = Path(sys.executable).parent
    assert not (bin_dir / "dot").exists()
    return str(bin_dir)


def test_render_svg_without_graphviz_says_so() -> None:
    env = {**os.environ, "PATH": _path_without_dot()}
    proc = mirage_opt(str(FIXTURES / "rmsnorm_linear.mlir"), "-t", "dot{render=svg}", env=env)
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("mirage-opt: error: -t dot{render=svg}: ")
    assert "'dot' binary is not installed" in lines[0]


def test_render_without_graphviz_from_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", _path_without_dot())
    with pytest.raises(RenderError, match="not installed"):
        render("digraph { a -> b }")


def test_unknown_render_format_is_one_line() -> None:
    proc = mirage_opt(str(FIXTURES / "rmsnorm_linear.mlir"), "-t", "dot{render=png}")
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip() == (
        "mirage-opt: error: -t dot{render=png}: render must be one of svg, got 'png'"
    )


def test_xdsl_opt_knows_the_dot_target() -> None:
    xdsl_opt = Path(sys.executable).parent / "xdsl-opt"
    if not xdsl_opt.exists():
        pytest.skip("xdsl-opt is not installed")
    proc = subprocess.run(
        [str(xdsl_opt), str(FIXTURES / "rmsnorm_linear.mlir"), "-t", "dot"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "subgraph cluster_graph" in proc.stdout


_FUSE = """
func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %o = kernel.graph(%x, %y) grid [4, 1, 1] block [32, 1, 1] forloop 1
      : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%gx: tensor<4x8xf32>, %gy: tensor<4x8xf32>):
    %ax, %ay = block.for_loop : tensor<1x8xf32>, tensor<1x8xf32> {
      %xt = block.input %gx imap [0, -1, -1] : tensor<4x8xf32> -> tensor<1x8xf32>
      %yt = block.input %gy imap [0, -1, -1] : tensor<4x8xf32> -> tensor<1x8xf32>
      %s0 = block.accum_sum %xt : tensor<1x8xf32> -> tensor<1x8xf32>
      %s1 = block.accum_sum %yt : tensor<1x8xf32> -> tensor<1x8xf32>
      block.yield %s0, %s1 : tensor<1x8xf32>, tensor<1x8xf32>
    }
    %u = thread.fuse(%ax, %ay) : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32> {
    ^bb1(%a: f32, %b: f32):
      %s = thread.add %a, %b : f32
      %d = thread.sub %b, %a : f32
      %m = thread.mul %s, %b : f32
      %q = thread.div %a, %m : f32
      %r = thread.sub %q, %d : f32
      %p = thread.pow %r, %a : f32
      thread.yield %p : f32
    }
    %o1 = block.output %u omap [0, -1, -1] : tensor<1x8xf32> -> tensor<4x8xf32>
    block.return %o1 : tensor<4x8xf32>
  }
  func.return %o : tensor<4x8xf32>
}
"""


def test_fuse_expression_parenthesizes_by_precedence() -> None:
    from mirage.dialects.thread import FuseOp

    module = parse_module(_FUSE)
    fuse = next(op for op in module.walk() if isinstance(op, FuseOp))
    assert fuse_expressions(fuse, ["a", "b"]) == ["pow(a / ((a + b) * b) - (b - a), a)"]
