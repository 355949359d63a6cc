"""One process at a time per run folder (or per runs folder's history).

The lock is the operating system's own lock on ``<folder>/.lock`` (``flock`` on POSIX,
``msvcrt.locking`` on Windows): the kernel drops it when the process ends, however it ends,
so a killed run never leaves a lock that blocks the next one. The file also holds who took
it (pid, host, since, command), so a refusal can say who is running.

Where the file system cannot lock (some network mounts), a lock file made with ``O_EXCL``
holding pid and host is used instead: on the same host a lock whose process is gone is
stale and taken over; a lock from another host is refused with the file to remove once
that host's process is known to have ended.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from claims_dev import process_running
from claims_records import RunRecordError

LOCK_FILE = ".lock"
FALLBACK_FILE = ".lock.pid"
_NO_LOCKING = {errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL}


class RunLockedError(RunRecordError):
    """Another process holds the lock of this folder."""


def _holder() -> dict[str, Any]:
    return {"pid": os.getpid(), "host": socket.gethostname(),
            "since": datetime.now(UTC).isoformat(timespec="seconds"),
            # program and sub-command only: option values may hold secrets
            "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:2]])}


def _describe(holder: dict[str, Any]) -> dict[str, Any]:
    return {k: holder.get(k) for k in ("pid", "host", "since", "command") if holder.get(k)}


def _read_holder(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class FolderLock:
    """Exclusive, non-blocking lock on a folder; a context manager.

    ``what`` names the locked thing in messages ("run", "history").
    """

    def __init__(self, folder: Path, what: str = "run") -> None:
        self.folder = Path(folder)
        self.what = what
        self._fh: Any = None
        self._fallback: Path | None = None

    # ------------------------------------------------------------------ taking
    def acquire(self) -> FolderLock:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / LOCK_FILE
        fh = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held until release()
        try:
            _os_lock(fh)
        except BlockingIOError:
            fh.seek(0)
            holder = _read_holder(path)
            fh.close()
            raise RunLockedError(
                f"this {self.what} is in use by another process; wait for it to end or stop "
                "it (the lock goes with the process)", folder=str(self.folder),
                **_describe(holder)) from None
        except OSError as exc:
            fh.close()
            if exc.errno not in _NO_LOCKING:
                raise
            self._acquire_fallback()
            return self
        fh.seek(0)
        fh.truncate()
        fh.write(json.dumps(_holder()) + "\n")
        fh.flush()
        self._fh = fh
        return self

    def _acquire_fallback(self) -> None:
        path = self.folder / FALLBACK_FILE
        for _ in range(3):
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                holder = _read_holder(path)
                same_host = holder.get("host") == socket.gethostname()
                pid = holder.get("pid")
                if same_host and isinstance(pid, int) and not process_running(pid):
                    with contextlib.suppress(FileNotFoundError):
                        path.unlink()  # stale: its process has ended
                    continue
                hint = ("" if same_host else f"; if that process has ended, remove {path}")
                raise RunLockedError(
                    f"this {self.what} is in use by another process{hint}",
                    folder=str(self.folder), **_describe(holder)) from None
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(json.dumps(_holder()) + "\n")
            self._fallback = path
            return
        raise RunRecordError(f"cannot take the {self.what} lock", file=str(path))

    # ------------------------------------------------------------------ releasing
    def release(self) -> None:
        if self._fh is not None:
            with contextlib.suppress(OSError):
                self._fh.seek(0)
                self._fh.truncate()
                _os_unlock(self._fh)
            self._fh.close()
            self._fh = None
        if self._fallback is not None:
            with contextlib.suppress(OSError):
                self._fallback.unlink()
            self._fallback = None

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def wait_for_lock(folder: Path, what: str, timeout_s: float) -> FolderLock:
    """Take the lock, waiting up to ``timeout_s`` for another holder (history updates)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return FolderLock(folder, what).acquire()
        except RunLockedError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.2)


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _os_lock(fh: Any) -> None:
        fh.seek(0)
        try:
            msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError as exc:
            raise BlockingIOError(errno.EAGAIN, "locked") from exc

    def _os_unlock(fh: Any) -> None:
        fh.seek(0)
        msvcrt.locking(fh.fileno(), msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _os_lock(fh: Any) -> None:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _os_unlock(fh: Any) -> None:
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
