"""The abstract expression of every op kind of the three levels (paper Table 1)."""

from __future__ import annotations

import pytest
from xdsl.dialects.func import FuncOp

from conftest import FIXTURES, parse_module
from mirage.dialects.opkinds import ELEMENTWISE_KINDS
from mirage.dialects.ugraph import Graph
from mirage.dialects.ugraph.from_ir import graph_from_func
from mirage.passes.pruning import (
    ELEMENTWISE_EXPRS,
    AbstractExprs,
    ExprBuilder,
    canonical,
    parse_term,
)
from mirage.passes.pruning.expr_annotation import variable_names
from mirage.passes.pruning.terms import Unknown, Var


def graph_of(text: str) -> Graph:
    module = parse_module(text)
    (func,) = [op for op in module.ops if isinstance(op, FuncOp)]
    return graph_from_func(func)


def exprs(text: str) -> list[str]:
    """The printed expression of every op result (all levels, in path order), arguments
    named by their SSA names."""
    module = parse_module(text)
    (func,) = [op for op in module.ops if isinstance(op, FuncOp)]
    names = variable_names([a.name_hint for a in func.body.block.args])
    graph = graph_from_func(func)
    return [str(t) for _, t in AbstractExprs.of(graph, names=names).results()]


def test_the_table_covers_every_elementwise_kind() -> None:
    assert set(ELEMENTWISE_EXPRS) == set(ELEMENTWISE_KINDS)
    for name, kind in ELEMENTWISE_KINDS.items():
        args = [Var("a"), Var("b")][: kind.arity]
        assert ELEMENTWISE_EXPRS[name](args) is not None


ELEMENTWISE = {
    "exp": "exp(x)",
    "square": "mul(x, x)",
    "sqrt": "sqrt(x)",
    "rsqrt": "div(1, sqrt(x))",
    "silu": "silu(x)",
    "gelu": "gelu(x)",
    "relu": "relu(x)",
    "tanh": "tanh(x)",
    "add": "add(x, y)",
    "sub": "add(x, y)",
    "mul": "mul(x, y)",
    "div": "div(x, y)",
    "pow": "pow(x, y)",
    "max": "max(x, y)",
}


@pytest.mark.parametrize("level", ["kernel", "block", "thread"])
@pytest.mark.parametrize("kind", sorted(ELEMENTWISE_KINDS))
def test_elementwise_at_every_level(kind: str, level: str) -> None:
    assert set(ELEMENTWISE) == set(ELEMENTWISE_KINDS)
    binary = ELEMENTWISE_KINDS[kind].arity == 2
    t = "tensor<4x8xf32>"
    if level == "kernel":
        operands, types = ("%x, %y", f"{t}, {t}") if binary else ("%x", t)
        body = f"%r = kernel.{kind} {operands} : {types} -> {t}\n  func.return %r : {t}"
        got = exprs(f"func.func @f(%x: {t}, %y: {t}) -> {t} {{\n  {body}\n}}")
        assert got == [ELEMENTWISE[kind]]
        return
    if level == "block":
        operands, types = ("%xt, %yt", f"{t}, {t}") if binary else ("%xt", t)
        op = f"%r = block.{kind} {operands} : {types} -> {t}"
    else:
        args = "(%xt, %yt)" if binary else "(%xt)"
        arg_types = f"({t}, {t})" if binary else f"({t})"
        scalars = "%a, %b" if binary else "%a"
        block_args = "(%a: f32, %b: f32)" if binary else "(%a: f32)"
        op = (
            f"%r = thread.fuse{args} : {arg_types} -> {t} {{\n"
            f"    ^bb1{block_args}:\n"
            f"      %s = thread.{kind} {scalars} : f32\n"
            "      thread.yield %s : f32\n    }"
        )
    text = f"""
func.func @f(%x: {t}, %y: {t}) -> {t} {{
  %o = kernel.graph(%x, %y) grid [1, 1, 1] block [128, 1, 1] forloop 1 : ({t}, {t}) -> {t} {{
  ^bb0(%gx: {t}, %gy: {t}):
    %acc = block.for_loop : {t} {{
      %xt = block.input %gx imap [-1, -1, -1] : {t} -> {t}
      %yt = block.input %gy imap [-1, -1, -1] : {t} -> {t}
      {op}
      %a = block.accum_sum %r : {t} -> {t}
      block.yield %a : {t}
    }}
    %out = block.output %acc omap [-1, -1, -1] : {t} -> {t}
    block.return %out : {t}
  }}
  func.return %o : {t}
}}"""
    got = exprs(text)
    assert ELEMENTWISE[kind] in got
    assert got[-1] == ELEMENTWISE[kind]  # loop of one step, no sum


