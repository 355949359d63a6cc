"""An interrupt that lands in a side task of a run is reported once, not again by asyncio."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import asyncio, sys
from harness.runner import quiet_interrupts

async def side_task():
    await asyncio.sleep(0.01)
    raise KeyboardInterrupt  # Ctrl-C, or SIGTERM turned into one, during a screenshot

async def main(quiet):
    if quiet:
        quiet_interrupts(asyncio.get_running_loop())
    task = asyncio.ensure_future(side_task())
    await asyncio.sleep(5)

try:
    asyncio.run(main(sys.argv[1] == "quiet"))
except KeyboardInterrupt:
    print("interrupted; exit code 130", file=sys.stderr)
"""


def _stderr(mode: str) -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT, mode], capture_output=True, text=True,
                          timeout=60)
    return done.stderr


def test_an_interrupt_in_a_side_task_is_reported_once():
    assert _stderr("quiet") == "interrupted; exit code 130\n"


def test_without_it_asyncio_logs_the_task_again_with_a_traceback():
    err = _stderr("plain")
    assert "Task exception was never retrieved" in err and "Traceback" in err
