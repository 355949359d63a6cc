"""HAR redaction: planted canaries never survive; the HAR stays valid HAR 1.2."""

from __future__ import annotations

import json

import pytest

from harness._redact import REDACTED, redact_har, redact_har_file

from .har_check import check_har

CANARIES = {
    "auth": "CANARY-AUTH-1a2b3c",
    "cookie": "CANARY-COOKIE-4d5e6f",
    "setcookie": "CANARY-SETCOOKIE-7a8b9c",
    "apikey": "CANARY-APIKEY-0d1e2f",
    "csrf": "CANARY-CSRF-3a4b5c",
    "query": "CANARY-QUERY-6d7e8f",
    "password": "CANARY-PASSWORD-9a0b1c",
    "form": "CANARY-FORM-2d3e4f",
    "multipart": "CANARY-MULTIPART-5a6b7c",
    "body": "CANARY-BODY-8d9e0f",
    "ws": "CANARY-WS-1f2e3d",
    "extra": "CANARY-EXTRA-4c5b6a",
}


def _entry(**over):
    entry = {
        "startedDateTime": "2026-03-12T17:40:00.000Z", "time": 12.5,
        "request": {"method": "GET", "url": "http://127.0.0.1:8000/", "httpVersion": "HTTP/1.1",
                    "cookies": [], "headers": [], "queryString": [], "headersSize": -1,
                    "bodySize": 0},
        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                     "cookies": [], "headers": [], "redirectURL": "", "headersSize": -1,
                     "bodySize": 10, "content": {"size": 10, "mimeType": "text/html",
                                                 "text": "<p>Hello</p>"}},
        "cache": {}, "timings": {"send": 0, "wait": 10, "receive": 2.5},
    }
    for key, value in over.items():
        entry[key].update(value)
    return entry


def _planted_har():
    c = CANARIES
    entries = [
        _entry(request={
            "url": f"http://127.0.0.1:8000/api?session_token={c['query']}&page=2",
            "queryString": [{"name": "session_token", "value": c["query"]},
                            {"name": "page", "value": "2"}],
            "headers": [{"name": "Authorization", "value": f"Bearer {c['auth']}"},
                        {"name": "Cookie", "value": f"sid={c['cookie']}"},
                        {"name": "X-Api-Key", "value": c["apikey"]},
                        {"name": "X-CSRF-Token", "value": c["csrf"]},
                        {"name": "Accept", "value": "text/html"},
                        {"name": "Referer",
                         "value": f"http://127.0.0.1:8000/?access_token={c['query']}"}],
            "cookies": [{"name": "sid", "value": c["cookie"]}],
        }, response={
            "headers": [{"name": "Set-Cookie", "value": f"sid={c['setcookie']}; HttpOnly"},
                        {"name": "Location", "value": f"/next?token={c['query']}"}],
            "redirectURL": f"http://127.0.0.1:8000/next?token={c['query']}",
            "cookies": [{"name": "sid", "value": c["setcookie"]}],
        }),
        _entry(request={"method": "POST", "url": "http://127.0.0.1:8000/api/signin",
                        "postData": {"mimeType": "application/json",
                                     "text": json.dumps({"email": "a@b.c",
                                                         "password": c["password"]})}},
               response={"content": {"size": 60, "mimeType": "application/json",
                                     "text": json.dumps({"access_token": c["body"],
                                                         "ok": True})}}),
        _entry(request={"method": "POST", "url": "http://127.0.0.1:8000/staff/login",
                        "postData": {"mimeType": "application/x-www-form-urlencoded",
                                     "text": f"username=s&password={c['form']}",
                                     "params": [{"name": "username", "value": "s"},
                                                {"name": "password", "value": c["form"]}]}}),
        _entry(request={"method": "POST", "url": "http://127.0.0.1:8000/api/upload",
                        "postData": {"mimeType": "multipart/form-data; boundary=x",
                                     "text": f"--x\r\n{c['multipart']}\r\n--x--"}},
               response={"content": {"size": 40, "mimeType": "text/plain",
                                     "text": f"echo {c['extra']}"}}),
        _entry(),
    ]
    entries[-1]["_webSocketMessages"] = [{"type": "send", "time": 1.0, "opcode": 1,
                                          "data": c["ws"]}]
    return {"log": {"version": "1.2", "creator": {"name": "Playwright", "version": "1.65"},
                    "pages": [{"startedDateTime": "2026-03-12T17:40:00.000Z", "id": "page@1",
                               "title": f"http://127.0.0.1:8000/?token={c['query']}",
                               "pageTimings": {}}],
                    "entries": entries}}


def test_planted_canaries_are_all_gone(tmp_path):
    raw = tmp_path / "raw.har"
    raw.write_text(json.dumps(_planted_har()), encoding="utf-8")
    out = tmp_path / "network.har"
    redact_har_file(raw, out, extra_secrets=[CANARIES["extra"]])
    text = out.read_text(encoding="utf-8")
    for name, canary in CANARIES.items():
        assert canary not in text, name
    har = check_har(out)
    entries = har["log"]["entries"]
    assert len(entries) == 5
    assert "page=2" in entries[0]["request"]["url"]
    assert {"name": "Accept", "value": "text/html"} in entries[0]["request"]["headers"]
    assert json.loads(entries[1]["response"]["content"]["text"])["ok"] is True
    assert json.loads(entries[1]["request"]["postData"]["text"])["email"] == "a@b.c"
    assert "username=s" in entries[2]["request"]["postData"]["text"]
    assert "_webSocketMessages" not in entries[4]
    assert REDACTED in text


def test_ordinary_content_is_untouched():
    har = {"log": {"version": "1.2", "creator": {"name": "x", "version": "1"},
                   "entries": [_entry()]}}
    assert redact_har(har) == har


def test_redaction_does_not_mutate_input():
    har = _planted_har()
    before = json.dumps(har)
    redact_har(har)
    assert json.dumps(har) == before


@pytest.mark.browser
def test_a_real_trace_loses_its_secrets(tmp_path):
    import asyncio
    import zipfile

    from playwright.async_api import async_playwright

    from harness._redact import redact_trace_file
    from harness.browser import launch_browser

    secrets = {"header": "CANARY-TRACE-HDR-1", "typed": "CANARY-TRACE-PW-2",
               "query": "CANARY-TRACE-Q-3"}
    raw = tmp_path / "raw.zip"

    async def record():
        async with async_playwright() as pw:
            browser = await launch_browser(pw)
            context = await browser.new_context(extra_http_headers={"X-Api-Key":
                                                                    secrets["header"]})
            await context.tracing.start(screenshots=False, snapshots=True)
            page = await context.new_page()
            await page.route("**/*", lambda route: route.fulfill(
                body="<input id=pw type=password>", content_type="text/html"))
            await page.goto(f"http://127.0.0.1:9/start?session_token={secrets['query']}")
            await page.fill("#pw", secrets["typed"])
            await context.tracing.stop(path=str(raw))
            await context.close()
            await browser.close()

    asyncio.run(record())
    raw_bytes = b"".join(zipfile.ZipFile(raw).read(n) for n in zipfile.ZipFile(raw).namelist())
    assert all(s.encode() in raw_bytes for s in secrets.values())  # the canaries were planted
    out = tmp_path / "trace.zip"
    redact_trace_file(raw, out, extra_secrets=[secrets["typed"]])
    with zipfile.ZipFile(out) as z:
        names = z.namelist()
        data = b"".join(z.read(n) for n in names)
    assert "trace.trace" in names and "trace.network" in names
    for name, canary in secrets.items():
        assert canary.encode() not in data, name
