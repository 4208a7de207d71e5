"""μGraphs as Graphviz text, at all three levels.

Each function is a cluster of kernel ops (boxes) and the device tensors between them
(ellipses). A `kernel.graph` is a cluster of its own, labelled with its grid, block and
loop range, holding two sub-clusters: the for-loop body (what runs every iteration) and
the ops after the loop (what runs once per block). The edges into and out of a kernel.graph
carry the input iterators' `imap`/`forloop_dim` and the output savers' `omap`; a
`thread.fuse` is one node labelled with the expression its body computes.

Making the text needs nothing but the IR; rendering it needs Graphviz (`render.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue

from mirage.dialects import block as blk
from mirage.dialects import kernel as krn
from mirage.dialects import thread as thr
from mirage.dialects.opkinds import INPUTS, OP_KINDS, OUTPUTS

_End = str | SSAValue
"""An edge's end: a node, or a kernel-level value (its tensor node, made when needed)."""

_ATOM = 3


def _float(op: Operation, name: str) -> float:
    attr = op.properties[name]
    assert isinstance(attr, FloatAttr)
    return float(attr.value.data)  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]


def quote(text: str) -> str:
    """A dot string literal; newlines become dot's centred line breaks."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def type_text(t: Attribute) -> str:
    if isinstance(t, TensorType):
        shape = "x".join(str(d) for d in t.get_shape())  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]
        return f"{shape}x{t.element_type}"  # pyright: ignore[reportUnknownMemberType]
    return str(t)


def _attr_text(a: Attribute) -> str:
    if isinstance(a, DenseArrayBase):
        return "[" + ", ".join(str(v) for v in a.get_values()) + "]"  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType, reportUnknownVariableType]
    if isinstance(a, IntegerAttr):
        return str(a.value.data)  # pyright: ignore[reportUnknownMemberType]
    if isinstance(a, FloatAttr):
        return f"{a.value.data:g}"  # pyright: ignore[reportUnknownMemberType]
    return str(a)


def _props_text(op: Operation, skip: Iterable[str] = ()) -> str:
    skipped = set(skip)
    return "  ".join(
        f"{name} {_attr_text(value)}"
        for name, value in sorted(op.properties.items())
        if name not in skipped
    )


def _op_label(op: Operation, skip: Iterable[str] = (), result_types: bool = False) -> str:
    lines = [op.name]
    props = _props_text(op, skip)
    if props:
        lines.append(props)
    if result_types:
        lines.extend(type_text(r.type) for r in op.results)
    return "\n".join(lines)


def fuse_expressions(fuse: thr.FuseOp, arg_names: Sequence[str]) -> list[str]:
    """What a thread.fuse body computes, one line per yielded value (and one `tN = ...`
    line before them for each intermediate value read more than once)."""
    body = fuse.body.block
    env: dict[SSAValue, tuple[str, int]] = {
        arg: (name, _ATOM) for arg, name in zip(body.args, arg_names, strict=True)
    }
    lets: list[str] = []
    outputs: list[str] = []
    for op in body.ops:
        if isinstance(op, thr.YieldOp):
            texts = [env[v][0] for v in op.values]
            outputs = texts if len(texts) == 1 else [f"y{i} = {t}" for i, t in enumerate(texts)]
            break
        kind = op.name.split(".", 1)[1]
        record = OP_KINDS.get(kind)
        args = [env[v] for v in op.operands]
        if record is not None:
            params = record.param_values(partial(_float, op))
            args += [(f"{p:g}", _ATOM) for p in params]
        infix = None if record is None else record.infix
        if infix is not None and len(args) == 2:
            prec = infix.precedence
            (a, pa), (b, pb) = args
            left = a if pa >= prec else f"({a})"
            # a - (b - c), a / (b * c): the right operand binds tighter than the op
            right = b if pb > prec or (pb == prec and infix.associative) else f"({b})"
            expr = (f"{left} {infix.symbol} {right}", prec)
        else:
            expr = (f"{kind}({', '.join(a for a, _ in args)})", _ATOM)
        result = op.results[0]
        if result.has_more_than_one_use() and (expr[1] != _ATOM or len(expr[0]) > 12):
            name = f"t{len(lets)}"
            lets.append(f"{name} = {expr[0]}")
            expr = (name, _ATOM)
        env[result] = expr
    return lets + outputs


@dataclass
class _Writer:
    lines: list[str] = field(default_factory=list[str])
    indent: int = 1
    counter: int = 0

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def line(self, text: str) -> None:
        self.lines.append("  " * self.indent + text)

    def node(self, name: str, label: str, **attrs: str) -> None:
        extra = "".join(f", {k}={v}" for k, v in attrs.items())
        self.line(f"{name} [label={quote(label)}{extra}];")

    def edge(self, src: str, dst: str, label: str = "") -> None:
        self.line(f"{src} -> {dst}" + (f" [label={quote(label)}];" if label else ";"))

    def open(self, cluster: str, label: str, style: str) -> None:
        self.line(f"subgraph {cluster} {{")
        self.indent += 1
        self.line(f"label={quote(label)}; labeljust=l; style={style};")

    def close(self) -> None:
        self.indent -= 1
        self.line("}")


class _FunctionDrawing:
    """One function: device tensors are nodes; so is every op but the terminators."""

    def __init__(self, out: _Writer, func: FuncOp) -> None:
        self.out = out
        self.func = func
        self.tensors: dict[SSAValue, str] = {}
        """Kernel-level values and the nodes that stand for them."""
        self.names: dict[SSAValue, str] = {}

    def value_name(self, v: SSAValue) -> str:
        if v not in self.names:
            self.names[v] = f"%{v.name_hint}" if v.name_hint else f"%{len(self.names)}"
        return self.names[v]

    def tensor(self, v: SSAValue) -> str:
        node = self.tensors.get(v)
        if node is None:
            node = self.out.fresh("t")
            self.out.node(node, f"{self.value_name(v)}\n{type_text(v.type)}", shape="ellipse")
            self.tensors[v] = node
        return node

    def draw(self) -> None:
        out = self.out
        out.open(self.out.fresh("cluster_func"), f"@{self.func.sym_name.data}", "rounded")
        for arg in self.func.body.block.args:
            self.tensor(arg)
        for op in self.func.body.block.ops:
            if isinstance(op, krn.GraphOp):
                self.graph(op)
            elif op.name == "func.return":
                ret = out.fresh("ret")
                out.node(ret, "return", shape="plaintext")
                many = len(op.operands) > 1
                for i, v in enumerate(op.operands):
                    out.edge(self.tensor(v), ret, f"out{i}" if many else "")
            else:
                node = out.fresh("k")
                nested = sum(1 for r in op.regions for b in r.blocks for _ in b.ops)
                label = _op_label(op) + (f"\n({nested} nested ops)" if nested else "")
                out.node(node, label, shape="box")
                for v in op.operands:
                    out.edge(self.tensor(v), node)
                for r in op.results:
                    out.edge(node, self.tensor(r))
        out.close()

    def graph(self, op: krn.GraphOp) -> None:
        out = self.out
        grid = ", ".join(str(g) for g in op.grid_dims)
        block = ", ".join(str(b) for b in op.block_dims)
        out.open(
            out.fresh("cluster_graph"),
            f"kernel.graph  grid [{grid}]  block [{block}]  forloop {op.loop_range}",
            "rounded",
        )
        body = op.body.block
        # In the body, a block value stands for the node of the op that makes it; the
        # body's arguments are the kernel-level inputs.
        made: dict[SSAValue, str] = {}
        sources: dict[SSAValue, SSAValue] = dict(zip(body.args, op.inputs, strict=True))
        results: dict[SSAValue, SSAValue] = {}
        ret = body.last_op
        if isinstance(ret, blk.ReturnOp):
            results = dict(zip(ret.values, op.outputs, strict=True))
        loops = [o for o in body.ops if isinstance(o, blk.ForLoopOp)]
        pending_edges: list[tuple[_End, _End, str]] = []
        for loop in loops:
            out.open(
                out.fresh("cluster_loop"),
                f"for-loop body: every iteration (x{op.loop_range})",
                "dashed",
            )
            self.block_ops(loop.body.block.ops, made, sources, results, pending_edges)
            out.close()
            term = loop.body.block.last_op
            if isinstance(term, blk.YieldOp):
                for r, v in zip(loop.results, term.values, strict=True):
                    if v in made:
                        made[r] = made[v]
        after = [o for o in body.ops if not isinstance(o, blk.ForLoopOp | blk.ReturnOp)]
        if after:
            out.open(out.fresh("cluster_after"), "after the loop: once per block", "dotted")
            self.block_ops(after, made, sources, results, pending_edges)
            out.close()
        out.close()
        for src, dst, label in pending_edges:
            out.edge(self.end(src), self.end(dst), label)

    def end(self, e: _End) -> str:
        return e if isinstance(e, str) else self.tensor(e)

    def block_ops(
        self,
        ops: Iterable[Operation],
        made: dict[SSAValue, str],
        sources: dict[SSAValue, SSAValue],
        results: dict[SSAValue, SSAValue],
        edges: list[tuple[_End, _End, str]],
    ) -> None:
        """The nodes of block ops, inside the current cluster; their edges are drawn
        after the clusters close, so that an edge does not pull a node into a cluster."""
        out = self.out
        for op in ops:
            if isinstance(op, blk.YieldOp | blk.ReturnOp):
                continue
            node = out.fresh("b")
            kind = op.name.partition(".")[2]
            if kind in INPUTS:
                out.node(node, _op_label(op, ("imap", "forloop_dim"), True), shape="box")
                label = f"imap {_attr_text(op.properties['imap'])}"
                fdim = op.properties["forloop_dim"]
                assert isinstance(fdim, IntegerAttr)
                if fdim.value.data >= 0:
                    label += f"\nforloop_dim {fdim.value.data}"
                src = sources.get(op.operands[0])
                if src is not None:
                    edges.append((src, node, label))
            elif kind in OUTPUTS:
                out.node(node, _op_label(op, ("omap",)), shape="box")
                if op.operands[0] in made:
                    edges.append((made[op.operands[0]], node, ""))
                dst = results.get(op.results[0])
                if dst is not None:
                    edges.append((node, dst, f"omap {_attr_text(op.properties['omap'])}"))
            elif isinstance(op, thr.FuseOp):
                names = [a.name_hint or f"x{i}" for i, a in enumerate(op.body.block.args)]
                lines = ["thread.fuse", *fuse_expressions(op, names)]
                lines.extend(type_text(r.type) for r in op.results)
                out.node(node, "\n".join(lines), shape="box", style="filled", fillcolor='"#eef3ff"')
                for v, name in zip(op.inputs, names, strict=True):
                    if v in made:
                        edges.append((made[v], node, name))
            else:
                out.node(node, _op_label(op, (), True), shape="box")
                for v in op.operands:
                    if v in made:
                        edges.append((made[v], node, ""))
            for r in op.results:
                made[r] = node


_HEADER = (
    "compound=true; rankdir=TB; newrank=true;",
    'graph [fontname="Helvetica", fontsize=11];',
    'node [fontname="Helvetica", fontsize=10];',
    'edge [fontname="Helvetica", fontsize=9];',
)


def draw_functions(funcs: Iterable[FuncOp], title: str = "mirage") -> str:
    out = _Writer()
    for line in _HEADER:
        out.line(line)
    for func in funcs:
        _FunctionDrawing(out, func).draw()
    return f"digraph {quote(title)} {{\n" + "\n".join(out.lines) + "\n}\n"


def draw_module(module: ModuleOp) -> str:
    """The dot text of every function defined in the module."""
    funcs = [op for op in module.ops if isinstance(op, FuncOp) and not op.is_declaration]
    return draw_functions(funcs)


def draw_function(func: FuncOp) -> str:
    return draw_functions([func], func.sym_name.data)
