"""benchmarks/cut_gpu.py's cuts of a kernel's PTX (no GPU needed)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from mirage.lowering.ptx.compile import compile_function
from mirage.lowering.runtime.ptxas import find_ptxas, resource_report
from tests.conftest import get_func, parse_module

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))

from cut_gpu import CutError, cut, main

DATA = Path(__file__).parents[1] / "lowering" / "data"


def _ptx(
    func: str, loads: str = "cp-async", data: str = "direct_outputs.mlir", arch: str = "sm_90a"
) -> str:
    module = parse_module((DATA / data).read_text())
    return compile_function(get_func(module, func), arch, loads=loads).ptx


def _count(pattern: str, text: str) -> int:
    return len(re.findall(pattern, text))


def test_no_copies_drops_every_copy_and_keeps_the_rest() -> None:
    ptx = _ptx("lora_ragged")
    out = cut(ptx, "no copies")
    assert _count(r"cp\.async\.c[ag]\.shared\.global", ptx) > 0
    assert _count(r"cp\.async\.c[ag]\.shared\.global", out) == 0
    for kept in (r"mma\.sync", r"ldmatrix", r"st\.global", r"bar\.sync"):
        assert _count(kept, out) == _count(kept, ptx) > 0, kept


def test_copies_only_returns_at_the_barrier_after_the_wait() -> None:
    ptx = _ptx("lora_ragged")
    out = cut(ptx, "copies only")
    lines = out.split("\n")
    ret = next(i for i, line in enumerate(lines) if line.strip() == "ret;")
    wait = next(i for i, line in enumerate(lines) if "cp.async.wait_" in line)
    assert wait < ret and "bar.sync" in lines[ret - 1]
    # everything the copies need comes before the cut
    assert _count(r"cp\.async\.c[ag]\.shared\.global", "\n".join(lines[:ret])) == _count(
        r"cp\.async\.c[ag]\.shared\.global", ptx
    )


@pytest.mark.skipif(find_ptxas() is None, reason="no ptxas (pip install nvidia-cuda-nvcc)")
@pytest.mark.parametrize("what", ["no copies", "copies only"])
def test_cut_kernels_assemble(what: str) -> None:
    report = resource_report(cut(_ptx("lora_ragged"), what), "sm_90a")
    assert "error" not in report.lower(), report


def test_tensor_map_kernels_are_refused() -> None:
    ptx = _ptx("stream", loads="tma", data="tma.mlir")
    assert "cp.async.bulk.tensor" in ptx
    with pytest.raises(CutError, match="mbarrier"):
        cut(ptx, "no copies")


def test_the_cli_names_the_file_and_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cut_gpu.py: ") and "bad.json" in err and err[-1] == "\n"
    assert err.count("\n") == 1
