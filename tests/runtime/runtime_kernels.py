"""Hand-written PTX programs for the runtime's tests (independent of the code generator)."""

from __future__ import annotations

from mirage.lowering.runtime.program import BufferSpec, CompiledProgram, KernelLaunch

_LOAD = {
    "f32": ("ld.global.f32 {f}, [{a}];",),
    "f16": ("ld.global.b16 %h1, [{a}];", "cvt.f32.f16 {f}, %h1;"),
    # bf16 -> f32 is a 16-bit shift, which needs no sm_90 cvt.
    "bf16": (
        "ld.global.b16 %h1, [{a}];",
        "cvt.u32.u16 %r9, %h1;",
        "shl.b32 %r9, %r9, 16;",
        "mov.b32 {f}, %r9;",
    ),
}
_STORE = {
    "f32": ("st.global.f32 [{a}], {f};",),
    "f16": ("cvt.rn.f16.f32 %h2, {f};", "st.global.b16 [{a}], %h2;"),
    "bf16": ("cvt.rn.bf16.f32 %h2, {f};", "st.global.b16 [{a}], %h2;"),
}
_SIZE = {"f32": 4, "f16": 2, "bf16": 2}


def scale_add_ptx(
    n: int, dtype: str, name: str = "scale_add", arch: str = "sm_80", dependent: bool = False
) -> str:
    """y[i] = 2 * x[i] + b[i] for i < n, one element per thread; params (x, b, y). With
    `dependent` (sm_90): it waits for the launch before it, then lets the next one start."""
    lines = [
        ".version 8.0",
        f".target {arch}",
        ".address_size 64",
        "",
        f".visible .entry {name}(.param .u64 p_x, .param .u64 p_b, .param .u64 p_y)",
        "{",
        "  .reg .pred %p<2>;",
        "  .reg .b16 %h<3>;",
        "  .reg .b32 %r<10>;",
        "  .reg .f32 %f<4>;",
        "  .reg .b64 %rd<10>;",
        "  ld.param.u64 %rd1, [p_x];",
        "  ld.param.u64 %rd2, [p_b];",
        "  ld.param.u64 %rd3, [p_y];",
        *(["  griddepcontrol.wait;", "  griddepcontrol.launch_dependents;"] if dependent else []),
        "  mov.u32 %r1, %ctaid.x;",
        "  mov.u32 %r2, %ntid.x;",
        "  mov.u32 %r3, %tid.x;",
        "  mad.lo.s32 %r4, %r1, %r2, %r3;",
        f"  setp.ge.s32 %p1, %r4, {n};",
        "  @%p1 bra DONE;",
        "  cvta.to.global.u64 %rd4, %rd1;",
        "  cvta.to.global.u64 %rd5, %rd2;",
        "  cvta.to.global.u64 %rd6, %rd3;",
        f"  mul.wide.s32 %rd7, %r4, {_SIZE[dtype]};",
        "  add.s64 %rd8, %rd4, %rd7;",
        *(f"  {s.format(f='%f1', a='%rd8')}" for s in _LOAD[dtype]),
        "  add.s64 %rd8, %rd5, %rd7;",
        *(f"  {s.format(f='%f2', a='%rd8')}" for s in _LOAD[dtype]),
        "  fma.rn.f32 %f3, %f1, 0f40000000, %f2;",
        "  add.s64 %rd8, %rd6, %rd7;",
        *(f"  {s.format(f='%f3', a='%rd8')}" for s in _STORE[dtype]),
        "DONE:",
        "  ret;",
        "}",
        "",
    ]
    return "\n".join(lines)


def scale_add_program(n: int, dtype: str, block: int = 128) -> CompiledProgram:
    spec = BufferSpec((n,), dtype)
    grid = (-(-n // block), 1, 1)
    return CompiledProgram(
        ptx=scale_add_ptx(n, dtype),
        arch="sm_80",
        buffers=(spec, spec, spec),
        num_inputs=2,
        num_outputs=1,
        launches=(KernelLaunch("scale_add", grid, (block, 1, 1), 0, (0, 1, 2)),),
    )


def chained_program(
    rows: int, cols: int, block: int = 256, dependent: bool = False
) -> CompiledProgram:
    """Three launches of one kernel through an intermediate: y = 4x + 3b, z = 3x (f32);
    with `dependent`, for sm_90, the second and third launched programmatically."""
    n = rows * cols
    spec = BufferSpec((rows, cols), "f32")
    grid = (-(-n // block), 1, 1)

    def launch(*args: int, later: bool = True) -> KernelLaunch:
        return KernelLaunch(
            "scale_add", grid, (block, 1, 1), 0, args, dependent=later and dependent
        )

    arch = "sm_90" if dependent else "sm_80"
    return CompiledProgram(
        ptx=scale_add_ptx(n, "f32", arch=arch, dependent=dependent),
        arch=arch,
        buffers=(spec, spec, spec, spec, spec),  # x, b | y, z | t
        num_inputs=2,
        num_outputs=2,
        launches=(launch(0, 1, 4, later=False), launch(4, 1, 2), launch(0, 0, 3)),
    )


def reverse_ptx(shared_bytes: int, block: int, arch: str = "sm_80") -> str:
    """Each block reverses its `block` floats through the END of `shared_bytes` of dynamic
    shared memory, so the launch fails unless that much was granted."""
    base = shared_bytes - 4 * block
    return "\n".join(
        [
            ".version 8.0",
            f".target {arch}",
            ".address_size 64",
            ".extern .shared .align 16 .b8 smem[];",
            "",
            ".visible .entry reverse(.param .u64 p_x, .param .u64 p_y)",
            "{",
            "  .reg .b32 %r<10>;",
            "  .reg .f32 %f<2>;",
            "  .reg .b64 %rd<10>;",
            "  ld.param.u64 %rd1, [p_x];",
            "  ld.param.u64 %rd2, [p_y];",
            "  cvta.to.global.u64 %rd1, %rd1;",
            "  cvta.to.global.u64 %rd2, %rd2;",
            "  mov.u32 %r1, %ctaid.x;",
            "  mov.u32 %r3, %tid.x;",
            f"  mad.lo.s32 %r4, %r1, {block}, %r3;",
            "  mul.wide.s32 %rd3, %r4, 4;",
            "  add.s64 %rd4, %rd1, %rd3;",
            "  ld.global.f32 %f1, [%rd4];",
            "  mov.u32 %r5, smem;",
            f"  add.s32 %r5, %r5, {base};",
            "  shl.b32 %r6, %r3, 2;",
            "  add.s32 %r7, %r5, %r6;",
            "  st.shared.f32 [%r7], %f1;",
            "  bar.sync 0;",
            f"  sub.s32 %r8, {block - 1}, %r3;",
            "  shl.b32 %r8, %r8, 2;",
            "  add.s32 %r8, %r5, %r8;",
            "  ld.shared.f32 %f1, [%r8];",
            "  add.s64 %rd5, %rd2, %rd3;",
            "  st.global.f32 [%rd5], %f1;",
            "  ret;",
            "}",
            "",
        ]
    )


def reverse_program(blocks: int, block: int, shared_bytes: int) -> CompiledProgram:
    spec = BufferSpec((blocks, block), "f32")
    return CompiledProgram(
        ptx=reverse_ptx(shared_bytes, block),
        arch="sm_80",
        buffers=(spec, spec),
        num_inputs=1,
        num_outputs=1,
        launches=(KernelLaunch("reverse", (blocks, 1, 1), (block, 1, 1), shared_bytes, (0, 1)),),
    )
