from collections.abc import Sequence

from llvmlite.ir.instructions import GEPInstr, Instruction, PhiInstr
from llvmlite.ir.types import Type
from llvmlite.ir.values import Block, Value

class IRBuilder:
    def __init__(self, block: Block | None = None) -> None: ...
    def position_after(self, instr: Instruction) -> None: ...
    def gep(
        self,
        ptr: Value,
        indices: Sequence[Value],
        inbounds: bool = False,
        name: str = "",
        source_etype: Type | None = None,
    ) -> GEPInstr: ...
    def phi(self, typ: Type, name: str = "", flags: Sequence[str] = ()) -> PhiInstr: ...
