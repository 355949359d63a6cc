"""The stores of the dev environment, real or embedded, reached only through URIs.

Real services (a MongoDB URI, a MinIO endpoint) are used unchanged when given. When none is
given, embedded stand-ins are started as child processes on free loopback ports:
SecantusDB (MongoDB wire protocol) and moto's S3 server.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from claims_records import SeedError
from seed import S3Config

from ._ports import START_ATTEMPTS, free_port, wait_for_port
from ._processes import EmbeddedProcess, signals_ignored_while_stopping, spawn


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
        handle = EmbeddedProcess(kind, spawn(name, argv(chosen), log, workdir), workdir,
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
class DevStores:
    """Both stores, embedded or real; ``close()`` stops whatever this object started."""

    mongo_uri: str
    s3: S3Config
    processes: list[EmbeddedProcess] = field(default_factory=list)

    def close(self) -> None:
        with signals_ignored_while_stopping():
            for p in reversed(self.processes):
                p.stop()
            self.processes.clear()

    def __enter__(self) -> DevStores:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_stores(mongo_uri: str | None = None, s3: S3Config | None = None,
                log_dir: Path | None = None) -> DevStores:
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
    return DevStores(mongo_uri=mongo_uri, s3=s3, processes=procs)
