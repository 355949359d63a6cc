"""MongoDB and S3 access for the app: collections, counters, audit log, object storage."""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import secrets
import threading
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pymongo import MongoClient, ReturnDocument
from pymongo.collection import Collection
from pymongo.database import Database

from ._settings import AppSettings

if TYPE_CHECKING:
    from minio import Minio

_SEQ_LOCK = threading.Lock()
_LAST_SEQ = [0]


def next_seq() -> int:
    """A strictly increasing number (nanoseconds since the epoch) for ordering messages."""
    with _SEQ_LOCK:
        _LAST_SEQ[0] = max(_LAST_SEQ[0] + 1, time.time_ns())
        return _LAST_SEQ[0]


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def args_hash(args: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of ``args`` (sorted keys, compact separators)."""
    canonical = json.dumps(
        args, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def session_key(token: str) -> str:
    """The key a session is stored under: a hash of the cookie's token, never the token itself,
    so a database dump (the harness's state files) holds nothing that signs anyone in."""
    return "s-" + hashlib.sha256(token.encode("utf-8")).hexdigest()


def verify_password(password: str, stored: str | None) -> bool:
    """Check ``password`` against ``pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>``."""
    if not stored:
        return False
    try:
        scheme, iterations, salt_hex, hash_hex = stored.split("$")
        if scheme != "pbkdf2_sha256":
            return False
        got = hashlib.pbkdf2_hmac(
            "sha256", password.encode("utf-8"), bytes.fromhex(salt_hex), int(iterations), dklen=32
        )
        return hmac.compare_digest(got.hex(), hash_hex.lower())
    except ValueError:
        return False


def hash_password(password: str, iterations: int = 1000, salt: bytes | None = None) -> str:
    """A password hash in the format ``verify_password`` reads."""
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, iterations, dklen=32)
    return f"pbkdf2_sha256${iterations}${salt.hex()}${digest.hex()}"


AUDIT_COLLECTION = "audit_events"


class AppendOnlyViolation(RuntimeError):
    """Something tried to change or remove an audit event."""


class AppendOnlyCollection:
    """The audit log as the app sees it: rows can be appended and read, never changed or
    removed (any other collection method raises ``AppendOnlyViolation``)."""

    _READS = ("find", "find_one", "count_documents", "estimated_document_count", "name")

    def __init__(self, collection: Collection) -> None:
        self._collection = collection

    def insert_one(self, document: dict[str, Any]) -> Any:
        return self._collection.insert_one(document)

    def __getattr__(self, name: str) -> Any:
        if name in self._READS:
            return getattr(self._collection, name)
        raise AppendOnlyViolation(f"audit_events is append-only: {name} is not allowed")


class GuardedDatabase:
    """The app's database: every collection as pymongo gives it, except the audit log, which
    is append-only."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def __getitem__(self, name: str) -> Any:
        if name == AUDIT_COLLECTION:
            return AppendOnlyCollection(self._db[name])
        return self._db[name]

    def __getattr__(self, name: str) -> Any:
        if name == AUDIT_COLLECTION:
            return AppendOnlyCollection(self._db[name])
        return getattr(self._db, name)


class Store:
    """The app's view of its two stores."""

    def __init__(self, settings: AppSettings) -> None:
        self.settings = settings
        self.client: MongoClient = MongoClient(
            settings.mongo_uri, tz_aware=False, serverSelectionTimeoutMS=5000
        )
        self.db = GuardedDatabase(self.client[settings.database])
        self._s3: Minio | None = None

    def close(self) -> None:
        """Close the MongoDB connection (its monitor threads with it)."""
        self.client.close()

    def raw_audit(self) -> Collection:
        """The audit collection without the append-only guard: only the
        ``audit_rewritten`` fault switch uses it."""
        return self.client[self.settings.database][AUDIT_COLLECTION]

    # ------------------------------------------------------------------ S3
    @property
    def s3(self):
        if self._s3 is None:
            from urllib.parse import urlparse

            from minio import Minio

            url = urlparse(self.settings.s3_endpoint)
            self._s3 = Minio(
                url.netloc,
                access_key=self.settings.s3_access_key,
                secret_key=self.settings.s3_secret_key,
                secure=url.scheme == "https",
                region=self.settings.s3_region,
            )
        return self._s3

    def put_object(self, key: str, data: bytes, content_type: str) -> None:
        if not self.s3.bucket_exists(self.settings.bucket):
            self.s3.make_bucket(self.settings.bucket)
        self.s3.put_object(
            self.settings.bucket, key, io.BytesIO(data), len(data), content_type=content_type
        )

    def get_object(self, key: str) -> bytes:
        resp = self.s3.get_object(self.settings.bucket, key)
        try:
            return resp.read()
        finally:
            resp.close()
            resp.release_conn()

    # ------------------------------------------------------------------ audit and counters
    def audit(self, actor_role: str, action: str, args: dict[str, Any]) -> None:
        """Append one audit event; audit events are never updated or removed."""
        self.db.audit_events.insert_one(
            {
                "_id": secrets.token_hex(12),
                "actor_role": actor_role,
                "action": action,
                "args_hash": args_hash(args),
                "ts": now_iso(),
            }
        )

    def next_claim_number(self) -> str:
        year = datetime.now(UTC).year
        doc = self.db.counters.find_one_and_update(
            {"_id": f"claim_number_{year}"},
            {"$inc": {"value": 1}},
            upsert=True,
            return_document=ReturnDocument.AFTER,
        )
        return f"{self.settings.claim_prefix}-{year}-{int(doc['value']):06d}"

    # ------------------------------------------------------------------ messages
    def add_message(
        self,
        session_id: str,
        role: str,
        text: str,
        chips: list[str] | None = None,
        kind: str = "message",
    ) -> dict[str, Any]:
        doc = {
            "_id": secrets.token_hex(12),
            "session_id": session_id,
            "role": role,
            "text": text,
            "chips": chips or [],
            "kind": kind,
            "ts": now_iso(),
            "seq": next_seq(),
        }
        self.db.messages.insert_one(doc)
        return doc

    def messages(self, session_id: str) -> list[dict[str, Any]]:
        return list(self.db.messages.find({"session_id": session_id}).sort("seq", 1))
