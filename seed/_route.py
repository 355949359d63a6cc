"""The seed route: a FastAPI router any Python product can mount, or a standalone app.

    GET  {prefix}/health   {"ok": true, "database": ..., "bucket": ...}
    POST {prefix}/reset    {"setup": <setup.json>, "files": {"<path in pack>": "<base64>"}}
    GET  {prefix}/state    a StateDump

Refusals are ``{"detail": {"reason": ..., "message": ...}}`` with a 4xx status, and change
nothing: the token is checked before the body is read, the body's size before it is parsed,
and the whole plan before any store is touched. ``/health`` runs the lane's store guards (the
database's name, the production marker, the bucket's name, both stores reachable), as a reset
would before touching anything, so a harness that checks it before a run is refused there.
Store failures are 503 ``store_error``; every other failure is still a JSON answer (500
``internal_error``), never a bare traceback. A disabled route serves nothing (404).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hmac
import logging
import re
import threading
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from minio.error import MinioException
from pydantic import ValidationError
from pymongo import MongoClient
from pymongo.database import Database
from pymongo.errors import PyMongoError
from urllib3.exceptions import HTTPError as Urllib3Error

from claims_corpus import StrictJsonError, parse_strict_json
from claims_corpus.formats import Setup
from claims_records import SeedError

from ._loader import lane_stores, reset_and_load, unfinished_reset
from ._names import (
    REASON_DATABASE_NOT_ALLOWED,
    REASON_INTERNAL,
    REASON_INVALID_SETTINGS,
    REASON_INVALID_SETUP,
    REASON_LANE_DIRTY,
    REASON_PRODUCTION_MARKER,
    REASON_STORE_ERROR,
    REASON_TOO_LARGE,
    REASON_UNAUTHORIZED,
    REASON_VERIFY_FAILED,
)
from ._plan import InvalidSetupError
from ._settings import SeedSettings, load_baseline_file, token_problem
from ._state import dump_state

log = logging.getLogger(__name__)

SEED_PREFIX = "/_harness/seed"

_STATUS_BY_REASON = {
    REASON_UNAUTHORIZED: 401,
    REASON_DATABASE_NOT_ALLOWED: 403,
    REASON_PRODUCTION_MARKER: 403,
    REASON_INVALID_SETTINGS: 403,
    REASON_LANE_DIRTY: 409,
    REASON_TOO_LARGE: 413,
    REASON_INVALID_SETUP: 422,
    REASON_INTERNAL: 500,
    REASON_VERIFY_FAILED: 500,
    REASON_STORE_ERROR: 503,
}


class _Refusal(Exception):
    def __init__(self, reason: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.reason, self.message, self.extra = reason, message, extra

    def response(self) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if self.reason == REASON_UNAUTHORIZED else None
        return JSONResponse(
            {"detail": {"reason": self.reason, "message": self.message, **self.extra}},
            status_code=_STATUS_BY_REASON[self.reason], headers=headers,
        )


def _from_seed_error(exc: SeedError) -> _Refusal:
    if isinstance(exc, InvalidSetupError):
        return _Refusal(REASON_INVALID_SETUP, str(exc), field=exc.field)
    reason = exc.reason or REASON_STORE_ERROR
    extra = {"field": exc.field} if exc.field is not None else {}
    return _Refusal(reason if reason in _STATUS_BY_REASON else REASON_STORE_ERROR, str(exc),
                    **extra)


class _Lane:
    """The database and bucket one router serves, connected on first use."""

    def __init__(self, settings: SeedSettings) -> None:
        self.settings = settings
        self.s3 = settings.s3
        self.baseline = load_baseline_file(settings.baseline_path)
        self.lock = threading.Lock()
        self._client: MongoClient | None = None
        self._client_lock = threading.Lock()

    @property
    def db(self) -> Database:
        with self._client_lock:
            if self._client is None:
                self._client = MongoClient(self.settings.mongo_uri, serverSelectionTimeoutMS=5000,
                                           tz_aware=False)
            return self._client[self.settings.database]

    def close(self) -> None:
        """Close the connection (its monitor threads with it); the next use connects again."""
        with self._client_lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def check_target(self) -> None:
        """Every guard of the lane's stores, as a reset runs them first (reads only):
        ``StoreRefusal`` for a database not named for tests or carrying the production
        marker, a bucket S3 would not take, a store that cannot be reached."""
        lane_stores(self.db, self.s3, self.settings.bucket,
                    self.settings.allowed_db_pattern).guard()


def _bearer_checker(token: str):
    expected = token.encode("utf-8")

    def check(request: Request) -> None:
        header = request.headers.get("authorization", "")
        scheme, _, given = header.partition(" ")
        if scheme.lower() != "bearer" or not given:
            raise _Refusal(REASON_UNAUTHORIZED, "a bearer token is required")
        if not hmac.compare_digest(given.strip().encode("utf-8"), expected):
            raise _Refusal(REASON_UNAUTHORIZED, "the bearer token is wrong")

    return check


async def _read_body(request: Request, limit: int) -> bytes:
    """The request body, refused (413) as soon as it is known to exceed ``limit`` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _Refusal(REASON_TOO_LARGE, f"body of {declared} bytes is over the limit of "
                       f"{limit} bytes", field="body")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _Refusal(REASON_TOO_LARGE, f"body is over the limit of {limit} bytes",
                           field="body")
        chunks.append(chunk)
    return b"".join(chunks)


