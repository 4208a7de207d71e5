"""Failing CUDA calls and missing devices become one clear line (checked with a fake driver
and, on a machine without a GPU, with the real one)."""

from __future__ import annotations

import enum
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from runtime.runtime_kernels import scale_add_program

from conftest import HAS_GPU
from mirage.lowering.runtime import driver
from mirage.lowering.runtime.arrays import view_array
from mirage.lowering.runtime.errors import ArgumentError, CudaError, NoDeviceError
from mirage.lowering.runtime.loader import (
    arch_mismatch,
    assemble_target,
    check_array,
    check_counts,
)
from mirage.lowering.runtime.program import BufferSpec


class CUresult(enum.IntEnum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_INVALID_VALUE = 1
    CUDA_ERROR_NO_DEVICE = 100
    CUDA_ERROR_INVALID_PTX = 218


def fake_driver(**functions: Any) -> SimpleNamespace:
    texts = {1: b"invalid argument", 100: b"no CUDA-capable device is detected"}
    texts[218] = b"a PTX JIT compilation failed"
    return SimpleNamespace(
        CUresult=CUresult,
        cuGetErrorString=lambda err: (CUresult.CUDA_SUCCESS, texts.get(int(err), b"")),
        **functions,
    )


@pytest.fixture
def use_driver(monkeypatch: pytest.MonkeyPatch) -> Any:
    def install(fake: SimpleNamespace) -> None:
        monkeypatch.setattr(driver, "_load_driver", lambda: fake)
        monkeypatch.setattr(driver, "_initialized", False)
        monkeypatch.setattr(driver, "_devices", {})

    return install


def test_failed_call_names_call_and_error(use_driver: Any) -> None:
    use_driver(fake_driver(cuModuleLoadData=lambda image: (CUresult.CUDA_ERROR_INVALID_PTX, None)))
    with pytest.raises(CudaError) as info:
        driver.call("cuModuleLoadData", b"junk")
    assert str(info.value) == (
        "cuModuleLoadData failed: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)"
    )


def test_call_returns_values(use_driver: Any) -> None:
    use_driver(
        fake_driver(
            cuCtxSynchronize=lambda: (CUresult.CUDA_SUCCESS,),
            cuDriverGetVersion=lambda: (CUresult.CUDA_SUCCESS, 13000),
            cuMemGetInfo=lambda: (CUresult.CUDA_SUCCESS, 5, 10),
        )
    )
    assert driver.call("cuCtxSynchronize") is None
    assert driver.call("cuDriverGetVersion") == 13000
    assert driver.call("cuMemGetInfo") == (5, 10)


@pytest.mark.parametrize(
    ("functions", "message"),
    [
        (
            {"cuInit": lambda flags: (CUresult.CUDA_ERROR_NO_DEVICE,)},
            "no CUDA device found: cuInit failed: CUDA_ERROR_NO_DEVICE "
            "(no CUDA-capable device is detected)",
        ),
        (
            {
                "cuInit": lambda flags: (CUresult.CUDA_SUCCESS,),
                "cuDeviceGetCount": lambda: (CUresult.CUDA_SUCCESS, 0),
            },
            "no CUDA device found",
        ),
    ],
)
def test_no_device_is_a_clear_error(use_driver: Any, functions: Any, message: str) -> None:
    use_driver(fake_driver(**functions))
    with pytest.raises(NoDeviceError) as info:
        driver.get_device()
    assert str(info.value) == message


def test_missing_driver_library_is_no_device(use_driver: Any) -> None:
    def cu_init(flags: int) -> Any:
        raise OSError('"cuda" is an NVIDIA driver library and can only be found via system search')

    use_driver(fake_driver(cuInit=cu_init))
    with pytest.raises(NoDeviceError, match=r"^no CUDA device found: the CUDA driver library"):
        driver.init()


def test_device_ordinal_out_of_range(use_driver: Any) -> None:
    use_driver(
        fake_driver(
            cuInit=lambda flags: (CUresult.CUDA_SUCCESS,),
            cuDeviceGetCount=lambda: (CUresult.CUDA_SUCCESS, 1),
        )
    )
    with pytest.raises(NoDeviceError, match=r"with ordinal 3 \(1 device\(s\) visible\)"):
        driver.get_device(3)


@pytest.mark.skipif(HAS_GPU, reason="checks the machine without a GPU")
def test_loading_without_gpu_says_no_device_in_a_fresh_process() -> None:
    code = (
        "from mirage.lowering.runtime import load, NoDeviceError\n"
        f"import sys; sys.path.insert(0, {str(Path(__file__).parents[1])!r})\n"
        "from runtime.runtime_kernels import scale_add_program\n"
        "try:\n    load(scale_add_program(10, 'f32'))\n"
        "except NoDeviceError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("no CUDA device found"), out.stdout + out.stderr
    assert out.stderr == ""


def test_arch_compatibility() -> None:
    assert arch_mismatch("sm_80", (9, 0)) is None  # PTX JIT runs forward
    assert arch_mismatch("sm_90a", (9, 0)) is None
    assert (
        arch_mismatch("sm_90a", (10, 0)) == "code for sm_90a runs only on sm_90 devices, not sm_100"
    )
    assert arch_mismatch("sm_90", (8, 6)) == "code for sm_90 needs a newer device than sm_86"
    assert arch_mismatch("sm_80", (9, 0), cubin=True) == "a cubin for sm_80 does not run on sm_90"
    assert arch_mismatch("sm_80", (8, 6), cubin=True) is None
    assert arch_mismatch("sm_100f", (10, 3)) is None
    assert arch_mismatch("sm_120", (12, 0)) is None
    assert assemble_target("sm_80", (9, 0)) == "sm_90"
    assert assemble_target("sm_90a", (9, 0)) == "sm_90a"


def test_argument_checks_are_one_line() -> None:
    spec = BufferSpec((16, 4096), "f16")
    with pytest.raises(ArgumentError) as info:
        check_array(view_array(np.zeros((16, 4096), np.float32)), spec, "input 0", False)
    assert str(info.value) == "input 0: expected 16x4096xf16, got 16x4096xf32 on host"
    with pytest.raises(ArgumentError, match=r"input 1: expected 16x4096xf16, got 4096x16xf16"):
        check_array(view_array(np.zeros((4096, 16), np.float16)), spec, "input 1", False)
    with pytest.raises(ArgumentError, match="output 0: expected a contiguous row-major tensor"):
        check_array(view_array(np.zeros((4096, 16), np.float16).T), spec, "output 0", True)
    ro = np.zeros((16, 4096), np.float16)
    ro.flags.writeable = False
    check_array(view_array(ro), spec, "input 0", False)
    with pytest.raises(ArgumentError, match="output 0: the tensor is read-only"):
        check_array(view_array(ro), spec, "output 0", True)
    # bf16 buffers take raw 16-bit patterns from numpy.
    check_array(view_array(np.zeros(3, np.uint16)), BufferSpec((3,), "bf16"), "input 0", False)


def test_argument_counts() -> None:
    program = scale_add_program(100, "f16")
    with pytest.raises(ArgumentError) as info:
        check_counts(program, 1, None)
    assert str(info.value) == "expected 2 inputs (100xf16, 100xf16), got 1"
    with pytest.raises(ArgumentError, match=r"expected 1 outputs \(100xf16\), got 0"):
        check_counts(program, 2, 0)
    check_counts(program, 2, 1)
