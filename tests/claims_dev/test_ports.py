"""A server started on a port another program took meanwhile: the probe that reaches the other
program's server is not taken for the child's, and a start whose child could not bind moves
to another port (seed/_ports.py)."""

from __future__ import annotations

import http.server
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pymongo
import pytest

import claims_dev._embedded
from claims_dev import SPAWN_OPTIONS, start_embedded_mongo, stop_process_tree
from claims_dev._app import _wait_for_app
from claims_dev._environment import _AppProcess
from claims_dev._ports import free_port, listener_is_ours
from claims_records import SeedError

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(),
                                reason="whose socket a port is needs Linux's /proc")


@pytest.fixture
def taken() -> Iterator[int]:
    """A loopback port another program (this test) listens on."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s.getsockname()[1]


def _child(code: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            **SPAWN_OPTIONS)


def test_a_listener_is_told_apart_by_the_process_that_holds_it(taken):
    listening = _child("import socket, sys, time\n"
                       "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()\n"
                       "print(s.getsockname()[1], flush=True); time.sleep(60)\n")
    idle = _child("import time; time.sleep(60)")
    try:
        port = int(listening.stdout.readline())
        assert listener_is_ours(listening, port) is True
        assert listener_is_ours(idle, port) is False
        assert listener_is_ours(listening, taken) is False  # this test's socket
        assert listener_is_ours(listening, free_port()) is False  # nobody's
    finally:
        for proc in (listening, idle):
            stop_process_tree(proc)


def test_a_store_whose_port_another_program_holds_is_not_taken_for_started(taken):
    with pytest.raises(SeedError, match="exited during start-up"):
        start_embedded_mongo(port=taken)


def test_a_store_start_moves_to_another_port_when_its_port_was_taken_meanwhile(taken,
                                                                                monkeypatch):
    ports = iter([taken])
    monkeypatch.setattr(claims_dev._embedded, "free_port",
                        lambda host="127.0.0.1": next(ports, None) or free_port(host))
    uri, handle = start_embedded_mongo()
    try:
        assert f":{taken}/" not in uri
        with pymongo.MongoClient(uri, serverSelectionTimeoutMS=5000) as client:
            assert client.admin.command("ping")["ok"] == 1
    finally:
        handle.stop()


class _Runtime(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the handler's interface
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b'{"runtime": "reference"}')

    def log_message(self, *args: object) -> None:
        pass


def test_an_app_is_not_taken_for_started_when_another_server_answers_on_its_port(tmp_path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Runtime)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    app = _child("import time; time.sleep(60)")  # started, not listening (yet)
    try:
        with pytest.raises(SeedError, match="another program answers on its port"):
            _wait_for_app(_AppProcess(app, tmp_path / "app.log"),
                          f"http://127.0.0.1:{server.server_address[1]}/api/runtime", 2.0)
    finally:
        server.shutdown()
        server.server_close()
        stop_process_tree(app)
