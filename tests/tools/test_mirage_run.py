"""mirage-run: outputs, inputs from files, and one-line errors with no partial output."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import FIXTURES

SMALL = str(FIXTURES / "rmsnorm_linear_small.mlir")


def mirage_run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["mirage-run", *args], capture_output=True, text=True, check=False)


def test_random_inputs_program_and_ugraph_agree(tmp_path: Path) -> None:
    for fn in ("program", "ugraph"):
        proc = mirage_run(
            SMALL,
            "--function",
            fn,
            "--seed",
            "3",
            "--keep-float64",
            "--output",
            str(tmp_path / f"{fn}.npz"),
        )
        assert proc.returncode == 0, proc.stderr
    a = np.load(tmp_path / "program.npz")["out0"]
    b = np.load(tmp_path / "ugraph.npz")["out0"]
    assert a.shape == (4, 96) and a.dtype == np.float64
    np.testing.assert_allclose(b, a, rtol=1e-9)


def test_inputs_from_files_match_numpy(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 64))
    w = rng.standard_normal((64, 96))
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "w.npy", w)
    out = tmp_path / "out.npz"
    proc = mirage_run(
        SMALL,
        "--function",
        "ugraph",
        "--inputs",
        str(tmp_path / "x.npy"),
        str(tmp_path / "w.npy"),
        "--cast",  # float64 data for f16 arguments: rounded only when asked
        "--output",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    got = np.load(out)["out0"]
    assert got.dtype == np.float16  # the declared element type
    want = (x / np.sqrt((x * x).mean(axis=1, keepdims=True))) @ w
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--function", "nope"], "error: no function @nope (functions: @program, @ugraph)"),
        (
            ["--function", "program", "--inputs", "missing.npy", "missing2.npy"],
            "missing.npy: error: no such file",
        ),
        (
            ["--function", "program", "--inputs", "only_one.npy"],
            "error: the function takes 2 inputs, 1 files were given",
        ),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "out.npz"
    proc = mirage_run(SMALL, *args, "--output", str(out))
    assert proc.returncode == 1
    assert message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr
    assert not out.exists()


def test_wrong_shape_names_file_and_shapes(tmp_path: Path) -> None:
    np.save(tmp_path / "x.npy", np.ones((4, 64)))
    np.save(tmp_path / "w.npy", np.ones((64, 3)))
    out = tmp_path / "out.npz"
    proc = mirage_run(
        SMALL,
        "--function",
        "program",
        "--inputs",
        str(tmp_path / "x.npy"),
        str(tmp_path / "w.npy"),
        "--output",
        str(out),
    )
    assert proc.returncode == 1
    assert "w.npy: error: input 1 has shape 64x3, the function expects 64x96xf16" in proc.stderr
    assert not out.exists()