KERNEL = """
func.func @f(%x: tensor<4x64xf32>, %w: tensor<64x8xf32>) -> tensor<4x8xf32> {
  %n = kernel.rms_norm %x : tensor<4x64xf32> -> tensor<4x64xf32>
  %s = kernel.mul_scalar %n, 3.0 : tensor<4x64xf32> -> tensor<4x64xf32>
  %m = kernel.matmul %s, %w : tensor<4x64xf32>, tensor<64x8xf32> -> tensor<4x8xf32>
  %r = kernel.reduce_sum %m dim 1 size 2 : tensor<4x8xf32> -> tensor<4x2xf32>
  %q = kernel.reduce_max %m dim 0 : tensor<4x8xf32> -> tensor<1x8xf32>
  %c = kernel.concat %m, %m dim 1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
  func.return %m : tensor<4x8xf32>
}"""


def test_kernel_level_ops() -> None:
    norm = "div(x, sqrt(sum(64, mul(x, x))))"
    matmul = f"sum(64, mul({norm}, w))"
    assert exprs(KERNEL) == [
        norm,
        norm,  # constants are not part of the abstraction
        matmul,
        f"sum(256, mul({norm}, w))",  # 8 to 2: each element sums 4
        f"rmax(4, {matmul})",
        matmul,  # a concatenation of one expression is that expression
    ]


def _launch(inner: str, results: list[str], loop: int = 4) -> str:
    """A one-kernel μGraph over x 4x64, w 64x8 and y 4x8 whose loop body is `inner`, and
    which yields and saves the `results` (name, type) through accumulators in `inner`."""
    names = [r.split(":")[0] for r in results]
    types = [r.split(":")[1] for r in results]
    tys = ", ".join(types)
    outs = "\n".join(
        f"    %o{i} = block.output %a#{i} omap [-1, -1, -1] : {ty} -> {ty}"
        for i, ty in enumerate(types)
    )
    ins = "tensor<4x64xf32>, tensor<64x8xf32>, tensor<4x8xf32>"
    args = "(%x: tensor<4x64xf32>, %w: tensor<64x8xf32>, %y: tensor<4x8xf32>)"
    launch = f"grid [1, 1, 1] block [128, 1, 1] forloop {loop} : ({ins}) -> ({tys})"
    return f"""
func.func @f{args} -> ({tys}) {{
  %k:{len(types)} = kernel.graph(%x, %w, %y) {launch} {{
  ^bb0(%gx: tensor<4x64xf32>, %gw: tensor<64x8xf32>, %gy: tensor<4x8xf32>):
    %a:{len(types)} = block.for_loop : {tys} {{
      %xt = block.input %gx imap [-1, -1, -1] forloop_dim 1 : tensor<4x64xf32> -> tensor<4x16xf32>
      %wt = block.input %gw imap [-1, -1, -1] forloop_dim 0 : tensor<64x8xf32> -> tensor<16x8xf32>
      %yr = block.input %gy imap [-1, -1, -1] : tensor<4x8xf32> -> tensor<4x8xf32>
      {inner}
      block.yield {", ".join(names)} : {tys}
    }}
{outs}
    block.return {", ".join(f"%o{i}" for i in range(len(types)))} : {tys}
  }}
  func.return {", ".join(f"%k#{i}" for i in range(len(types)))} : {tys}
}}"""


