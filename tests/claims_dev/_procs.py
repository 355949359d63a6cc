"""Process helpers for CLI tests that start long-running commands (Linux /proc)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

# How long a test waits for a command it asked to stop (or to start): a stop that takes a few
# seconds on a quiet machine can take a minute or more on a busy one, so the bound is generous;
# it is there so that a command that really hangs still fails the test, saying what it waited for.
STOP_WAIT_S = 300.0


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return text.rsplit(")", 1)[1].split()  # fields after the command name: state, ppid, pgrp...


def alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(entry))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def group_members(pgid: int) -> set[int]:
    """Live processes whose process group is ``pgid``."""
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and fields[0] != "Z" and int(fields[2]) == pgid:
                out.add(int(entry))
    return out


def stop_command(proc, children: set[int], timeout: float = 30.0) -> None:
    """Clean-up for a test that failed half-way: ask ``proc`` to stop, then end it and the
    ``children`` recorded earlier (each in its own process group) by force."""
    import signal
    import subprocess

    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    for pid in children:
        if alive(pid):
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


def wait_stopped(proc: subprocess.Popen, what: str,
                 timeout: float = STOP_WAIT_S) -> tuple[str | bytes | None, str | bytes | None]:
    """Wait for ``proc``, which was asked to stop, to end; its remaining (stdout, stderr), as
    ``communicate`` gives them. Fails saying what was waited for and how long, rather than with
    a bare ``TimeoutExpired``."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{what}: still running {timeout:.0f} s after it was asked to "
                             "stop") from None


def still_alive(pids: set[int], settle_s: float = 30.0) -> list[int]:
    """Those of ``pids`` still alive once they had up to ``settle_s`` to go (a killed process
    takes a moment to be reaped when the machine is busy); an empty list when all went."""
    import time

    deadline = time.monotonic() + settle_s
    while True:
        left = sorted(p for p in pids if alive(p))
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


def read_until(proc: subprocess.Popen, marker: str, timeout: float) -> list[str]:
    """The lines ``proc`` prints on stdout up to and including the first holding ``marker``;
    fails with what it printed when the marker does not come in ``timeout`` seconds."""
    import time

    lines: list[str] = []
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            if proc.poll() is not None:
                break
            continue
        lines.append(line.rstrip("\n"))
        if marker in line:
            return lines
    raise AssertionError(f"{marker!r} not printed in time; got: {lines}")


def ctrl_c_stops_everything(proc: subprocess.Popen, what: str) -> str:
    """Press Ctrl-C (SIGINT) on a long-running command and check it ends well: exit 0,
    "stopped" printed, none of the processes it had started left. Returns its stdout."""
    import signal

    children = descendants(proc.pid)
    assert children, f"{what}: started no process of its own"
    proc.send_signal(signal.SIGINT)
    out, err = wait_stopped(proc, f"{what} after Ctrl-C")
    assert proc.returncode == 0, err
    assert "stopped" in (out or "")
    assert not any(alive(pid) for pid in children)
    return str(out or "")
