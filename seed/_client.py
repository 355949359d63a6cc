"""A small HTTP client for the seed route, used by the harness before and after each journey."""

from __future__ import annotations

import base64
from typing import Any

import httpx
from pydantic import ValidationError

from claims_records import SeedError, StateDump

from ._route import SEED_PREFIX
from ._settings import TOKEN_VARIABLE, token_problem


class SeedClient:
    """Talks to ``{base_url}/_harness/seed``; every failure is a ``SeedError``.

    ``base_url`` is the product's (or the standalone seed server's) root URL; a URL already
    ending in the seed prefix is accepted too.
    """

    def __init__(self, base_url: str, token: str | None, timeout: float = 30.0) -> None:
        problem = token_problem(token)
        if problem:
            raise SeedError(f"cannot call the seed route: {problem}", url=base_url,
                            variable=TOKEN_VARIABLE)
        root = base_url.rstrip("/")
        if not root.endswith(SEED_PREFIX):
            root += SEED_PREFIX
        self.url = root
        self._http = httpx.Client(
            base_url=root, timeout=timeout, trust_env=False,
            headers={"Authorization": f"Bearer {token}"},
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> SeedClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            resp = self._http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise SeedError(f"seed route unreachable: {exc}", url=self.url + path) from exc
        if resp.status_code >= 400:
            reason, message = "http_error", resp.text[:500]
            try:
                detail = resp.json().get("detail")
            except ValueError:
                detail = None
            if isinstance(detail, dict):
                reason = detail.get("reason", reason)
                message = detail.get("message", message)
            elif detail is not None:
                message = str(detail)
            raise SeedError(f"seed route refused {method} {path}: {message}",
                            url=self.url + path, status=resp.status_code, reason=reason)
        try:
            return resp.json()
        except ValueError as exc:
            raise SeedError("seed route answered with something other than JSON",
                            url=self.url + path, status=resp.status_code) from exc

    def health(self) -> dict[str, Any]:
        return self._call("GET", "/health")

    def reset(self, setup: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
        """Reset the lane and load ``setup`` with its ``files`` (path in pack -> bytes)."""
        encoded = {path: base64.b64encode(data).decode("ascii") for path, data in files.items()}
        return self._call("POST", "/reset", json={"setup": setup, "files": encoded})

    def state(self) -> StateDump:
        data = self._call("GET", "/state")
        try:
            return StateDump.model_validate(data)
        except ValidationError as exc:
            raise SeedError("seed route returned an invalid state dump", url=self.url + "/state",
                            field=".".join(str(p) for p in exc.errors()[0]["loc"])) from exc
