"""MongoDB and S3 stores, reached only through URIs.

Real services (a MongoDB URI, a MinIO endpoint) are used unchanged when given. When none is
given, embedded stand-ins are started as child processes on free loopback ports:
SecantusDB (MongoDB wire protocol) and moto's S3 server.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from claims_records import SeedError

from ._ports import START_ATTEMPTS, free_port, wait_for_port

DEFAULT_S3_KEY = "harness"
DEFAULT_S3_SECRET = "harness-secret"


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
class S3Config:
    """Where an S3-compatible store listens and how to sign in to it."""

    endpoint: str  # URL, e.g. http://127.0.0.1:9000
    access_key: str = DEFAULT_S3_KEY
    secret_key: str = DEFAULT_S3_SECRET
    region: str = "us-east-1"

    @property
    def host_port(self) -> str:
        return urlparse(self.endpoint).netloc

    @property
    def secure(self) -> bool:
        return urlparse(self.endpoint).scheme == "https"

    def client(self):
        """A minio client for this store."""
        import urllib3
        from minio import Minio

        # Few, quick retries: an unreachable store should fail a reset in seconds, not minutes.
        http = urllib3.PoolManager(
            timeout=urllib3.Timeout(connect=5.0, read=60.0), maxsize=10,
            retries=urllib3.Retry(total=2, backoff_factor=0.1,
                                  status_forcelist=[500, 502, 503, 504]),
        )
        return Minio(
            self.host_port,
            access_key=self.access_key,
            secret_key=self.secret_key,
            secure=self.secure,
            region=self.region,
            http_client=http,
        )


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


def _spawn(name: str, argv: list[str], log: Path | None,
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


def _start_listening(name: str, kind: str, argv: Callable[[int], list[str]], host: str,
                     port: int | None, log: Path | None, workdir_prefix: str | None = None,
                     disposable: bool = False) -> tuple[int, EmbeddedProcess]:
    """Start a store server on ``port``, else on a free port (another one when the child ends
    during start-up: the port was taken meanwhile); return the port and the handle."""
    attempts, attempt = (1 if port else START_ATTEMPTS), 0
    while True:
        attempt += 1
        chosen = port or free_port(host)
        workdir = Path(tempfile.mkdtemp(prefix=workdir_prefix)) if workdir_prefix else None
        # This Python, never a console script found on PATH (it may belong to another Python).
        handle = EmbeddedProcess(kind, _spawn(name, argv(chosen), log, workdir), workdir,
                                 disposable)
        try:
            wait_for_port(host, chosen, proc=handle.proc)
            return chosen, handle
        except SeedError:
            ended = handle.proc.poll() is not None
            handle.stop()
            if not ended or attempt == attempts:
                raise


def start_embedded_mongo(host: str = "127.0.0.1", port: int | None = None,
                         log: Path | None = None) -> tuple[str, EmbeddedProcess]:
    """Start SecantusDB in memory; return its MongoDB URI and the process handle. Its data
    goes with it, so it is stopped at once (a polite stop waits seconds for its threads), and
    its temporary files are in its own folder, removed when it stops."""
    chosen, handle = _start_listening(
        "SecantusDB", "mongo",
        lambda p: [sys.executable, "-m", "secantus", "--host", host, "--port", str(p),
                   "--storage-path", ":memory:", "--log-level", "WARNING", "--standalone"],
        host, port, log, workdir_prefix="claims-harness-mongo-", disposable=True)
    return f"mongodb://{host}:{chosen}/", handle


def start_embedded_s3(host: str = "127.0.0.1", port: int | None = None,
                      log: Path | None = None) -> tuple[S3Config, EmbeddedProcess]:
    """Start moto's S3 server; return its configuration and the process handle."""
    chosen, handle = _start_listening(
        "moto S3 server", "s3",
        lambda p: [sys.executable, "-m", "moto.server", "-H", host, "-p", str(p)],
        host, port, log)
    return S3Config(endpoint=f"http://{host}:{chosen}"), handle


@dataclass
class Stores:
    """Both stores, embedded or real; ``close()`` stops whatever this object started."""

    mongo_uri: str
    s3: S3Config
    processes: list[EmbeddedProcess] = field(default_factory=list)

    def close(self) -> None:
        with signals_ignored_while_stopping():
            for p in reversed(self.processes):
                p.stop()
            self.processes.clear()

    def __enter__(self) -> Stores:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_stores(mongo_uri: str | None = None, s3: S3Config | None = None,
                log_dir: Path | None = None) -> Stores:
    """Use the given stores, starting embedded ones for whichever is missing."""
    procs: list[EmbeddedProcess] = []
    try:
        if mongo_uri is None:
            mongo_uri, p = start_embedded_mongo(log=log_dir / "mongo.log" if log_dir else None)
            procs.append(p)
        if s3 is None:
            s3, p = start_embedded_s3(log=log_dir / "s3.log" if log_dir else None)
            procs.append(p)
    except BaseException:
        with signals_ignored_while_stopping():
            for p in procs:
                p.stop()
        raise
    return Stores(mongo_uri=mongo_uri, s3=s3, processes=procs)
