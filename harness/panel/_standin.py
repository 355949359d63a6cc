"""A local OpenAI-compatible stand-in model: ``POST /v1/chat/completions`` on 127.0.0.1.

It answers from a queue of scripted replies (status, body, delay, headers) and, when the
queue is empty, from a behaviour (a function of the request body: the reply text, a whole
completion body, or a status and body). It keeps every request
body and its headers. Error replies carry ``retry-after-ms`` so a client's retries do not
sleep for long. The server runs in a thread of the calling process and stops on ``close``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

COMPLETIONS_PATH = "/v1/chat/completions"
RETRY_AFTER_MS = "10"

# A behaviour answers a request body with the reply text, a whole completion body (a dict),
# or (status, body).
Behaviour = Callable[[dict[str, Any]], "str | dict[str, Any] | tuple[int, Any]"]


def completion(content: str | None, prompt_tokens: int = 100,
               completion_tokens: int = 20) -> dict[str, Any]:
    """A chat-completion body with one choice."""
    return {
        "id": "chatcmpl-stand-in", "object": "chat.completion", "created": 0,
        "model": "stand-in",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


class StandIn:
    """The stand-in server. Use as a context manager, or ``start()`` and ``close()``."""

    def __init__(self, behaviour: Behaviour | None = None) -> None:
        self.replies: list[tuple[int, Any, float, dict[str, str]]] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.behaviour = behaviour
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.base_url = self.url + "/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _next(self, path: str, body: dict[str, Any]) -> tuple[int, Any, float, dict[str, str]]:
        with self._lock:
            if path != COMPLETIONS_PATH:
                return 404, {"error": {"message": "not found"}}, 0.0, {}
            if self.replies:
                return self.replies.pop(0)
        if self.behaviour is None:
            return 500, {"error": {"message": "no reply queued"}}, 0.0, {}
        answer = self.behaviour(body)
        if isinstance(answer, tuple):
            return answer[0], answer[1], 0.0, {}
        if isinstance(answer, dict):
            return 200, answer, 0.0, {}
        return 200, completion(answer), 0.0, {}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep the console quiet
                return None

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                length = int(self.headers.get("Content-Length", 0))
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                with stand_in._lock:
                    stand_in.requests.append(body)
                    stand_in.headers.append(dict(self.headers))
                status, payload, delay, extra = stand_in._next(self.path, body)
                if delay:
                    time.sleep(delay)
                data = (payload.encode() if isinstance(payload, str)
                        else json.dumps(payload).encode())
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    if status >= 400:
                        self.send_header("retry-after-ms", RETRY_AFTER_MS)
                    for name, value in extra.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting (a timeout)

        return Handler

    def queue(self, status: int, body: Any, delay_s: float = 0.0,
              headers: dict[str, str] | None = None) -> None:
        """Answer the next request with this reply (before asking the behaviour)."""
        with self._lock:
            self.replies.append((status, body, delay_s, dict(headers or {})))

    def start(self) -> StandIn:
        self._thread.start()
        return self

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> StandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
