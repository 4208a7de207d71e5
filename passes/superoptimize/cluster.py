"""The search's units on a Dask cluster: `superoptimize{executor="dask://HOST:PORT"}`.

Dask's distributed scheduler is an optional dependency (the extra `dask`); it is imported
only when a cluster is asked for. The units go to the cluster as Dask tasks through a
`concurrent.futures` executor of the client (`ClusterExecutor`), exactly as they go to the
local pool: the same units
in the same order, so the same candidates and the same choice for the same seed. What
differs from the local pool:

- progress: there is no live channel to a remote worker, so a unit's counters reach the
  progress line when it finishes;
- bounds: as in the local pool, a unit tightens its bound only within itself, and each
  phase starts from the best candidate verified so far; nothing passes between units while
  they run;
- stopping: a unit stops at the deadline (by its worker's clock: keep the clocks in step) or
  when its future is cancelled (Ctrl-C, or a search past its deadline); a cancelled unit's
  candidates are dropped, while those of the units already done are kept;
- the pruning answers (`cache=`) go to the same path on each worker's machine.

Every worker needs mirage-xdsl installed (the same version), and since the units are pure
Python, workers of one thread each (`dask worker ADDRESS --nworkers N --nthreads 1`).
"""

from __future__ import annotations

import importlib.metadata
import json
import threading
import time
from collections.abc import Callable, Generator
from concurrent.futures import Future, InvalidStateError
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from mirage.passes.superoptimize.explore import UnitResult
from mirage.passes.superoptimize.workers import UnitExecutor

LOCAL = "local"
ADDRESS_PREFIX = "dask://"
SCHEDULER_FILE_PREFIX = "dask-scheduler-file:"
FORMS = f"'{LOCAL}', '{ADDRESS_PREFIX}HOST:PORT' or '{SCHEDULER_FILE_PREFIX}PATH'"
DISTRIBUTION = "mirage-xdsl"


class ClusterError(Exception):
    """A cluster that cannot be used; the message is one line."""


@dataclass(frozen=True)
class ClusterSpec:
    """Where the scheduler is: its address (tcp://HOST:PORT) or its scheduler file."""

    address: str | None = None
    scheduler_file: str | None = None

    def describe(self) -> str:
        if self.address is not None:
            return f"the Dask scheduler at {self.address}"
        return f"the Dask scheduler of {self.scheduler_file}"


def parse_executor(text: str) -> ClusterSpec | None:
    """None for the local pool; raises ValueError for what is neither form."""
    if text == LOCAL:
        return None
    if text.startswith(ADDRESS_PREFIX):
        host, sep, port = text[len(ADDRESS_PREFIX) :].rpartition(":")
        if host and sep and port.isdigit() and "/" not in host:
            return ClusterSpec(address=f"tcp://{host}:{port}")
    if text.startswith(SCHEDULER_FILE_PREFIX) and len(text) > len(SCHEDULER_FILE_PREFIX):
        return ClusterSpec(scheduler_file=text[len(SCHEDULER_FILE_PREFIX) :])
    raise ValueError(f"executor must be {FORMS}, got '{text}'")


@dataclass
class Units:
    """How the search runs its units: the executor (None: the local pool) and how many run
    side by side (the search cuts its tree into units for that many)."""

    executor: UnitExecutor | None
    workers: int


