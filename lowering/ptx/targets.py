"""mirage-opt targets: `-t llvm`, `-t ptx{arch=sm_90a}`, `-t cubin{arch=sm_90a}`.

Each takes a module lowered by `lower-to-llvm`, or a module of kernel-dialect functions
(lowered on the way, with `loads`, `matmuls` and `clusters` as `plan-ugraph`'s). `arch`
names a `Target` (`mirage.dialects.hardware`); any other is one error. `-t cubin` writes
the built program's descriptor (JSON, as `CompiledProgram.to_json` writes it) with the
cubin embedded, ready for the runtime.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.utils.target import Target

from mirage.lowering.optimize.cluster_join import CLUSTERS_BY_DEFAULT
from mirage.lowering.ptx.compile import CompileError, compile_function, compile_lowered
from mirage.lowering.ptx.emit import check_arch, llvm_ir, ptx


@dataclass(frozen=True)
class LLVMIRTarget(Target):
    name = "llvm"
    arch: str = "sm_90a"
    loads: str | None = None
    matmuls: str | None = None
    clusters: bool = CLUSTERS_BY_DEFAULT

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        arch = check_arch(self.arch)
        output.write(llvm_ir(module, arch, self.loads, self.matmuls, self.clusters))


@dataclass(frozen=True)
class PTXTarget(Target):
    name = "ptx"
    arch: str = "sm_90a"
    loads: str | None = None
    short_ptr: bool = True
    """32-bit shared-memory pointers (LLVM's --nvptx-short-ptr), as CUDA's own code uses."""
    matmuls: str | None = None
    clusters: bool = CLUSTERS_BY_DEFAULT

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        arch = check_arch(self.arch)
        output.write(ptx(module, arch, self.loads, self.short_ptr, self.matmuls, self.clusters))


@dataclass(frozen=True)
class CubinTarget(Target):
    name = "cubin"
    arch: str = "sm_90a"
    function: str = ""
    """Which function to build (default: the only one)."""
    loads: str | None = None
    matmuls: str | None = None
    clusters: bool = CLUSTERS_BY_DEFAULT

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        check_arch(self.arch)
        funcs = [op for op in module.ops if isinstance(op, FuncOp) and not op.is_declaration]
        chosen = [f for f in funcs if not self.function or f.sym_name.data == self.function]
        if len(chosen) != 1:
            names = ", ".join(f"@{f.sym_name.data}" for f in funcs) or "none"
            raise CompileError(
                "-t cubin builds one function; name it with cubin{function=NAME} "
                f"(functions: {names})"
            )
        if "mirage.buffers" in chosen[0].attributes:  # lowered already (-p lower-to-llvm)
            program = compile_lowered(module, chosen[0], self.arch, assemble=True)
        else:
            program = compile_function(
                chosen[0],
                self.arch,
                assemble=True,
                loads=self.loads,
                matmuls=self.matmuls,
                clusters=self.clusters,
            )
        output.write(program.to_json())
