"""A stand-in product for dev-environment tests: writes the environment it was started with
to a file (``env_product.py PORT FILE``), then answers every GET with 200."""

from __future__ import annotations

import http.server
import json
import os
import sys


class _Ok(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def main(argv: list[str]) -> None:
    port, out = int(argv[0]), argv[1]
    with open(out, "w", encoding="utf-8") as f:
        json.dump(dict(os.environ), f)
    http.server.HTTPServer(("127.0.0.1", port), _Ok).serve_forever()


if __name__ == "__main__":
    main(sys.argv[1:])
