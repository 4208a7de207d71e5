"""Building kernel programs in Python, as briefly as in the reference system:

    b = KernelBuilder()
    x = b.input((16, 4096), "f16")
    w = b.input((4096, 6144), "f16")
    b.output(b.matmul(b.rms_norm(x), w))
    module = b.build("rmsnorm_linear")

Ops are the kernel dialect's, by name; shapes follow `mirage.dialects.shapes`; results
take their first operand's element type unless `dtype=` says otherwise. A binary op also
takes a Python number: `b.mul(x, 0.5)` is `kernel.mul_scalar`, `b.add(x, 1e-6)` adds a
`kernel.constant`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from mirage.dialects import kernel, shapes
from mirage.dialects.types import tensor_or_none
from mirage.dialects.ugraph.convert import element_type

Value = SSAValue
Operand = SSAValue | float | int


class KernelBuilder:
    """Appends kernel ops to one function; `build` returns it in a module."""

    def __init__(self) -> None:
        self.block = Block()
        self.outputs: list[SSAValue] = []

    # --- inputs and outputs ------------------------------------------------------------

    def input(self, shape: Sequence[int], dtype: str = "f16", name: str | None = None) -> Value:
        """A new function argument: a tensor of `shape` and `dtype` (f16, bf16, f32)."""
        arg = self.block.insert_arg(
            TensorType(element_type(dtype), tuple(shape)), len(self.block.args)
        )
        arg.name_hint = name
        return arg

    def output(self, *values: Value) -> None:
        self.outputs.extend(values)

    def function(self, name: str = "main") -> FuncOp:
        if not self.outputs:
            raise ValueError("the program has no outputs (call output() first)")
        self.block.add_op(ReturnOp(*self.outputs))
        arg_types = [a.type for a in self.block.args]
        out_types = [v.type for v in self.outputs]
        func = FuncOp(name, (arg_types, out_types), Region(self.block))
        self.block = Block()
        self.outputs = []
        return func

    def build(self, name: str = "main") -> ModuleOp:
        """The program as a verified module holding function @name."""
        module = ModuleOp([self.function(name)])
        module.verify()
        return module

    # --- helpers -----------------------------------------------------------------------

    def _add(self, op: Operation) -> Value:
        self.block.add_op(op)
        return op.results[0]

    @staticmethod
    def _type(v: Value) -> TensorType[Attribute]:
        ty = tensor_or_none(v.type)
        if ty is None:
            raise TypeError(f"{v} is not a tensor")
        return ty

    def _result(self, like: Value, shape: Sequence[int], dtype: str | None) -> TensorType:
        elem = element_type(dtype) if dtype else self._type(like).element_type
        return TensorType(elem, tuple(shape))

    def _shape(self, v: Value) -> tuple[int, ...]:
        return tuple(int(d) for d in self._type(v).get_shape())

    # --- ops ---------------------------------------------------------------------------

    def elementwise(self, kind: str, *args: Operand, dtype: str | None = None) -> Value:
        """`kernel.<kind>` of a row of `mirage.dialects.opkinds`."""
        cls = kernel.ELEMENTWISE_OPS[kind]
        tensors = [a for a in args if isinstance(a, SSAValue)]
        if not tensors:
            raise TypeError(f"{kind} needs a tensor operand")
        first = tensors[0]
        if kind == "mul" and len(tensors) == 1 and len(args) == 2:
            scalar = args[1] if args[0] is first else args[0]
            return self.mul_scalar(first, float(scalar), dtype=dtype)  # type: ignore[arg-type]
        if kind == "div" and len(tensors) == 1 and args[0] is first:
            return self.mul_scalar(first, 1.0 / float(args[1]), dtype=dtype)  # type: ignore[arg-type]
        rank = len(self._shape(first))
        operands = [
            a if isinstance(a, SSAValue) else self.constant(float(a), (1,) * rank, like=first)
            for a in args
        ]
        shape = shapes.broadcast_all([self._shape(o) for o in operands])
        return self._add(
            cls.create(operands=operands, result_types=[self._result(first, shape, dtype)])
        )

    def exp(self, x: Value, dtype: str | None = None) -> Value:
        return self.elementwise("exp", x, dtype=dtype)

    def square(self, x: Value, dtype: str | None = None) -> Value:
        return self.elementwise("square", x, dtype=dtype)

    def sqrt(self, x: Value, dtype: str | None = None) -> Value:
        return self.elementwise("sqrt", x, dtype=dtype)

    def rsqrt(self, x: Value, dtype: str | None = None) -> Value:
        return self.elementwise("rsqrt", x, dtype=dtype)

    def silu(self, x: Value, dtype: str | None = None) -> Value:
        return self.elementwise("silu", x, dtype=dtype)

    def gelu(self, x: Value, dtype: str | None = None) -> Value:
        return self.elementwise("gelu", x, dtype=dtype)

    def relu(self, x: Value, dtype: str | None = None) -> Value:
        return self.elementwise("relu", x, dtype=dtype)

    def tanh(self, x: Value, dtype: str | None = None) -> Value:
        return self.elementwise("tanh", x, dtype=dtype)

    def add(self, a: Operand, b: Operand, dtype: str | None = None) -> Value:
        return self.elementwise("add", a, b, dtype=dtype)

    def sub(self, a: Operand, b: Operand, dtype: str | None = None) -> Value:
        return self.elementwise("sub", a, b, dtype=dtype)

    def mul(self, a: Operand, b: Operand, dtype: str | None = None) -> Value:
        return self.elementwise("mul", a, b, dtype=dtype)

    def div(self, a: Operand, b: Operand, dtype: str | None = None) -> Value:
        return self.elementwise("div", a, b, dtype=dtype)

    def pow(self, a: Operand, b: Operand, dtype: str | None = None) -> Value:
        return self.elementwise("pow", a, b, dtype=dtype)

    def max(self, a: Operand, b: Operand, dtype: str | None = None) -> Value:
        return self.elementwise("max", a, b, dtype=dtype)

    def mul_scalar(self, x: Value, scalar: float, dtype: str | None = None) -> Value:
        return self._add(kernel.MulScalarOp(x, scalar, self._result(x, self._shape(x), dtype)))

    def matmul(self, a: Value, b: Value, dtype: str | None = None) -> Value:
        shape = shapes.matmul(self._shape(a), self._shape(b))
        return self._add(kernel.MatmulOp(a, b, self._result(a, shape, dtype)))

    def reduce_sum(self, x: Value, dim: int, size: int = 1, dtype: str | None = None) -> Value:
        shape = shapes.reduce(self._shape(x), dim, size)
        return self._add(kernel.ReduceSumOp(x, dim, size, self._result(x, shape, dtype)))

    def reduce_max(self, x: Value, dim: int, size: int = 1, dtype: str | None = None) -> Value:
        shape = shapes.reduce(self._shape(x), dim, size)
        return self._add(kernel.ReduceMaxOp(x, dim, size, self._result(x, shape, dtype)))

    def rms_norm(self, x: Value, dtype: str | None = None) -> Value:
        return self._add(kernel.RmsNormOp(x, self._result(x, self._shape(x), dtype)))

    def concat(self, xs: Sequence[Value], dim: int, dtype: str | None = None) -> Value:
        shape = shapes.concat([self._shape(x) for x in xs], dim)
        return self._add(kernel.ConcatOp(xs, dim, self._result(xs[0], shape, dtype)))

    def constant(
        self,
        value: float,
        shape: Sequence[int],
        dtype: str | None = None,
        like: Value | None = None,
    ) -> Value:
        """A tensor of one value; its element type is `dtype`, or that of `like`, or f32."""
        if dtype is None:
            dtype = str(self._type(like).element_type) if like is not None else "f32"
        return self._add(kernel.ConstantOp(value, TensorType(element_type(dtype), tuple(shape))))

    def transpose(self, x: Value, permutation: Sequence[int]) -> Value:
        return self._add(kernel.TransposeOp(x, permutation))

    def slice(self, x: Value, offsets: Sequence[int], sizes: Sequence[int]) -> Value:
        new = shapes.slice_(self._shape(x), offsets, sizes)
        return self._add(kernel.SliceOp(x, offsets, result_type=self._result(x, new, None)))

    def reshape(self, x: Value, shape: Sequence[int]) -> Value:
        new = shapes.reshape(self._shape(x), tuple(shape))
        return self._add(kernel.ReshapeOp(x, self._result(x, new, None)))
