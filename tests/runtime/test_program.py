"""The CompiledProgram descriptor: validation with precise messages, and the JSON format."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from mirage.lowering.runtime.program import (
    BufferSpec,
    CompiledProgram,
    KernelLaunch,
    ProgramError,
)


def make(**changes: object) -> CompiledProgram:
    fields: dict[str, object] = {
        "ptx": ".version 8.0\n.target sm_90a\n",
        "arch": "sm_90a",
        "buffers": (
            BufferSpec((2, 4096), "f16"),
            BufferSpec((4096, 6144), "bf16"),
            BufferSpec((2, 6144), "f32"),
            BufferSpec((2, 1), "f32"),
        ),
        "num_inputs": 2,
        "num_outputs": 1,
        "launches": (
            KernelLaunch("norm", (2, 1, 1), (128, 1, 1), 0, (0, 3)),
            KernelLaunch("linear", (96, 1, 1), (128, 1, 1), 64 * 1024, (0, 1, 3, 2)),
        ),
    }
    fields.update(changes)
    return CompiledProgram(**fields)  # pyright: ignore[reportArgumentType]


def test_views_and_sizes() -> None:
    p = make()
    assert [b.describe() for b in p.inputs] == ["2x4096xf16", "4096x6144xbf16"]
    assert p.outputs == (BufferSpec((2, 6144), "f32"),)
    assert p.intermediates == (BufferSpec((2, 1), "f32"),)
    assert p.buffers[1].nbytes == 4096 * 6144 * 2
    assert p.kernel_names == ("norm", "linear")
    assert p.launches[1].threads == 128


def test_json_round_trip_embedded_and_with_cubin() -> None:
    p = make(cubin=bytes(range(256)))
    text = p.to_json()
    data = json.loads(text)
    assert data["format"] == "mirage-program" and data["version"] == 1
    assert CompiledProgram.from_json(text) == p
    assert CompiledProgram.from_json(make().to_json()).cubin is None


def test_save_writes_ptx_beside_descriptor(tmp_path: Path) -> None:
    p = make()
    p.save(tmp_path / "prog.json")
    assert (tmp_path / "prog.ptx").read_text() == p.ptx
    data = json.loads((tmp_path / "prog.json").read_text())
    assert data["ptx_file"] == "prog.ptx" and "ptx" not in data
    assert CompiledProgram.load(tmp_path / "prog.json") == p


def test_lists_become_tuples_and_stay_hashable() -> None:
    spec = BufferSpec([3, 5], "f32")  # pyright: ignore[reportArgumentType]
    launch = KernelLaunch("k", [1, 2, 3], [32, 1, 1], 0, [0])  # pyright: ignore[reportArgumentType]
    assert spec.shape == (3, 5) and launch.grid == (1, 2, 3) and launch.args == (0,)
    assert hash(make()) == hash(make())


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: BufferSpec((2, 0), "f16"), "buffer shape must hold positive integers"),
        (lambda: BufferSpec((2,), "f8"), "buffer dtype must be one of f16, bf16, f32, f64"),
        (lambda: KernelLaunch("", (1, 1, 1), (1, 1, 1), 0, ()), "kernel name"),
        (lambda: KernelLaunch("k", (1, 1), (1, 1, 1), 0, ()), "grid of kernel k must have 3"),
        (lambda: KernelLaunch("k", (1, 1, 1), (1, 1, 1), -1, ()), "shared_bytes of kernel k"),
        (lambda: KernelLaunch("k", (1, 1, 1), (1, 1, 1), 0, (-1,)), "args of kernel k"),
        (lambda: make(arch="90a"), "arch must look like sm_90a"),
        (lambda: make(ptx="  "), "ptx must be non-empty"),
        (lambda: make(num_inputs=3, num_outputs=2), "3 inputs and 2 outputs but only 4"),
        (lambda: make(launches=()), "at least one kernel launch"),
        (
            lambda: make(launches=(KernelLaunch("k", (1, 1, 1), (1, 1, 1), 0, (4,)),)),
            "kernel k takes buffer 4, but there are only 4 buffers",
        ),
        (
            lambda: KernelLaunch("k", (1, 1, 1), (1, 1, 1), 0, (), dependent=1),  # type: ignore[arg-type]
            "dependent of kernel k must be true or false, got 1",
        ),
        (
            lambda: make(
                launches=(KernelLaunch("k", (1, 1, 1), (1, 1, 1), 0, (), dependent=True),)
            ),
            "kernel k is the first launch: it has no launch to depend on",
        ),
    ],
)
def test_invalid_descriptors_say_what_is_wrong(build: object, message: str) -> None:
    with pytest.raises(ProgramError, match=message):
        build()  # pyright: ignore[reportCallIssue]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(format="other"), "not a mirage-program descriptor"),
        (lambda d: d.update(version=2), "version 2 is not supported"),
        (lambda d: d.pop("launches"), "lacks the field 'launches'"),
        (lambda d: d["buffers"][0].update(dtype="i8"), "buffer dtype must be one of"),
        (lambda d: d.update(buffers=[3]), "malformed program descriptor"),
        (lambda d: d.update(cubin_base64="!!"), "malformed program descriptor"),
    ],
)
def test_bad_json_is_one_clear_error(edit: object, message: str) -> None:
    data = json.loads(make().to_json())
    edit(data)  # pyright: ignore[reportCallIssue]
    with pytest.raises(ProgramError, match=message):
        CompiledProgram.from_json(json.dumps(data))


def test_unreadable_files_name_the_path(tmp_path: Path) -> None:
    with pytest.raises(ProgramError, match="not JSON"):
        CompiledProgram.from_json("{")
    with pytest.raises(ProgramError, match=r"cannot read .*missing\.json"):
        CompiledProgram.load(tmp_path / "missing.json")
    make().save(tmp_path / "p.json")
    (tmp_path / "p.ptx").unlink()
    with pytest.raises(ProgramError, match=r"p.json: cannot read PTX file .*p.ptx"):
        CompiledProgram.load(tmp_path / "p.json")


def test_a_dependent_launch_round_trips() -> None:
    """A launch that may start before the one before it ends says so in the descriptor
    (`"dependent": true`, absent where false)."""
    norm, linear = make().launches
    program = make(launches=(norm, replace(linear, dependent=True)))
    data = json.loads(program.to_json())
    assert "dependent" not in data["launches"][0] and data["launches"][1]["dependent"] is True
    again = CompiledProgram.from_json(program.to_json())
    assert [k.dependent for k in again.launches] == [False, True]
    assert again == program