ACCUMULATORS = [
    # (accumulator over the loop-varying x tile, expected) and over the replicated y
    ("accum_sum_last", "tensor<4x1xf32>", "sum(64, x)", "sum(8, y)"),
    ("accum_mean_last", "tensor<4x1xf32>", "sum(64, x)", "sum(8, y)"),
    ("accum_rms_last", "tensor<4x1xf32>", "sqrt(sum(64, mul(x, x)))", "sqrt(sum(8, mul(y, y)))"),
    ("accum_sum", "tensor<4x16xf32>", "sum(4, x)", "y"),
    ("accum_max", "tensor<4x16xf32>", "rmax(4, x)", "y"),
]


@pytest.mark.parametrize(("kind", "ty", "varying", "replicated"), ACCUMULATORS)
def test_accumulators(kind: str, ty: str, varying: str, replicated: str) -> None:
    rep_ty = ty.replace("4x16", "4x8")
    inner = (
        f"%s0 = block.{kind} %xt : tensor<4x16xf32> -> {ty}\n"
        f"      %s1 = block.{kind} %yr : tensor<4x8xf32> -> {rep_ty}"
    )
    got = exprs(_launch(inner, [f"%s0:{ty}", f"%s1:{rep_ty}"]))
    assert got[3:5] == [varying, replicated]
    assert got[-2:] == [varying, replicated]  # output savers and the kernel results


def test_input_iterators_matmul_and_rescale() -> None:
    inner = """%p = block.matmul %xt, %wt : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
      %s0 = block.accum_sum %p : tensor<4x8xf32> -> tensor<4x8xf32>
      %s1 = block.accum_rescale %yr, %p : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
      %s2 = block.accum_rescale %yr, %yr : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>"""
    t = "tensor<4x8xf32>"
    got = exprs(_launch(inner, [f"%s0:{t}", f"%s1:{t}", f"%s2:{t}"]))
    assert got[:3] == ["x", "w", "y"]  # input iterators are the identity
    assert got[3] == "sum(16, mul(x, w))"  # the tile's contraction extent
    assert got[4] == "sum(64, mul(x, w))"
    # the stabilizer exp(-max) is dropped; a scale that varies makes it a sum over the loop
    assert got[5] == "sum(4, mul(y, exp(sum(16, mul(x, w)))))"
    assert got[6] == "mul(y, exp(y))"


def test_concatenations_follow_their_pieces() -> None:
    args = "%x: tensor<4x32xf32>, %w: tensor<32x8xf32>, %a: tensor<32x4xf32>, %b: tensor<4x8xf32>"
    text = (
        f"func.func @f({args}) -> tensor<4x8xf32> {{"
        + """
  %xa = kernel.matmul %x, %a : tensor<4x32xf32>, tensor<32x4xf32> -> tensor<4x4xf32>
  %l = kernel.concat %x, %xa dim 1 : tensor<4x32xf32>, tensor<4x4xf32> -> tensor<4x36xf32>
  %r = kernel.concat %w, %b dim 0 : tensor<32x8xf32>, tensor<4x8xf32> -> tensor<36x8xf32>
  %e = kernel.exp %l : tensor<4x36xf32> -> tensor<4x36xf32>
  %s = kernel.reduce_sum %e dim 1 size 4 : tensor<4x36xf32> -> tensor<4x4xf32>
  %m = kernel.matmul %l, %r : tensor<4x36xf32>, tensor<36x8xf32> -> tensor<4x8xf32>
  %n = kernel.rms_norm %l : tensor<4x36xf32> -> tensor<4x36xf32>
  func.return %m : tensor<4x8xf32>
}"""
    )
    got = exprs(text)
    xa = "sum(32, mul(x, a))"
    assert got[1] == f"cat<1>(32: x, 4: {xa})"
    assert got[2] == "cat<0>(32: w, 4: b)"
    assert got[3] == f"cat<1>(32: exp(x), 4: exp({xa}))"
    assert got[4] == f"add(sum(8, exp(x)), exp({xa}))"
    assert got[5] == f"add(sum(32, mul(x, w)), sum(4, mul({xa}, b)))"
    norm = f"sqrt(add(sum(32, mul(x, x)), sum(4, mul({xa}, {xa}))))"
    assert got[6] == f"cat<1>(32: div(x, {norm}), 4: div({xa}, {norm}))"


