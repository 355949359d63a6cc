"""Reset a lane to baseline + setup, then verify the stores hold exactly that.

The lane's stores are the store layer's (``stores.StoreSet``: its MongoDB database and its
bucket). Order of a reset: build the whole plan, run every store's guard and plan (every
refusal happens here, before any store is touched), then mark the lane as being reset, empty
and load it, verify it, and only then remove the mark. A store that fails
half-way leaves the mark in ``_harness``: the lane is known to be unfinished (the state dump
refuses it, ``409 lane_dirty``) and the next reset, which empties everything first, heals it.
"""

from __future__ import annotations

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
from claims_records import SeedError

from ._guard import ALLOWED_DB_SETTING, DEFAULT_ALLOWED_DB_PATTERN
from ._jsonsafe import json_safe
from ._names import (
    HARNESS_COLLECTION,
    LAST_RESET_ID,
    REASON_STORE_ERROR,
    REASON_VERIFY_FAILED,
    UNFINISHED_RESET_ID,
)
from ._plan import build_plan
from ._s3 import S3Config
from ._state import utc_now_iso
from .stores import BucketStore, MongoStore, NamePolicy, StoreSet


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


def lane_stores(db: Database, s3: S3Config, bucket: str,
                pattern: str = DEFAULT_ALLOWED_DB_PATTERN) -> StoreSet:
    """The seed route's stores of one lane: the whole database (every state collection) and
    the whole bucket, in canonical terms; the database's whole name must match ``pattern``."""
    names = NamePolicy(pattern, mode="full", setting=ALLOWED_DB_SETTING)
    return StoreSet(MongoStore(db, names, "all"), BucketStore(s3, bucket))


def reset_and_load(db: Database, s3: S3Config, bucket: str, baseline: Baseline, setup: Setup,
                   files: dict[str, bytes], pattern: str = DEFAULT_ALLOWED_DB_PATTERN
                   ) -> SeedResult:
    """Restore ``baseline`` in one lane, load ``setup`` and its ``files``, and verify.

    The inputs are validated completely first (``InvalidSetupError`` naming file and field),
    then the stores' guards run (a database whose name ``pattern`` does not match in full, one
    carrying the production marker, a bucket S3 would not take, a store that cannot be
    reached: ``StoreRefusal``) and their plans are made. Only then is every state collection
    emptied (the product's indexes stay), every object in ``bucket`` removed, and the baseline
    and setup documents (with overrides applied) and objects written. Finally the stores are
    read back and compared with what was meant; any difference raises ``SeedError``. A store
    failure raises ``SeedError`` (reason ``store_error``) and leaves the lane marked unfinished
    until the next successful reset.
    """
    started = time.perf_counter()
    stores = lane_stores(db, s3, bucket, pattern)
    stores.guard()  # the lane itself first, then what is asked of it
    plan = build_plan(baseline, setup, files)
    prepared = stores.plan(plan.collections, plan.objects)  # every refusal before a write
    try:
        _mark_unfinished(db, setup.pack_id)
    except PyMongoError as exc:  # nothing has been touched yet
        raise SeedError(f"MongoDB failed before the reset began: {exc}", pack=setup.pack_id,
                        database=db.name, reason=REASON_STORE_ERROR) from exc
    try:
        stores.apply(prepared)
    except SeedError as exc:
        verify = exc.reason == REASON_VERIFY_FAILED
        message = (exc.message.replace("the stores do not hold what the reset wrote",
                                       "state after reset differs from baseline + setup")
                   if verify else exc.message)
        raise SeedError(f"{message}; the lane is marked unfinished until the next reset",
                        pack=setup.pack_id,
                        reason=REASON_VERIFY_FAILED if verify else REASON_STORE_ERROR, **{
                            k: v for k, v in exc.context.items() if k not in ("pack", "reason")}
                        ) from exc
    except STORE_ERRORS as exc:
        which = "MongoDB" if isinstance(exc, PyMongoError | BSONError | OverflowError) else "S3"
        raise SeedError(f"{which} failed during reset: {type(exc).__name__}: {exc}; the lane "
                        "is marked unfinished until the next reset", pack=setup.pack_id,
                        database=db.name, bucket=bucket, reason=REASON_STORE_ERROR) from exc
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
