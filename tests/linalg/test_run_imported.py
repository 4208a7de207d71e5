"""mirage-run runs an imported program by its original name, with the activations only:
the weights its wrapper holds are passed to the kernel."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
from linalg.programs import FIXTURES, rel_error

from mirage.tools import mirage_run


def test_run_by_original_name_with_activations_only(tmp_path: Path) -> None:
    converted = tmp_path / "rmsnorm_linear.mlir"
    subprocess.run(
        [sys.executable, "-m", "mirage.tools.mirage_opt",
         str(FIXTURES / "rmsnorm_linear_small_consts.mlir"),
         "-p", "convert-linalg-to-kernel", "-o", str(converted)],
        check=True,
    )  # fmt: skip
    x = np.random.default_rng(1).uniform(0.25, 1.0, (4, 64))
    np.save(tmp_path / "x.npy", x)
    out = tmp_path / "out.npz"
    argv = [str(converted), "--function", "rmsnorm_linear", "--inputs", str(tmp_path / "x.npy")]
    argv.append("--cast")  # float64 data for an f32 argument: taken only when asked
    assert mirage_run.run([*argv, "--output", str(out), "--keep-float64"]) == 0
    got = np.load(out)["out0"]
    # The same weights, read back from the converted file through the kernel's own name.
    w_only = mirage_run.load_module(str(converted))
    from mirage.passes.linalg.constants import resolve_wrapper

    wrapper = mirage_run.find_function(w_only, "rmsnorm_linear", str(converted))
    resolved = resolve_wrapper(w_only, wrapper)
    assert resolved is not None
    (w,) = resolved[1]
    want = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True)) @ w
    assert rel_error(got, want) < 1e-12
