"""The lock of a run folder: a second holder is refused with who holds it; the lock goes
with its process however that process ends; a lock file from a dead process is stale."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness import FolderLock, RunLockedError, wait_for_lock
from harness.runner import _lock as lock_module

HOLD = """
import sys, time
from harness import FolderLock
lock = FolderLock(sys.argv[1]).acquire()
print("held", flush=True)
time.sleep(120)
"""


def _holder(folder: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], stdout=subprocess.PIPE,
                            text=True, env={**os.environ})
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_a_second_holder_is_refused_with_who_holds_it(tmp_path):
    proc = _holder(tmp_path / "run")
    try:
        with pytest.raises(RunLockedError, match="in use by another process") as err:
            FolderLock(tmp_path / "run").acquire()
        assert err.value.context["pid"] == proc.pid
        assert err.value.context["host"] == socket.gethostname()
        assert err.value.context["folder"] == str(tmp_path / "run")
    finally:
        proc.kill()
        proc.wait()


def test_a_killed_holder_leaves_no_lock_behind(tmp_path):
    proc = _holder(tmp_path / "run")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    started = time.monotonic()
    with FolderLock(tmp_path / "run") as lock:  # taken at once: the kernel dropped it
        assert time.monotonic() - started < 1
        held = json.loads((tmp_path / "run" / ".lock").read_text())
        assert held["pid"] == os.getpid()
        assert lock is not None
    assert (tmp_path / "run" / ".lock").read_text() == ""  # released: holder cleared


def test_released_lock_is_taken_again_and_waiting_gives_up(tmp_path):
    first = FolderLock(tmp_path / "h", "history").acquire()
    with pytest.raises(RunLockedError, match="this history is in use"):
        wait_for_lock(tmp_path / "h", "history", timeout_s=0.5)
    first.release()
    wait_for_lock(tmp_path / "h", "history", timeout_s=0.5).release()


def test_the_lock_file_holds_no_option_values(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["claims-harness", "run", "--llm-base-url",
                                      "https://user:secret@host/v1"])
    with FolderLock(tmp_path):
        text = (tmp_path / ".lock").read_text()
    assert "secret" not in text and json.loads(text)["command"] == "claims-harness run"


def test_without_os_locks_a_pid_file_is_used_and_a_dead_holder_is_stale(tmp_path,
                                                                         monkeypatch):
    import errno

    def no_flock(fh):
        raise OSError(errno.ENOLCK, "no locks available")

    monkeypatch.setattr(lock_module, "_os_lock", no_flock)
    lock = FolderLock(tmp_path).acquire()
    pid_file = tmp_path / lock_module.FALLBACK_FILE
    assert json.loads(pid_file.read_text())["pid"] == os.getpid()
    with pytest.raises(RunLockedError, match="in use"):
        FolderLock(tmp_path).acquire()  # same host, live process: refused
    lock.release()
    assert not pid_file.exists()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    pid_file.write_text(json.dumps({"pid": int(dead), "host": socket.gethostname()}))
    FolderLock(tmp_path).acquire().release()  # its process is gone: stale, taken over
    pid_file.write_text(json.dumps({"pid": 1, "host": "another-machine"}))
    with pytest.raises(RunLockedError, match=f"remove {pid_file}") as err:
        FolderLock(tmp_path).acquire()  # another host: cannot tell, refused with the way out
    assert err.value.context["host"] == "another-machine"
