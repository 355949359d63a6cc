"""SIGTERM does what Ctrl-C does: inside an asyncio run it cancels the main task, whose
clean-up then runs to its end, however the stop lands; outside one it raises
KeyboardInterrupt."""

from __future__ import annotations

import subprocess
import sys

# The stop arrives while a side task runs (the screenshot being taken when a scheduler stops
# the run), and the main task's clean-up waits for that task.
SCRIPT = """
import asyncio, os, signal, sys
from claims_cli._stop import sigterm_as_interrupt

async def side_task():
    await asyncio.sleep(0.05)
    os.kill(os.getpid(), signal.SIGTERM)  # handled at the next bytecode: inside this task
    for _ in range(1000):
        pass
    return "photographed"

async def main():
    side = asyncio.ensure_future(side_task())
    try:
        await asyncio.sleep(30)
    finally:
        print("clean-up:", await side, file=sys.stderr)

with sigterm_as_interrupt():
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        print("interrupted; exit code 130", file=sys.stderr)
"""


def test_a_stop_during_a_side_task_cancels_the_run_and_its_clean_up_finishes():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=60)
    assert done.stderr == "clean-up: photographed\ninterrupted; exit code 130\n", done.stderr


def _stop_outside_asyncio(prelude: str = "") -> subprocess.CompletedProcess:
    script = (f"import os, signal, time\n{prelude}"
              "from claims_cli._stop import sigterm_as_interrupt\n"
              "with sigterm_as_interrupt():\n"
              "    try:\n"
              "        os.kill(os.getpid(), signal.SIGTERM); time.sleep(30)\n"
              "    except KeyboardInterrupt:\n"
              "        print('interrupted')\n")
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)


def test_outside_an_asyncio_run_a_stop_is_a_keyboard_interrupt():
    done = _stop_outside_asyncio()
    assert done.stdout == "interrupted\n" and done.returncode == 0, done.stderr


def test_with_ctrl_c_ignored_a_stop_still_stops():
    done = _stop_outside_asyncio("signal.signal(signal.SIGINT, signal.SIG_IGN)\n")
    assert done.stdout == "interrupted\n" and done.returncode == 0, done.stderr
