"""Signals to a running `mirage-opt ... -p superoptimize`: Ctrl-C answers with the best
verified μGraph within 2 s, a second Ctrl-C or SIGTERM stops with no output, and no worker
process outlives the main one, however it ends (SIGKILL included).

The search runs in a session of its own, so its processes are found through /proc by
session id even after a dead parent's children were reparented.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
CHAIN = str(DATA / "long_chain.mlir")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def session_processes(sid: int) -> list[int]:
    """Live (not zombie) processes of session `sid`."""
    found: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            found.append(int(entry))
    return found


def wait_until(predicate: object, timeout: float) -> bool:
    assert callable(predicate)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return bool(predicate())


def start_search(out: Path) -> subprocess.Popen[str]:
    """A search of the eight-op chain (cut into segments) with two workers, running once
    its worker processes exist."""
    proc = subprocess.Popen(
        [
            "mirage-opt",
            CHAIN,
            "-p",
            "superoptimize{time-budget=300 workers=2}",
            "-o",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    if not wait_until(lambda: len(session_processes(proc.pid)) >= 3, 120):
        proc.kill()
        pytest.fail("the search started no worker processes")
    time.sleep(0.5)
    return proc


def finish(proc: subprocess.Popen[str], sent: float) -> tuple[int, str, float]:
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the search went on after the signal")
    return proc.returncode, err, time.monotonic() - sent


def assert_nothing_left(sid: int, within: float = 3.0) -> None:
    left = session_processes(sid)
    if not wait_until(lambda: not session_processes(sid), within):
        for pid in session_processes(sid):
            os.kill(pid, signal.SIGKILL)
        pytest.fail(f"processes left behind: {left}")


def test_ctrl_c_returns_the_best_verified_ugraph_within_two_seconds(tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    proc = start_search(out)
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)  # a terminal signals the whole process group
    status, err, took = finish(proc, sent)
    assert_nothing_left(proc.pid)
    assert status == 0, err
    assert took < 2.0, f"answered {took:.2f} s after Ctrl-C"
    assert "interrupted: the best μGraph verified so far is used" in err
    assert "Traceback" not in err
    text = out.read_text()
    assert "kernel.graph" in text and "@chain" in text


def test_second_ctrl_c_stops_with_no_output(tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    proc = start_search(out)
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)
    status, err, _ = finish(proc, sent)
    assert_nothing_left(proc.pid)
    # the first Ctrl-C may have finished the answer before the second one came
    assert status in (0, 130), err
    assert "Traceback" not in err
    if status == 130:
        assert err.strip().endswith("mirage-opt: interrupted")
        assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] in ([], ["out.mlir"])


def test_sigterm_ends_main_and_workers(tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    proc = start_search(out)
    sent = time.monotonic()
    os.kill(proc.pid, signal.SIGTERM)  # the main process only, as `kill PID` does
    status, err, took = finish(proc, sent)
    assert_nothing_left(proc.pid)
    assert status == 143, err
    assert "mirage-opt: terminated" in err and "Traceback" not in err
    assert took < 5.0
    assert list(tmp_path.iterdir()) == []


def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    proc = start_search(tmp_path / "out.mlir")
    workers = [p for p in session_processes(proc.pid) if p != proc.pid]
    assert workers
    os.kill(proc.pid, signal.SIGKILL)  # no handler runs: the kernel ends the workers
    proc.communicate(timeout=30)
    assert_nothing_left(proc.pid)
