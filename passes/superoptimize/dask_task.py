"""What a unit of the search asks of the Dask task it runs in (when it runs in one): its
own module so that the executor (`workers`) and the cluster client (`cluster`) can both
import it. Dask itself is optional: it is imported only inside a running worker."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def cancelled_check() -> Callable[[], bool] | None:
    """In a Dask task: whether the task has been cancelled since (its future was cancelled
    on the client). None outside one. A running task is not interrupted by Dask; the unit
    asks this between steps and stops."""
    if "distributed" not in sys.modules:
        return None
    from dask.context import thread_state
    from distributed import get_worker

    try:
        worker: Any = get_worker()
    except ValueError:
        return None
    key = getattr(thread_state, "key", None)
    tasks: dict[object, Any] | None = getattr(getattr(worker, "state", None), "tasks", None)
    if key is None or tasks is None:
        return None

    def cancelled() -> bool:
        task = tasks.get(key)
        return task is None or task.state in ("cancelled", "released", "forgotten")

    return cancelled


__all__ = ["cancelled_check"]
