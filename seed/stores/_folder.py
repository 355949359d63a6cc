"""Uploads kept as files in a folder, as a store: a product that keeps them there
(``UPLOAD_DIR=/srv/app/uploads``) is reset like one that keeps them in a bucket.

The folder is emptied and the plan's objects are written as files, one per key
(``claims/CLM-1/photo.jpg`` -> ``<folder>/claims/CLM-1/photo.jpg``), then read back. Its guard
mirrors a database's: a folder holding the production marker (a file ``_environment`` saying
``production``, ``prod`` or ``live``, as text or as JSON ``{"kind": ...}``) is refused, and so is
a folder that is a file-system root, a home folder or a folder above the working directory —
before anything in it is listed. The marker file itself is never removed, written or dumped;
symbolic links inside the folder are removed as links, never followed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from claims_records import ObjectInfo, SeedError

from .._guard import PRODUCTION_KINDS, check_bucket_name
from .._names import ENVIRONMENT_COLLECTION, REASON_DATABASE_NOT_ALLOWED, REASON_PRODUCTION_MARKER
from .._plan import PlannedObject
from ._base import Documents, ObjectStore, refuse
from ._source import StoreSource

MARKER_FILE = ENVIRONMENT_COLLECTION  # "_environment", as the database's marker collection


class FolderStore(ObjectStore):
    """Uploads kept as files under one folder (``bucket``, when given, is a sub-folder)."""

    kind = "folder"

    def __init__(self, folder: Path | str, bucket: str | None = None) -> None:
        root = Path(folder).expanduser()
        if bucket:
            check_bucket_name(bucket)  # one plain segment: no '/', no '..'
            root = root / bucket
        self.root = root
        self.name = bucket or root.name

    # ------------------------------------------------------------------ guard
    def _refuse_root(self) -> Path:
        """The folder, resolved; refused when it is a root, a home or above the working
        directory (before anything in it is listed, for a reset and a dump alike)."""
        root = self.root.resolve()
        home = Path.home().resolve()
        cwd = Path.cwd().resolve()
        if root == Path(root.anchor) or root == home or cwd.is_relative_to(root):
            raise refuse("the uploads folder is a file-system root, a home folder or a folder "
                         "above the working directory: refusing to empty or read it",
                         folder=str(root), reason=REASON_DATABASE_NOT_ALLOWED)
        return root

    def guard(self) -> None:
        root = self._refuse_root()
        if root.exists() and not root.is_dir():
            raise refuse("the uploads folder is not a folder", folder=str(root))
        if not root.exists() and not root.parent.is_dir():
            raise refuse("the uploads folder and its parent do not exist", folder=str(root))
        if _marks_production(root / MARKER_FILE):
            raise refuse("the uploads folder carries the production marker", folder=str(root),
                         file=MARKER_FILE, reason=REASON_PRODUCTION_MARKER)

    def plan(self, documents: Documents, objects: list[PlannedObject]) -> list[PlannedObject]:
        for obj in objects:
            self._path(obj.key)  # every key lands inside, before anything is emptied
        return list(objects)

    # ------------------------------------------------------------------ writing
    def clear(self, plan: list[PlannedObject]) -> None:
        try:
            self.root.mkdir(exist_ok=True)
            for entry in self.root.iterdir():
                if entry.name == MARKER_FILE:
                    continue
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()
        except OSError as exc:
            raise SeedError(f"the uploads folder failed while emptying: {exc.strerror or exc}",
                            folder=str(self.root)) from exc

    def load(self, plan: list[PlannedObject]) -> None:
        try:
            for obj in plan:
                target = self._path(obj.key)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(obj.data)
        except OSError as exc:
            raise SeedError(f"the uploads folder failed while loading: {exc.strerror or exc}",
                            folder=str(self.root)) from exc

    def _path(self, key: str) -> Path:
        target = self.root.joinpath(*key.split("/"))
        if key == MARKER_FILE or not target.resolve().is_relative_to(self.root.resolve()):
            raise SeedError("an object key would land outside the uploads folder or on its "
                            "marker", key=key, folder=str(self.root))
        return target

    # ------------------------------------------------------------------ reading
    def _files(self) -> dict[str, Path]:
        self._refuse_root()
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

    def verify(self, plan: list[PlannedObject]) -> list[str]:
        found = self.dump()
        problems: list[str] = []
        wanted = {o.key: o.data for o in plan}
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


def open_store(source: StoreSource) -> FolderStore:
    """The folder the source's variable names (the lane's bucket a sub-folder)."""
    return FolderStore(source.value(), source.bucket)
