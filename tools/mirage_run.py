"""`mirage-run`: run a function of a μGraph module on inputs and save its outputs.

    mirage-run FILE --function NAME [--inputs a.npy b.npy ... | --seed N] [--output out.npz]

The reference run evaluates the program in float64 with the one evaluator of
`mirage.dialects.semantics`. Outputs are written to an .npz (keys out0, out1, ...) in their
declared element types (bf16 as float32, which numpy lacks), or in float64 with
`--keep-float64`; without `--output`, a summary is printed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, cast

import numpy as np
from numpy.typing import NDArray
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from mirage.dialects.semantics import FloatDomain, evaluate
from mirage.dialects.semantics.evaluate import EvaluationError
from mirage.dialects.ugraph.footprint import FootprintError, check_footprint
from mirage.dialects.ugraph.from_ir import UnsupportedOpError, graph_from_func
from mirage.dialects.ugraph.graph import Graph
from mirage.lowering.ptx.compile import compile_function
from mirage.lowering.runtime.program import CompiledProgram
from mirage.passes.linalg.constants import resolve_wrapper
from mirage.tools.diagnostics import (
    Terminated,
    ToolError,
    check_text,
    fail,
    parse_checked,
    sigterm_raises,
    verify_module,
)
from mirage.tools.registry import make_context

_SAVE_DTYPES = {"f16": np.float16, "bf16": np.float32, "f32": np.float32, "f64": np.float64}


def load_module(path: str) -> ModuleOp:
    """Parse and verify an .mlir file, raising ToolError with a one-line message."""
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        raise ToolError(f"{path}: error: no such file") from None
    except IsADirectoryError:
        raise ToolError(f"{path}: error: is a folder, not an input file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ToolError(f"{path}: error: cannot read: {e}") from None
    check_text(text, path)
    module, parser = parse_checked(make_context(), text, path)
    verify_module(module, parser.op_locations, path)
    return module


def find_function(module: ModuleOp, name: str, path: str) -> FuncOp:
    funcs = [op for op in module.walk() if isinstance(op, FuncOp)]
    for f in funcs:
        if f.sym_name.data == name:
            return f
    known = ", ".join(f"@{f.sym_name.data}" for f in funcs) or "none"
    raise ToolError(f"{path}: error: no function @{name} (functions: {known})")


def random_inputs(graph: Graph, seed: int) -> list[NDArray[Any]]:
    """Uniform in [-1, 1] away from zero, so divisions and norms stay finite."""
    rng = np.random.default_rng(seed)
    return [
        rng.uniform(0.25, 1.0, size=t.shape) * rng.choice([-1.0, 1.0], size=t.shape)
        for t in graph.args
    ]


def _lossless(source: np.dtype[Any], dtype: str) -> bool:
    """Whether every value of `source` is exact in the function's element type."""
    if dtype == "bf16":  # numpy has no bfloat16: 8 bits of mantissa hold 8-bit integers
        return source.kind == "b" or (source.kind in "iu" and source.itemsize == 1)
    return bool(np.can_cast(source, _SAVE_DTYPES[dtype], casting="safe"))


def read_inputs(paths: Sequence[str], graph: Graph, lossy: bool = False) -> list[NDArray[Any]]:
    if len(paths) != len(graph.args):
        raise ToolError(
            f"error: the function takes {len(graph.args)} inputs, {len(paths)} files were given"
        )
    arrays: list[NDArray[Any]] = []
    for i, (path, ty) in enumerate(zip(paths, graph.args, strict=True)):
        try:
            loaded: object = np.load(path, allow_pickle=False)
        except FileNotFoundError:
            raise ToolError(f"{path}: error: no such file") from None
        except (OSError, ValueError) as e:
            raise ToolError(f"{path}: error: not a readable .npy file ({e})") from None
        # a .npz loads as an archive, not an array
        if not isinstance(loaded, np.ndarray):
            raise ToolError(f"{path}: error: input {i} must be a numeric array")
        array = cast(NDArray[Any], loaded)
        if not np.issubdtype(array.dtype, np.number):
            raise ToolError(f"{path}: error: input {i} must be a numeric array")
        if tuple(array.shape) != ty.shape:
            shape = "x".join(map(str, array.shape)) or "scalar"
            raise ToolError(
                f"{path}: error: input {i} has shape {shape}, the function expects {ty}"
            )
        arrays.append(array)
    # Shapes first: a wrong file is a worse mistake than a wrong dtype.
    for i, (path, array, ty) in enumerate(zip(paths, arrays, graph.args, strict=True)):
        if np.issubdtype(array.dtype, np.complexfloating):
            raise ToolError(f"{path}: error: input {i} is complex; the function takes {ty}")
        if not lossy and not _lossless(array.dtype, ty.dtype):
            raise ToolError(
                f"{path}: error: input {i} is {array.dtype}, the function takes {ty.dtype}: "
                "converting would round it (--cast allows that)"
            )
    return [a.astype(np.float64) for a in arrays]


