"""`mirage-opt`: the mlir-opt-style driver for mirage-xdsl.

Everything of `xdsl-opt` (`-p` pipelines with options, `-t` targets, `--split-input-file`,
`--verify-diagnostics`, `--print-op-generic`), with our dialects, passes and targets
registered, and with errors on one line (`file:line:col: error: ...`), exit status 1, no
traceback, and no partial output file.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from io import StringIO
from typing import IO, NoReturn

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from mirage.tools.diagnostics import (
    Terminated,
    ToolError,
    check_output_path,
    check_text,
    fail,
    parse_checked,
    pipeline_error,
    sigterm_raises,
    spec_error,
    verify_module,
    write_atomically,
)
from mirage.tools.registry import get_all_targets, get_dialect_overrides


class MirageOptMain(xDSLOptMain):
    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(description="mirage-xdsl modular optimizer driver", args=args)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)

        def usage_error(message: str) -> NoReturn:
            # argparse prints the whole usage and exits 2; a bad option is one line, exit 1.
            raise ToolError(f"{arg_parser.prog}: error: {message}")

        arg_parser.error = usage_error  # type: ignore[method-assign]

    def setup_pipeline(self) -> None:
        try:
            super().setup_pipeline()
        except ValueError as e:
            raise ToolError(f"mirage-opt: error: {pipeline_error(self.args.passes, e)}") from None
        if self.args.output_file is not None:
            check_output_path(self.args.output_file)

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        name = self.args.input_file
        if name is not None and os.path.isdir(name):
            raise ToolError(f"{name}: error: is a folder, not an input file")
        try:
            return super().get_input_stream()
        except PermissionError:
            raise ToolError(f"{name}: error: cannot read it (permission denied)") from None

    def register_all_targets(self) -> None:
        # ours first: xDSL's own `llvm` target knows nothing of gpu.module kernels
        self.available_targets.update(get_all_targets())  # pyright: ignore[reportArgumentType]
        super().register_all_targets()

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        if (self.args.frontend or file_extension) != "mlir":
            return super().parse_chunk(chunk, file_extension, start_offset)
        name = self.get_input_name()
        try:
            text = chunk.read().decode()
        except UnicodeDecodeError as e:
            raise ToolError(f"{name}: error: input is not UTF-8 text ({e.reason})") from None
        check_text(text, name, start_offset)
        module, parser = parse_checked(
            self.ctx, text, name, start_offset, not self.args.no_implicit_module
        )
        if not self.args.disable_verify:
            verify_module(module, parser.op_locations, name)
        self._locations = parser.op_locations
        return module

    def run(self) -> None:
        chunks, file_extension = self.prepare_input()
        outputs: list[str] = []
        for i, (chunk, offset) in enumerate(chunks):
            try:
                if i > 0:
                    outputs.append("// -----\n")
                module = self.parse_chunk(chunk, file_extension, offset)
                if module is not None:
                    self.apply_passes(module)
                    outputs.append(self.output_resulting_program(module))
            except (ToolError, DiagnosticException) as e:
                message = str(e) if isinstance(e, ToolError) else self._pass_error(e)
                if not self.args.verify_diagnostics:
                    fail(message)
                outputs.append(message.split(": error: ", 1)[-1] + "\n")
            finally:
                chunk.close()
        text = "".join(outputs)
        if self.args.output_file is None:
            sys.stdout.write(text)
        else:
            # Written only once everything succeeded, and renamed into place: no
            # half-written output on error or interruption.
            write_atomically(self.args.output_file, text)

    def register_all_dialects(self) -> None:
        from xdsl.universe import Universe

        overrides = get_dialect_overrides()
        for name, factory in Universe.get_multiverse().all_dialects.items():
            self.ctx.register_dialect(name, overrides.get(name, factory))

    def _pass_error(self, e: DiagnosticException) -> str:
        lines = str(e).strip().splitlines()
        message = lines[0] if lines else type(e).__name__
        # A pass that names the offending op (ConversionError) gets the op's source place.
        where = getattr(self, "_locations", {}).get(getattr(e, "op", None))
        place = f"{self.get_input_name()}:{where[0]}:{where[1]}" if where else self.get_input_name()
        return f"{place}: error: {message}"

    def prepare_output(self) -> IO[str]:
        return StringIO()


def main(argv: Sequence[str] | None = None) -> None:
    try:
        with sigterm_raises():
            MirageOptMain(args=argv).run()
    except ToolError as e:
        fail(str(e))
    except ArgSpecParseError as e:
        fail(f"mirage-opt: error: {spec_error(e)}")
    except Terminated:
        fail("mirage-opt: terminated", 143)
    except FileNotFoundError as e:
        fail(f"{e.filename}: error: no such file")
    except (ValueError, DiagnosticException) as e:
        fail(f"mirage-opt: error: {str(e).strip().splitlines()[0]}")
    except KeyboardInterrupt:
        fail("mirage-opt: interrupted", 130)
    except RecursionError:
        fail("mirage-opt: error: the program is nested or chained too deeply to handle")
    except MemoryError:
        fail("mirage-opt: error: out of memory")
    except Exception as e:  # a bug of ours: still one line, unless asked for the trace
        if os.environ.get("MIRAGE_TRACEBACK"):
            raise
        fail(
            f"mirage-opt: internal error: {type(e).__name__}: {e} (MIRAGE_TRACEBACK=1 shows where)"
        )


if __name__ == "__main__":
    main()
