"""Independent HAR 1.2 checks: a third-party parser (haralyzer) plus a structure check written
from the HAR 1.2 spec, neither sharing code with the redactor."""

from __future__ import annotations

import json
from pathlib import Path

from haralyzer import HarEntry, HarParser


def check_har(path: Path) -> dict:
    """Parse ``path`` as HAR 1.2; raise AssertionError naming the first missing piece."""
    har = json.loads(path.read_text(encoding="utf-8"))
    log = har["log"]
    assert isinstance(log["version"], str) and log["version"]
    assert isinstance(log["creator"]["name"], str) and "version" in log["creator"]
    assert isinstance(log["entries"], list)
    for i, e in enumerate(log["entries"]):
        for key in ("startedDateTime", "time", "request", "response", "cache", "timings"):
            assert key in e, f"entries[{i}] lacks {key}"
        req, res = e["request"], e["response"]
        for key in ("method", "url", "httpVersion", "cookies", "headers", "queryString",
                    "headersSize", "bodySize"):
            assert key in req, f"entries[{i}].request lacks {key}"
        for key in ("status", "statusText", "httpVersion", "cookies", "headers", "content",
                    "redirectURL", "headersSize", "bodySize"):
            assert key in res, f"entries[{i}].response lacks {key}"
        assert "size" in res["content"] and "mimeType" in res["content"]
        for h in req["headers"] + res["headers"]:
            assert set(h) >= {"name", "value"}
        for key in ("send", "wait", "receive"):
            assert key in e["timings"], f"entries[{i}].timings lacks {key}"
    parser = HarParser(har)
    assert parser.version == "1.2", parser.version
    for e in log["entries"]:
        entry = HarEntry(e)
        assert entry.request.method and entry.request.url
        assert isinstance(entry.response.status, int)
    return har
