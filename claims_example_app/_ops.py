"""Operations endpoints on the customer port: health, about, and the fixtures reset.

``POST /ops/fixtures`` (only when ``ops_reset`` is on) empties every data collection of the
database and the bucket, then loads the given fixtures and files. It is checked in full
before anything is touched: a refused reset changes nothing.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import re
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.concurrency import run_in_threadpool

from . import _schema as S
from ._store import utc_now

OPS_KEY_HEADER = "X-Ops-Key"
_COLLECTION = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,511}$")
# Shown by /ops/about only to show that a runtime report carries more than a harness may keep.
INTERNAL_NODE = "fnol-web-01.kestrel.internal"


class Blob(BaseModel):
    """One file to put in the bucket."""

    model_config = ConfigDict(extra="forbid")
    key: str = Field(description="Object key in the bucket.")
    content_type: str = Field(min_length=1, description="MIME type stored with the object.")
    base64: str = Field(description="The file's bytes, base64-encoded.")


class Fixtures(BaseModel):
    """The body of POST /ops/fixtures."""

    model_config = ConfigDict(extra="forbid")
    label: str = Field(min_length=1, max_length=200, description="What is being loaded.")
    fixtures: dict[str, list[dict[str, Any]]] = Field(
        default_factory=dict, description="Documents per collection; each has an '_id'.")
    blobs: list[Blob] = Field(default_factory=list, description="Files for the bucket.")


def _refuse(status: int, reason: str, message: str, **where: Any) -> JSONResponse:
    return JSONResponse({"error": {"reason": reason, "message": message, **where}},
                        status_code=status)


def _key_ok(request: Request) -> bool:
    expected = request.app.state.settings.ops_key
    given = request.headers.get(OPS_KEY_HEADER, "")
    return bool(expected) and hmac.compare_digest(given.encode(), expected.encode())


def _check(body: Fixtures) -> tuple[list[tuple[str, str, bytes]], JSONResponse | None]:
    """Decode the blobs and check every name; (decoded blobs, refusal or None)."""
    for name, docs in body.fixtures.items():
        if not _COLLECTION.match(name) or name == S.META:
            return [], _refuse(400, "bad_collection", "not a collection name Kestrel accepts",
                               collection=name)
        for i, doc in enumerate(docs):
            if "_id" not in doc:
                return [], _refuse(400, "missing_id", "every fixture document needs an _id",
                                   collection=name, index=i)
        ids = [str(d["_id"]) for d in docs]
        if len(set(ids)) != len(ids):
            return [], _refuse(400, "duplicate_id", "two documents share an _id",
                               collection=name)
    blobs = []
    for i, blob in enumerate(body.blobs):
        if not _KEY.match(blob.key) or ".." in blob.key:
            return [], _refuse(400, "bad_key", "not an object key Kestrel accepts", index=i,
                               key=blob.key)
        try:
            data = base64.b64decode(blob.base64, validate=True)
        except (binascii.Error, ValueError):
            return [], _refuse(400, "bad_base64", "the file is not valid base64", index=i,
                               key=blob.key)
        blobs.append((blob.key, blob.content_type, data))
    return blobs, None


def create_ops_router() -> APIRouter:
    router = APIRouter(prefix="/ops")

    @router.get("/health")
    def health(request: Request) -> JSONResponse:
        store = request.app.state.store
        checks = {}
        try:
            store.db.command("ping")
            checks["database"] = "ok"
        except Exception as exc:  # any failure means unhealthy
            checks["database"] = f"unreachable: {type(exc).__name__}"
        try:
            store.s3.bucket_exists(store.bucket)
            checks["storage"] = "ok"
        except Exception as exc:
            checks["storage"] = f"unreachable: {type(exc).__name__}"
        ok = all(v == "ok" for v in checks.values())
        return JSONResponse({"status": "ok" if ok else "degraded", "checks": checks},
                            status_code=200 if ok else 503)

    @router.get("/about")
    def about(request: Request) -> JSONResponse:
        settings = request.app.state.settings
        if settings.ops_key and not _key_ok(request):
            return _refuse(401, "ops_key", f"send the ops key in {OPS_KEY_HEADER}")
        return JSONResponse({
            "service": {
                "name": "kestrel-claims",
                "agent": {"mode": "rules", "latency_ms": settings.agent_latency_ms},
            },
            "build": request.app.version,
            "internal": {"node": INTERNAL_NODE, "database": settings.database},
        })

    @router.post("/fixtures")
    async def fixtures(request: Request) -> JSONResponse:
        settings = request.app.state.settings
        if not settings.ops_reset:
            return _refuse(404, "disabled", "the fixtures reset is not enabled here")
        if not _key_ok(request):
            return _refuse(401, "ops_key", f"missing or wrong {OPS_KEY_HEADER}")
        try:
            body = Fixtures.model_validate(await request.json())
        except ValueError as exc:  # JSON decode errors and ValidationError
            where = exc.errors()[0]["loc"] if isinstance(exc, ValidationError) else None
            return _refuse(400, "bad_body", str(exc).splitlines()[0],
                           field=".".join(map(str, where)) if where else None)
        blobs, refusal = _check(body)
        if refusal is not None:
            return refusal
        return await run_in_threadpool(_reset, request.app.state.store, body, blobs)

    return router


def _reset(store, body: Fixtures, blobs: list[tuple[str, str, bytes]]) -> JSONResponse:
    started = time.monotonic()
    marker = store.db[S.META].find_one({"_id": "environment"}) or {}
    if marker.get("kind") == "production":
        return _refuse(409, "production", "this database is marked as production",
                       database=store.db.name)
    cleared_docs = 0
    for name in store.db.list_collection_names():
        if name.startswith("system.") or name == S.META:
            continue
        cleared_docs += store.db[name].delete_many({}).deleted_count
    cleared_files = store.empty_bucket()
    loaded = {}
    for name, docs in body.fixtures.items():
        if docs:
            store.db[name].insert_many(docs, ordered=True)
        loaded[name] = len(docs)
    for key, mime, data in blobs:
        store.put_file(key, data, mime)
    return JSONResponse({
        "label": body.label,
        "cleared": {"documents": cleared_docs, "files": cleared_files},
        "loaded": loaded,
        "files": len(blobs),
        "at": utc_now(),
        "took_ms": round((time.monotonic() - started) * 1000, 1),
    })
