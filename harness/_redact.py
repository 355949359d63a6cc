"""Redact secrets from a HAR file or a trace zip before it becomes evidence.

Playwright writes headers, cookies, query strings and bodies verbatim. This removes
authorisation headers, cookies, token-like query values and form/JSON fields, multipart bodies,
response bodies carrying tokens and WebSocket frames, and keeps everything else readable.

The secrets the harness knows (passwords, extra header values) are also blanked wherever they
appear, in every spelling a HAR or a trace gives them (see ``SecretMatcher``).
"""

from __future__ import annotations

import base64
import binascii
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


def _hex(number: int, width: int = 1) -> str:
    """A regex for ``number`` in hex digits (at least ``width``), in either letter case."""
    return "".join(f"[{d.lower()}{d.upper()}]" if d.isalpha() else d
                   for d in f"{number:0{width}x}")


def _json_unit(unit: int) -> str:
    return r"\\u" + _hex(unit, 4)


_JSON_SHORT = {'"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f",
               "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_HTML_NAMED = {"&": ("&amp;",), "<": ("&lt;",), ">": ("&gt;",), '"': ("&quot;",),
               "'": ("&#39;", "&apos;")}


def _char_pattern(c: str) -> str:
    """A regex for one character of a secret in any of its spellings: as itself, JSON-escaped
    (``\\u00e4``, ``\\"``), percent-encoded (UTF-8 bytes, ``+`` for a space) or as an HTML
    character reference (``&#228;``, ``&#xe4;``, ``&amp;``)."""
    if c.isascii() and c.isalnum():
        return re.escape(c)
    alts = [re.escape(c)]
    alts.append("".join("%" + _hex(b, 2) for b in c.encode("utf-8")))
    code = ord(c)
    if code > 0xFFFF:
        pair = code - 0x10000
        alts.append(_json_unit(0xD800 + (pair >> 10)) + _json_unit(0xDC00 + (pair & 0x3FF)))
    else:
        alts.append(_json_unit(code))
    if c in _JSON_SHORT:
        alts.append(re.escape(_JSON_SHORT[c]))
    if c == " ":
        alts.append(r"\+")
    alts.append(f"&#0*{code};")
    alts.append(f"&#[xX]0*{_hex(code)};")
    alts += [re.escape(e) for e in _HTML_NAMED.get(c, ())]
    return "(?:" + "|".join(alts) + ")"


