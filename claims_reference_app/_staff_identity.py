"""Staff sign-in sessions, kept the way an identity service keeps them: outside the claims data.

A staff session is a signed token in the ``nwf_staff`` cookie: the staff account's id, when it
was issued and a random id, signed (HMAC-SHA256) with a key the app draws when it starts. The
signature also covers a fingerprint of the account's password hash, so a token is valid only
while the account it names exists with the same password. Nothing of it is stored in the
claims database: a data reset (the harness's seed route restoring the baseline) leaves a
session signed in as long as the baseline restores the same account, the way a product whose
staff sign in through a separate identity service behaves. A session ends when its holder
signs out (the token's id is remembered as ended until the token would have expired), when
it expires (``TOKEN_LIFETIME_S``), when the account is removed or its password changes, and
when the app restarts (a new key).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import threading
import time
from typing import Any

TOKEN_LIFETIME_S = 12 * 3600  # a working day and then some
_VERSION = "s1"


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _fingerprint(staff: dict[str, Any]) -> bytes:
    return hashlib.sha256(str(staff.get("password_hash") or "").encode("utf-8")).digest()


class StaffIdentity:
    """Issues and checks staff session tokens for one running app."""

    def __init__(self, key: bytes | None = None, lifetime_s: float = TOKEN_LIFETIME_S) -> None:
        self._key = key or secrets.token_bytes(32)
        self.lifetime_s = lifetime_s
        self._ended: dict[str, float] = {}  # token id -> when the token would have expired
        self._lock = threading.Lock()

    def _sign(self, payload: str, staff: dict[str, Any]) -> str:
        mac = hmac.new(self._key, payload.encode("ascii") + b"|" + _fingerprint(staff),
                       hashlib.sha256)
        return _b64(mac.digest())

    def issue(self, staff: dict[str, Any]) -> str:
        """A new session token for ``staff`` (a document of the ``staff`` collection)."""
        claims = {"sub": str(staff["_id"]), "iat": int(time.time()),
                  "jti": secrets.token_urlsafe(12)}
        payload = _VERSION + "." + _b64(json.dumps(claims, separators=(",", ":")).encode())
        return payload + "." + self._sign(payload, staff)

    def _claims(self, token: str) -> dict[str, Any] | None:
        """The token's claims if it is well formed, unexpired and not ended (not yet checked
        against the account)."""
        parts = token.split(".")
        if len(parts) != 3 or parts[0] != _VERSION:
            return None
        try:
            claims = json.loads(_unb64(parts[1]))
        except (ValueError, UnicodeDecodeError):
            return None
        if not isinstance(claims, dict) or not all(k in claims for k in ("sub", "iat", "jti")):
            return None
        if not isinstance(claims["iat"], int) or time.time() > claims["iat"] + self.lifetime_s:
            return None
        with self._lock:
            if claims["jti"] in self._ended:
                return None
        return claims

    def staff_for(self, db: Any, token: str | None) -> dict[str, Any] | None:
        """The staff account ``token`` signs in, or None (no token, forged, expired, ended,
        or the account is gone or has another password now)."""
        claims = self._claims(token or "")
        if claims is None:
            return None
        staff = db.staff.find_one({"_id": claims["sub"]})
        if staff is None:
            return None
        payload, _, sig = (token or "").rpartition(".")
        if not hmac.compare_digest(sig, self._sign(payload, staff)):
            return None
        return staff

    def end(self, token: str | None) -> None:
        """Sign the token out: it never signs anyone in again."""
        claims = self._claims(token or "")
        if claims is None:
            return
        now = time.time()
        with self._lock:
            self._ended = {k: v for k, v in self._ended.items() if v > now}
            self._ended[claims["jti"]] = claims["iat"] + self.lifetime_s
