"""Dump a lane's state (every collection and object) and diff two dumps.

Vary patterns (fields allowed to change without being reported) are dotted field paths:

- ``updated_at`` — the top-level field ``updated_at`` of every document;
- ``*`` matches exactly one path segment: ``*.ts`` is ``ts`` one level down (``meta.ts``);
- ``**`` matches any number of segments, none included: ``**.ts`` is ``ts`` at any depth;
- list elements are segments too: ``messages.*.body`` is the ``body`` of every message;
- a pattern also covers everything below the path it matches: ``notes`` covers ``notes.0.text``;
- ``collection:pattern`` restricts a pattern to one collection: ``claims:status``.

Changed documents are compared leaf by leaf (a leaf is a scalar, an empty object or an empty
list), so every reported field is a dotted path to a leaf. ``before`` or ``after`` is ``null``
for a field that is absent on that side.
"""

from __future__ import annotations

import datetime as _dt
import fnmatch
import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from pymongo.database import Database

from claims_records import (
    DocumentChange,
    FieldChange,
    ObjectChange,
    ObjectInfo,
    SeedError,
    StateDiff,
    StateDump,
)

from . import _s3
from ._guard import check_bucket_name
from ._jsonsafe import id_key, json_safe
from ._names import is_state_collection
from ._s3 import S3Config


def utc_now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def dump_collections(db: Database) -> dict[str, dict[str, dict[str, Any]]]:
    """Every state collection as ``collection -> id -> JSON-safe document``, sorted.

    Empty collections are left out: a reset empties collections rather than dropping them (so
    the product's indexes stay), and an empty collection holds no state.
    """
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name in sorted(n for n in db.list_collection_names() if is_state_collection(n)):
        docs = {id_key(d["_id"]): json_safe(d) for d in db[name].find({})}
        if docs:
            out[name] = {k: docs[k] for k in sorted(docs)}
    return out


def dump_objects(s3: S3Config, bucket: str) -> dict[str, ObjectInfo]:
    out: dict[str, ObjectInfo] = {}
    for key in _s3.list_keys(s3, bucket):
        digest, size = _s3.sha256_and_size(s3, bucket, key)
        out[key] = ObjectInfo(sha256=digest, size=size)
    return out


def dump_state(db: Database, s3: S3Config, bucket: str) -> StateDump:
    """Every collection (except the reserved ones) and every object of one lane."""
    check_bucket_name(bucket)
    return StateDump(
        taken_at=utc_now_iso(),
        database=db.name,
        bucket=bucket,
        collections=dump_collections(db),
        objects=dump_objects(s3, bucket),
    )


def load_state_dump(path: Path) -> StateDump:
    """A state dump written earlier (state-before.json, state-after.json)."""
    try:
        return StateDump.model_validate_json(Path(path).read_bytes())
    except OSError as exc:
        raise SeedError(f"cannot read state dump: {exc.strerror}", file=str(path)) from exc
    except ValidationError as exc:
        err = exc.errors()[0]
        raise SeedError(f"invalid state dump: {err['msg']}", file=str(path),
                        field=".".join(str(p) for p in err["loc"])) from exc


def object_info(data: bytes) -> ObjectInfo:
    return ObjectInfo(sha256=hashlib.sha256(data).hexdigest(), size=len(data))


# --------------------------------------------------------------------------- diff


class _Vary:
    """Compiled vary patterns."""

    def __init__(self, patterns: Iterable[str]) -> None:
        self._rules: list[tuple[str | None, list[str]]] = []
        for p in patterns:
            coll: str | None = None
            if ":" in p:
                coll, p = p.split(":", 1)
            self._rules.append((coll, [s for s in p.split(".") if s != ""]))

    def covers(self, collection: str, path: str) -> bool:
        segs = path.split(".")
        return any(
            (coll is None or coll == collection) and _prefix_match(pat, segs)
            for coll, pat in self._rules
        )


