"""Bad input and odd requests as a new user makes them: each is one clear line with exit
status 1 (or a remark or warning on stderr where the request is served), never a
traceback or an `internal error`, and no output file unless the run succeeded."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from conftest import FIXTURES
from tool_runner import Result, opt, run

SMALL = str(FIXTURES / "rmsnorm_linear_small.mlir")
LINALG = Path(__file__).parents[1] / "linalg" / "fixtures"

SOFTMAX = """
func.func @softmax(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = kernel.exp %x : tensor<8x64xf32> -> tensor<8x64xf32>
  %s = kernel.reduce_sum %e dim 1 size 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  %y = kernel.div %e, %s : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  func.return %y : tensor<8x64xf32>
}
"""


def one_error(result: Result, *fragments: str) -> None:
    assert result.status == 1, (result.status, result.err)
    assert result.clean, result.err
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1, result.err
    assert "error: " in lines[0], lines[0]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def big_module(tmp_path: Path) -> str:
    t = "tensor<1000000x1000000xf32>"
    funcs = [
        f"func.func @{n}(%x: {t}) -> {t} {{\n"
        f"  %y = kernel.exp %x : {t} -> {t}\n  func.return %y : {t}\n}}\n"
        for n in ("f", "g")
    ]
    return write(tmp_path, "big.mlir", "".join(funcs))


# --- pass options ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pipeline", "fragments"),
    [
        ("superoptimize{time-budget=}", ["superoptimize{time-budget=}", "column 27"]),
        ("superoptimize{cache=/abs/path}", ["column 21", 'cache="/a/path"']),
        ("superoptimize{seed=-1}", ["superoptimize: seed must be at least 0, got -1"]),
        ("superoptimize{time_budget=-1}", ["time-budget must be at least 0"]),
        ("superoptimize{workers=1.5}", ["superoptimize: option workers: expected int"]),
        ("superoptimize{bogus=1}", ["unknown option bogus", "time-budget, max-kernel-ops"]),
        ("check-equivalence{reference=program}", ["option candidate is required"]),
        (
            "check-equivalence{reference=program candidate=ugraph error-bound=1e-6}",
            ["option error-bound: expected float", "1.0e-6"],
        ),
    ],
)
def test_option_errors_are_one_line_in_users_spelling(pipeline: str, fragments: list[str]) -> None:
    result = opt(SMALL, "-p", pipeline)
    one_error(result, *fragments)
    assert "time_budget" not in result.err and "max_kernel_ops" not in result.err


def test_a_target_spec_that_does_not_parse_is_one_line() -> None:
    one_error(opt(SMALL, "-t", "ptx{arch=}"), "ptx{arch=}")


@pytest.mark.parametrize("bound", ["0.0", "-1.0", "2.0", "1.0"])
def test_error_bound_must_be_a_probability(bound: str) -> None:
    result = opt(
        SMALL, "-p", f"check-equivalence{{reference=program candidate=ugraph error-bound={bound}}}"
    )
    one_error(result, "error-bound must be between 0 and 1", bound)


# --- input files -------------------------------------------------------------------------


def test_nul_bytes_are_named_with_their_place(tmp_path: Path) -> None:
    path = write(tmp_path, "nul.mlir", "func.func @f() {\n  \0\n}\n")
    one_error(opt(path), f"{path}:2:3: error: NUL byte in the input")
    one_error(run(path, "--function", "f"), f"{path}:2:3", "NUL byte")


def test_a_folder_as_input(tmp_path: Path) -> None:
    one_error(opt(str(tmp_path)), "is a folder, not an input file")
    one_error(run(str(tmp_path), "--function", "f"), "is a folder, not an input file")


def test_sizes_are_checked_before_allocating_and_name_the_tensor(tmp_path: Path) -> None:
    path = big_module(tmp_path)
    for result in (
        run(path, "--function", "f"),
        opt(path, "-p", "superoptimize{time-budget=5 workers=1}"),
        opt(path, "-p", "check-equivalence{reference=f candidate=g}"),
    ):
        one_error(result, "tensor %x (tensor<1000000x1000000xf32>) needs 7.28 TiB")
        assert "memory available" in result.err


def test_dynamic_shapes_are_refused_by_name(tmp_path: Path) -> None:
    t = "tensor<?x64xf32>"
    path = write(
        tmp_path, "dyn.mlir", f"func.func @f(%x: {t}) -> {t} {{\n  func.return %x : {t}\n}}\n"
    )
    one_error(run(path, "--function", "f"), "tensor %x has a dynamic shape")
    one_error(opt(path, "-p", "superoptimize{time-budget=5}"), "dynamic shape")


@pytest.mark.slow
def test_a_long_program_is_left_unchanged_within_its_budget(tmp_path: Path) -> None:
    """12,000 ops: nothing recursive or quadratic in the program's length, and a remark
    instead of a search that outlasts its budget."""
    import time

    lines = ["func.func @f(%x0: tensor<8x64xf32>) -> tensor<8x64xf32> {"]
    for i in range(12000):
        op = "kernel.exp" if i % 2 == 0 else "kernel.sqrt"
        lines.append(f"  %x{i + 1} = {op} %x{i} : tensor<8x64xf32> -> tensor<8x64xf32>")
    lines += ["  func.return %x12000 : tensor<8x64xf32>", "}"]
    path = write(tmp_path, "long.mlir", "\n".join(lines) + "\n")
    began = time.monotonic()
    out = tmp_path / "o.mlir"
    result = opt(path, "-p", "superoptimize{time-budget=10 workers=1}", "-o", str(out))
    took = time.monotonic() - began
    assert result.clean, result.err
    assert result.status == 0, result.err
    assert "12000 kernel ops" in result.err and "left unchanged" in result.err
    assert out.read_text().count("kernel.exp") == 6000
    # parsing and printing 12k ops takes its own time on a slow machine; no search runs
    assert took < 60, took


# --- lowering targets ----------------------------------------------------------------------


def test_cubin_of_a_lowered_module_as_the_readme_shows() -> None:
    result = opt(SMALL, "-p", "lower-to-llvm", "-t", "cubin{function=program}")
    assert result.status == 0, result.err
    built = json.loads(result.out)
    direct = json.loads(opt(SMALL, "-t", "cubin{function=program}").out)
    assert built["launches"] == direct["launches"]
    assert built["buffers"] == direct["buffers"]
    assert built["cubin_base64"]


def test_ptx_of_linalg_input_says_to_convert_it() -> None:
    result = opt(str(LINALG / "gated_mlp_small.mlir"), "-t", "ptx")
    one_error(result, "no kernel-dialect function to lower", "convert-linalg-to-kernel")


# --- mirage-run ---------------------------------------------------------------------------


def test_run_output_into_a_folder_or_a_missing_one(tmp_path: Path) -> None:
    one_error(run(SMALL, "--function", "program", "--output", str(tmp_path)), "is a folder")
    missing = tmp_path / "no" / "out.npz"
    one_error(run(SMALL, "--function", "program", "--output", str(missing)), "does not exist")


@pytest.mark.parametrize("seed", ["-1", "x"])
def test_run_seed_must_be_a_non_negative_integer(seed: str) -> None:
    one_error(run(SMALL, "--function", "program", "--seed", seed), "--seed")


@pytest.mark.parametrize(
    ("dtype", "ok"),
    [
        (np.float32, False),
        (np.float64, False),
        (np.int32, False),
        (np.int8, True),
        (np.float16, True),
        (np.complex64, False),
    ],
)
def test_run_refuses_lossy_casts_unless_asked(tmp_path: Path, dtype: type, ok: bool) -> None:
    x = tmp_path / "x.npy"
    w = tmp_path / "w.npy"
    np.save(x, np.ones((4, 64)).astype(dtype))
    np.save(w, np.ones((64, 96)).astype(dtype))
    args = [SMALL, "--function", "program", "--device", "cpu", "--inputs", str(x), str(w)]
    result = run(*args)
    if ok:
        assert result.status == 0, result.err
        return
    one_error(result, "input 0")
    if dtype is not np.complex64:
        assert "--cast" in result.err
        assert run(*args, "--cast").status == 0


def test_check_and_time_without_a_gpu_say_so() -> None:
    result = run(SMALL, "--function", "program", "--device", "cpu", "--check", "--time")
    assert result.status == 0, result.err
    assert "warning: --check and --time apply to GPU runs" in result.err


# --- check-equivalence ----------------------------------------------------------------------

TWO_TYPES = """
func.func @f(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %y = kernel.exp %x : tensor<4x64xf32> -> tensor<4x64xf32>
  func.return %y : tensor<4x64xf32>
}
func.func private @d(tensor<4x64xf32>) -> tensor<4x64xf32>
func.func @h(%x: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %y = kernel.exp %x : tensor<4x64xf16> -> tensor<4x64xf16>
  func.return %y : tensor<4x64xf16>
}
"""


def test_equivalence_with_a_declaration(tmp_path: Path) -> None:
    path = write(tmp_path, "m.mlir", TWO_TYPES)
    result = opt(path, "-p", "check-equivalence{reference=f candidate=d}")
    one_error(result, "@d is a declaration")


def test_equivalence_of_other_dtypes_names_them(tmp_path: Path) -> None:
    path = write(tmp_path, "m.mlir", TWO_TYPES)
    result = opt(path, "-p", "check-equivalence{reference=f candidate=h}")
    assert result.status == 0, result.err
    assert "differ in element types" in result.err
    assert "4x64xf16" in result.err and "4x64xf32" in result.err


# --- passes over converted programs ----------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["rmsnorm_linear_small_consts", "gated_mlp_odd_consts", "lora_small_consts"]
)
def test_annotate_skips_the_wrapper_of_a_program_with_weights(name: str) -> None:
    result = opt(
        str(LINALG / f"{name}.mlir"), "-p", "convert-linalg-to-kernel,annotate-abstract-expr"
    )
    assert result.status == 0, result.err
    assert "abstract_expr" in result.out


def test_superoptimize_remarks_on_linalg_input() -> None:
    result = opt(str(LINALG / "gated_mlp_small.mlir"), "-p", "superoptimize{time-budget=5}")
    assert result.status == 0, result.err
    assert "remark: superoptimize: @gated_mlp: holds linalg/tensor ops" in result.err
    assert "convert-linalg-to-kernel" in result.err


def test_output_into_a_missing_folder_fails_before_the_search(tmp_path: Path) -> None:
    import time

    path = write(tmp_path, "s.mlir", SOFTMAX)
    began = time.monotonic()
    result = opt(
        path, "-p", "superoptimize{time-budget=600}", "-o", str(tmp_path / "no" / "o.mlir")
    )
    one_error(result, "the folder", "does not exist")
    assert time.monotonic() - began < 30


def test_output_file_is_written_whole_with_usual_permissions(tmp_path: Path) -> None:
    out = tmp_path / "o.mlir"
    assert opt(SMALL, "-o", str(out)).status == 0
    assert "@ugraph" in out.read_text()
    assert out.stat().st_mode & 0o777 == 0o666 & ~_umask()
    assert [p.name for p in tmp_path.iterdir()] == ["o.mlir"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_workers_beyond_the_cpus_are_bounded(tmp_path: Path) -> None:
    path = write(tmp_path, "s.mlir", SOFTMAX)
    result = opt(path, "-p", "superoptimize{time-budget=0 workers=1000}")
    assert result.status == 0, result.err
    assert "workers=1000" in result.err and "CPUs here, using" in result.err


def test_an_integer_too_large_for_its_array_is_one_line(tmp_path: Path) -> None:
    text = (FIXTURES / "rmsnorm_linear_small.mlir").read_text()
    path = write(
        tmp_path, "grid.mlir", text.replace("grid [4, 1, 1]", "grid [99999999999999999999, 1, 1]")
    )
    one_error(opt(path), f"{path}:15:", "out of the range of its type")
    one_error(run(path, "--function", "ugraph"), "out of the range of its type")


def test_a_first_token_that_does_not_lex_is_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, "q.mlir", "'x\n")
    one_error(opt(path), f"{path}:1:1: error: Unexpected character")
    one_error(run(path, "--function", "f"), f"{path}:1:1: error:")
