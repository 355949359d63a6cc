"""Non-ASCII secrets leave a HAR and a trace in every spelling they can take there."""

from __future__ import annotations

import base64
import html
import json
import re
import urllib.parse
import zipfile

import pytest

from harness._redact import REDACTED, SecretMatcher, redact_har_file, redact_trace_file

from .har_check import check_har

CANARIES = ["pässwörd-Ä-秘密-🔑", "Ωmega kéy/ÿ+&\"x", "ÀÁÂÃÄÅÆÇ-ascii-tail"]


def spellings(secret: str) -> dict[str, str]:
    """Every way the secret is written into a HAR or a trace that the redaction must find."""
    ascii_json = json.dumps(secret)[1:-1]
    return {
        "raw": secret,
        "json-escaped": ascii_json,
        "json-escaped upper hex": re.sub(r"\\u([0-9a-f]{4})",
                                         lambda m: "\\u" + m.group(1).upper(), ascii_json),
        "json without ascii escapes": json.dumps(secret, ensure_ascii=False)[1:-1],
        "percent-encoded": urllib.parse.quote(secret, safe=""),
        "percent-encoded lower hex": urllib.parse.quote(secret, safe="").lower(),
        "form-encoded": urllib.parse.quote_plus(secret, safe=""),
        "html references": "".join(c if c.isascii() and c.isalnum() else f"&#{ord(c)};"
                                   for c in secret),
        "html hex references": "".join(c if c.isascii() and c.isalnum() else f"&#x{ord(c):x};"
                                       for c in secret),
        "html escaped": html.escape(secret),
    }


