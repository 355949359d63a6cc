"""Canonical documents -> the product's collections, fields, values, keys and child rows.

For each canonical collection with a ``CollectionMap``: child-table entries are taken out first
(one row each, pointing at their parent), dropped paths removed, references turned into
``Ref`` markers the store resolves to the referred row's key, fields renamed and values mapped,
the canonical id left out where the product numbers its own rows, and fixed and derived columns
added. A collection without a map keeps its name and documents; one mapped to ``''`` is left
out.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from claims_records import ProfileError

from ..._jsonsafe import id_key
from .._base import Documents, ProductDocument, Ref
from ._model import TEMPLATE_FIELD, ChildMap, CollectionMap, Mapping
from ._paths import MISSING, convert, get_path, pop_path, put_path, translate


def to_product(collections: dict[str, list[dict[str, Any]]], mapping: Mapping) -> Documents:
    """Canonical documents per collection in the product's terms (``ProfileError`` naming the
    profile key when a document does not fit the mapping)."""
    out: Documents = {}
    for name, docs in collections.items():
        cmap = mapping.get(name)
        if cmap is None:
            out.setdefault(name, []).extend(
                ProductDocument(copy.deepcopy(d), id_key(d["_id"]), f"mapping.{name}")
                for d in docs)
            continue
        if not cmap.collection:
            continue  # the product has no such collection
        for doc in docs:
            parent, children = _forward(name, doc, cmap, mapping)
            out.setdefault(cmap.collection, []).append(parent)
            for table, rows in children.items():
                out.setdefault(table, []).extend(rows)
    return out


def as_json(documents: Documents) -> dict[str, list[dict[str, Any]]]:
    """``documents`` as plain JSON (a reference as the canonical id it names): what a
    product's own reset endpoint is sent."""
    def plain(value: Any) -> Any:
        if isinstance(value, Ref):
            return value.canonical_id
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value

    return {name: [plain(d.values) for d in docs] for name, docs in documents.items()}


def _forward(name: str, doc: dict[str, Any], cmap: CollectionMap, mapping: Mapping
             ) -> tuple[ProductDocument, dict[str, list[ProductDocument]]]:
    key = f"mapping.{name}"
    canonical_id = id_key(doc["_id"])
    out = copy.deepcopy(doc)
    derived = {column: fill_template(template, doc, f"{key}.derived.{column}",
                                     table=cmap.collection, column=column)
               for column, template in cmap.derived.items()}
    children: dict[str, list[ProductDocument]] = {}
    for field, child in cmap.children.items():
        value = pop_path(out, field)
        if value is MISSING or value is None:
            continue
        parent = Ref(cmap.collection, canonical_id, f"{key}.children.{field}.parent_key")
        children.setdefault(child.table, []).extend(
            _child_rows(value, child, parent, f"{key}.children.{field}"))
    for path in cmap.drop:
        pop_path(out, path)
    for field, target in cmap.refs.items():
        value = get_path(out, field)
        if value is MISSING or value is None:
            continue
        tmap = mapping.get(target)
        table = tmap.collection if tmap is not None else target
        where = {"field": f"{key}.refs.{field}", "table": cmap.collection,
                 "column": translate(field, cmap.fields)}
        if not table:
            raise ProfileError(f"{field!r} refers to {target!r}, which the product does not "
                               "keep (mapping." + f"{target}.collection = '')", **where)
        if isinstance(value, dict | list | bool):
            raise ProfileError(f"{field!r} holds no id to refer by ({type(value).__name__})",
                               id=canonical_id, **where)
        put_path(out, field, Ref(table, id_key(value), f"{key}.refs.{field}"))
    out = convert(out, cmap.fields, cmap.values, forward=True)
    if cmap.key == "assigned":
        out.pop("_id", None)
    out.update(copy.deepcopy(cmap.fixed))
    out.update(derived)
    return ProductDocument(out, canonical_id, key), children


def _child_rows(value: Any, child: ChildMap, parent: Ref, key: str) -> list[ProductDocument]:
    if isinstance(value, dict):
        if not child.item_key:
            raise ProfileError("the field is an object: name the column holding each entry's "
                               "key (item_key)", field=f"{key}.item_key", table=child.table,
                               id=parent.canonical_id)
        items: list[tuple[str | None, Any]] = list(value.items())
    elif isinstance(value, list):
        if child.item_key:
            raise ProfileError("the field is a list: item_key is only for an object's "
                               "entries", field=f"{key}.item_key", table=child.table,
                               column=child.item_key, id=parent.canonical_id)
        items = [(None, v) for v in value]
    else:
        raise ProfileError(f"the field holds a {type(value).__name__}, not an object or a list "
                           "to keep in a child table", field=key, table=child.table,
                           id=parent.canonical_id)
    rows = []
    for item, entry in items:
        if child.value:
            row: dict[str, Any] = {child.value: copy.deepcopy(entry)}
        elif isinstance(entry, dict):
            entry = copy.deepcopy(entry)
            for path in child.drop:
                pop_path(entry, path)
            row = convert(entry, child.fields, child.values, forward=True)
        else:
            raise ProfileError("the entries are plain values: name the column that holds "
                               "them (value)", field=f"{key}.value", table=child.table,
                               id=parent.canonical_id)
        if item is not None:
            row[child.item_key] = item
        row[child.parent_key] = parent
        row.update(copy.deepcopy(child.fixed))
        rows.append(ProductDocument(row, None, key))
    return rows


def fill_template(template: str, doc: dict[str, Any], field: str, **where: str) -> Any:
    """A derived value: ``template`` with each ``{path}`` replaced by the canonical value
    there; a template that is one placeholder keeps the value's type, in a longer one a value
    is text (a number as Python writes it, true/false, an object or list as JSON).
    ``ProfileError`` naming ``field`` (and ``where``: the table and column) for a path the
    document does not hold, or holds null in a longer template."""
    whole = TEMPLATE_FIELD.fullmatch(template)
    if whole:
        return copy.deepcopy(_value(doc, whole[1], field, where))

    def text(match: Any) -> str:
        value = _value(doc, match[1], field, where)
        if value is None:  # never the text "None"
            raise ProfileError(f"the template names {{{match[1]}}}, which is null in the "
                               "document", field=field, id=id_key(doc.get("_id", "")), **where)
        if isinstance(value, str):
            return value
        return json.dumps(value) if isinstance(value, dict | list | bool) else str(value)

    return TEMPLATE_FIELD.sub(text, template)


def _value(doc: dict[str, Any], path: str, field: str, where: dict[str, str]) -> Any:
    value = get_path(doc, path)
    if value is MISSING:
        raise ProfileError(f"the template names {{{path}}}, which the document does not hold",
                           field=field, id=id_key(doc.get("_id", "")), **where)
    return value


def product_tables(mapping: Mapping) -> list[str]:
    """The product's names of every mapped collection and child table."""
    out = []
    for cmap in mapping.values():
        if cmap.collection:
            out.append(cmap.collection)
            out += [child.table for child in cmap.children.values()]
    return out