def _parse_json(data: bytes) -> Any:
    try:
        return parse_strict_json(data)
    except StrictJsonError as exc:
        field = exc.path or "body"
        raise _Refusal(REASON_INVALID_SETUP, f"body: {exc}", field=field) from exc


def _parse_reset_body(body: Any) -> tuple[Setup, dict[str, bytes]]:
    if not isinstance(body, dict) or set(body) - {"setup", "files"} or "setup" not in body:
        raise _Refusal(REASON_INVALID_SETUP,
                       "body must be {\"setup\": {...}, \"files\": {path: base64}}", field="body")
    try:
        setup = Setup.model_validate(body["setup"], strict=True)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in ("setup", *err["loc"]))
        raise _Refusal(REASON_INVALID_SETUP, f"setup.json: {field}: {err['msg']}",
                       field=field, errors=len(exc.errors())) from exc
    raw_files = body.get("files") or {}
    if not isinstance(raw_files, dict):
        raise _Refusal(REASON_INVALID_SETUP, "files must be an object", field="files")
    # Every file is decoded, used or not: a body that does not say what it means is refused
    # whole, before anything is reset, rather than read in part.
    files: dict[str, bytes] = {}
    for path, encoded in raw_files.items():
        if not isinstance(encoded, str):
            raise _Refusal(REASON_INVALID_SETUP, f"files.{path}: must be a base64 string, not "
                           f"{type(encoded).__name__}", field=f"files.{path}")
        try:
            files[path] = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise _Refusal(REASON_INVALID_SETUP, f"files.{path}: not valid base64",
                           field=f"files.{path}") from exc
    wanted = {obj.file for obj in setup.objects}
    return setup, {path: data for path, data in files.items() if path in wanted}


def create_seed_router(settings: SeedSettings) -> APIRouter:
    """Routes ``/health``, ``/reset``, ``/state``; mount at prefix ``/_harness/seed``.

    A disabled route returns a router without routes. An enabled route needs a token.
    Raises ``SeedError`` for a missing token or an unreadable baseline.
    """
    if not settings.enabled:
        return APIRouter()
    problem = token_problem(settings.token)
    if problem:
        raise SeedError(f"the seed route is enabled, but {problem}",
                        variable="CLAIMS_HARNESS_SEED_TOKEN")
    try:
        re.compile(settings.allowed_db_pattern)
    except re.error as exc:
        raise SeedError(f"allowed database pattern is not a regular expression: {exc}",
                        field="allowed_db_pattern") from exc
    lane = _Lane(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        yield
        lane.close()  # the app including the router stops: its connection goes with it

    router = APIRouter(lifespan=lifespan)
    auth = _bearer_checker(settings.token or "")

    async def guarded(request: Request, work) -> JSONResponse:
        try:
            auth(request)
            return JSONResponse(await work())
        except _Refusal as refusal:
            return refusal.response()
        except SeedError as exc:
            return _from_seed_error(exc).response()
        except PyMongoError as exc:
            return _Refusal(REASON_STORE_ERROR, f"MongoDB: {exc}").response()
        except (MinioException, Urllib3Error) as exc:
            return _Refusal(REASON_STORE_ERROR, f"S3: {exc}").response()
        except Exception as exc:  # a bug: still a JSON answer, and the trace in the log
            log.exception("seed route failed")
            return _Refusal(REASON_INTERNAL, f"{type(exc).__name__}: {exc}").response()

    def _health() -> dict[str, Any]:
        lane.check_target()  # reachable, signed in, and a lane a reset may touch
        return {"ok": True, "database": settings.database, "bucket": settings.bucket}

    def _state() -> dict[str, Any]:
        lane.check_target()
        with lane.lock:
            unfinished = unfinished_reset(lane.db)
            if unfinished is not None:
                raise _Refusal(REASON_LANE_DIRTY, "the last reset of this lane did not finish "
                               f"(pack {unfinished.get('pack_id')}, begun "
                               f"{unfinished.get('started_at')}); reset the lane again",
                               unfinished=unfinished)
            return dump_state(lane.db, lane.s3, settings.bucket).model_dump(mode="json")

    def _reset(setup: Setup, files: dict[str, bytes]) -> dict[str, Any]:
        with lane.lock:  # the stores' guards run before anything is touched
            result = reset_and_load(lane.db, lane.s3, settings.bucket, lane.baseline, setup,
                                    files, settings.allowed_db_pattern)
        return result.model_dump(mode="json")

    @router.get("/health")
    async def health(request: Request) -> JSONResponse:
        return await guarded(request, lambda: run_in_threadpool(_health))

    @router.get("/state")
    async def state(request: Request) -> JSONResponse:
        return await guarded(request, lambda: run_in_threadpool(_state))

    @router.post("/reset")
    async def reset(request: Request) -> JSONResponse:
        async def work() -> dict[str, Any]:
            data = await _read_body(request, settings.max_body_bytes)
            body = await run_in_threadpool(_parse_json, data)
            setup, files = _parse_reset_body(body)
            return await run_in_threadpool(_reset, setup, files)

        return await guarded(request, work)

    return router


def create_seed_app(settings: SeedSettings) -> FastAPI:
    """A standalone ASGI app serving the seed route at ``/_harness/seed``."""
    app = FastAPI(title="claims-harness seed route", docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.include_router(create_seed_router(settings), prefix=SEED_PREFIX)
    return app