def _forms(secret: str) -> list[str]:
    out = list(spellings(secret).values())
    for prefix in ("", "x", "xy"):  # the secret at every alignment inside base64
        enc = base64.b64encode((prefix + secret).encode()).decode()
        start = -(-8 * len(prefix) // 6)
        out.append(enc[start:start + 8])
    return out


@pytest.mark.parametrize("secret", CANARIES)
def test_matcher_finds_every_spelling(secret):
    m = SecretMatcher([secret])
    for name, form in spellings(secret).items():
        assert m.text(f"<{form}>") == f"<{REDACTED}>", name
        assert m.data(b"\x00" + form.encode() + b"\xff") == (
            b"\x00" + REDACTED.encode() + b"\xff"), name
    for prefix in ("", "a", "ab"):
        blob = base64.b64encode((prefix + secret + "tail").encode()).decode()
        assert REDACTED in m.text(blob), prefix


def test_matcher_leaves_other_text_alone():
    m = SecretMatcher(CANARIES)
    text = "pässwörd alone, 秘密 alone, %C3%A4 alone, &#228; alone"
    assert m.text(text) == text


def _entry(url: str, post: dict | None = None, content: dict | None = None,
           headers: list | None = None) -> dict:
    req = {"method": "POST" if post else "GET", "url": url, "httpVersion": "HTTP/1.1",
           "cookies": [], "headers": headers or [], "queryString": [], "headersSize": -1,
           "bodySize": 0}
    if post:
        req["postData"] = post
    return {"startedDateTime": "2026-03-12T17:40:00.000Z", "time": 1.0, "request": req,
            "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                         "cookies": [], "headers": [], "redirectURL": "", "headersSize": -1,
                         "bodySize": 0, "content": content or {"size": 0,
                                                               "mimeType": "text/plain"}},
            "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}


def _har(secret: str) -> dict:
    sp = spellings(secret)
    b64 = base64.b64encode(json.dumps({"note": secret}).encode()).decode()
    entries = [
        _entry(f"http://127.0.0.1:8000/api?q={sp['percent-encoded']}&page=2"),
        _entry("http://127.0.0.1:8000/signin",
               post={"mimeType": "application/x-www-form-urlencoded",
                     "text": f"user=a&comment={sp['form-encoded']}",
                     "params": [{"name": "comment", "value": secret}]}),
        _entry("http://127.0.0.1:8000/api/msg",
               post={"mimeType": "application/json", "text": json.dumps({"text": secret})},
               content={"size": 1, "mimeType": "application/json",
                        "text": '{"echo": "' + sp["json-escaped"] + '"}'}),
        _entry("http://127.0.0.1:8000/page",
               content={"size": 1, "mimeType": "text/html",
                        "text": f"<p>{sp['html references']}</p><i>{sp['raw']}</i>"}),
        _entry("http://127.0.0.1:8000/blob",
               content={"size": 1, "mimeType": "application/octet-stream", "text": b64,
                        "encoding": "base64"},
               headers=[{"name": "X-Note", "value": secret}]),
    ]
    return {"log": {"version": "1.2", "creator": {"name": "Playwright", "version": "1.65"},
                    "entries": entries}}


@pytest.mark.parametrize("secret", CANARIES)
def test_a_har_loses_a_non_ascii_secret_in_every_spelling(tmp_path, secret):
    raw = tmp_path / "raw.har"
    raw.write_text(json.dumps(_har(secret), ensure_ascii=False), encoding="utf-8")
    planted = json.loads(raw.read_text(encoding="utf-8"))["log"]["entries"]
    assert secret in planted[3]["response"]["content"]["text"]
    out = tmp_path / "network.har"
    redact_har_file(raw, out, extra_secrets=[secret])
    text = out.read_text(encoding="utf-8")
    for form in _forms(secret):
        assert form not in text, form
    har = check_har(out)
    entries = har["log"]["entries"]
    assert "page=2" in entries[0]["request"]["url"]
    body = base64.b64decode(entries[4]["response"]["content"]["text"])
    assert secret.encode() not in body and REDACTED.encode() in body


def _trace(path, secret: str) -> None:
    sp = spellings(secret)
    network = json.dumps({"type": "resource-snapshot", "snapshot": _entry(
        f"http://127.0.0.1:8000/x?q={sp['percent-encoded']}")})
    events = "\n".join([
        json.dumps({"type": "action", "params": {"value": secret}}, ensure_ascii=False),
        json.dumps({"type": "action", "params": {"value": secret}}),
        json.dumps({"type": "frame-snapshot", "html": f"<input value=\"{sp['html escaped']}\">"}),
    ])
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("trace.trace", events)
        z.writestr("trace.network", network)
        z.writestr("resources/0a1b2c", b"\x89PNG\r\n\x1a\n\x00\xff" + secret.encode() + b"\xfe")
        z.writestr("resources/3d4e5f.html", f"<b>{sp['html hex references']}</b>")
        z.writestr("resources/6a7b8c.json",
                   json.dumps({"token_hint": base64.b64encode(secret.encode()).decode()}))


@pytest.mark.parametrize("secret", CANARIES)
def test_a_trace_loses_a_non_ascii_secret_in_every_spelling(tmp_path, secret):
    raw = tmp_path / "raw.zip"
    _trace(raw, secret)
    out = tmp_path / "trace.zip"
    redact_trace_file(raw, out, extra_secrets=[secret])
    with zipfile.ZipFile(out) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    assert set(parts) == {"trace.trace", "trace.network", "resources/0a1b2c",
                          "resources/3d4e5f.html", "resources/6a7b8c.json"}
    everything = b"\n".join(parts.values())
    for form in _forms(secret):
        assert form.encode("utf-8") not in everything, form
    assert parts["resources/0a1b2c"].startswith(b"\x89PNG")
    for line in parts["trace.trace"].decode().splitlines():
        json.loads(line)  # still valid JSON lines


@pytest.mark.browser
def test_a_real_trace_and_har_lose_a_typed_non_ascii_password(tmp_path):
    import asyncio

    from playwright.async_api import async_playwright

    from harness.browser import launch_browser

    secret = "Pässwört-秘密-🔑"
    raw_trace, raw_har = tmp_path / "raw.zip", tmp_path / "raw.har"

    async def record():
        async with async_playwright() as pw:
            browser = await launch_browser(pw)
            context = await browser.new_context(record_har_path=str(raw_har),
                                                record_har_content="embed")
            await context.tracing.start(screenshots=False, snapshots=True)
            page = await context.new_page()
            await page.route("**/*", lambda route: route.fulfill(
                body="<form method=post action=/login><input id=pw name=pw>"
                     "<button>go</button></form>", content_type="text/html"))
            await page.goto("http://127.0.0.1:9/start")
            await page.fill("#pw", secret)
            await page.click("button")
            await page.goto("http://127.0.0.1:9/q?note=" + urllib.parse.quote(secret))
            await context.tracing.stop(path=str(raw_trace))
            await context.close()
            await browser.close()

    asyncio.run(record())
    with zipfile.ZipFile(raw_trace) as z:
        planted = b"".join(z.read(n) for n in z.namelist())
    assert secret.encode() in planted  # the trace holds the raw UTF-8
    out_trace, out_har = tmp_path / "trace.zip", tmp_path / "network.har"
    redact_trace_file(raw_trace, out_trace, extra_secrets=[secret])
    redact_har_file(raw_har, out_har, extra_secrets=[secret])
    with zipfile.ZipFile(out_trace) as z:
        cleaned = b"".join(z.read(n) for n in z.namelist())
    har_text = out_har.read_bytes()
    for form in _forms(secret):
        assert form.encode() not in cleaned, form
        assert form.encode() not in har_text, form