def _base64_fragments(secret: str) -> list[str]:
    """The base64 characters that depend only on ``secret``, at each of the three alignments
    it can have inside a longer encoded value, in the standard and the URL-safe alphabet."""
    data = secret.encode("utf-8")
    out: list[str] = []
    for offset in range(3):
        enc = base64.b64encode(b"\0" * offset + data).decode("ascii")
        start = -(-8 * offset // 6)
        end = 8 * (offset + len(data)) // 6
        frag = enc[start:end]
        if len(frag) >= 6:
            out += [frag, frag.replace("+", "-").replace("/", "_")]
    return out


class SecretMatcher:
    """Finds literal secrets in text or bytes in every spelling a HAR or a trace holds:

    raw (UTF-8), JSON-escaped (``\\uXXXX`` in either case, surrogate pairs, short escapes),
    percent-encoded (either case, ``+`` for a space), HTML character references, and base64
    (three alignments, both alphabets); spellings may mix within one secret.
    """

    def __init__(self, secrets: list[str]) -> None:
        alternatives: list[str] = []
        for secret in sorted(set(secrets), key=len, reverse=True):
            alternatives.append("".join(_char_pattern(c) for c in secret))
            alternatives += [re.escape(f) for f in _base64_fragments(secret)]
        source = "|".join(alternatives)
        self._text = re.compile(source) if source else None
        # The pattern's only non-ASCII parts are the characters themselves, so the same
        # pattern encoded as UTF-8 matches their UTF-8 bytes in binary data.
        self._bytes = re.compile(source.encode("utf-8")) if source else None

    def __bool__(self) -> bool:
        return self._text is not None

    def text(self, value: str) -> str:
        return self._text.sub(REDACTED, value) if self._text else value

    def data(self, value: bytes) -> bytes:
        return self._bytes.sub(REDACTED.encode(), value) if self._bytes else value

    def walk(self, value: Any) -> Any:
        """A copy of a JSON value with every string (keys included) redacted; base64 bodies
        (``{"encoding": "base64", "text": ...}``) are redacted in their decoded bytes too."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.walk(v) for v in value]
        if not isinstance(value, dict):
            return value
        out = {self.text(str(k)): self.walk(v) for k, v in value.items()}
        if value.get("encoding") == "base64" and isinstance(value.get("text"), str):
            try:
                raw = base64.b64decode(value["text"], validate=True)
            except (binascii.Error, ValueError):
                return out
            clean = self.data(raw)
            if clean != raw:
                out["text"] = base64.b64encode(clean).decode("ascii")
        return out


# An API key shorter than this is a placeholder that local servers accept and ignore (``x``,
# ``EMPTY``, ``ollama``, ``no-key``), not a secret: replaced wherever it occurs it would turn
# every "x" of a recorded prompt into "[REDACTED]", and the run could no longer be replayed.
MIN_KEY_CHARS = 8


def redact_literals(text: str, secrets: list[str]) -> str:
    """``text`` with every secret of at least ``MIN_KEY_CHARS`` characters, in every spelling
    ``SecretMatcher`` knows, replaced by REDACTED (for records other than HAR and trace:
    model calls, error messages). Shorter values are left as they are (see MIN_KEY_CHARS)."""
    return SecretMatcher([s for s in secrets if s and len(s) >= MIN_KEY_CHARS]).text(text)


def _secrets(extra: list[str] | None) -> list[str]:
    return [s for s in (extra or []) if s and len(s) >= 4]


def redact_har(har: dict[str, Any], extra_secrets: list[str] | None = None) -> dict[str, Any]:
    """A redacted copy of a parsed HAR; ``extra_secrets`` are literal values to blank anywhere."""
    log = dict(har.get("log", {}))
    log["entries"] = [_entry(e) for e in log.get("entries", [])]
    if "pages" in log:
        log["pages"] = [{**p, "title": _query_url(str(p.get("title", "")))} for p in log["pages"]]
    out = {**har, "log": log}
    matcher = SecretMatcher(_secrets(extra_secrets))
    return matcher.walk(out) if matcher else out


def redact_har_file(src: Path, dest: Path, extra_secrets: list[str] | None = None) -> None:
    """Read the raw HAR at ``src``, write the redacted HAR to ``dest`` atomically."""
    from claims_records import write_json_atomic

    har = json.loads(src.read_text(encoding="utf-8"))
    write_json_atomic(dest, redact_har(har, extra_secrets))


_QUERY_SECRET = re.compile(
    r"([?&][^=&\s\"']*(?:token|secret|password|session|api[-_]?key|key)[^=&\s\"']*=)"
    r"[^&\s\"'#]*", re.I,
)
_BINARY = (".jpeg", ".jpg", ".png", ".webp", ".gif", ".pdf", ".zip", ".woff", ".woff2")


def redact_trace_file(src: Path, dest: Path, extra_secrets: list[str] | None = None) -> None:
    """Copy a Playwright trace zip with secrets removed: network snapshots are redacted like
    HAR entries; every text part loses token-like query values and the literal secrets.
    Parts with nothing to remove are copied as they are, still compressed."""
    from claims_records import write_bytes_atomic

    from ._zip_rewrite import rewrite_zip

    matcher = SecretMatcher(_secrets(extra_secrets))

    def change(info: Any, data: bytes) -> bytes:
        text: str | None = None
        if not info.filename.lower().endswith(_BINARY):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                text = None
        if text is None:  # images, fonts, compressed bodies: the secret's bytes only
            return matcher.data(data)
        clean = text
        if info.filename.endswith(".network"):
            clean = "\n".join(_network_line(line) for line in clean.split("\n"))
        clean = _QUERY_SECRET.sub(lambda m: m.group(1) + REDACTED, clean)
        clean = _BEARER.sub(f"Bearer {REDACTED}", matcher.text(clean))
        return data if clean == text else clean.encode("utf-8")

    write_bytes_atomic(dest, rewrite_zip(src, change))


def _network_line(line: str) -> str:
    if not line.strip():
        return line
    try:
        item = json.loads(line)
    except ValueError:
        return line
    if isinstance(item, dict) and isinstance(item.get("snapshot"), dict):
        clean = _entry(item["snapshot"])
        if clean == item["snapshot"]:
            return line  # nothing to remove: the line as it was
        item["snapshot"] = clean
    return json.dumps(item)
