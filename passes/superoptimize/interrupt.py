"""Ctrl-C during a search: the first one stops it with the best verified μGraph so far.

Raising KeyboardInterrupt wherever the main process happens to be (inside a verification,
a pool's bookkeeping, a segment's own search) loses what was found, or is swallowed by the
inner search that catches it while the outer one goes on. So the first SIGINT only sets a
flag that every search of the pass (segments, phases, functions) polls; a second one
raises KeyboardInterrupt, for a user who does not want to wait even for that.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType


@dataclass
class StopFlag:
    """Set once a stop was asked for; shared by the searches of one pass run."""

    asked: bool = False

    def __call__(self) -> bool:
        return self.asked


@contextmanager
def first_sigint_stops(flag: StopFlag) -> Generator[StopFlag]:
    """While inside, the first SIGINT sets `flag` and later ones raise KeyboardInterrupt.
    Outside the main thread (where no handler can be installed) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        del signum, frame
        if flag.asked:
            raise KeyboardInterrupt
        flag.asked = True

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, previous)
