"""The runtime on a real GPU, with hand-written PTX: results against numpy on fresh random
inputs with poisoned outputs, every way of passing tensors and streams, the module cache,
dynamic shared memory past 48 KB, errors, and timing.

This file imports nothing from conftest, so it also runs where only cuda-python, numpy and
(optionally) torch and cupy are installed: `pytest -m gpu --noconftest tests/runtime/test_gpu.py`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from runtime.runtime_kernels import chained_program, reverse_program, scale_add_program

from mirage.lowering.runtime import (
    ArgumentError,
    CompiledProgram,
    CudaError,
    KernelLaunch,
    TimingMethod,
    load,
    time_program,
)
from mirage.lowering.runtime.arrays import from_float, to_float32
from mirage.lowering.runtime.cubin_cache import Assembler, ModuleCache, find_assembler

pytestmark = pytest.mark.gpu

TESTS = str(Path(__file__).parents[1])


def rand(shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    return rng.uniform(0.25, 1.0, shape) * rng.choice(np.array([-1.0, 1.0]), shape)


def rel_err(got: np.ndarray[Any, Any], want: np.ndarray[Any, Any]) -> float:
    return float(np.linalg.norm(got - want) / np.linalg.norm(want))


def no_disk_cache() -> ModuleCache:
    return ModuleCache(None, find_assembler())


@pytest.mark.parametrize("dtype", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("n", [1000, 4096 * 3 + 5])
def test_scale_add_numpy(dtype: str, n: int) -> None:
    rng = np.random.default_rng(n)
    x, b = from_float(rand((n,), rng), dtype), from_float(rand((n,), rng), dtype)
    prog = load(scale_add_program(n, dtype), cache=no_disk_cache())
    (y,) = prog.run([x, b], poison=True)
    want = 2.0 * to_float32(x, dtype).astype(np.float64) + to_float32(b, dtype)
    got = to_float32(y, dtype)
    assert np.isfinite(got).all()
    assert rel_err(got, want) < (1e-6 if dtype == "f32" else 1e-2)


def test_intermediates_and_several_launches() -> None:
    rng = np.random.default_rng(1)
    x, b = rand((37, 129), rng).astype(np.float32), rand((37, 129), rng).astype(np.float32)
    prog = load(chained_program(37, 129))
    y, z = prog.run([x, b], poison=True)
    # fma(2, x, b) rounds once, as float32 2 * x + b does (doubling is exact): bit-equal.
    t = 2 * x + b
    np.testing.assert_array_equal(y, 2 * t + b)
    np.testing.assert_array_equal(z, 2 * x + x)
    # Caller-provided host outputs are filled in place.
    y2, z2 = np.full_like(y, np.nan), np.full_like(z, np.nan)
    prog.run([x, b], [y2, z2])
    np.testing.assert_array_equal(y2, y)


@pytest.mark.parametrize("how", ["ptx-jit", "assembled", "program-cubin"])
def test_dynamic_shared_memory_beyond_48k(how: str) -> None:
    blocks, block, smem = 40, 256, 100 * 1024
    program = reverse_program(blocks, block, smem)
    if how == "ptx-jit":
        cache = ModuleCache(None, None)
    else:
        assembler = find_assembler()
        if assembler is None:
            pytest.skip("neither nvJitLink nor ptxas is available")
        cache = ModuleCache(None, assembler)
        if how == "program-cubin":
            from mirage.lowering.runtime import driver

            arch = driver.get_device().arch
            cubin = assembler.run(program.ptx, arch)
            program = CompiledProgram(
                program.ptx, arch, program.buffers, 1, 1, program.launches, cubin
            )
            cache = ModuleCache(None, None)
    loaded = load(program, cache=cache)
    assert {"ptx-jit": "PTX", "assembled": "cubin for", "program-cubin": "cubin of"}[how] in (
        loaded.image_source
    )
    x = np.random.default_rng(2).standard_normal((blocks, block)).astype(np.float32)
    (y,) = loaded.run([x], poison=True)
    np.testing.assert_array_equal(y, x[:, ::-1])


def test_disk_cache_hit(tmp_path: Path) -> None:
    assembler = find_assembler()
    if assembler is None:
        pytest.skip("neither nvJitLink nor ptxas is available")
    program = scale_add_program(777, "f32")
    first = ModuleCache(tmp_path, assembler)
    load(program, cache=first)
    second = ModuleCache(tmp_path, assembler)
    loaded = load(program, cache=second)
    assert (first.misses, second.hits) == (1, 1)
    x = np.ones(777, np.float32)
    np.testing.assert_array_equal(loaded.run([x, x])[0], 3 * x)


def test_torch_tensors_on_the_callers_stream() -> None:
    torch = pytest.importorskip("torch")
    n = 5000
    prog = load(scale_add_program(n, "bf16"))
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        x = torch.randn(n, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, device="cuda", dtype=torch.bfloat16)
        y = torch.full((n,), float("nan"), device="cuda", dtype=torch.bfloat16)
        prog.run([x, b], [y], stream=s)
        # Still on s: torch's next op is ordered after our kernel without a sync.
        err = (y.double() - (2 * x.double() + b.double())).norm() / (2 * x.double()).norm()
    assert float(err) < 1e-2
    # Default stream, f16, outputs passed as a torch tensor, stream given as a handle.
    prog16 = load(scale_add_program(n, "f16"))
    x16, b16 = x.half(), b.half()
    y16 = torch.empty_like(x16)
    prog16.run([x16, b16], [y16], stream=torch.cuda.current_stream().cuda_stream)
    torch.cuda.synchronize()
    assert float((y16.float() - (2 * x16.float() + b16.float())).abs().max()) < 1e-2


def test_torch_argument_errors() -> None:
    torch = pytest.importorskip("torch")
    prog = load(scale_add_program(64, "f16"))
    x = torch.randn(64, device="cuda", dtype=torch.float16)
    with pytest.raises(ArgumentError, match=r"input 1: expected 64xf16, got 64xf32 on cuda:0"):
        prog.run([x, x.float()], [torch.empty_like(x)])
    with pytest.raises(ArgumentError, match=r"output 0: expected 64xf16, got 32xf16"):
        prog.run([x, x], [torch.empty(32, device="cuda", dtype=torch.float16)])
    wide = torch.empty(64, 2, device="cuda", dtype=torch.float16)
    with pytest.raises(ArgumentError, match="output 0: expected a contiguous"):
        prog.run([x, x], [wide[:, 0]])
    # CPU tensors work as host arrays (copied in and out).
    (y,) = prog.run([x.cpu(), x.cpu()])
    assert np.allclose(y, 3 * x.cpu().numpy(), rtol=1e-3)


def test_cupy_through_cuda_array_interface_only() -> None:
    cp = pytest.importorskip("cupy")

    class OnlyCAI:
        def __init__(self, a: Any) -> None:
            self.a = a
            self.__cuda_array_interface__ = a.__cuda_array_interface__

    n = 3000
    prog = load(scale_add_program(n, "f32"))
    x = cp.random.standard_normal(n, dtype=cp.float32)
    b = cp.random.standard_normal(n, dtype=cp.float32)
    y = cp.full(n, cp.nan, dtype=cp.float32)
    prog.run([OnlyCAI(x), OnlyCAI(b)], [OnlyCAI(y)], stream=cp.cuda.get_current_stream().ptr)
    cp.cuda.get_current_stream().synchronize()
    cp.testing.assert_allclose(y, 2 * x + b, rtol=1e-6)


def test_missing_kernel_and_bad_ptx_are_clear() -> None:
    program = scale_add_program(10, "f32")
    nope = KernelLaunch("nope", (1, 1, 1), (32, 1, 1), 0, (0, 1, 2))
    renamed = CompiledProgram(program.ptx, "sm_80", program.buffers, 2, 1, (nope,))
    with pytest.raises(CudaError, match=r"kernel nope is not in the module \(cuModuleGetFunction"):
        load(renamed, cache=no_disk_cache())
    broken = CompiledProgram(
        program.ptx.replace("fma.rn.f32", "fma.rn.f99"), "sm_80", program.buffers, 2, 1,
        program.launches,
    )  # fmt: skip
    for cache in (ModuleCache(None, None), no_disk_cache()):
        with pytest.raises(CudaError) as info:
            load(broken, cache=cache)
        assert "\n" not in str(info.value)


def test_too_much_shared_memory_is_refused_before_launch() -> None:
    with pytest.raises(CudaError, match="of dynamic shared memory exceed the"):
        load(reverse_program(1, 128, 400 * 1024))


def test_faulting_kernel_is_reported_at_sync_in_a_fresh_process() -> None:
    # An illegal address poisons the context, so it runs in its own process.
    code = f"""
