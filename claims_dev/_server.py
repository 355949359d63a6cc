"""Serve an ASGI app with uvicorn on a background thread (standalone seed route, tests)."""

from __future__ import annotations

import threading
import time

import uvicorn

from claims_records import SeedError

from ._ports import free_port


class BackgroundServer:
    """One uvicorn server on ``host:port`` in a daemon thread; ``stop()`` ends it."""

    def __init__(self, app, host: str = "127.0.0.1", port: int | None = None) -> None:
        self.host = host
        self.port = port or free_port(host)
        config = uvicorn.Config(app, host=host, port=self.port, log_level="warning",
                                access_log=False, lifespan="off")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name=f"seed-{self.port}",
                                        daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        """Whether the server's thread is serving."""
        return self._thread.is_alive()

    def start(self, timeout: float = 20.0) -> BackgroundServer:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise SeedError("seed server did not start", host=self.host, port=self.port)
            time.sleep(0.02)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout)

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
