"""mirage-run's GPU path: device selection, the no-GPU message, and (on a GPU) a run of a
function through a stand-in lowering that hands back hand-written PTX."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from runtime.runtime_kernels import scale_add_program

from conftest import HAS_GPU
from mirage.lowering.runtime import gpu_run
from mirage.lowering.runtime.program import BufferSpec, CompiledProgram
from mirage.tools import mirage_run

SCALE_ADD = """
func.func @scale_add(%x: tensor<8x125x{t}>, %b: tensor<8x125x{t}>) -> tensor<8x125x{t}> {{
  %0 = kernel.mul_scalar %x, 2.0 : tensor<8x125x{t}> -> tensor<8x125x{t}>
  %1 = kernel.add %0, %b : tensor<8x125x{t}>, tensor<8x125x{t}> -> tensor<8x125x{t}>
  func.return %1 : tensor<8x125x{t}>
}}
"""


def write(tmp_path: Path, dtype: str = "f16") -> str:
    path = tmp_path / "scale_add.mlir"
    path.write_text(SCALE_ADD.format(t=dtype))
    return str(path)


def test_compare_flags_nan_and_large_errors() -> None:
    want = np.ones(4)
    assert gpu_run.compare([want + 1e-3], [want], ["f16"]) == [(pytest.approx(1e-3), True)]
    assert not gpu_run.compare([want + 1e-1], [want], ["f16"])[0][1]
    assert not gpu_run.compare([want + 1e-3], [want], ["f32"])[0][1]
    err, ok = gpu_run.compare([np.array([1.0, np.nan])], [np.ones(2)], ["f32"])[0]
    assert np.isnan(err) and not ok


@pytest.mark.skipif(HAS_GPU, reason="checks the machine without a GPU")
def test_device_gpu_without_gpu_is_one_line(tmp_path: Path) -> None:
    proc = subprocess.run(
        ["mirage-run", write(tmp_path), "--function", "scale_add", "--device", "gpu"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: no CUDA device found")
    assert proc.stderr.count("\n") == 1 and proc.stdout == ""


@pytest.mark.skipif(HAS_GPU, reason="checks the machine without a GPU")
def test_device_auto_without_gpu_runs_the_reference(tmp_path: Path) -> None:
    out = []
    for device in ("auto", "cpu"):
        npz = tmp_path / f"{device}.npz"
        args = [write(tmp_path, "f32"), "--function", "scale_add", "--device", device]
        assert mirage_run.run([*args, "--output", str(npz)]) == 0
        out.append(np.load(npz)["out0"])
    np.testing.assert_array_equal(out[0], out[1])


def stand_in_lowering(func: object, arch: str) -> CompiledProgram:
    """The lowering's contract, for the one function above: 2x + b over 8x125."""
    p = scale_add_program(1000, "f16")
    spec = BufferSpec((8, 125), "f16")
    return CompiledProgram(p.ptx, p.arch, (spec, spec, spec), 2, 1, p.launches)


@pytest.mark.gpu
def test_mirage_run_on_gpu_checks_and_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(mirage_run, "lowering_entry_point", lambda: stand_in_lowering)
    npz = tmp_path / "gpu.npz"
    args = [write(tmp_path), "--function", "scale_add", "--device", "gpu", "--check", "--time"]
    assert mirage_run.run([*args, "--output", str(npz), "--seed", "4"]) == 0
    printed = capsys.readouterr().out
    assert "device: NVIDIA" in printed
    assert "out0: relative error" in printed and "(ok)" in printed
    assert "time: " in printed and " us median" in printed
    ref = tmp_path / "cpu.npz"
    assert mirage_run.run([*args[:4], "cpu", "--output", str(ref), "--seed", "4"]) == 0
    got, want = np.load(npz)["out0"], np.load(ref)["out0"]
    assert got.dtype == np.float16
    # The reference took unrounded float64 inputs: agreement to f16 input rounding.
    err = np.linalg.norm(got.astype(np.float64) - want) / np.linalg.norm(want)
    assert 0 < err < 1e-2


@pytest.mark.gpu
def test_mirage_run_reports_a_wrong_gpu_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = stand_in_lowering(None, "sm_80")
    off = CompiledProgram(
        p.ptx.replace("0f40000000", "0f40400000"), p.arch, p.buffers, 2, 1, p.launches
    )  # 3x + b
    monkeypatch.setattr(mirage_run, "lowering_entry_point", lambda: lambda f, a: off)
    with pytest.raises(mirage_run.ToolError, match="differs from the float64 reference"):
        mirage_run.run([write(tmp_path), "--function", "scale_add", "--device", "gpu", "--check"])
