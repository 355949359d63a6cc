"""The canonical schema of the corpus <-> a product's own collections, fields and values.

Setups and the scorer speak the canonical schema (``docs/reference-app.md``: ``policies``,
``claims.policy_number``, ``claims.status = "submitted"`` …). A profile's ``[mapping]`` says
how one product stores the same things; setups are written through it and state dumps are read
back through its inverse, so the scorer only ever sees canonical terms.
"""

from __future__ import annotations

import copy
from typing import Any

from claims_records import StateDump

from .profile import CollectionMap

_MISSING = object()


def _pop_path(doc: dict[str, Any], path: str) -> Any:
    """Remove and return the value at ``path``; parents it leaves empty go too (a dict that
    was empty before is kept: it is data)."""
    parts = path.split(".")
    chain: list[dict[str, Any]] = [doc]
    for part in parts[:-1]:
        node = chain[-1].get(part)
        if not isinstance(node, dict):
            return _MISSING
        chain.append(node)
    if parts[-1] not in chain[-1]:
        return _MISSING
    value = chain[-1].pop(parts[-1])
    for depth in range(len(chain) - 1, 0, -1):
        if chain[depth]:
            break
        del chain[depth - 1][parts[depth - 1]]
    return value


def _put_path(doc: dict[str, Any], path: str, value: Any) -> None:
    """Place ``value`` at ``path``; a dict already there is merged with a dict value."""
    parts = path.split(".")
    node = doc
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    here = node.get(parts[-1])
    if isinstance(here, dict) and isinstance(value, dict):
        here.update(value)
    else:
        node[parts[-1]] = value


def _map_value(value: Any, table: dict[str, Any]) -> Any:
    if isinstance(value, list):
        return [_map_value(v, table) for v in value]
    return table.get(value, value) if isinstance(value, str) else value


def _convert(doc: dict[str, Any], cmap: CollectionMap, forward: bool) -> dict[str, Any]:
    """Rename fields (longest paths first, so ``facts.x.state`` can move apart from the rest of
    ``facts.x``) and map values; ``forward`` is canonical -> product."""
    out = copy.deepcopy(doc)
    pairs = [(c, p) if forward else (p, c) for c, p in cmap.fields.items()]
    moved: list[tuple[str, Any]] = []
    for src, dst in sorted(pairs, key=lambda pair: -pair[0].count(".")):
        value = _pop_path(out, src)
        if value is not _MISSING:
            moved.append((dst, value))
    for dst, value in moved:
        _put_path(out, dst, value)
    for canonical_path, table in cmap.values.items():
        path = translate(canonical_path, cmap.fields) if forward else canonical_path
        value = _pop_path(out, path)
        if value is _MISSING:
            continue
        if forward:
            new = _map_value(value, table)
        else:
            back = {repr(v): k for k, v in table.items()}
            new = ([back.get(repr(v), v) for v in value] if isinstance(value, list)
                   else back.get(repr(value), value))
        _put_path(out, path, new)
    return out


def translate(path: str, fields: dict[str, str]) -> str:
    """A canonical dotted path in the product's terms: the longest renamed prefix wins."""
    best = max((c for c in fields if path == c or path.startswith(c + ".")),
               key=len, default=None)
    return path if best is None else fields[best] + path[len(best):]


def to_product(collections: dict[str, list[dict[str, Any]]],
               mapping: dict[str, CollectionMap]) -> dict[str, list[dict[str, Any]]]:
    """Canonical documents per collection -> the product's collection, field and value names.

    Collections without a mapping keep their name and documents; collections mapped to ''
    are left out."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name, docs in collections.items():
        cmap = mapping.get(name)
        if cmap is None:
            out.setdefault(name, []).extend(copy.deepcopy(docs))
            continue
        if not cmap.collection:
            continue  # the product has no such collection
        out.setdefault(cmap.collection, []).extend(_convert(d, cmap, True) for d in docs)
    return out


def to_canonical(dump: StateDump, mapping: dict[str, CollectionMap],
                 ignore: list[str] | tuple[str, ...] = ()) -> StateDump:
    """A state dump of the product read back in canonical terms (ignored collections left out)."""
    by_product = {cmap.collection: (canonical, cmap) for canonical, cmap in mapping.items()
                  if cmap.collection}
    collections: dict[str, dict[str, dict[str, Any]]] = {}
    for name, docs in dump.collections.items():
        if name in ignore:
            continue
        if name in by_product:
            canonical, cmap = by_product[name]
            collections[canonical] = {i: _convert(d, cmap, False) for i, d in docs.items()}
        else:
            collections[name] = docs
    return dump.model_copy(update={"collections": dict(sorted(collections.items()))})


def product_collections(mapping: dict[str, CollectionMap]) -> list[str]:
    """The product's names of every mapped collection."""
    return [cmap.collection for cmap in mapping.values() if cmap.collection]
