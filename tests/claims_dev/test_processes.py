"""Whether a process runs, on every platform: signal 0 on POSIX, the process API on Windows
(where ``os.kill(pid, 0)`` would send CTRL_C_EVENT), checked here with the platform patched."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from dataclasses import dataclass, field

import pytest

from claims_dev import process_running

STILL_ACTIVE, ERROR_ACCESS_DENIED, ERROR_INVALID_PARAMETER = 259, 5, 87


def test_this_process_runs_and_an_ended_one_does_not() -> None:
    assert process_running(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()  # ended and reaped: its id is free
    assert not process_running(child.pid)
    assert not process_running(0) and not process_running(-1)


@dataclass
class FakeKernel32:
    """The four calls of the process API the check makes, answering as ``process`` says."""

    process: str  # running | exited | missing | denied
    closed: list[int] = field(default_factory=list)
    last_error: int = 0

    def OpenProcess(self, access: int, inherit: bool, pid: int) -> int:  # noqa: N802
        assert access == 0x1000 and inherit is False  # query limited information only
        if self.process in ("missing", "denied"):
            self.last_error = (ERROR_ACCESS_DENIED if self.process == "denied"
                               else ERROR_INVALID_PARAMETER)
            return 0
        return 4242

    def GetLastError(self) -> int:  # noqa: N802
        return self.last_error

    def GetExitCodeProcess(self, handle: int, code: object) -> int:  # noqa: N802
        code._obj.value = STILL_ACTIVE if self.process == "running" else 0  # type: ignore[attr-defined]
        return 1

    def CloseHandle(self, handle: int) -> int:  # noqa: N802
        self.closed.append(handle)
        return 1


@pytest.mark.parametrize(("process", "running"), [
    ("running", True), ("exited", False), ("missing", False), ("denied", True)])
def test_the_windows_branch_asks_the_process_api_and_never_signals(
        monkeypatch: pytest.MonkeyPatch, process: str, running: bool) -> None:
    kernel32 = FakeKernel32(process)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(ctypes, "windll", type("windll", (), {"kernel32": kernel32}),
                        raising=False)

    def no_signals(pid: int, sig: int) -> None:
        raise AssertionError("os.kill on Windows sends CTRL_C_EVENT for signal 0")

    monkeypatch.setattr(os, "kill", no_signals)
    assert process_running(1234) is running
    assert kernel32.closed == ([4242] if process in ("running", "exited") else [])
