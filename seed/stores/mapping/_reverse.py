"""A dump of the product's stores -> canonical collections, keyed by canonical id.

The inverse of ``_forward``: every mapped collection is read back under its canonical name —
its canonical id from the column that holds it, from the key the harness assigned, or from the
row's own key; references from the referred row's key back to its canonical id; child rows
gathered into their parent's field; fields renamed back and values mapped back. Fixed and
derived columns, and the product's key column where it holds no canonical id, are left out.
A product collection with no map keeps its own name, unless that is the name of a canonical
collection the profile maps elsewhere (or to nothing): then it is shown as
``product.<name>``, so it is never read as the canonical one.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from typing import Any

from ..._jsonsafe import id_key
from .._base import DumpedCollections
from ._model import ChildMap, CollectionMap, Mapping
from ._paths import MISSING, convert, get_path, pop_path, put_path, translate

PRODUCT_PREFIX = "product."

KeyFields = dict[str, str | None]
"""Product collection -> the field of its dumped documents that holds each one's key
(``_id`` in MongoDB, the primary-key column in SQL; None when the key is composite)."""

Assigned = dict[tuple[str, str], str]
"""(product collection, key) -> the canonical id of a row whose key the harness assigned."""


def canonical_collections(collections: DumpedCollections, mapping: Mapping, *,
                          key_fields: KeyFields | None = None, assigned: Assigned | None = None,
                          ignore: Iterable[str] = ()) -> DumpedCollections:
    """``collections`` (product names, keyed by each document's key) in canonical terms."""
    key_fields = key_fields or {}
    assigned = assigned or {}
    ignored = set(ignore)
    parents = {cmap.collection: (name, cmap) for name, cmap in mapping.items()
               if cmap.collection}
    child_tables = {child.table for _, cmap in parents.values()
                    for child in cmap.children.values()}
    ids = {table: {key: _canonical_id(table, key, doc, parents.get(table), key_fields,
                                      assigned) for key, doc in docs.items()}
           for table, docs in collections.items()}
    out: DumpedCollections = {}
    for table, docs in collections.items():
        if table in ignored or table in child_tables:
            continue
        if table in parents:
            name, cmap = parents[table]
            out[name] = {ids[table][key]: _document(table, key, doc, cmap, mapping, collections,
                                                    ids, key_fields)
                         for key, doc in docs.items()}
        else:
            clash = table in mapping and mapping[table].collection != table
            key_field = key_fields.get(table, "_id")
            out[PRODUCT_PREFIX + table if clash else table] = {
                key: _keyed_by_id(doc, key_field) for key, doc in docs.items()}
    return {name: dict(sorted(docs.items())) for name, docs in sorted(out.items())}


def _keyed_by_id(doc: dict[str, Any], key_field: str | None) -> dict[str, Any]:
    """A document of a collection the profile does not map, its key column shown as ``_id``
    (where a reset wrote the id, when the table has no ``_id`` column)."""
    out = copy.deepcopy(doc)
    if key_field and key_field != "_id" and "_id" not in out and key_field in out:
        out["_id"] = out.pop(key_field)
    return out


def _canonical_id(table: str, key: str, doc: dict[str, Any],
                  mapped: tuple[str, CollectionMap] | None, key_fields: KeyFields,
                  assigned: Assigned) -> str:
    if mapped is None:
        return key
    cmap = mapped[1]
    if cmap.key == "assigned":
        return assigned.get((table, key), key)
    if "_id" in cmap.fields:
        value = get_path(doc, cmap.fields["_id"])
        return key if value is MISSING or value is None else id_key(value)
    return key


def _document(table: str, key: str, doc: dict[str, Any], cmap: CollectionMap,
              mapping: Mapping, collections: DumpedCollections,
              ids: dict[str, dict[str, str]], key_fields: KeyFields) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    key_field = key_fields.get(table, "_id")
    if cmap.key == "assigned":
        if key_field:
            out.pop(key_field, None)
        out["_id"] = ids[table][key]
    elif "_id" in cmap.fields:  # the id has a column of its own: the key is the product's
        if key_field and key_field not in cmap.fields.values():
            out.pop(key_field, None)
    elif key_field and key_field != "_id" and "_id" not in out:
        value = out.pop(key_field, MISSING)
        out["_id"] = key if value is MISSING else value
    for column in [*cmap.fixed, *cmap.derived]:
        pop_path(out, column)
    for field, target in cmap.refs.items():
        path = translate(field, cmap.fields)
        value = get_path(out, path)
        tmap = mapping.get(target)
        referred = tmap.collection if tmap is not None else target
        if value is MISSING or value is None or not referred:
            continue
        found = ids.get(referred, {}).get(id_key(value))
        if found is not None:
            pop_path(out, path)
            put_path(out, path, found)
    gathered = {field: _gather(key, child, collections.get(child.table, {}),
                               key_fields.get(child.table))
                for field, child in cmap.children.items()}
    out = convert(out, cmap.fields, cmap.values, forward=False)
    for field, value in gathered.items():
        if value is not None:
            out[field] = value
    return out


def _gather(parent_key: str, child: ChildMap, rows: dict[str, dict[str, Any]],
            key_field: str | None) -> Any:
    """The parent's field rebuilt from its child rows (None when it has none)."""
    mine = [(key, row) for key, row in rows.items()
            if row.get(child.parent_key) is not None
            and id_key(row[child.parent_key]) == parent_key]
    if not mine:
        return None
    mine.sort(key=lambda pair: _natural(pair[0]))
    entries = []
    for _, row in mine:
        entry = copy.deepcopy(row)
        item = entry.pop(child.item_key, None) if child.item_key else None
        entry.pop(child.parent_key, None)
        for column in child.fixed:
            entry.pop(column, None)
        if key_field and key_field not in child.fields.values() and key_field != child.value:
            entry.pop(key_field, None)
        value = (entry.get(child.value) if child.value
                 else convert(entry, child.fields, child.values, forward=False))
        entries.append((item, value))
    if child.item_key:
        return {id_key(item): value for item, value in entries}
    return [value for _, value in entries]


def _natural(key: str) -> tuple[int, Any]:
    return (0, int(key)) if re.fullmatch(r"-?\d+", key) else (1, key)