def check_output(path: str) -> None:
    """Before any work: the output can be written where asked."""
    target = Path(path)
    if target.is_dir():
        raise ToolError(f"{path}: error: is a folder; --output takes an .npz file name")
    if not target.parent.is_dir():
        raise ToolError(f"{path}: error: the folder {target.parent} does not exist")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise ToolError(f"{path}: error: the folder {target.parent} is not writable")


def save_outputs(path: str, outputs: dict[str, NDArray[Any]]) -> None:
    """Write atomically: a failed or interrupted run leaves no partial file."""
    target = Path(path)
    check_output(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".npz.tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez(f, **outputs)  # pyright: ignore[reportArgumentType]
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def reference(graph: Graph, inputs: Sequence[NDArray[Any]], args: Any) -> list[NDArray[Any]]:
    try:
        return evaluate(graph, inputs, FloatDomain(np.float64))
    except EvaluationError as e:
        raise ToolError(f"{args.file}: error: @{args.function}: {e}") from None


def use_gpu(choice: str) -> bool:
    if choice == "cpu":
        return False
    from mirage.lowering.runtime.errors import NoDeviceError
    from mirage.lowering.runtime.gpu_run import gpu_available

    try:
        return gpu_available(required=choice == "gpu")
    except NoDeviceError as e:
        raise ToolError(f"error: {e}") from None


def lowering_entry_point() -> Callable[[FuncOp, str], CompiledProgram]:
    """What builds the program for the GPU (the GPU tests stand in their own)."""
    return compile_function


def run_on_gpu(
    func: FuncOp, graph: Graph, inputs: Sequence[NDArray[Any]], args: Any
) -> list[NDArray[Any]]:
    """Lower `func`, run it on the GPU, and (with --check) hold it against the reference."""
    from mirage.lowering.runtime import gpu_run
    from mirage.lowering.runtime.errors import CudaError
    from mirage.lowering.runtime.timing import TimingMethod

    where = f"{args.file}: error: @{args.function}"
    try:
        program = lowering_entry_point()(func, args.arch or gpu_run.default_arch())
        result = gpu_run.run_program(program, inputs, TimingMethod() if args.time else None)
    except (NotImplementedError, ValueError, CudaError) as e:
        raise ToolError(f"{where}: {e}") from None
    print(f"device: {result.device_name} ({result.image_source})")
    if args.check:
        dtypes = [t.dtype for t in graph.output_types]
        # The reference sees the inputs rounded as the GPU saw them.
        expected = reference(graph, result.inputs, args)
        errors = gpu_run.compare(result.outputs, expected, dtypes)
        for i, (err, ok) in enumerate(errors):
            verdict = "ok" if ok else "FAILED"
            print(f"out{i}: relative error {err:.2e} against the float64 reference ({verdict})")
        if not all(ok for _, ok in errors):
            raise ToolError(f"{where}: the GPU result differs from the float64 reference")
    if result.timing is not None:
        print(f"time: {result.timing.summary()}")
    return result.outputs


def run(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="mirage-run", description="Run a function of a μGraph module on inputs."
    )
    parser.add_argument("file", help="an .mlir file of kernel-dialect functions")
    parser.add_argument("--function", required=True, help="the function to run (without @)")
    parser.add_argument("--inputs", nargs="+", metavar="NPY", help=".npy files, one per input")
    parser.add_argument("--seed", type=_seed, default=0, help="seed of random inputs (default 0)")
    parser.add_argument("--output", metavar="NPZ", help="write outputs here (keys out0, ...)")
    parser.add_argument(
        "--keep-float64", action="store_true", help="save outputs in float64, not their types"
    )
    parser.add_argument(
        "--cast",
        action="store_true",
        help="round inputs whose dtype the function's element type cannot hold exactly",
    )
    gpu = parser.add_argument_group("GPU")
    gpu.add_argument(
        "--device",
        choices=("auto", "cpu", "gpu"),
        default="auto",
        help="gpu: lower to PTX and run on CUDA device 0; cpu: the float64 reference; "
        "auto (default): gpu when a CUDA device is found",
    )
    gpu.add_argument("--arch", help="target of the lowering (default: the device's own)")
    gpu.add_argument(
        "--check", action="store_true", help="compare GPU outputs with the float64 reference"
    )
    gpu.add_argument("--time", action="store_true", help="time the GPU kernels (docs/MEASURING.md)")
    parser.error = _usage_error  # type: ignore[method-assign]
    args = parser.parse_args(argv)
    if args.output:
        check_output(args.output)

    module = load_module(args.file)
    func = find_function(module, args.function, args.file)
    # A function that convert-linalg-to-kernel left holding weights runs its kernel on the
    # given inputs followed by those weights.
    try:
        wrapped = resolve_wrapper(module, func)
    except ValueError as e:
        raise ToolError(f"{args.file}: error: @{args.function}: {e}") from None
    weights = wrapped[1] if wrapped is not None else []
    func = wrapped[0] if wrapped is not None else func
    try:
        check_footprint(func, 8, "the float64 reference run")
        graph = graph_from_func(func)
    except (UnsupportedOpError, FootprintError) as e:
        raise ToolError(f"{args.file}: error: @{args.function}: {e}") from None
    given = Graph(graph.args[: len(graph.args) - len(weights)], (), ())
    if args.inputs:
        inputs = read_inputs(args.inputs, given, args.cast)
    else:
        inputs = random_inputs(given, args.seed)
    inputs = [*inputs, *weights]
    if use_gpu(args.device):
        outputs = run_on_gpu(func, graph, inputs, args)
    else:
        if args.check or args.time:
            flags = " and ".join(
                f for f, on in (("--check", args.check), ("--time", args.time)) if on
            )
            sys.stderr.write(
                f"mirage-run: warning: {flags} apply to GPU runs; "
                f"{'--device cpu' if args.device == 'cpu' else 'no CUDA device was found'}: "
                "ran the float64 reference only\n"
            )
        outputs = reference(graph, inputs, args)
    named = {
        f"out{i}": out if args.keep_float64 else out.astype(_SAVE_DTYPES[ty.dtype])
        for i, (out, ty) in enumerate(zip(outputs, graph.output_types, strict=True))
    }
    if args.output:
        save_outputs(args.output, named)
    for key, value in named.items():
        finite = np.isfinite(value).all()
        print(
            f"{key}: {'x'.join(map(str, value.shape))} {value.dtype}"
            f" mean {float(np.mean(value)):.6g} max|x| {float(np.max(np.abs(value))):.6g}"
            + ("" if finite else " (has inf/nan)")
        )
    return 0


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got '{text}'") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, got {value}")
    return value


def _usage_error(message: str) -> NoReturn:
    # argparse prints the whole usage and exits 2; a bad option is one line, exit 1.
    raise ToolError(f"mirage-run: error: {message}")


def main(argv: Sequence[str] | None = None) -> None:
    try:
        with sigterm_raises():
            sys.exit(run(argv))
    except ToolError as e:
        fail(str(e))
    except Terminated:
        fail("mirage-run: terminated", 143)
    except KeyboardInterrupt:
        fail("mirage-run: interrupted", 130)
    except MemoryError:
        fail("mirage-run: error: out of memory")
    except Exception as e:  # a bug of ours: still one line, unless asked for the trace
        if os.environ.get("MIRAGE_TRACEBACK"):
            raise
        fail(f"mirage-run: internal error: {type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
