"""Object stores a direct reset writes uploads into: an S3 bucket, or files in a folder.

A product that keeps uploads as files (``UPLOAD_DIR=/srv/app/uploads``) is reset like one that
keeps them in a bucket: the folder is emptied and the setup's objects are written as files,
one per key (``claims/CLM-1/photo.jpg`` -> ``<folder>/claims/CLM-1/photo.jpg``), then read
back. The folder's guards mirror the database's: a folder holding the production marker (a
file ``_environment`` saying ``production``, ``prod`` or ``live``, as text or as JSON
``{"kind": ...}``) is refused, and so is a folder that is a file-system root, a home folder
or a folder above the working directory. The marker file itself is never removed, written or
dumped; symbolic links inside the folder are removed as links, never followed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Protocol

from minio.error import MinioException
from urllib3.exceptions import HTTPError as Urllib3Error

from claims_records import ObjectInfo, SeedError

from . import _s3
from ._guard import PRODUCTION_KINDS, check_bucket_name
from ._names import (
    ENVIRONMENT_COLLECTION,
    REASON_DATABASE_NOT_ALLOWED,
    REASON_PRODUCTION_MARKER,
)
from ._plan import PlannedObject
from ._s3 import S3Config

MARKER_FILE = ENVIRONMENT_COLLECTION  # "_environment", as the database's marker collection


class ObjectStore(Protocol):
    """Where a product keeps uploads, as a direct reset sees it."""

    name: str  # the bucket, or the folder's name: StateDump.bucket

    def check(self) -> None:
        """Refuse (``SeedError``) before anything is emptied when this store may not be reset."""

    def replace(self, objects: list[PlannedObject]) -> None:
        """Empty the store and write ``objects``."""

    def problems(self, objects: list[PlannedObject]) -> list[str]:
        """Differences between the store and ``objects`` (empty: it holds exactly them)."""

    def dump(self) -> dict[str, ObjectInfo]:
        """Every object, by key."""


class S3Objects:
    """A bucket of an S3-compatible store."""

    def __init__(self, s3: S3Config, bucket: str) -> None:
        self.s3 = s3
        self.name = bucket

    def check(self) -> None:
        check_bucket_name(self.name)

    def replace(self, objects: list[PlannedObject]) -> None:
        try:
            _s3.empty_bucket(self.s3, self.name)
            for obj in objects:
                _s3.put(self.s3, self.name, obj.key, obj.data, obj.content_type)
        except (MinioException, Urllib3Error, ValueError) as exc:
            raise SeedError(f"S3 store failed during a direct reset: {exc}",
                            bucket=self.name) from exc

    def problems(self, objects: list[PlannedObject]) -> list[str]:
        try:
            listed = {o.object_name: o.size for o in
                      _s3.client(self.s3).list_objects(self.name, recursive=True)}
        except (MinioException, Urllib3Error) as exc:
            raise SeedError(f"S3 store unreachable: {exc}", bucket=self.name) from exc
        wanted = {o.key: len(o.data) for o in objects}
        return _compare_sizes(wanted, listed)

    def dump(self) -> dict[str, ObjectInfo]:
        from ._state import dump_objects

        try:
            return dump_objects(self.s3, self.name)
        except (MinioException, Urllib3Error) as exc:
            raise SeedError(f"S3 store unreachable: {exc}", bucket=self.name) from exc


def _compare_sizes(wanted: dict[str, int], found: dict[str, int | None]) -> list[str]:
    problems: list[str] = []
    for key in sorted(set(wanted) | set(found)):
        if key not in found:
            problems.append(f"missing object {key}")
        elif key not in wanted:
            problems.append(f"unexpected object {key}")
        elif found[key] != wanted[key]:
            problems.append(f"object {key} has size {found[key]}, expected {wanted[key]}")
    return problems


class FolderObjects:
    """Uploads kept as files under one folder (``bucket``, when given, is a sub-folder)."""

    def __init__(self, folder: Path | str, bucket: str | None = None) -> None:
        root = Path(folder).expanduser()
        if bucket:
            check_bucket_name(bucket)  # one plain segment: no '/', no '..'
            root = root / bucket
        self.root = root
        self.name = bucket or root.name

    # ------------------------------------------------------------------ guards
    def check(self) -> None:
        root = self.root.resolve()
        home = Path.home().resolve()
        cwd = Path.cwd().resolve()
        if root == Path(root.anchor) or root == home or cwd.is_relative_to(root):
            raise SeedError("the uploads folder is a file-system root, a home folder or a "
                            "folder above the working directory: refusing to empty it",
                            folder=str(root), reason=REASON_DATABASE_NOT_ALLOWED)
        if not root.exists():
            if not root.parent.is_dir():
                raise SeedError("the uploads folder and its parent do not exist",
                                folder=str(root))
            root.mkdir()
        if not root.is_dir():
            raise SeedError("the uploads folder is not a folder", folder=str(root))
        if _marks_production(root / MARKER_FILE):
            raise SeedError("the uploads folder carries the production marker",
                            folder=str(root), file=MARKER_FILE,
                            reason=REASON_PRODUCTION_MARKER)

    # ------------------------------------------------------------------ writing
    def replace(self, objects: list[PlannedObject]) -> None:
        self.check()
        try:
            for entry in self.root.iterdir():
                if entry.name == MARKER_FILE:
                    continue
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()
            for obj in objects:
                target = self._path(obj.key)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(obj.data)
        except OSError as exc:
            raise SeedError(f"the uploads folder failed during a direct reset: "
                            f"{exc.strerror or exc}", folder=str(self.root)) from exc

    def _path(self, key: str) -> Path:
        target = self.root.joinpath(*key.split("/"))
        if key == MARKER_FILE or not target.resolve().is_relative_to(self.root.resolve()):
            raise SeedError("an object key would land outside the uploads folder or on its "
                            "marker", key=key, folder=str(self.root))
        return target

    # ------------------------------------------------------------------ reading
    def _files(self) -> dict[str, Path]:
        if not self.root.is_dir():
            return {}
        out: dict[str, Path] = {}
        for here, dirs, files in os.walk(self.root):  # never follows links to folders
            base = Path(here)
            dirs.sort()
            for name in sorted(files):
                path = base / name
                key = path.relative_to(self.root).as_posix()
                if key != MARKER_FILE and path.is_file() and not path.is_symlink():
                    out[key] = path
        return out

    def problems(self, objects: list[PlannedObject]) -> list[str]:
        found = self.dump()
        problems: list[str] = []
        wanted = {o.key: o.data for o in objects}
        for key in sorted(set(wanted) | set(found)):
            if key not in found:
                problems.append(f"missing object {key}")
            elif key not in wanted:
                problems.append(f"unexpected object {key}")
            elif found[key].sha256 != hashlib.sha256(wanted[key]).hexdigest():
                problems.append(f"object {key} content differs")
        return problems

    def dump(self) -> dict[str, ObjectInfo]:
        out: dict[str, ObjectInfo] = {}
        try:
            for key, path in self._files().items():
                data = path.read_bytes()
                out[key] = ObjectInfo(sha256=hashlib.sha256(data).hexdigest(), size=len(data))
        except OSError as exc:
            raise SeedError(f"cannot read the uploads folder: {exc.strerror or exc}",
                            folder=str(self.root)) from exc
        return out


def _marks_production(path: Path) -> bool:
    """True when ``path`` is a marker file naming production (as text, or JSON ``kind``)."""
    if not path.is_file():
        return False
    text = path.read_text(encoding="utf-8", errors="replace").strip()
    try:
        data = json.loads(text)
    except ValueError:
        data = text
    kind = data.get("kind") if isinstance(data, dict) else data
    kinds = kind if isinstance(kind, list) else [kind]
    return any(isinstance(k, str) and k.strip().casefold() in PRODUCTION_KINDS for k in kinds)