def test_a_concatenation_cut_by_the_loop_is_unknown() -> None:
    text = """
func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %c = kernel.concat %x, %y dim 1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
  %o = kernel.graph(%c) grid [1, 1, 1] block [128, 1, 1] forloop 4
      : (tensor<4x16xf32>) -> tensor<4x4xf32> {
  ^bb0(%gc: tensor<4x16xf32>):
    %acc = block.for_loop : tensor<4x4xf32> {
      %ct = block.input %gc imap [-1, -1, -1] forloop_dim 1 : tensor<4x16xf32> -> tensor<4x4xf32>
      %e = block.exp %ct : tensor<4x4xf32> -> tensor<4x4xf32>
      %a = block.accum_sum %e : tensor<4x4xf32> -> tensor<4x4xf32>
      block.yield %a : tensor<4x4xf32>
    }
    %out = block.output %acc omap [-1, -1, -1] : tensor<4x4xf32> -> tensor<4x4xf32>
    block.return %out : tensor<4x4xf32>
  }
  func.return %o : tensor<4x4xf32>
}"""
    graph = graph_of(text)
    terms = [t for _, t in AbstractExprs.of(graph).results()]
    assert str(terms[0]) == "cat<1>(8: arg0, 8: arg1)"
    assert all(isinstance(t, Unknown) for t in terms[1:])


def test_a_saved_concatenation_repeats_per_block() -> None:
    text = """
func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x32xf32> {
  %o = kernel.graph(%x, %y) grid [2, 1, 1] block [128, 1, 1] forloop 1
      : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x32xf32> {
  ^bb0(%gx: tensor<4x8xf32>, %gy: tensor<4x8xf32>):
    %acc = block.for_loop : tensor<4x16xf32> {
      %xt = block.input %gx imap [-1, -1, -1] : tensor<4x8xf32> -> tensor<4x8xf32>
      %yt = block.input %gy imap [-1, -1, -1] : tensor<4x8xf32> -> tensor<4x8xf32>
      %c = block.concat %xt, %yt dim 1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
      %a = block.accum_sum %c : tensor<4x16xf32> -> tensor<4x16xf32>
      block.yield %a : tensor<4x16xf32>
    }
    %out = block.output %acc omap [1, -1, -1] : tensor<4x16xf32> -> tensor<4x32xf32>
    block.return %out : tensor<4x32xf32>
  }
  func.return %o : tensor<4x32xf32>
}"""
    assert exprs(text)[-1] == "cat<1>(8: x, 8: y, 8: x, 8: y)"


def test_argument_expressions_can_be_given() -> None:
    graph = graph_of(KERNEL)
    with pytest.raises(ValueError, match="2 arguments"):
        AbstractExprs.of(graph, args=[Var("x")])
    e = AbstractExprs.of(graph, names=["a", "b"])
    assert str(e.outputs[0]) == "sum(64, mul(div(a, sqrt(sum(64, mul(a, a)))), b))"
    assert str(e[0]) == "a"


def test_the_builder_pushes_and_pops_like_the_search() -> None:
    module = parse_module((FIXTURES / "rmsnorm_linear_small.mlir").read_text())
    ugraph = graph_from_func([op for op in module.ops if isinstance(op, FuncOp)][1])
    launch = ugraph.ops[0]
    assert launch.body is not None
    whole = AbstractExprs.of(ugraph).bodies[0]
    builder = ExprBuilder(
        [Var("arg0"), Var("arg1")],
        launch.body.args,
        grid=launch.ints_attr("grid"),
        forloop_range=launch.int_attr("forloop_range"),
    )
    for op in launch.body.ops:
        builder.push(op)
    assert tuple(builder.terms) == whole.terms
    # Backtrack over the accumulators and push them again, as a search would.
    builder.pop()  # output saver
    builder.pop()  # thread.fuse
    builder.pop()  # accum_mean_last
    mean = launch.body.ops[5]
    assert builder.push(mean) == (whole.terms[7],)
    assert len(builder.terms) == 8
    with pytest.raises(ValueError, match="grid and its forloop range"):
        ExprBuilder([], [], grid=(1, 1, 1))


