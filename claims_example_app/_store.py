"""Kestrel's stores: MongoDB (pymongo) and S3 (minio client), events, claim references."""

from __future__ import annotations

import hashlib
import io
import json
import secrets
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlparse

import urllib3
from minio import Minio
from minio.deleteobjects import DeleteObject
from pymongo import MongoClient

from . import _schema as S
from ._settings import KestrelSettings

# Claim references: CLM-<yy>-<6 characters> from an alphabet without 0/O, 1/I/L and U.
REF_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
REF_PATTERN = r"CLM-\d{2}-[2-9A-HJKMNP-TV-Z]{6}"


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def digest(payload: dict[str, Any]) -> str:
    """sha256 of ``payload`` as sorted, compact JSON."""
    blob = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def new_id() -> str:
    return secrets.token_hex(12)


class Store:
    """One Kestrel instance's database and bucket."""

    def __init__(self, settings: KestrelSettings) -> None:
        self.settings = settings
        self.client: MongoClient = MongoClient(settings.mongo_uri, serverSelectionTimeoutMS=5000)
        self.db = self.client[settings.database]
        self.bucket = settings.bucket
        url = urlparse(settings.s3_endpoint)
        self.s3 = Minio(
            url.netloc,
            access_key=settings.s3_access_key,
            secret_key=settings.s3_secret_key,
            secure=url.scheme == "https",
            region=settings.s3_region,
            http_client=urllib3.PoolManager(
                timeout=urllib3.Timeout(connect=3, read=30),
                retries=urllib3.Retry(total=2, backoff_factor=0.1,
                                      status_forcelist=(500, 502, 503, 504)),
            ),
        )

    def close(self) -> None:
        self.client.close()

    # ------------------------------------------------------------------ files
    def put_file(self, key: str, data: bytes, mime: str) -> None:
        if not self.s3.bucket_exists(self.bucket):
            self.s3.make_bucket(self.bucket)
        self.s3.put_object(self.bucket, key, io.BytesIO(data), len(data), content_type=mime)

    def read_file(self, key: str) -> bytes:
        resp = self.s3.get_object(self.bucket, key)
        try:
            return resp.read()
        finally:
            resp.close()
            resp.release_conn()

    def file_keys(self) -> list[str]:
        if not self.s3.bucket_exists(self.bucket):
            return []
        return [o.object_name for o in self.s3.list_objects(self.bucket, recursive=True)]

    def empty_bucket(self) -> int:
        """Remove every object of the bucket; the number removed."""
        keys = self.file_keys()
        if keys:
            errors = list(self.s3.remove_objects(self.bucket, [DeleteObject(k) for k in keys]))
            if errors:
                raise OSError(f"could not remove {len(errors)} object(s): {errors[0]}")
        return len(keys)

    # ------------------------------------------------------------------ records
    def event(self, actor: str, what: str, **details: Any) -> None:
        """Append one event (never updated or removed)."""
        self.db[S.EVENTS].insert_one(
            {"_id": new_id(), "actor": S.ACTORS[actor], "what": what,
             "digest": digest(details), "at": utc_now()}
        )

    def new_claim_ref(self) -> str:
        year = datetime.now(UTC).strftime("%y")
        while True:
            ref = f"CLM-{year}-" + "".join(secrets.choice(REF_ALPHABET) for _ in range(6))
            if self.db[S.CASES].find_one({"ref": ref}, {"_id": 1}) is None:
                return ref

    def find_cover(self, policy_ref: str) -> dict[str, Any] | None:
        return self.db[S.COVER].find_one({"policyRef": policy_ref.strip().upper()})

    def loss_dates(self, holder_id: str) -> list[str]:
        return [str(d["lossDate"])[:10] for d in self.db[S.LOSS_HISTORY].find(
            {"holderId": holder_id}, {"lossDate": 1}) if d.get("lossDate")]

    def holder(self, holder_id: str | None) -> dict[str, Any] | None:
        return self.db[S.POLICYHOLDERS].find_one({"_id": holder_id}) if holder_id else None
