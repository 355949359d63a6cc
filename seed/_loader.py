"""Reset a lane to baseline + setup, then verify the stores hold exactly that."""

from __future__ import annotations

import hashlib
import re
import time
from typing import Any

from bson.errors import BSONError
from minio.error import S3Error
from pydantic import Field
from pymongo.database import Database
from pymongo.errors import PyMongoError
from urllib3.exceptions import HTTPError as Urllib3Error

from corpus.errors import SeedError
from corpus.formats import Baseline, ClaimantSession, Credentials, Setup
from corpus.formats._base import Strict

from . import _s3
from ._jsonsafe import id_key, json_safe
from ._names import (
    ENVIRONMENT_COLLECTION,
    ENVIRONMENT_DOC_ID,
    HARNESS_COLLECTION,
    PRODUCTION_KIND,
    REASON_DATABASE_NOT_ALLOWED,
    REASON_PRODUCTION_MARKER,
    REASON_VERIFY_FAILED,
    is_state_collection,
)
from ._plan import Plan, build_plan
from ._state import dump_collections, utc_now_iso
from .stores import S3Config

DEFAULT_ALLOWED_DB_PATTERN = r"(?i)(test|dev|harness)"


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


def check_database_allowed(name: str, pattern: str = DEFAULT_ALLOWED_DB_PATTERN) -> None:
    """Refuse a database whose name does not match ``pattern`` (searched, not anchored)."""
    if not re.search(pattern, name):
        raise SeedError("database name is not allowed for seeding", database=name,
                        pattern=pattern, reason=REASON_DATABASE_NOT_ALLOWED)


def check_not_production(db: Database) -> None:
    """Refuse a database holding the production marker document."""
    try:
        marker = db[ENVIRONMENT_COLLECTION].find_one({"_id": ENVIRONMENT_DOC_ID})
    except PyMongoError as exc:
        raise SeedError(f"MongoDB unreachable: {exc}", database=db.name) from exc
    if marker is not None and marker.get("kind") == PRODUCTION_KIND:
        raise SeedError("database carries the production marker", database=db.name,
                        collection=ENVIRONMENT_COLLECTION, reason=REASON_PRODUCTION_MARKER)


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
    expected = {name: {id_key(d["_id"]): json_safe(d) for d in docs}
                for name, docs in plan.collections.items() if docs}
    actual = dump_collections(db)
    for name in sorted(set(expected) | set(actual)):
        e, a = expected.get(name, {}), actual.get(name, {})
        for doc_id in sorted(set(e) | set(a)):
            if doc_id not in a:
                problems.append(f"missing document {name}/{doc_id}")
            elif doc_id not in e:
                problems.append(f"unexpected document {name}/{doc_id}")
            elif e[doc_id] != a[doc_id]:
                problems.append(f"document {name}/{doc_id} differs")
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
    read back and compared with what was meant; any difference raises ``SeedError``.
    """
    started = time.perf_counter()
    _s3.check_bucket_name(bucket)
    plan = build_plan(baseline, setup, files)
    check_not_production(db)
    try:
        _apply(db, s3, bucket, plan)
        problems = _verify(db, s3, bucket, plan)
    except (PyMongoError, BSONError, OverflowError) as exc:
        raise SeedError(f"MongoDB failed during reset: {exc}", pack=setup.pack_id,
                        database=db.name) from exc
    except (S3Error, Urllib3Error) as exc:
        raise SeedError(f"S3 store failed during reset: {exc}", pack=setup.pack_id,
                        bucket=bucket) from exc
    if problems:
        raise SeedError(
            f"state after reset differs from baseline + setup: {'; '.join(problems[:5])}",
            pack=setup.pack_id, database=db.name, bucket=bucket, reason=REASON_VERIFY_FAILED,
        )
    took_ms = round((time.perf_counter() - started) * 1000, 1)
    try:
        db[HARNESS_COLLECTION].replace_one(
            {"_id": "last_reset"},
            {"_id": "last_reset", "pack_id": setup.pack_id, "at": utc_now_iso(),
             "took_ms": took_ms},
            upsert=True,
        )
    except PyMongoError as exc:
        raise SeedError(f"MongoDB failed during reset: {exc}", pack=setup.pack_id) from exc
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
    doc = db[HARNESS_COLLECTION].find_one({"_id": "last_reset"})
    return json_safe(doc) if doc else None
