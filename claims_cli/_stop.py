"""A scheduler's stop (SIGTERM from systemd, Kubernetes or CI) ends a run the way Ctrl-C
does: trials in progress are closed, temporary evidence is removed, the resume hint is
printed."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM raises ``KeyboardInterrupt`` (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
