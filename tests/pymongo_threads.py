"""Which pymongo background threads are running, and waiting for a set of them to end: how
the tests see that a stopped app closed its MongoDB clients."""

from __future__ import annotations

import threading
import time

END_WAIT_S = 60.0
"""How long a closed client's threads get to end: a monitor thread ends at its next wake-up
(0.5 s on a quiet machine); the bound is generous so a busy machine cannot fail the test."""


def pymongo_threads() -> set[threading.Thread]:
    """The running threads pymongo started (monitors, pools)."""
    return {t for t in threading.enumerate() if t.name.startswith("pymongo")}


def still_running(threads: set[threading.Thread], wait_s: float = END_WAIT_S) -> list[str]:
    """Wait up to ``wait_s`` for ``threads`` to end; the names of those still alive."""
    deadline = time.monotonic() + wait_s
    while any(t.is_alive() for t in threads) and time.monotonic() < deadline:
        time.sleep(0.05)
    return sorted(t.name for t in threads if t.is_alive())
