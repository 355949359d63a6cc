"""Redact secrets from a HAR file before it becomes evidence.

Playwright writes headers, cookies, query strings and bodies verbatim. This removes
authorisation headers, cookies, token-like query values and form/JSON fields, multipart bodies,
response bodies carrying tokens and WebSocket frames, and keeps everything else readable.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

REDACTED = "[REDACTED]"

_SECRET_HEADERS = {"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"}
_SECRET_NAME = re.compile(
    r"(token|secret|password|passwd|pwd|session|api[-_]?key|^key$|auth)", re.I
)
_TOKEN_IN_TEXT = re.compile(
    r"(?i)(\"(?:[a-z_]*(?:token|secret|password|session|api_?key)[a-z_]*)\"\s*:\s*)\"[^\"]*\""
)
_BEARER = re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]+")


def _secret_name(name: str) -> bool:
    return bool(_SECRET_NAME.search(name))


def _headers(headers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for h in headers:
        name = str(h.get("name", ""))
        if name.lower() in _SECRET_HEADERS or _secret_name(name):
            h = {**h, "value": REDACTED}
        elif "://" in str(h.get("value", "")) or name.lower() == "location":
            h = {**h, "value": _query_url(str(h.get("value", "")))}
        out.append(h)
    return out


def _query_url(url: str) -> str:
    parts = urlsplit(url)
    if not parts.query:
        return url
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    if not any(_secret_name(k) for k, _ in pairs):
        return url
    clean = [(k, REDACTED if _secret_name(k) else v) for k, v in pairs]
    return urlunsplit(parts._replace(query=urlencode(clean)))


def _redact_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: REDACTED
            if _secret_name(str(k)) and not isinstance(v, dict | list)
            else _redact_json(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_redact_json(v) for v in value]
    return value


def redact_text(text: str, mime: str = "") -> str:
    """Redact token-like fields from a body of text (JSON aware, regex fallback)."""
    if not text:
        return text
    stripped = text.lstrip()
    if "json" in mime or stripped[:1] in "{[":
        try:
            return json.dumps(_redact_json(json.loads(text)))
        except ValueError:
            pass
    text = _TOKEN_IN_TEXT.sub(lambda m: m.group(1) + f'"{REDACTED}"', text)
    return _BEARER.sub(f"Bearer {REDACTED}", text)


def _post_data(post: dict[str, Any]) -> dict[str, Any]:
    mime = str(post.get("mimeType", ""))
    post = dict(post)
    if "multipart" in mime:
        post["text"] = REDACTED
        post.pop("params", None)
        post["comment"] = "multipart body dropped"
        return post
    if "params" in post:
        post["params"] = [
            {**p, "value": REDACTED} if _secret_name(str(p.get("name", ""))) else p
            for p in post["params"]
        ]
    text = post.get("text")
    if isinstance(text, str):
        if "x-www-form-urlencoded" in mime:
            pairs = parse_qsl(text, keep_blank_values=True)
            post["text"] = urlencode([(k, REDACTED if _secret_name(k) else v) for k, v in pairs])
        else:
            post["text"] = redact_text(text, mime)
    return post


def _content(content: dict[str, Any]) -> dict[str, Any]:
    text = content.get("text")
    if not isinstance(text, str) or not text:
        return content
    content = dict(content)
    if content.get("encoding") == "base64":
        return content  # binary bodies (images, PDFs) carry no tokens the product issues
    content["text"] = redact_text(text, str(content.get("mimeType", "")))
    return content


def _entry(entry: dict[str, Any]) -> dict[str, Any]:
    """One redacted HAR entry (also the shape of a trace's resource snapshot)."""
    entry = dict(entry)
    req = dict(entry.get("request", {}))
    req["url"] = _query_url(str(req.get("url", "")))
    req["headers"] = _headers(req.get("headers", []))
    req["cookies"] = []
    req["queryString"] = [
        {**q, "value": REDACTED} if _secret_name(str(q.get("name", ""))) else q
        for q in req.get("queryString", [])
    ]
    if "postData" in req:
        req["postData"] = _post_data(req["postData"])
    res = dict(entry.get("response", {}))
    res["headers"] = _headers(res.get("headers", []))
    res["cookies"] = []
    if res.get("redirectURL"):
        res["redirectURL"] = _query_url(str(res["redirectURL"]))
    if "content" in res:
        res["content"] = _content(res["content"])
    entry["request"], entry["response"] = req, res
    entry.pop("_webSocketMessages", None)
    return entry


def secret_forms(secret: str) -> list[str]:
    """The ways a secret can be written into text: as is, JSON-escaped (ASCII or not),
    URL-encoded and as a Python string literal; longest first."""
    from urllib.parse import quote, quote_plus

    forms = {secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1],
             quote(secret, safe=""), quote_plus(secret), repr(secret)[1:-1]}
    return sorted((f for f in forms if f), key=len, reverse=True)


