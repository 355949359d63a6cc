"""Child processes of the dev environment: started in a process group of their own, stopped
with everything they started, and never cut short by a second Ctrl-C."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claims_records import SeedError


@contextlib.contextmanager
def signals_ignored_while_stopping() -> Iterator[None]:
    """Ignore SIGINT/SIGTERM while stopping processes, so a second Ctrl-C cannot cut the
    clean-up short and leave children behind. Only the main thread can do this; elsewhere it
    does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@dataclass
class EmbeddedProcess:
    """A server this process started. ``workdir`` (its working and temporary folder) is
    removed when it stops; a ``disposable`` one holds nothing worth a polite stop (an
    in-memory store thrown away with it) and is ended at once."""

    name: str
    proc: subprocess.Popen
    workdir: Path | None = None
    disposable: bool = False

    def stop(self, timeout: float = 10.0) -> None:
        stop_process_tree(self.proc, timeout, polite=not self.disposable)
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)


_STILL_ACTIVE = 259  # GetExitCodeProcess's code for a process that has not ended
_ERROR_ACCESS_DENIED = 5
_QUERY_LIMITED_INFORMATION = 0x1000


def process_running(pid: int) -> bool:
    """Whether process ``pid`` is running, on every platform: on Windows through the process
    API (``os.kill(pid, 0)`` there would send CTRL_C_EVENT, or raise), elsewhere through
    signal 0. Someone else's live process counts as running."""
    if pid <= 0:
        return False
    if sys.platform == "win32":
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined,unused-ignore]
        handle = kernel32.OpenProcess(_QUERY_LIMITED_INFORMATION, False, pid)
        if not handle:  # no such process, or one we may not look into (it exists)
            return bool(kernel32.GetLastError() == _ERROR_ACCESS_DENIED)
        code = ctypes.c_ulong()
        try:
            ok = kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
        finally:
            kernel32.CloseHandle(handle)
        return bool(ok) and code.value == _STILL_ACTIVE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's live process
        return True
    return True


def exit_description(returncode: int) -> str:
    """How a child ended, from its return code (``Popen.returncode``): "exited with code N",
    or "was killed by SIGKILL (signal 9)" for a POSIX child ended by a signal."""
    if returncode >= 0:
        return f"exited with code {returncode}"
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        name = "an unknown signal"
    return f"was killed by {name} (signal {-returncode})"


# A child gets its own process group (POSIX) or console process group (Windows), so stopping it
# reaches everything it started and a Ctrl-C in the terminal reaches only the parent.
SPAWN_OPTIONS: dict[str, Any]  # keyword arguments of subprocess.Popen
if sys.platform == "win32":
    SPAWN_OPTIONS = {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
else:
    SPAWN_OPTIONS = {"start_new_session": True}


def stop_process_tree(proc: subprocess.Popen, timeout: float = 10.0, *,
                      polite: bool = True) -> None:
    """Stop ``proc`` and its process group: politely, then by force after ``timeout``
    (at once when not ``polite``)."""
    if os.name == "nt":
        if proc.poll() is None:
            subprocess.run(["taskkill", "/T", "/F", "/PID", str(proc.pid)],
                           capture_output=True, check=False)
            proc.wait(timeout=timeout)
        return
    if proc.poll() is not None:
        return  # already gone and reaped: its id may belong to someone else by now
    if polite:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=timeout)
    # whatever is still in the group (the child itself, or something it left behind)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=timeout)


def spawn(name: str, argv: list[str], log: Path | None,
           workdir: Path | None = None) -> subprocess.Popen:
    """Start ``argv``; with a ``workdir``, it is the child's working and temporary folder, so
    whatever the child leaves there goes when the folder is removed, even after a kill."""
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    env = None
    if workdir is not None:
        env = {**os.environ, **dict.fromkeys(("TMPDIR", "TEMP", "TMP"), str(workdir))}
    try:
        return subprocess.Popen(
            argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            cwd=workdir, env=env, **SPAWN_OPTIONS,
        )
    except FileNotFoundError as exc:
        raise SeedError(f"cannot start {name}: {exc}", argv=" ".join(argv)) from exc
    finally:
        if not isinstance(out, int):
            out.close()  # the child holds its own copy