import sys; sys.path.insert(0, {TESTS!r})
import numpy as np
from mirage.lowering.runtime import load, CudaError, BufferSpec, CompiledProgram
from runtime.runtime_kernels import scale_add_program
p = scale_add_program(1 << 28, "f32")
small = BufferSpec((16,), "f32")
bad = CompiledProgram(p.ptx, p.arch, (small, small, small), 2, 1, p.launches)
x = np.ones(16, np.float32)
try:
    load(bad).run([x, x])
except CudaError as e:
    print("ERR", e)
"""
    # The kernel walks 1 GB of each buffer, but they hold 64 bytes each.
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.startswith("ERR running scale_add: "), out.stdout + out.stderr
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in out.stdout


def test_timing_graph_and_plain() -> None:
    n = 1 << 22
    prog = load(scale_add_program(n, "f16", block=256))
    method = TimingMethod(warmup=3, samples=15, calls_per_sample=8)
    graphed = time_program(prog, method)
    plain = time_program(prog, TimingMethod(warmup=3, samples=15, graph=False))
    for t in (graphed, plain):
        assert 0.5 < t.median_us < 5000, t.summary()
    assert graphed.copies >= 2 and graphed.calls_per_sample % graphed.copies == 0
    # 24 MB per call at a few TB/s is a few microseconds; a graph must not be slower than
    # plain launches by more than noise.
    assert graphed.median_us < plain.median_us * 1.5, (graphed.summary(), plain.summary())
    # The graph's launches computed the right thing.
    rng = np.random.default_rng(5)
    x, b = from_float(rand((n,), rng), "f16"), from_float(rand((n,), rng), "f16")
    (y,) = prog.run([x, b], poison=True)
    assert rel_err(y.astype(np.float64), 2.0 * x + b.astype(np.float64)) < 1e-2


def test_dependent_launches_wait_for_the_launch_before_them() -> None:
    """Launches made programmatically (sm_90) start before the one before ends and wait in
    griddepcontrol.wait: the chain through the intermediate still computes y = 4x + 3b,
    called directly and replayed in a CUDA graph."""
    from mirage.lowering.runtime import driver

    if driver.get_device().capability < (9, 0):
        pytest.skip("programmatic dependent launch needs sm_90")
    rows, cols = 301, 257
    rng = np.random.default_rng(7)
    x, b = rand((rows, cols), rng).astype(np.float32), rand((rows, cols), rng).astype(np.float32)
    prog = load(chained_program(rows, cols, dependent=True))
    assert [k.dependent for k in prog.program.launches] == [False, True, True]
    for _ in range(3):
        y, z = prog.run([x, b], poison=True)
        np.testing.assert_array_equal(y, 2 * (2 * x + b) + b)
        np.testing.assert_array_equal(z, 2 * x + x)
    t = time_program(prog, TimingMethod(warmup=2, samples=5, calls_per_sample=4))
    assert 0.5 < t.median_us < 5000, t.summary()


def test_one_launch_alone_reads_the_intermediates_and_writes_only_its_outputs() -> None:
    from mirage.lowering.runtime import driver

    rows, cols = 19, 67
    nbytes = rows * cols * 4
    rng = np.random.default_rng(3)
    x, b = rand((rows, cols), rng).astype(np.float32), rand((rows, cols), rng).astype(np.float32)
    prog = load(chained_program(rows, cols))
    stream = driver.Stream()
    s = stream.handle
    bufs = [driver.DeviceBuffer(nbytes) for _ in range(4)]  # x, b | y, z
    for buf, host in ((bufs[0], x), (bufs[1], b)):
        buf.upload(int(host.ctypes.data), nbytes, s)

    def outputs() -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        y, z = np.empty_like(x), np.empty_like(x)
        bufs[2].download(int(y.ctypes.data), nbytes, s)
        bufs[3].download(int(z.ctypes.data), nbytes, s)
        driver.synchronize(s, "reading outputs")
        return y, z

    ptrs = [buf.ptr for buf in bufs]
    for out in bufs[2:]:
        driver.memset(out.ptr, 0x7FC00000, 4, nbytes, s)  # NaN
    prog.launch(ptrs, s, only=2)  # z = 3x alone
    y, z = outputs()
    assert np.isnan(y).all()
    np.testing.assert_array_equal(z, 2 * x + x)
    prog.launch(ptrs, s, only=0)  # t = 2x + b, the intermediate
    assert np.isnan(outputs()[0]).all()
    prog.launch(ptrs, s, only=1)  # y = 2t + b, from what the first launch left
    np.testing.assert_array_equal(outputs()[0], 2 * (2 * x + b) + b)
    # Timing one launch alone: each sample's calls launch that kernel only.
    t = time_program(prog, TimingMethod(warmup=2, samples=5, calls_per_sample=4), only=1)
    assert 0.5 < t.median_us < 5000, t.summary()


def test_cache_assembler_failure_falls_back_to_driver() -> None:
    def refuse(ptx: str, arch: str) -> bytes:
        return b"not a cubin"

    loaded = load(scale_add_program(64, "f32"), cache=ModuleCache(None, Assembler("x", refuse)))
    assert loaded.image_source == "PTX compiled by the driver"
    x = np.ones(64, np.float32)
    np.testing.assert_array_equal(loaded.run([x, x])[0], 3 * x)
