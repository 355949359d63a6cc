"""A throwaway PostgreSQL server for tests: ``initdb`` + ``pg_ctl`` in a temporary folder,
listening on loopback on a free port, its unix socket inside that folder, password sign-in.

PostgreSQL refuses to run as root; as root the server runs as the ``postgres`` user (Debian's
package makes it), else ``nobody``, and the folder is handed to that user. ``stop()`` stops the
server and removes the folder, whatever state the start reached.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from claims_dev import free_port

USER = "harness"


def find_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: on PATH, else Debian's newest."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                    key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return Path(debian[-1]).parent if debian else None


class PostgresServer:
    """One running server; ``url(database)`` is a SQLAlchemy URL for one of its databases."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="claims-test-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.password = secrets.token_urlsafe(16)
        self._as: dict[str, Any] = {}
        self._started = False

    def url(self, database: str = "postgres", password: str | None = None) -> str:
        word = self.password if password is None else password
        return f"postgresql+psycopg://{USER}:{word}@127.0.0.1:{self.port}/{database}"

    def _run(self, *argv: str, timeout: float = 120) -> None:
        done = subprocess.run([str(self.bin / argv[0]), *argv[1:]], capture_output=True,
                              text=True, timeout=timeout, cwd=self.folder, check=False,
                              stdin=subprocess.DEVNULL, **self._as)
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.is_file() else ""
            raise RuntimeError(f"{argv[0]} failed ({done.returncode}): {done.stderr[-2000:]}"
                               f"{tail}")

    def start(self) -> PostgresServer:
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            try:
                who = pwd.getpwnam("postgres")
            except KeyError:
                who = pwd.getpwnam("nobody")
            os.chown(self.folder, who.pw_uid, who.pw_gid)
            self._as = {"user": who.pw_uid, "group": who.pw_gid, "extra_groups": []}
        pwfile = self.folder / "pwfile"
        pwfile.write_text(self.password + "\n", encoding="utf-8")
        if self._as:
            os.chown(pwfile, self._as["user"], self._as["group"])
        self._run("initdb", "-D", str(self.data), "-U", USER, f"--pwfile={pwfile}",
                  "--auth=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync")
        pwfile.unlink()
        (self.folder / "sock").mkdir()
        if self._as:
            os.chown(self.folder / "sock", self._as["user"], self._as["group"])
        options = (f"-h 127.0.0.1 -p {self.port} -k {self.folder / 'sock'} -c fsync=off "
                   "-c full_page_writes=off -c synchronous_commit=off")
        self._started = True
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"),
                  "-w", "-t", "60", "-o", options, "start")
        return self

    def create_database(self, name: str) -> str:
        """Create ``name`` (dropped first when it exists); its URL."""
        import psycopg

        with psycopg.connect(host="127.0.0.1", port=self.port, user=USER,
                             password=self.password, dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        """Drop ``name`` (its connections ended first), when it exists."""
        import psycopg

        with psycopg.connect(host="127.0.0.1", port=self.port, user=USER,
                             password=self.password, dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        """Stop the server (pg_ctl, else its signal for an immediate stop) and remove the
        folder."""
        try:
            pidfile = self.data / "postmaster.pid"
            if self._started and pidfile.exists():
                pid = int(pidfile.read_text().split()[0])
                try:
                    self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w",
                              "-t", "60", "stop")
                except (RuntimeError, subprocess.TimeoutExpired):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGQUIT)
                    deadline = time.monotonic() + 30
                    while pidfile.exists() and time.monotonic() < deadline:
                        time.sleep(0.1)
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def running_postgres(bin_dir: Path) -> Iterator[PostgresServer]:
    server = PostgresServer(bin_dir)
    try:
        yield server.start()
    finally:
        server.stop()
