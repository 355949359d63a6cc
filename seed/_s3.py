"""S3-compatible stores: where one listens and how to sign in (``S3Config``), and small
helpers on the minio client: one cached client per store, bucket listing, hashing."""

from __future__ import annotations

import hashlib
import io
import threading
from dataclasses import dataclass
from urllib.parse import urlparse

from minio import Minio
from minio.deleteobjects import DeleteObject
from minio.error import MinioException, S3Error
from urllib3.exceptions import HTTPError as Urllib3Error

from claims_records import SeedError

DEFAULT_S3_KEY = "harness"
DEFAULT_S3_SECRET = "harness-secret"


@dataclass
class S3Config:
    """Where an S3-compatible store listens and how to sign in to it."""

    endpoint: str  # URL, e.g. http://127.0.0.1:9000
    access_key: str = DEFAULT_S3_KEY
    secret_key: str = DEFAULT_S3_SECRET
    region: str = "us-east-1"

    @property
    def host_port(self) -> str:
        return urlparse(self.endpoint).netloc

    @property
    def secure(self) -> bool:
        return urlparse(self.endpoint).scheme == "https"

    def client(self):
        """A minio client for this store."""
        import urllib3
        from minio import Minio

        # Few, quick retries: an unreachable store should fail a reset in seconds, not minutes.
        http = urllib3.PoolManager(
            timeout=urllib3.Timeout(connect=5.0, read=60.0), maxsize=10,
            retries=urllib3.Retry(total=2, backoff_factor=0.1,
                                  status_forcelist=[500, 502, 503, 504]),
        )
        return Minio(
            self.host_port,
            access_key=self.access_key,
            secret_key=self.secret_key,
            secure=self.secure,
            region=self.region,
            http_client=http,
        )


_clients: dict[tuple[str, str, str, str], Minio] = {}
_lock = threading.Lock()


def client(s3: S3Config) -> Minio:
    """A minio client for ``s3``, shared between calls (it keeps its connections alive)."""
    key = (s3.endpoint, s3.access_key, s3.secret_key, s3.region)
    with _lock:
        found = _clients.get(key)
        if found is None:
            found = _clients[key] = s3.client()
        return found


def bucket_exists(s3: S3Config, bucket: str) -> bool:
    try:
        return client(s3).bucket_exists(bucket)
    except (S3Error, OSError, Urllib3Error) as exc:
        raise SeedError(f"S3 store unreachable: {exc}", endpoint=s3.endpoint,
                        bucket=bucket) from exc


def ensure_bucket(s3: S3Config, bucket: str) -> None:
    if not bucket_exists(s3, bucket):
        try:
            client(s3).make_bucket(bucket)
        except S3Error as exc:
            if exc.code not in ("BucketAlreadyOwnedByYou", "BucketAlreadyExists"):
                raise SeedError(f"cannot create bucket: {exc}", bucket=bucket) from exc


def list_keys(s3: S3Config, bucket: str) -> list[str]:
    if not bucket_exists(s3, bucket):
        return []
    return sorted(o.object_name for o in client(s3).list_objects(bucket, recursive=True))


def read(s3: S3Config, bucket: str, key: str) -> bytes:
    resp = client(s3).get_object(bucket, key)
    try:
        return resp.read()
    finally:
        resp.close()
        resp.release_conn()


def sha256_and_size(s3: S3Config, bucket: str, key: str) -> tuple[str, int]:
    data = read(s3, bucket, key)
    return hashlib.sha256(data).hexdigest(), len(data)


def empty_bucket(s3: S3Config, bucket: str) -> int:
    """Make ``bucket`` exist and hold nothing; return how many objects were removed.

    Listing first and creating only on ``NoSuchBucket`` keeps a reset to one request when the
    bucket is already empty.
    """
    try:
        keys = sorted(o.object_name for o in client(s3).list_objects(bucket, recursive=True))
    except S3Error as exc:
        if exc.code != "NoSuchBucket":
            raise SeedError(f"cannot list bucket: {exc}", bucket=bucket) from exc
        ensure_bucket(s3, bucket)
        return 0
    if not keys:
        return 0
    try:
        errors = list(client(s3).remove_objects(bucket, [DeleteObject(k) for k in keys]))
    except (MinioException, ValueError) as exc:
        # The bulk delete is one XML request: a key it cannot carry (a control character the
        # product wrote) fails all of it. One request per object still gets each one out.
        errors = []
        for key in keys:
            try:
                client(s3).remove_object(bucket, key)
            except (MinioException, ValueError) as one:
                raise SeedError(f"could not remove an object: {one}", bucket=bucket,
                                key=repr(key)) from exc
    if errors:
        first = errors[0]
        raise SeedError(f"could not remove {len(errors)} object(s): {first.message}",
                        bucket=bucket, key=first.name)
    return len(keys)


def put(s3: S3Config, bucket: str, key: str, data: bytes, content_type: str) -> None:
    client(s3).put_object(bucket, key, io.BytesIO(data), len(data), content_type=content_type)
