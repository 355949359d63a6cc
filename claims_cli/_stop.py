"""A scheduler's stop (SIGTERM from systemd, Kubernetes or CI) ends a run the way Ctrl-C
does: trials in progress are closed, temporary evidence is removed, the resume hint is
printed."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """Whatever Ctrl-C would do now. Inside ``asyncio.run`` that is asyncio's own handler,
    which cancels the main task, so the run's clean-up runs to its end; raising
    ``KeyboardInterrupt`` there instead could land in a clean-up step and close the event
    loop under the tasks still closing (their tracebacks printed after the 'interrupted'
    line). Outside it (starting the stores, the product), ``KeyboardInterrupt``."""
    handler = signal.getsignal(signal.SIGINT)
    if not callable(handler):  # Ctrl-C ignored (a background job): a stop still stops
        raise KeyboardInterrupt
    handler(signal.SIGINT, frame)  # Python's default handler raises KeyboardInterrupt


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM is Ctrl-C (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