def _prefix_match(pattern: Sequence[str], segs: Sequence[str]) -> bool:
    """True if ``pattern`` matches ``segs`` or one of its leading parts."""
    if not pattern:
        return True
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(_prefix_match(rest, segs[i:]) for i in range(len(segs) + 1))
    if not segs:
        return False
    if head == "*" or fnmatch.fnmatchcase(segs[0], head):
        return _prefix_match(rest, segs[1:])
    return False


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Leaf paths of a JSON value: ``{"a": {"b": [1]}}`` -> ``{"a.b.0": 1}``."""
    if isinstance(value, dict) and value:
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    if isinstance(value, list) and value:
        out = {}
        for i, v in enumerate(value):
            out.update(flatten(v, f"{prefix}.{i}" if prefix else str(i)))
        return out
    return {prefix: value}


def _path_order(path: str) -> tuple:
    return tuple((0, int(s), "") if s.isdigit() else (1, 0, s) for s in path.split("."))


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def diff_documents(collection: str, doc_id: str, before: dict[str, Any], after: dict[str, Any],
                   vary: _Vary) -> tuple[list[FieldChange], list[str]]:
    fb, fa = flatten(before), flatten(after)
    changes: list[FieldChange] = []
    ignored: list[str] = []
    for path in sorted(set(fb) | set(fa), key=_path_order):
        b, a = fb.get(path), fa.get(path)
        if path in fb and path in fa and _same(b, a):
            continue
        if vary.covers(collection, path):
            ignored.append(f"{collection}/{doc_id}/{path}")
        else:
            changes.append(FieldChange(field=path, before=b, after=a))
    return changes, ignored


def diff_states(before: StateDump, after: StateDump, vary: Iterable[str] = ()) -> StateDiff:
    """Documents added, removed and changed (field by field) and objects by content hash.

    Output is ordered by collection, then id, then field path; objects by key. Fields covered by
    a ``vary`` pattern are left out of the changes and listed in ``ignored_fields`` as
    ``collection/id/path``.
    """
    rules = _Vary(vary)
    docs: list[DocumentChange] = []
    ignored: list[str] = []
    for coll in sorted(set(before.collections) | set(after.collections)):
        b_docs = before.collections.get(coll, {})
        a_docs = after.collections.get(coll, {})
        for doc_id in sorted(set(b_docs) | set(a_docs)):
            if doc_id not in b_docs:
                docs.append(DocumentChange(collection=coll, id=doc_id, change="added",
                                           document=a_docs[doc_id]))
            elif doc_id not in a_docs:
                docs.append(DocumentChange(collection=coll, id=doc_id, change="removed",
                                           document=b_docs[doc_id]))
            else:
                fields, skipped = diff_documents(coll, doc_id, b_docs[doc_id], a_docs[doc_id],
                                                 rules)
                ignored.extend(skipped)
                if fields:
                    docs.append(DocumentChange(collection=coll, id=doc_id, change="changed",
                                               fields=fields))
    objects: list[ObjectChange] = []
    for key in sorted(set(before.objects) | set(after.objects)):
        b, a = before.objects.get(key), after.objects.get(key)
        if b is None:
            objects.append(ObjectChange(key=key, change="added", after=a))
        elif a is None:
            objects.append(ObjectChange(key=key, change="removed", before=b))
        elif b.sha256 != a.sha256 or b.size != a.size:
            objects.append(ObjectChange(key=key, change="changed", before=b, after=a))
    return StateDiff(documents=docs, objects=objects, ignored_fields=ignored)


def compare_documents(expected: dict[str, list[dict[str, Any]]],
                      actual: dict[str, dict[str, dict[str, Any]]],
                      names: list[str] | None = None) -> list[str]:
    """Differences between documents meant to be written (per collection) and documents
    read back (collection -> id -> JSON-safe document), as short descriptions."""
    problems: list[str] = []
    for name in names if names is not None else sorted(expected):
        want = {id_key(d["_id"]): json_safe(d) for d in expected.get(name, [])}
        have = actual.get(name, {})
        for doc_id in sorted(set(want) | set(have)):
            if doc_id not in have:
                problems.append(f"missing document {name}/{doc_id}")
            elif doc_id not in want:
                problems.append(f"unexpected document {name}/{doc_id}")
            elif want[doc_id] != have[doc_id]:
                problems.append(f"document {name}/{doc_id} differs")
    return problems
