"""``python -m claims_prototype_app``: its options, and serving the page until SIGTERM stops it
together with Streamlit's processes."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from claims_prototype_app.__main__ import parse_args
from claims_prototype_app._serve import streamlit_command


def test_serve_is_the_default_on_loopback() -> None:
    args = parse_args([])
    assert (args.command, args.host, args.port) == ("serve", "127.0.0.1", 8501)
    assert parse_args(["--port", "9000"]).port == 9000
    assert parse_args(["reset", "--db-file", "x.db"]).db_file == "x.db"
    command = streamlit_command("127.0.0.1", 9000)
    assert command[1:4] == ["-m", "streamlit", "run"]
    assert command[command.index("--server.address") + 1] == "127.0.0.1"
    assert command[command.index("--server.headless") + 1] == "true"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.slow
@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_serve_prints_its_url_and_stops_with_its_children(tmp_path: Path,
                                                          stop_signal: int) -> None:
    port = _free_port()
    env = {**os.environ, "HERON_DB_FILE": str(tmp_path / "heron.sqlite3"),
           "HERON_UPLOADS_DIR": str(tmp_path / "uploads")}
    proc = subprocess.Popen([sys.executable, "-m", "claims_prototype_app", "--port", str(port)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, start_new_session=True)
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        line = ""
        while "Heron Mutual on" not in line and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line or proc.poll() is None, "the server exited before printing its URL"
        assert line.strip() == f"Heron Mutual on http://127.0.0.1:{port}/"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=10) as r:
            assert r.status == 200
        children = [int(p) for p in subprocess.run(
            ["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()]
        assert children, "Streamlit runs as a child process"
        assert (tmp_path / "heron.sqlite3").is_file()
        proc.send_signal(stop_signal)
        assert proc.wait(timeout=30) == 0
        deadline = time.monotonic() + 10
        while any(_alive(c) for c in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(c) for c in children)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
