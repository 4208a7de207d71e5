"""PTX -> cubin and the on-disk module cache."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from runtime.runtime_kernels import reverse_ptx, scale_add_ptx

from mirage.lowering.runtime.cubin_cache import (
    Assembler,
    ModuleCache,
    _ptxas_assembler,  # pyright: ignore[reportPrivateUsage]
    cache_key,
    default_cache_dir,
)
from mirage.lowering.runtime.errors import AssembleError
from mirage.lowering.runtime.ptxas import find_ptxas
from mirage.lowering.runtime.timing import TimingMethod, calls_for, copies_needed


class CountingAssembler:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def __call__(self, ptx: str, arch: str) -> bytes:
        self.calls.append((ptx, arch))
        return b"\x7fELF" + arch.encode() + ptx.encode()[:16]


def test_cache_key_covers_every_input() -> None:
    base = cache_key("ptx", "sm_90a", 13000, "nvJitLink 13.0")
    assert (
        len(
            {
                base,
                cache_key("ptx ", "sm_90a", 13000, "nvJitLink 13.0"),
                cache_key("ptx", "sm_90", 13000, "nvJitLink 13.0"),
                cache_key("ptx", "sm_90a", 13010, "nvJitLink 13.0"),
                cache_key("ptx", "sm_90a", 13000, "ptxas 13.0.88"),
            }
        )
        == 5
    )
    assert base == cache_key("ptx", "sm_90a", 13000, "nvJitLink 13.0")


def test_cache_assembles_once_then_reads_disk(tmp_path: Path) -> None:
    fake = CountingAssembler()
    cache = ModuleCache(tmp_path / "c", Assembler("fake 1", fake))
    first = cache.cubin("PTX-A", "sm_90a", 13000)
    assert first is not None and cache.misses == 1
    # A second cache object over the same folder (another process) hits the disk.
    again = ModuleCache(tmp_path / "c", Assembler("fake 1", fake))
    assert again.cubin("PTX-A", "sm_90a", 13000) == first and again.hits == 1
    assert len(fake.calls) == 1
    # Another driver version is another key.
    again.cubin("PTX-A", "sm_90a", 13010)
    assert len(fake.calls) == 2
    assert sorted(p.suffix for p in (tmp_path / "c").iterdir()) == [".cubin", ".cubin"]


def test_cache_without_directory_or_assembler(tmp_path: Path) -> None:
    fake = CountingAssembler()
    no_dir = ModuleCache(None, Assembler("fake 1", fake))
    no_dir.cubin("P", "sm_80", 1)
    no_dir.cubin("P", "sm_80", 1)
    assert len(fake.calls) == 2
    assert ModuleCache(tmp_path, None).cubin("P", "sm_80", 1) is None


def test_unwritable_cache_only_costs_speed(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = ModuleCache(blocker / "sub", Assembler("fake 1", CountingAssembler()))
    assert cache.cubin("P", "sm_80", 1) is not None


def test_cache_dir_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MIRAGE_CACHE_DIR", str(tmp_path))
    assert default_cache_dir() == tmp_path
    monkeypatch.setenv("MIRAGE_CACHE_DIR", "off")
    assert default_cache_dir() is None
    monkeypatch.delenv("MIRAGE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "mirage" / "modules"


PTXAS = find_ptxas()
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="no ptxas found")


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_ptxas_assembles_the_test_kernels(arch: str) -> None:
    assert PTXAS is not None
    assembler = _ptxas_assembler(PTXAS)
    assert assembler is not None and assembler.name.startswith("ptxas ")
    for ptx in (scale_add_ptx(1000, "bf16"), reverse_ptx(64 * 1024, 256)):
        cubin = assembler.run(ptx, arch)
        assert cubin[:4] == b"\x7fELF"


@needs_ptxas
def test_ptxas_error_is_one_line() -> None:
    assert PTXAS is not None
    assembler = _ptxas_assembler(PTXAS)
    assert assembler is not None
    bad = scale_add_ptx(10, "f32").replace("fma.rn.f32", "fma.rn.f99")
    with pytest.raises(AssembleError) as info:
        assembler.run(bad, "sm_90a")
    message = str(info.value)
    assert message.startswith("ptxas rejected the PTX for sm_90a: ")
    assert "\n" not in message


def test_rotation_arithmetic() -> None:
    m = TimingMethod()
    l2 = 60 * 2**20
    # rmsnorm_linear b1: 50 MB of inputs -> 4 copies span 3 L2s.
    assert copies_needed(2 * 4096 * 2 + 4096 * 6144 * 2, l2, m) == 4
    # Small inputs are capped; huge ones still get two copies.
    assert copies_needed(1000, l2, m) == m.max_copies
    assert copies_needed(1 << 30, l2, m) == 2
    assert copies_needed(3 << 30, l2, m) == 1  # two would pass max_rotation_bytes
    assert copies_needed(0, l2, m) == 1
    assert calls_for(4, m) == 20 and calls_for(7, m) == 21 and calls_for(90, m) == 90
    with pytest.raises(ValueError, match="samples must be positive"):
        TimingMethod(samples=0)


def test_runtime_imports_no_compiler_or_framework() -> None:
    code = (
        "import sys, mirage.lowering.runtime as r, mirage.lowering.runtime.timing\n"
        "bad = sorted({m.split('.')[0] for m in sys.modules} & "
        "{'xdsl', 'z3', 'llvmlite', 'torch', 'cupy', 'cuda'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"the runtime imported {out.stdout.strip()}"
