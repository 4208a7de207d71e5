"""benchmarks/check_programs.py: prepare on the CPU machine, run where the GPU is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import FIXTURES, HAS_GPU

SCRIPT = str(Path(__file__).parents[2] / "benchmarks" / "check_programs.py")


def check_programs(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, SCRIPT, *args], capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("programs")
    proc = check_programs("prepare", str(out), str(FIXTURES / "rmsnorm_linear_small.mlir"))
    assert proc.returncode == 0, proc.stderr
    return out


def test_prepare_saves_programs_and_references(prepared: Path) -> None:
    names = sorted(p.name for p in prepared.iterdir())
    assert names == [
        f"rmsnorm_linear_small.{f}.{ext}"
        for f in ("program", "ugraph")
        for ext in ("json", "npz", "ptx")
    ]
    data = np.load(prepared / "rmsnorm_linear_small.ugraph.npz")
    assert data["ref0"].shape == (4, 96) and np.isfinite(data["ref0"]).all()
    assert data["input_sums"].shape == (2,) and int(data["seed"]) == 0
    assert json.loads((prepared / "rmsnorm_linear_small.ugraph.json").read_text())["arch"] == (
        "sm_90a"
    )


@pytest.mark.skipif(HAS_GPU, reason="checks the machine without a GPU")
def test_run_without_gpu_is_one_line(prepared: Path) -> None:
    proc = check_programs("run", str(prepared))
    assert proc.returncode == 1
    assert proc.stderr.startswith("check_programs.py: no CUDA device found")
    assert proc.stderr.count("\n") == 1


@pytest.mark.gpu
def test_run_on_gpu_checks_and_times(prepared: Path) -> None:
    proc = check_programs("run", str(prepared), "--samples", "10")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("| ok, rel. error") == 2
