"""Validate a baseline + setup + files and compute the exact state they describe.

Every problem is reported as a ``SetupProblem`` naming the file and field
(``collections.claims[2]._id``); the plan is built only when there is none.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from .._strict_json import iter_nodes
from ..formats import Baseline, Setup
from ._names import collection_name_problem, content_type_problem, object_key_problem
from ._values import string_problem, value_problems

# Largest document, as compact JSON (BSON's limit is 16 MiB; JSON is a little smaller).
MAX_DOCUMENT_BYTES = 15 * 1024 * 1024
MAX_ID_BYTES = 512
_CONTROL = tuple(chr(c) for c in (*range(0x20), 0x7F))

BASELINE_FILE = "baseline.json"
SETUP_FILE = "setup.json"


@dataclass(frozen=True)
class SetupProblem:
    """One reason a baseline or setup cannot be applied."""

    file: str
    field: str
    message: str


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


def _id_problem(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, str | int) or value == "":
        return "'_id' must be a non-empty string or an integer"
    if isinstance(value, str):
        bad = string_problem(value)
        if bad:
            return f"'_id' {bad}"
        if len(value.encode("utf-8")) > MAX_ID_BYTES:
            return f"'_id' is longer than {MAX_ID_BYTES} bytes"
        if any(c in value for c in _CONTROL):
            return "'_id' holds a control character"
    return None


def _path_problem(path: str) -> str | None:
    """Why a dotted override path cannot name a field, or None."""
    segments = path.split(".")
    if path == "_id" or segments[0] == "_id":
        return "'_id' cannot be changed by an override"
    for seg in segments:
        if seg == "" or seg.startswith("$") or "\x00" in seg:
            return f"path {path!r} has an empty, '$'-prefixed or NUL segment"
        bad = string_problem(seg)
        if bad:
            return f"path {path!r} {bad}"
    return None


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


class _Planner:
    def __init__(self) -> None:
        self.problems: list[SetupProblem] = []
        self.docs: dict[str, dict[str, dict[str, Any]]] = {}
        self.origin: dict[tuple[str, str], str] = {}  # (collection, id) -> where it came from

    def fail(self, file: str, where: str, message: str) -> None:
        self.problems.append(SetupProblem(file, where, message))

    def documents(self, collections: dict[str, Any], file: str) -> None:
        for name, docs in collections.items():
            where = f"collections.{name}"
            bad = collection_name_problem(name)
            if bad:
                self.fail(file, where, bad)
                continue
            bucket = self.docs.setdefault(name, {})
            for i, doc in enumerate(docs if isinstance(docs, list) else []):
                self.document(name, bucket, doc, f"{where}[{i}]", file)

    def document(self, name: str, bucket: dict[str, dict[str, Any]], doc: Any, here: str,
                 file: str) -> None:
        if not isinstance(doc, dict) or "_id" not in doc:
            self.fail(file, here, "every document needs an explicit '_id'")
            return
        bad_id = _id_problem(doc["_id"])
        if bad_id:
            self.fail(file, f"{here}._id", bad_id)
            return
        problems = list(value_problems(doc, here))
        for where, message in problems:
            self.fail(file, where, message)
        if problems:
            return
        if len(json.dumps(doc, ensure_ascii=False)) > MAX_DOCUMENT_BYTES:
            self.fail(file, here, f"document is larger than {MAX_DOCUMENT_BYTES} bytes")
            return
        key = str(doc["_id"])
        if key in bucket:
            first = self.origin[(name, key)]
            self.fail(file, f"{here}._id",
                      f"duplicate _id {key!r} in collection {name!r}, first defined at {first} "
                      "(baseline and setup may not both define it; use an override)")
            return
        self.origin[(name, key)] = f"{file} {here}"
        bucket[key] = copy.deepcopy(doc)

    def overrides(self, setup: Setup) -> None:
        for i, ov in enumerate(setup.overrides):
            where = f"overrides[{i}]"
            bad = collection_name_problem(ov.collection)
            if bad:
                self.fail(SETUP_FILE, f"{where}.collection", bad)
                continue
            target = self.docs.get(ov.collection, {})
            if ov.id not in target:
                self.fail(SETUP_FILE, f"{where}.id",
                          f"override targets {ov.collection}/{ov.id}, which neither the baseline "
                          "nor the setup defines")
                continue
            if ov.delete:
                if ov.set or ov.unset:
                    self.fail(SETUP_FILE, f"{where}.delete",
                              "an override that deletes may not also set or unset")
                else:
                    del target[ov.id]
                continue
            self.change(target[ov.id], ov.set, ov.unset, where)

    def change(self, doc: dict[str, Any], set_: dict[str, Any], unset: list[str],
               where: str) -> None:
        for path, value in set_.items():
            here = f"{where}.set.{path}"
            bad = _path_problem(path)
            problems = [(here, bad)] if bad else list(value_problems(value, here))
            if not problems:
                try:
                    _set_path(doc, path, value)
                except ValueError as exc:
                    problems = [(here, str(exc))]
            for fld, message in problems:
                self.fail(SETUP_FILE, fld, message)
        for j, path in enumerate(unset):
            here = f"{where}.unset[{j}]"
            bad = _path_problem(path)
            if not bad:
                try:
                    _unset_path(doc, path)
                except ValueError as exc:
                    bad = str(exc)
            if bad:
                self.fail(SETUP_FILE, here, bad)
        for fld, message in value_problems(doc, where):  # a set may have made it too deep
            self.fail(SETUP_FILE, fld, message)

    def objects(self, setup: Setup, files: dict[str, bytes]) -> list[PlannedObject]:
        out: list[PlannedObject] = []
        seen: dict[str, int] = {}
        for i, obj in enumerate(setup.objects):
            where = f"objects[{i}]"
            bad = object_key_problem(obj.key)
            if bad:
                self.fail(SETUP_FILE, f"{where}.key", bad)
            elif obj.key in seen:
                self.fail(SETUP_FILE, f"{where}.key",
                          f"object key {obj.key!r} repeats objects[{seen[obj.key]}].key")
            else:
                seen[obj.key] = i
            bad_type = content_type_problem(obj.content_type)
            if bad_type:
                self.fail(SETUP_FILE, f"{where}.content_type", bad_type)
            if obj.file not in files:
                self.fail(SETUP_FILE, f"{where}.file", f"file {obj.file!r} was not supplied")
                continue
            out.append(PlannedObject(obj.key, files[obj.file], obj.content_type))
        # A key that is the folder of another ("a" and "a/b") cannot exist on MinIO.
        for key, i in seen.items():
            parts = key.split("/")
            for n in range(1, len(parts)):
                folder = "/".join(parts[:n])
                if folder in seen:
                    self.fail(SETUP_FILE, f"objects[{i}].key",
                              f"object key {key!r} lies under objects[{seen[folder]}].key "
                              f"{folder!r}; an object cannot also be a folder")
                    break
        return out

    def strings(self, model: Setup | Baseline, file: str) -> None:
        """Lone surrogates in any other string (credentials, known ids) break the answer."""
        data = model.model_dump(mode="python", exclude={"collections", "overrides", "objects"})
        for path, _, node in iter_nodes(data):
            bad = string_problem(node) if isinstance(node, str) else None
            if bad:
                self.fail(file, path, bad)


def plan_setup(baseline: Baseline, setup: Setup, files: dict[str, bytes]
               ) -> tuple[Plan | None, list[SetupProblem]]:
    """The plan for ``baseline`` + ``setup`` + ``files``, or None and every problem found."""
    p = _Planner()
    p.strings(baseline, BASELINE_FILE)
    p.strings(setup, SETUP_FILE)
    p.documents(baseline.collections, BASELINE_FILE)
    p.documents(setup.collections, SETUP_FILE)
    p.overrides(setup)
    objects = p.objects(setup, files)
    if p.problems:
        return None, p.problems
    plan = Plan(pack_id=setup.pack_id,
                collections={name: list(by_id.values()) for name, by_id in p.docs.items()},
                objects=objects)
    return plan, []