class ClusterExecutor:
    """The search's `UnitExecutor` on a `distributed.Client`: each unit a Dask task (not
    pure: each submission runs). Cancelling a future cancels its task, which stops the unit
    (`dask_task.cancelled_check`), and every future ends, whatever races its task's end and the
    cancellation (the futures of `Client.get_executor()` can miss a cancellation that
    overtakes their task's result, and a search waiting on them never ends)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self._tasks: dict[int, Any] = {}
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., UnitResult], /, *args: Any) -> Future[UnitResult]:
        task: Any = self.client.submit(fn, *args, pure=False)
        future: Future[UnitResult] = Future()
        with self._lock:
            self._tasks[id(future)] = task

        def on_future_done(f: Future[UnitResult]) -> None:
            with self._lock:
                self._tasks.pop(id(f), None)
            if f.cancelled():
                task.cancel()
                # wait() counts a cancelled future only once it is notified.
                f.set_running_or_notify_cancel()

        def on_task_done(t: Any) -> None:
            if future.done():
                return
            # Either may meet a future cancelled meanwhile.
            try:
                outcome: Any = t.result()
            except BaseException as e:
                with suppress(InvalidStateError):
                    future.set_exception(e)
            else:
                with suppress(InvalidStateError):
                    future.set_result(outcome)

        future.add_done_callback(on_future_done)
        task.add_done_callback(on_task_done)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            tasks = list(self._tasks.values())
        if cancel_futures and tasks:
            self.client.cancel(tasks)
        elif wait and tasks:
            import distributed

            cast(Any, distributed).wait(tasks)


@contextmanager
def unit_executor(text: str, workers: int, timeout: float | None = None) -> Generator[Units]:
    """The executor that `executor=TEXT` names, connected for the time of the block; a
    cluster's failures inside the block become `ClusterError`s. `timeout` (seconds) bounds
    the connection and the wait for a first worker; None takes Dask's configuration
    (`distributed.comm.timeouts.connect`)."""
    spec = parse_executor(text)
    if spec is None:
        yield Units(None, workers)
        return
    client = connect(spec, timeout)
    executor = ClusterExecutor(client)
    try:
        threads = sum(cast(dict[str, int], client.nthreads()).values())
        yield Units(executor, max(workers, threads))
    except Exception as e:
        if type(e).__module__.split(".")[0] == "distributed":
            raise ClusterError(f"{spec.describe()} failed: {_one_line(e)}") from e
        raise
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
        client.close()


def connect(spec: ClusterSpec, timeout: float | None = None) -> Any:
    """A `distributed.Client` of the scheduler, with at least one worker that has this
    package installed."""
    try:
        import distributed
    except ImportError:
        raise ClusterError(
            "a Dask executor needs Dask's distributed scheduler: "
            f"pip install '{DISTRIBUTION}[dask]'"
        ) from None
    import dask.config

    wait: float = (
        timeout
        if timeout is not None
        else _seconds(cast(Any, dask.config).get("distributed.comm.timeouts.connect"))
    )
    address = spec.address or _scheduler_address(spec, wait)
    try:
        client: Any = distributed.Client(address, timeout=wait, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        reason = _one_line(e)
        if reason.startswith("Timed out"):
            reason = f"no answer within {wait:g} s"
        raise ClusterError(f"cannot reach {spec.describe()}: {reason}") from None
    try:
        client.wait_for_workers(1, timeout=wait)
        missing = {
            worker: _one_line(answer)
            for worker, answer in client.run(
                importlib.metadata.version, DISTRIBUTION, on_error="return"
            ).items()
            if isinstance(answer, BaseException)
        }
    except (OSError, TimeoutError) as e:
        client.close()
        raise ClusterError(
            f"{spec.describe()} has no worker (waited {wait:g} s): {_one_line(e)}"
        ) from None
    if missing:
        client.close()
        worker, reason = sorted(missing.items())[0]
        raise ClusterError(
            f"{len(missing)} worker(s) of {spec.describe()} cannot run the search "
            f"({worker}: {reason}); install {DISTRIBUTION} on every worker"
        )
    return client


def _scheduler_address(spec: ClusterSpec, wait: float) -> str:
    """The address in a scheduler file, waiting up to `wait` seconds for the file to appear
    (a scheduler that is starting writes it; Dask's own client would wait for ever)."""
    assert spec.scheduler_file is not None
    path = Path(spec.scheduler_file).expanduser()
    end = time.monotonic() + wait
    while not path.exists():
        if time.monotonic() > end:
            raise ClusterError(f"cannot reach {spec.describe()}: no such file (waited {wait:g} s)")
        time.sleep(0.1)
    try:
        address = json.loads(path.read_text())["address"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ClusterError(
            f"{spec.scheduler_file} is not a Dask scheduler file: {_one_line(e)}"
        ) from None
    if not isinstance(address, str):
        raise ClusterError(f"{spec.scheduler_file} is not a Dask scheduler file: no address")
    return address


def _seconds(value: object) -> float:
    from dask.utils import parse_timedelta

    return float(cast(float, parse_timedelta(cast(Any, value), default="seconds")))


def _one_line(e: BaseException) -> str:
    lines = str(e).strip().splitlines()
    return lines[0] if lines else type(e).__name__


__all__ = [
    "ClusterError",
    "ClusterExecutor",
    "ClusterSpec",
    "Units",
    "connect",
    "parse_executor",
    "unit_executor",
]
