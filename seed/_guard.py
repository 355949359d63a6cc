"""What the seed route refuses to touch: databases not named for tests, production-marked
databases, and names the stores would refuse half-way through a reset.

Database names are matched as a whole against ``allowed_db_pattern``. The default accepts a
name with a part (between ``_`` or ``-``) that is a test word, optionally followed by digits:
``claims_dev_lane1``, ``claims-test``, ``harness``, ``claims_e2e2``; never ``latest_claims``,
``contest`` or ``devices``.
"""

from __future__ import annotations

import re
from typing import Any

from pymongo.database import Database
from pymongo.errors import PyMongoError

from claims_records import StoreRefusal

from ._names import (
    ENVIRONMENT_COLLECTION,
    REASON_DATABASE_NOT_ALLOWED,
    REASON_INVALID_SETTINGS,
    REASON_PRODUCTION_MARKER,
    REASON_STORE_ERROR,
)

TEST_WORDS: tuple[str, ...] = ("test", "tests", "testing", "dev", "development", "harness",
                               "e2e", "ci", "sandbox")
# The setting holding the seed route's pattern, named in its refusals.
ALLOWED_DB_SETTING = "CLAIMS_HARNESS_ALLOWED_DB_PATTERN"
DEFAULT_ALLOWED_DB_PATTERN = (r"(?i)(?:[A-Za-z0-9]+[_-])*(?:" + "|".join(TEST_WORDS)
                              + r")\d*(?:[_-][A-Za-z0-9]+)*")
# Marker ``kind`` values (compared without case or surrounding space) that mean production.
PRODUCTION_KINDS: frozenset[str] = frozenset({"production", "prod", "live"})
SYSTEM_DATABASES: frozenset[str] = frozenset({"admin", "local", "config"})

_DB_FORBIDDEN = re.compile(r"[/\\. \"$*<>:|?\x00-\x1f\x7f]")
_BUCKET = re.compile(r"^[a-z0-9][a-z0-9.\-]{1,61}[a-z0-9]$")
_IP_SHAPED = re.compile(r"^\d+\.\d+\.\d+\.\d+$")
_BUCKET_PREFIXES = ("xn--", "sthree-", "amzn-s3-demo-")
_BUCKET_SUFFIXES = ("-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3")


def database_name_problem(name: str) -> str | None:
    """Why MongoDB would refuse ``name`` as a database name, or None."""
    if not name:
        return "database name is empty"
    if len(name.encode("utf-8", "surrogatepass")) > 63:
        return "database name is longer than 63 bytes"
    bad = _DB_FORBIDDEN.search(name)
    if bad:
        return f"database name holds {bad.group()!r}, which MongoDB does not allow"
    if name.lower() in SYSTEM_DATABASES:
        return f"{name!r} is a MongoDB system database"
    return None


def check_database_allowed(name: str, pattern: str = DEFAULT_ALLOWED_DB_PATTERN) -> None:
    """Refuse a database whose whole name does not match ``pattern`` (or is no valid name)."""
    problem = database_name_problem(name)
    if problem:
        raise StoreRefusal(problem, database=name, field="database",
                        reason=REASON_DATABASE_NOT_ALLOWED)
    if not re.fullmatch(pattern, name):
        raise StoreRefusal(f"database name {name!r} is not allowed for seeding: the whole name "
                           f"must match {ALLOWED_DB_SETTING}", database=name,
                           setting=ALLOWED_DB_SETTING, pattern=pattern,
                           reason=REASON_DATABASE_NOT_ALLOWED)


def _is_production(doc: dict[str, Any]) -> bool:
    kind = doc.get("kind")
    kinds = kind if isinstance(kind, list) else [kind]
    return any(isinstance(k, str) and k.strip().casefold() in PRODUCTION_KINDS for k in kinds)


def check_not_production(db: Database) -> None:
    """Refuse a database whose ``_environment`` collection (in any letter case) holds a
    document of kind production (``production``, ``prod`` or ``live``, in any case)."""
    try:
        names = [n for n in db.list_collection_names() if n.lower() == ENVIRONMENT_COLLECTION]
        marked = next((n for n in names if any(_is_production(d) for d in db[n].find({}))),
                      None)
    except PyMongoError as exc:
        raise StoreRefusal(f"MongoDB cannot be read: {mongo_cause(exc)}", database=db.name,
                           reason=REASON_STORE_ERROR) from exc
    if marked is not None:
        raise StoreRefusal("database carries the production marker", database=db.name,
                        collection=marked, reason=REASON_PRODUCTION_MARKER)


def mongo_cause(exc: PyMongoError) -> str:
    """What a MongoDB failure says, on one short line: its kind and its first reason (a
    server selection's error without its timeouts and topology description)."""
    text = re.sub(r" \(configured timeouts:[^)]*\)", "", str(exc)).split(", Timeout:")[0]
    first = text.strip().splitlines()[0][:200] if text.strip() else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def bucket_name_problem(bucket: str) -> str | None:
    """Why S3 would refuse ``bucket`` as a bucket name (general purpose buckets), or None."""
    if not _BUCKET.match(bucket):
        return "not a valid S3 bucket name (3-63 lowercase letters, digits, '.', '-')"
    if ".." in bucket or ".-" in bucket or "-." in bucket:
        return "an S3 bucket name may not hold '..', '.-' or '-.'"
    if _IP_SHAPED.match(bucket):
        return "an S3 bucket name may not be shaped like an IP address"
    if bucket.startswith(_BUCKET_PREFIXES) or bucket.endswith(_BUCKET_SUFFIXES):
        return "an S3 bucket name may not use a prefix or suffix S3 reserves"
    return None


def check_bucket_name(bucket: str) -> None:
    """Refuse a name S3 would reject."""
    problem = bucket_name_problem(bucket)
    if problem:
        raise StoreRefusal(problem, bucket=bucket, field="bucket", reason=REASON_INVALID_SETTINGS)