def redact_literals(text: str, secrets: list[str]) -> str:
    """``text`` with every form of every secret (``secret_forms``) replaced by REDACTED."""
    for secret in secrets:
        if secret:
            for form in secret_forms(secret):
                text = text.replace(form, REDACTED)
    return text


def _literal(raw: str, secrets: list[str]) -> str:
    return redact_literals(raw, secrets)


def _secrets(extra: list[str] | None) -> list[str]:
    return [s for s in (extra or []) if s and len(s) >= 4]


def redact_har(har: dict[str, Any], extra_secrets: list[str] | None = None) -> dict[str, Any]:
    """A redacted copy of a parsed HAR; ``extra_secrets`` are literal values to blank anywhere."""
    log = dict(har.get("log", {}))
    log["entries"] = [_entry(e) for e in log.get("entries", [])]
    if "pages" in log:
        log["pages"] = [{**p, "title": _query_url(str(p.get("title", "")))} for p in log["pages"]]
    out = {**har, "log": log}
    secrets = _secrets(extra_secrets)
    return json.loads(_literal(json.dumps(out), secrets)) if secrets else out


def redact_har_file(src: Path, dest: Path, extra_secrets: list[str] | None = None) -> None:
    """Read the raw HAR at ``src``, write the redacted HAR to ``dest`` atomically."""
    from ._files import write_json_atomic

    har = json.loads(src.read_text(encoding="utf-8"))
    write_json_atomic(dest, redact_har(har, extra_secrets))


_QUERY_SECRET = re.compile(
    r"([?&][^=&\s\"']*(?:token|secret|password|session|api[-_]?key|key)[^=&\s\"']*=)"
    r"[^&\s\"'#]*", re.I,
)
_BINARY = (".jpeg", ".jpg", ".png", ".webp", ".gif", ".pdf", ".zip", ".woff", ".woff2")


def redact_trace_file(src: Path, dest: Path, extra_secrets: list[str] | None = None) -> None:
    """Copy a Playwright trace zip with secrets removed: network snapshots are redacted like
    HAR entries; every text part loses token-like query values and the literal secrets."""
    import zipfile

    from ._files import write_bytes_atomic

    secrets = _secrets(extra_secrets)
    buf = io.BytesIO()
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if not info.filename.lower().endswith(_BINARY):
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:
                    zout.writestr(info, data)
                    continue
                if info.filename.endswith(".network"):
                    text = "\n".join(_network_line(line) for line in text.split("\n"))
                text = _QUERY_SECRET.sub(lambda m: m.group(1) + REDACTED, text)
                text = _BEARER.sub(f"Bearer {REDACTED}", _literal(text, secrets))
                data = text.encode("utf-8")
            zout.writestr(info, data)
    write_bytes_atomic(dest, buf.getvalue())


def _network_line(line: str) -> str:
    if not line.strip():
        return line
    try:
        item = json.loads(line)
    except ValueError:
        return line
    if isinstance(item, dict) and isinstance(item.get("snapshot"), dict):
        item["snapshot"] = _entry(item["snapshot"])
    return json.dumps(item)
