"""An S3-compatible bucket as a store of uploads (MinIO, AWS S3, moto's server).

Its guard refuses a name S3 would reject and a server that does not answer; a reset empties
the bucket (creating it when missing) and puts the plan's objects; verifying compares sizes
and content (the ETag when it is the MD5, else the bytes read back).
"""

from __future__ import annotations

import hashlib
import os
import re

from minio.error import MinioException, S3Error
from urllib3.exceptions import HTTPError as Urllib3Error

from claims_records import ObjectInfo, SeedError

from .. import _s3
from .._guard import check_bucket_name
from .._names import REASON_STORE_ERROR
from .._plan import PlannedObject
from .._state import dump_objects
from ._base import Documents, ObjectStore, StoreOptions, refuse
from ._source import StoreSource

_S3_ERRORS = (MinioException, Urllib3Error, OSError, ValueError)


class S3Options(StoreOptions):
    """How an S3 store is signed in to: the variables holding its key and secret, its
    region."""

    access_key_env: str = ""
    secret_key_env: str = ""
    region: str = "us-east-1"


class BucketStore(ObjectStore):
    """One bucket of the S3-compatible store ``s3``."""

    kind = "s3"

    def __init__(self, s3: _s3.S3Config, bucket: str) -> None:
        self.s3 = s3
        self.name = bucket

    def guard(self) -> None:
        check_bucket_name(self.name)
        try:
            _s3.client(self.s3).bucket_exists(self.name)
        except S3Error as exc:  # it answers, and refuses (the keys, the bucket's policy)
            raise refuse(f"the S3 store at {self.s3.host_port} refused the harness: "
                         f"{exc.code}: {exc.message}", bucket=self.name,
                         reason=REASON_STORE_ERROR) from exc
        except _S3_ERRORS as exc:
            raise refuse(f"the S3 store at {self.s3.host_port} cannot be reached: "
                         f"{_cause(exc)}", bucket=self.name, reason=REASON_STORE_ERROR) from exc

    def plan(self, documents: Documents, objects: list[PlannedObject]) -> list[PlannedObject]:
        return list(objects)

    def clear(self, plan: list[PlannedObject]) -> None:
        try:
            _s3.empty_bucket(self.s3, self.name)
        except _S3_ERRORS as exc:
            raise SeedError(f"S3 failed while emptying the bucket: {exc}", bucket=self.name,
                            reason=REASON_STORE_ERROR) from exc

    def load(self, plan: list[PlannedObject]) -> None:
        try:
            for obj in plan:
                _s3.put(self.s3, self.name, obj.key, obj.data, obj.content_type)
        except _S3_ERRORS as exc:
            raise SeedError(f"S3 failed while loading: {exc}", bucket=self.name,
                            reason=REASON_STORE_ERROR) from exc

    def verify(self, plan: list[PlannedObject]) -> list[str]:
        try:
            listed = ({o.object_name: o for o in
                       _s3.client(self.s3).list_objects(self.name, recursive=True)}
                      if _s3.bucket_exists(self.s3, self.name) else {})  # missing: empty
            wanted = {o.key: o for o in plan}
            problems: list[str] = []
            for key in sorted(set(listed) | set(wanted)):
                if key not in listed:
                    problems.append(f"missing object {key}")
                elif key not in wanted:
                    problems.append(f"unexpected object {key}")
                elif listed[key].size != len(data := wanted[key].data):
                    problems.append(f"object {key} has size {listed[key].size}, expected "
                                    f"{len(data)}")
                elif (listed[key].etag or "").strip('"') != hashlib.md5(
                        data, usedforsecurity=False).hexdigest() and (
                        hashlib.sha256(_s3.read(self.s3, self.name, key)).digest()
                        != hashlib.sha256(data).digest()):
                    problems.append(f"object {key} content differs")
            return problems
        except _S3_ERRORS as exc:
            raise SeedError(f"the S3 store cannot be read: {exc}", bucket=self.name,
                            reason=REASON_STORE_ERROR) from exc

    def dump(self) -> dict[str, ObjectInfo]:
        try:
            return dump_objects(self.s3, self.name)
        except _S3_ERRORS as exc:
            raise SeedError(f"the S3 store cannot be read: {exc}", bucket=self.name,
                            reason=REASON_STORE_ERROR) from exc


def _cause(exc: BaseException) -> str:
    """A connection failure on one short line: its kind and the system's reason
    (``MaxRetryError: [Errno 111] Connection refused``), without the client's retry dump."""
    reason = re.search(r"\[Errno -?\d+\][^\"')]*", str(exc))
    return f"{type(exc).__name__}: {reason[0].strip()}" if reason else type(exc).__name__


def open_store(source: StoreSource) -> BucketStore | None:
    """The lane's bucket on the S3-compatible server the source's variable names; None for a
    lane that names no bucket (its uploads are not reset)."""
    options: S3Options = source.parsed_options(S3Options)
    if not source.bucket:
        return None
    s3 = _s3.S3Config(endpoint=source.value(),
                      access_key=os.environ.get(options.access_key_env, ""),
                      secret_key=os.environ.get(options.secret_key_env, ""),
                      region=options.region)
    return BucketStore(s3, source.bucket)
