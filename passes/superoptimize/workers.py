"""Running units of the search in worker processes.

Units go to any `concurrent.futures.Executor`-like object (`UnitExecutor`): the local
default is a process pool; an engine that runs Python callables on a cluster and returns
futures fits the same two calls (Dask: `cluster.ClusterExecutor`). A unit is
picklable: the job (program, limits, pruner factory) and a path in the search tree. Each
worker process (each thread, under a thread pool) keeps the explorer of the job it last
ran, so units of one job share the nodes on their way and the pruner's and the evaluator's
memory.

Only the local pool gets the live channel (a stop flag and progress counters in shared
memory); elsewhere units stop at the deadline (or, on a Dask cluster, when their future is
cancelled: `cluster.py`) and report when done.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from mirage.passes.superoptimize.dask_task import cancelled_check
from mirage.passes.superoptimize.explore import Explorer, Job, Path, UnitResult

COUNTERS = ("explored", "pruned", "rejected", "candidates")
_PR_SET_PDEATHSIG = 1
_WATCH_SECONDS = 0.5


class UnitExecutor(Protocol):
    def submit(self, fn: Callable[..., UnitResult], /, *args: Any) -> Future[UnitResult]: ...

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None: ...


@dataclass
class Channel:
    """Shared memory between the search and its local workers."""

    stop: Any
    counters: Any
    """One signed 64-bit counter per name of COUNTERS."""

    @classmethod
    def create(cls) -> Channel:
        ctx = multiprocessing.get_context()
        return cls(ctx.Event(), ctx.Array("q", len(COUNTERS), lock=True))

    def add(self, delta: dict[str, int]) -> None:
        with self.counters.get_lock():
            for i, name in enumerate(COUNTERS):
                self.counters[i] += delta.get(name, 0)

    def totals(self) -> dict[str, int]:
        lock = self.counters.get_lock()
        # A worker killed while it held the lock never gives it back: read without it then.
        held = lock.acquire(timeout=0.1)
        try:
            return {name: int(self.counters[i]) for i, name in enumerate(COUNTERS)}
        finally:
            if held:
                lock.release()


_channel: Channel | None = None
_local = threading.local()
"""Per thread: the explorer of the job it last ran. A thread-pool executor runs units side by
side in one process, and an explorer (its pruner's z3 context above all) serves one thread."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _die_with(main: int) -> None:
    """End this worker when its parent ends, however it ends (SIGKILL included): a worker
    holds gigabytes that nothing else would free. Linux does it in the kernel
    (PR_SET_PDEATHSIG, which follows the thread that started the worker: the searching
    thread, which outlives its pool); a thread watching the parent pid covers other
    systems. The parent is the search's process `main` under fork, a fork server under
    other start methods (which ends with `main`); a `main` already gone ends it at once."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    parent = os.getppid()
    if not _alive(main):
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def _init_worker(channel: Channel | None, main: int) -> None:
    global _channel
    _channel = channel
    # Ctrl-C reaches the whole process group: the search stops its workers through the
    # channel and collects what they found.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A handler inherited from the parent (the tools turn SIGTERM into an exception) would
    # let a worker catch its own termination and go on.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with(main)


def explorer_for(job_id: str, job: Job) -> Explorer:
    explorers: dict[str, Explorer] = _local.__dict__.setdefault("explorers", {})
    explorer = explorers.get(job_id)
    if explorer is None:
        explorers.clear()
        explorer = Explorer(job)
        channel = _channel
        if channel is not None:
            explorer.should_stop = channel.stop.is_set
            explorer.on_progress = channel.add
        explorers[job_id] = explorer
    return explorer


def run_unit(job_id: str, job: Job, path: Path, deadline: float) -> UnitResult:
    """Explore one unit (in a worker)."""
    explorer = explorer_for(job_id, job)
    if _channel is None:
        # Without the live channel a unit stops at the deadline, or, as a Dask task, when
        # its future is cancelled (Dask does not interrupt a running task).
        explorer.should_stop = cancelled_check() or _never
    result = explorer.run(path, deadline)
    if _channel is not None:
        _channel.add(explorer.unreported())
        result.reported = True
    return result


def _never() -> bool:
    return False


class LocalPool(ProcessPoolExecutor):
    """The local process pool, which can also end its workers at once."""

    def terminate(self) -> None:
        """Kill the workers (their running units are lost) and shut the pool down."""
        processes = dict(self._processes or {})  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]
        for process in processes.values():  # pyright: ignore[reportUnknownVariableType]
            process.kill()  # pyright: ignore[reportUnknownMemberType]
        self.shutdown(wait=True, cancel_futures=True)


def local_pool(workers: int, channel: Channel) -> LocalPool:
    return LocalPool(max_workers=workers, initializer=_init_worker, initargs=(channel, os.getpid()))