# --- kernel.constant, kernel.transpose, kernel.reshape ---------------------------------------


def test_a_transpose_moves_elements_and_keeps_their_expressions() -> None:
    got = exprs(
        """
func.func @f(%x: tensor<8x4xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {
  %t = kernel.transpose %x permutation [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %u = kernel.transpose %w permutation [1, 0] : tensor<16x8xf32> -> tensor<8x16xf32>
  %y = kernel.matmul %t, %u : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  func.return %y : tensor<4x16xf32>
}"""
    )
    assert got == ["x", "w", "sum(8, mul(x, w))"]


def test_a_reshape_keeps_expressions_and_a_sum_over_merged_dims_counts_them_all() -> None:
    got = exprs(
        """
func.func @f(%x: tensor<4x2x8xf32>) -> tensor<4x1xf32> {
  %r = kernel.reshape %x : tensor<4x2x8xf32> -> tensor<4x16xf32>
  %s = kernel.reduce_sum %r dim 1 size 1 : tensor<4x16xf32> -> tensor<4x1xf32>
  func.return %s : tensor<4x1xf32>
}"""
    )
    assert got == ["x", "sum(16, x)"]


def test_a_constant_is_the_empty_product() -> None:
    got = exprs(
        """
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = kernel.constant 9.9999999999999995e-07 : tensor<1x1xf32>
  %a = kernel.add %x, %c : tensor<4x8xf32>, tensor<1x1xf32> -> tensor<4x8xf32>
  %h = kernel.constant 5.000000e-01 : tensor<1x1xf32>
  %m = kernel.mul %a, %h : tensor<4x8xf32>, tensor<1x1xf32> -> tensor<4x8xf32>
  %k = kernel.constant 2.000000e+00 : tensor<4x8xf32>
  %s = kernel.reduce_sum %k dim 1 size 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %y = kernel.div %m, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}"""
    )
    assert got == [
        "1",
        "add(x, 1)",
        "1",
        "mul(add(x, 1), 1)",
        "1",
        "1",  # a sum of copies of a constant is a constant factor
        "div(mul(add(x, 1), 1), 1)",
    ]
    # x * 0.5 and (x * 0.5) / 16 are x as far as the abstraction sees (as with mul_scalar)
    assert canonical(parse_term(got[-1])) == canonical(parse_term("add(x, 1)"))


def test_a_slice_keeps_expressions_and_picks_the_pieces_of_a_concatenation() -> None:
    got = exprs(
        """
func.func @f(%x: tensor<4x6xf32>, %y: tensor<4x2xf32>) -> tensor<4x3xf32> {
  %e = kernel.exp %y : tensor<4x2xf32> -> tensor<4x2xf32>
  %c = kernel.concat %x, %e dim 1 : tensor<4x6xf32>, tensor<4x2xf32> -> tensor<4x8xf32>
  %a = kernel.slice %c offsets [0, 1] : tensor<4x8xf32> -> tensor<4x3xf32>
  %b = kernel.slice %c offsets [1, 5] : tensor<4x8xf32> -> tensor<3x3xf32>
  %d = kernel.slice %c offsets [0, 6] : tensor<4x8xf32> -> tensor<4x2xf32>
  %s = kernel.reduce_sum %b dim 1 : tensor<3x3xf32> -> tensor<3x1xf32>
  func.return %a : tensor<4x3xf32>
}"""
    )
    assert got[2] == "x"  # inside the first piece
    assert got[3] == "cat<1>(1: x, 2: exp(y))"
    assert got[4] == "exp(y)"
    assert got[5] == "add(x, sum(2, exp(y)))"
