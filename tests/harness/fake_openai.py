"""A tiny OpenAI-compatible chat-completions server on 127.0.0.1 for tests."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def completion(content: str, prompt_tokens: int = 100, completion_tokens: int = 20) -> dict:
    return {
        "id": "chatcmpl-test", "object": "chat.completion", "model": "fake",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


class FakeOpenAI:
    """Answers POST /v1/chat/completions from a queue of (status, body, delay_s) replies.

    When the queue is empty it answers with ``default`` (a function of the request body).
    Every request body and its headers are kept in ``requests``.
    """

    def __init__(self, default=None) -> None:
        self.replies: list[tuple[int, object, float]] = []
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.default = default
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output quiet
                return None

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                fake.requests.append(body)
                fake.headers.append(dict(self.headers))
                if self.path != "/v1/chat/completions":
                    status, payload, delay = 404, {"error": "not found"}, 0.0
                elif fake.replies:
                    status, payload, delay = fake.replies.pop(0)
                elif fake.default is not None:
                    status, payload, delay = 200, fake.default(body), 0.0
                else:
                    status, payload, delay = 500, {"error": "no reply queued"}, 0.0
                if delay:
                    time.sleep(delay)
                data = payload.encode() if isinstance(payload, str) else json.dumps(
                    payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def queue(self, status: int, body: object, delay_s: float = 0.0) -> None:
        self.replies.append((status, body, delay_s))
