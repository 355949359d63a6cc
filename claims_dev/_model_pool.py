"""The embedded model for several lanes: one llama-cpp-python server per instance, behind one
address.

llama-cpp-python's server answers one request at a time (one model, one lock; it has no
parallel slots) and keeps the tokens of the last prompt it read, so that the next prompt
sharing them is read only from where it differs. Lanes sharing one server therefore wait
for each other *and* spoil each other's prefix: every request of an interleaved run reads
its whole prompt again (docs/llm-customer.md, "Model time", has the measurements). So with
``instances > 1`` this module starts that many servers and a small router in front of them
(``BackgroundServer`` on a thread of this process) that sends each request to an idle
server, the one that last read the same conversation (same system message) first, else the
one idle longest; a request that finds every server busy waits for the first to finish.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claims_records import SimulatorError

from ._local_model import LocalModel, start_local_model
from ._processes import EmbeddedProcess
from ._server import BackgroundServer

# Request headers passed on to a server; the rest (host, length, connection) are the
# router's own.
_FORWARDED = ("content-type", "authorization", "accept")


def cpu_cores() -> int:
    """The CPU cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def default_threads(instances: int, cores: int | None = None) -> int:
    """Threads per server so that ``instances`` servers share the cores without asking for
    more than there are (at least one each)."""
    return max(1, (cores or cpu_cores()) // max(1, instances))


class _Pool:
    """Which server is idle, and which conversation each one read last."""

    def __init__(self, urls: list[str]) -> None:
        self.urls = urls
        self.busy = [False] * len(urls)
        self.last_key: list[str | None] = [None] * len(urls)
        self.last_used = [0.0] * len(urls)
        self._cond: asyncio.Condition | None = None

    def _condition(self) -> asyncio.Condition:
        if self._cond is None:  # made in the router's own event loop
            self._cond = asyncio.Condition()
        return self._cond

    def pick(self, key: str) -> int | None:
        """The server for a request of conversation ``key``, or None while all are busy."""
        idle = [i for i, b in enumerate(self.busy) if not b]
        if not idle:
            return None
        same = [i for i in idle if self.last_key[i] == key]
        return same[0] if same else min(idle, key=lambda i: self.last_used[i])

    async def acquire(self, key: str) -> int:
        cond = self._condition()
        async with cond:
            while (i := self.pick(key)) is None:
                await cond.wait()
            self.busy[i] = True
            self.last_key[i] = key
            return i

    async def release(self, i: int) -> None:
        cond = self._condition()
        async with cond:
            self.busy[i] = False
            self.last_used[i] = time.monotonic()
            cond.notify_all()


def conversation_key(body: bytes) -> str:
    """What identifies a request's conversation: its first (system) message."""
    import json

    try:
        messages = json.loads(body).get("messages") or []
        first = messages[0].get("content") if messages else ""
    except (ValueError, AttributeError, TypeError):
        first = ""
    return hashlib.sha256(str(first).encode("utf-8")).hexdigest()


def router_app(urls: list[str]) -> Any:
    """The ASGI app that spreads requests over the servers at ``urls`` (base URLs without
    ``/v1``): completions to one idle server each, anything else to the first."""
    import httpx
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    pool = _Pool(urls)
    clients: dict[int, httpx.AsyncClient] = {}

    def client() -> httpx.AsyncClient:
        # one client per event loop (the router's thread has one)
        loop = id(asyncio.get_running_loop())
        if loop not in clients:
            clients[loop] = httpx.AsyncClient(timeout=None, trust_env=False)
        return clients[loop]

    async def forward(request: Request) -> Response:
        body = await request.body()
        path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        headers = {k: v for k, v in request.headers.items() if k.lower() in _FORWARDED}
        spread = request.method == "POST" and path.rstrip("/").endswith("/completions")
        i = await pool.acquire(conversation_key(body)) if spread else 0
        try:
            r = await client().request(request.method, urls[i] + path, content=body,
                                       headers=headers)
        except httpx.HTTPError as exc:
            return Response(f'{{"error": {{"message": "model server {i} did not answer: '
                            f'{type(exc).__name__}"}}}}', status_code=502,
                            media_type="application/json")
        finally:
            if spread:
                await pool.release(i)
        return Response(r.content, status_code=r.status_code,
                        media_type=r.headers.get("content-type"))

    return Starlette(routes=[Route("/{path:path}", forward,
                                   methods=["GET", "POST", "PUT", "DELETE"])])


@dataclass
class ModelServer:
    """The embedded model as started: where it answers, its servers, the router if any."""

    model: LocalModel
    backends: list[EmbeddedProcess]
    router: BackgroundServer | None = None
    threads: int | None = None
    stopped: bool = field(default=False, init=False)

    @property
    def instances(self) -> int:
        return len(self.backends)

    @property
    def pids(self) -> list[int]:
        return [b.proc.pid for b in self.backends]

    def ended(self) -> EmbeddedProcess | None:
        """A server that has ended on its own, if any."""
        return next((b for b in self.backends if b.proc.poll() is not None), None)

    def stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        if self.router is not None:
            self.router.stop()
        for b in self.backends:
            b.stop()


def start_model_server(instances: int = 1, host: str = "127.0.0.1", port: int | None = None,
                       model_path: Path | None = None, threads: int | None = None,
                       log: Path | None = None, timeout: float = 120.0,
                       chat_format: str | None = None) -> ModelServer:
    """Start the embedded model as ``instances`` servers behind one address (one: the server
    itself). ``threads`` per server defaults to the cores shared out between them (one
    server: the server's own choice). Servers that started are stopped again when another
    fails."""
    if instances < 1:
        raise SimulatorError("the embedded model needs at least one instance",
                             field="instances", value=instances)
    if instances == 1:
        model, handle = start_local_model(host=host, port=port, model_path=model_path,
                                          threads=threads, log=log, timeout=timeout,
                                          chat_format=chat_format)
        return ModelServer(model, [handle], threads=threads)
    threads = threads or default_threads(instances)

    def one(i: int) -> tuple[LocalModel, EmbeddedProcess]:
        return start_local_model(host=host, model_path=model_path, threads=threads,
                                 log=log.with_name(f"{log.stem}-{i + 1}{log.suffix}")
                                 if log else None, timeout=timeout, chat_format=chat_format)

    started: list[tuple[LocalModel, EmbeddedProcess]] = []
    errors: list[BaseException] = []
    with ThreadPoolExecutor(max_workers=instances) as pool:
        for future in [pool.submit(one, i) for i in range(instances)]:
            try:
                started.append(future.result())
            except BaseException as exc:  # noqa: BLE001 - re-raised below, after clean-up
                errors.append(exc)
    backends = [h for _, h in started]
    server = ModelServer(LocalModel(), backends, threads=threads)
    if errors:
        server.stop()
        raise errors[0]
    try:
        urls = [m.base_url.removesuffix("/v1") for m, _ in started]
        server.router = BackgroundServer(router_app(urls), host=host, port=port).start()
    except BaseException:
        server.stop()
        raise
    first = started[0][0]
    server.model = LocalModel(base_url=f"{server.router.url}/v1", model=first.model,
                              model_file=first.model_file)
    return server
