"""Reset a lane to baseline + setup, then verify the stores hold exactly that.

Order of a reset: check the bucket name, build the whole plan (every refusal happens here,
before any store is touched), refuse a production-marked database, then mark the lane as
being reset, empty and load it, verify it, and only then remove the mark. A store that fails
half-way leaves the mark in ``_harness``: the lane is known to be unfinished (the state dump
refuses it, ``409 lane_dirty``) and the next reset, which empties everything first, heals it.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from bson.errors import BSONError
from minio.error import MinioException
from pydantic import Field
from pymongo.database import Database
from pymongo.errors import PyMongoError
from urllib3.exceptions import HTTPError as Urllib3Error

from claims_corpus.formats import Baseline, ClaimantSession, Credentials, Setup
from claims_corpus.formats._base import Strict
from claims_corpus.plan import Plan
from claims_records import SeedError

from . import _s3
from ._guard import check_bucket_name, check_not_production
from ._jsonsafe import json_safe
from ._names import (
    HARNESS_COLLECTION,
    LAST_RESET_ID,
    REASON_STORE_ERROR,
    REASON_VERIFY_FAILED,
    UNFINISHED_RESET_ID,
    is_state_collection,
)
from ._plan import build_plan
from ._s3 import S3Config
from ._state import compare_documents, dump_collections, utc_now_iso


class SeedResult(Strict):
    """What one reset tells the harness (the seed route's reset answer)."""

    pack_id: str
    claimant_session: ClaimantSession
    customer_credentials: Credentials | None = Field(
        None, description="The customer's account, when the session needs one.")
    staff_credentials: Credentials | None = Field(
        None, description="Staff sign-in: the setup's, else the baseline's.")
    known_ids: dict[str, str] = Field(default_factory=dict,
                                      description="Seeded ids the customer knows.")
    took_ms: float = Field(description="Wall time of validate + reset + load + verify.")
    verified: bool = Field(description="The state after loading equals baseline + setup.")


# Everything the store clients raise when a store fails or refuses a write. The plan has been
# validated in full, so any of these during a reset is the store's doing.
STORE_ERRORS: tuple[type[BaseException], ...] = (
    PyMongoError, BSONError, MinioException, Urllib3Error, OSError, ValueError, OverflowError,
)


def _mark_unfinished(db: Database, pack_id: str) -> None:
    """Note that a reset has begun; removed only when it has verifiably finished."""
    db[HARNESS_COLLECTION].replace_one(
        {"_id": UNFINISHED_RESET_ID},
        {"_id": UNFINISHED_RESET_ID, "pack_id": pack_id, "started_at": utc_now_iso()},
        upsert=True)


def unfinished_reset(db: Database) -> dict[str, Any] | None:
    """The mark of a reset that began and did not finish (the lane needs a reset), if any."""
    doc = db[HARNESS_COLLECTION].find_one({"_id": UNFINISHED_RESET_ID})
    return json_safe(doc) if doc else None


def _apply(db: Database, s3: S3Config, bucket: str, plan: Plan) -> None:
    for name in db.list_collection_names():
        if is_state_collection(name):
            db[name].delete_many({})
    for name, docs in plan.collections.items():
        if docs:
            db[name].insert_many(docs, ordered=True)
    _s3.empty_bucket(s3, bucket)
    for obj in plan.objects:
        _s3.put(s3, bucket, obj.key, obj.data, obj.content_type)


def _verify(db: Database, s3: S3Config, bucket: str, plan: Plan) -> list[str]:
    """Differences between the stores and the plan, as short descriptions (empty: all equal)."""
    problems: list[str] = []
    expected = {name: docs for name, docs in plan.collections.items() if docs}
    actual = dump_collections(db)
    problems += compare_documents(expected, actual, sorted(set(expected) | set(actual)))
    listed = {o.object_name: o for o in _s3.client(s3).list_objects(bucket, recursive=True)}
    wanted = {o.key: o for o in plan.objects}
    for key in sorted(set(listed) | set(wanted)):
        if key not in listed:
            problems.append(f"missing object {key}")
        elif key not in wanted:
            problems.append(f"unexpected object {key}")
        else:
            data = wanted[key].data
            etag = (listed[key].etag or "").strip('"')
            if listed[key].size != len(data):
                problems.append(f"object {key} has size {listed[key].size}, expected {len(data)}")
            elif etag != hashlib.md5(data, usedforsecurity=False).hexdigest() and (
                hashlib.sha256(_s3.read(s3, bucket, key)).digest()
                != hashlib.sha256(data).digest()
            ):
                problems.append(f"object {key} content differs")
    return problems


def reset_and_load(db: Database, s3: S3Config, bucket: str, baseline: Baseline, setup: Setup,
                   files: dict[str, bytes]) -> SeedResult:
    """Restore ``baseline`` in one lane, load ``setup`` and its ``files``, and verify.

    The inputs are validated completely first (``InvalidSetupError`` naming file and field);
    a database carrying the production marker is refused. Then every state collection is
    emptied (the product's indexes stay), every object in ``bucket`` removed, and the baseline
    and setup documents (with overrides applied) and objects written. Finally the stores are
    read back and compared with what was meant; any difference raises ``SeedError``. A store
    failure raises ``SeedError`` (reason ``store_error``) and leaves the lane marked unfinished
    until the next successful reset.
    """
    started = time.perf_counter()
    check_bucket_name(bucket)
    plan = build_plan(baseline, setup, files)
    check_not_production(db)
    try:
        _mark_unfinished(db, setup.pack_id)
    except PyMongoError as exc:  # nothing has been touched yet
        raise SeedError(f"MongoDB failed before the reset began: {exc}", pack=setup.pack_id,
                        database=db.name, reason=REASON_STORE_ERROR) from exc
    try:
        _apply(db, s3, bucket, plan)
        problems = _verify(db, s3, bucket, plan)
    except SeedError as exc:
        raise SeedError(f"{exc.message}; the lane is marked unfinished until the next reset",
                        pack=setup.pack_id, reason=REASON_STORE_ERROR, **{
                            k: v for k, v in exc.context.items() if k not in ("pack", "reason")}
                        ) from exc
    except STORE_ERRORS as exc:
        which = "MongoDB" if isinstance(exc, PyMongoError | BSONError | OverflowError) else "S3"
        raise SeedError(f"{which} failed during reset: {type(exc).__name__}: {exc}; the lane "
                        "is marked unfinished until the next reset", pack=setup.pack_id,
                        database=db.name, bucket=bucket, reason=REASON_STORE_ERROR) from exc
    if problems:
        raise SeedError(
            f"state after reset differs from baseline + setup: {'; '.join(problems[:5])}; the "
            "lane is marked unfinished until the next reset",
            pack=setup.pack_id, database=db.name, bucket=bucket, reason=REASON_VERIFY_FAILED,
        )
    took_ms = round((time.perf_counter() - started) * 1000, 1)
    try:
        db[HARNESS_COLLECTION].replace_one(
            {"_id": LAST_RESET_ID},
            {"_id": LAST_RESET_ID, "pack_id": setup.pack_id, "at": utc_now_iso(),
             "took_ms": took_ms},
            upsert=True,
        )
        db[HARNESS_COLLECTION].delete_one({"_id": UNFINISHED_RESET_ID})
    except PyMongoError as exc:
        raise SeedError(f"MongoDB failed during reset: {exc}", pack=setup.pack_id,
                        reason=REASON_STORE_ERROR) from exc
    return SeedResult(
        pack_id=setup.pack_id,
        claimant_session=setup.claimant_session,
        customer_credentials=setup.customer_credentials,
        staff_credentials=setup.staff_credentials or baseline.staff_credentials,
        known_ids=dict(setup.known_ids),
        took_ms=took_ms,
        verified=True,
    )


def last_reset(db: Database) -> dict[str, Any] | None:
    """The harness's record of the last reset of this database, if any."""
    doc = db[HARNESS_COLLECTION].find_one({"_id": LAST_RESET_ID})
    return json_safe(doc) if doc else None
