from collections.abc import Iterable

from llvmlite.ir.instructions import Instruction
from llvmlite.ir.module import Module
from llvmlite.ir.types import FunctionType, Type

class Value:
    type: Type

class Constant(Value):
    def __init__(self, typ: Type, constant: object) -> None: ...

class Undefined: ...

class NamedValue(Value):
    name: str

class AttributeSet(set[str]):
    def __init__(self, args: Iterable[str] | str = ()) -> None: ...
    def add(self, name: str) -> None: ...

class FunctionAttributes(AttributeSet):
    def _to_list(self, ret_type: Type) -> list[str]: ...

class ArgumentAttributes(AttributeSet):
    def _to_list(self, typ: Type) -> list[str]: ...

class Argument(NamedValue):
    attributes: ArgumentAttributes

class Block(NamedValue):
    instructions: list[Instruction]

class GlobalValue(NamedValue):
    linkage: str

class GlobalVariable(GlobalValue):
    global_constant: bool
    align: int | None
    initializer: Constant | None
    def __init__(self, module: Module, typ: Type, name: str, addrspace: int = 0) -> None: ...

class Function(GlobalValue):
    args: tuple[Argument, ...]
    attributes: FunctionAttributes
    calling_convention: str
    def __init__(self, module: Module, ftype: FunctionType, name: str) -> None: ...
    def append_basic_block(self, name: str = "") -> Block: ...

class InlineAsm(Value):
    def __init__(
        self, ftype: FunctionType, asm: str, constraint: str, side_effect: bool = False
    ) -> None: ...
