"""A chat product that holds ONE conversation for its whole process, as many prototypes do.

The conversation is a list in the process; every browser that opens the page sees it and
adds to it. Nothing else is stored and there is no runtime report. Ways to start a new
conversation: ``GET /new`` (then back to the start page), the "New claim" button (``POST
/api/new``), or restarting the process. After the second customer message of a
conversation the reply carries a claim number (``CLM-26-`` and six characters, a new one per
claim).

Standard library only, so that it starts quickly as a process of its own:

    python one_conversation.py serve --port N [--pidfile F]
    python one_conversation.py restart --port N --pidfile F   # stop F's process, start anew
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

PAGE = """<!doctype html><html><head><title>One chat</title></head><body><main>
<button type="button" class="new-claim">New claim</button>
<ol class="thread" data-state="busy"></ol>
<form class="composer"><textarea aria-label="Your message"></textarea>
<button type="button" class="send">Send</button></form>
</main><script>
const thread = document.querySelector(".thread");
const box = document.querySelector("textarea");
const render = (messages) => {
  thread.replaceChildren(...messages.map(([who, text]) => {
    const li = document.createElement("li"); li.className = "bubble " + who;
    li.textContent = text; return li; }));
  thread.setAttribute("data-state", "idle");
};
const call = async (method, path, body) => {
  thread.setAttribute("data-state", "busy");
  const resp = await fetch(path, {method, headers: {"Content-Type": "application/json"},
                                  body: body ? JSON.stringify(body) : undefined});
  render(await resp.json());
};
document.querySelector(".send").onclick = () => {
  const text = box.value; box.value = ""; if (text) call("POST", "/api/say", {text});
};
document.querySelector(".new-claim").onclick = () => call("POST", "/api/new");
call("GET", "/api/conversation");
</script></body></html>"""

CLAIM_AFTER = 2  # customer messages in one conversation


class Conversation:
    """The one conversation of this process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.messages: list[tuple[str, str]] = []
        self.claims = 0

    def say(self, text: str) -> list[tuple[str, str]]:
        time.sleep(0.1)  # the agent thinks
        with self.lock:
            self.messages.append(("me", text))
            if sum(1 for who, _ in self.messages if who == "me") >= CLAIM_AFTER:
                self.claims += 1
                number = f"CLM-26-{os.getpid() % 1000:03d}{self.claims:03d}"
                self.messages.append(("bot", f"Done. Your claim number is {number}."))
            else:
                self.messages.append(("bot", f"Reply to: {text}?"))
            return list(self.messages)

    def clear(self) -> list[tuple[str, str]]:
        with self.lock:
            self.messages.clear()
            return []


def make_server(port: int = 0) -> ThreadingHTTPServer:
    """The product on loopback (``port`` 0: a free one)."""
    conversation = Conversation()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            return None

        def _send(self, status: int, ctype: str, body: bytes, **headers: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def _json(self, value: object) -> None:
            self._send(200, "application/json", json.dumps(value).encode())

        def do_GET(self) -> None:
            if self.path in ("/", "/health"):
                self._send(200, "text/html", PAGE.encode() if self.path == "/" else b"ok")
            elif self.path == "/new":
                conversation.clear()
                self._send(303, "text/plain", b"", Location="/")
            elif self.path == "/api/conversation":
                with conversation.lock:
                    self._json(list(conversation.messages))
            else:
                self._send(404, "text/plain", b"not here")

        def do_POST(self) -> None:
            size = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(size) or b"{}")
            if self.path == "/api/say":
                self._json(conversation.say(str(body.get("text", ""))))
            elif self.path == "/api/new":
                self._json(conversation.clear())
            else:
                self._send(404, "text/plain", b"not here")

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


class ProductThread:
    """The product served from a thread of the test process."""

    def __init__(self) -> None:
        self.httpd = make_server()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def start_process(port: int, pidfile: Path) -> None:
    """Start the product as a process of its own session (it outlives whoever started it)."""
    subprocess.Popen([sys.executable, __file__, "serve", "--port", str(port), "--pidfile",
                      str(pidfile)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)


def stop_process(pidfile: Path, port: int, timeout: float = 10.0) -> None:
    """Stop the process named in ``pidfile`` and wait until its port is closed."""
    if not pidfile.exists():
        return
    pid = int(pidfile.read_text())
    pidfile.unlink()
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout
    while _listening(port) and time.monotonic() < deadline:
        time.sleep(0.02)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("serve", "restart"))
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pidfile", type=Path)
    args = parser.parse_args(argv)
    if args.mode == "restart":
        stop_process(args.pidfile, args.port)
        start_process(args.port, args.pidfile)
        return 0
    httpd = make_server(args.port)
    if args.pidfile:
        args.pidfile.write_text(str(os.getpid()))
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=httpd.shutdown).start())
    httpd.serve_forever(poll_interval=0.05)
    httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
