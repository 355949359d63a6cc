"""Validate a baseline + setup + files and compute the exact state they describe.

Everything that can be wrong with the input is found here, before any store is touched, and
reported as ``InvalidSetupError`` naming the file and field (``collections.claims[2]._id``).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from corpus.errors import SeedError
from corpus.formats import Baseline, Setup

from ._jsonsafe import id_key
from ._names import RESERVED_COLLECTIONS

_COLLECTION_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,119}$")


class InvalidSetupError(SeedError):
    """A baseline or setup cannot be applied (context: file, field, pack)."""


@dataclass
class PlannedObject:
    key: str
    data: bytes
    content_type: str


@dataclass
class Plan:
    """The state a reset must produce: documents per collection and objects by key."""

    pack_id: str
    collections: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    objects: list[PlannedObject] = field(default_factory=list)


def _fail(message: str, file: str, field_path: str, pack: str | None) -> InvalidSetupError:
    return InvalidSetupError(message, pack=pack, file=file, field=field_path)


_INT64 = (-(2**63), 2**63 - 1)


def _check_keys(value: Any, where: str, file: str, pack: str | None) -> None:
    """Field names MongoDB stores as given, and integers that fit in 64 bits."""
    if isinstance(value, int) and not isinstance(value, bool) and not (
            _INT64[0] <= value <= _INT64[1]):
        raise _fail("integer does not fit in 64 bits", file, where, pack)
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str) or not k:
                raise _fail("field names must be non-empty strings", file, where, pack)
            if k.startswith("$") or "." in k or "\x00" in k:
                raise _fail(f"field name {k!r} may not start with '$' or contain '.' or NUL",
                            file, f"{where}.{k}", pack)
            _check_keys(v, f"{where}.{k}", file, pack)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_keys(v, f"{where}[{i}]", file, pack)


def _add_documents(target: dict[str, dict[str, dict[str, Any]]],
                   collections: dict[str, list[dict[str, Any]]], file: str,
                   pack: str | None) -> None:
    for name, docs in collections.items():
        where = f"collections.{name}"
        if name in RESERVED_COLLECTIONS or not _COLLECTION_NAME.match(name):
            raise _fail(f"collection name {name!r} is reserved or not allowed", file, where, pack)
        bucket = target.setdefault(name, {})
        for i, doc in enumerate(docs):
            here = f"{where}[{i}]"
            if not isinstance(doc, dict) or "_id" not in doc:
                raise _fail("every document needs an explicit '_id'", file, here, pack)
            _id = doc["_id"]
            if isinstance(_id, bool) or not isinstance(_id, str | int) or _id == "":
                raise _fail("'_id' must be a non-empty string or an integer", file,
                            f"{here}._id", pack)
            _check_keys(doc, here, file, pack)
            key = id_key(_id)
            if key in bucket:
                raise _fail(f"duplicate _id {key!r} in collection {name!r} (baseline and setup "
                            "may not both define it; use an override)", file, f"{here}._id", pack)
            bucket[key] = copy.deepcopy(doc)


def _walk_to_parent(doc: dict[str, Any], path: str, create: bool) -> tuple[Any, str] | None:
    """The container holding the last segment of ``path`` (``None`` if absent and not created)."""
    segs = path.split(".")
    node: Any = doc
    for seg in segs[:-1]:
        if isinstance(node, dict):
            if seg not in node:
                if not create:
                    return None
                node[seg] = {}
            node = node[seg]
        elif isinstance(node, list) and seg.isdigit() and int(seg) < len(node):
            node = node[int(seg)]
        else:
            raise ValueError(f"cannot descend into {seg!r}")
    return node, segs[-1]


def _set_path(doc: dict[str, Any], path: str, value: Any) -> None:
    parent, last = _walk_to_parent(doc, path, create=True)  # type: ignore[misc]
    if isinstance(parent, dict):
        parent[last] = copy.deepcopy(value)
    elif isinstance(parent, list) and last.isdigit() and int(last) < len(parent):
        parent[int(last)] = copy.deepcopy(value)
    else:
        raise ValueError(f"cannot set {last!r} here")


def _unset_path(doc: dict[str, Any], path: str) -> None:
    found = _walk_to_parent(doc, path, create=False)
    if found is None:
        return
    parent, last = found
    if isinstance(parent, dict):
        parent.pop(last, None)
    else:
        raise ValueError(f"cannot unset {last!r} inside a list")


def build_plan(baseline: Baseline, setup: Setup, files: dict[str, bytes]) -> Plan:
    """Validate the inputs and compute the final state; raise ``InvalidSetupError`` if invalid."""
    pack = setup.pack_id
    docs: dict[str, dict[str, dict[str, Any]]] = {}
    _add_documents(docs, baseline.collections, "baseline.json", pack)
    _add_documents(docs, setup.collections, "setup.json", pack)

    for i, ov in enumerate(setup.overrides):
        where = f"overrides[{i}]"
        target = docs.get(ov.collection, {})
        if ov.id not in target:
            raise _fail(f"override targets {ov.collection}/{ov.id}, which neither the baseline "
                        "nor the setup defines", "setup.json", f"{where}.id", pack)
        if ov.delete:
            if ov.set or ov.unset:
                raise _fail("an override that deletes may not also set or unset",
                            "setup.json", f"{where}.delete", pack)
            del target[ov.id]
            continue
        doc = target[ov.id]
        for path, value in ov.set.items():
            if path == "_id" or path.startswith("_id.") or any(s == "" or s.startswith("$")
                                                              for s in path.split(".")):
                raise _fail(f"cannot set {path!r}", "setup.json", f"{where}.set.{path}", pack)
            _check_keys(value, f"{where}.set.{path}", "setup.json", pack)
            try:
                _set_path(doc, path, value)
            except ValueError as exc:
                raise _fail(str(exc), "setup.json", f"{where}.set.{path}", pack) from exc
        for j, path in enumerate(ov.unset):
            if path == "_id" or path.startswith("_id."):
                raise _fail("cannot unset '_id'", "setup.json", f"{where}.unset[{j}]", pack)
            try:
                _unset_path(doc, path)
            except ValueError as exc:
                raise _fail(str(exc), "setup.json", f"{where}.unset[{j}]", pack) from exc

    objects: list[PlannedObject] = []
    seen: set[str] = set()
    for i, obj in enumerate(setup.objects):
        where = f"objects[{i}]"
        if not obj.key or obj.key.startswith("/") or obj.key in seen:
            raise _fail(f"object key {obj.key!r} is empty, absolute or repeated",
                        "setup.json", f"{where}.key", pack)
        seen.add(obj.key)
        if obj.file not in files:
            raise _fail(f"file {obj.file!r} was not supplied", "setup.json", f"{where}.file", pack)
        objects.append(PlannedObject(obj.key, files[obj.file], obj.content_type))

    return Plan(
        pack_id=pack,
        collections={name: list(by_id.values()) for name, by_id in docs.items()},
        objects=objects,
    )
