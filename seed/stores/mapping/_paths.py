"""Dotted paths in JSON documents: take a value out, put one in, rename and map values."""

from __future__ import annotations

import copy
from typing import Any

MISSING = object()


def pop_path(doc: dict[str, Any], path: str) -> Any:
    """Remove and return the value at ``path`` (``MISSING`` when absent); parents it leaves
    empty go too (a dict that was empty before is kept: it is data)."""
    parts = path.split(".")
    chain: list[dict[str, Any]] = [doc]
    for part in parts[:-1]:
        node = chain[-1].get(part)
        if not isinstance(node, dict):
            return MISSING
        chain.append(node)
    if parts[-1] not in chain[-1]:
        return MISSING
    value = chain[-1].pop(parts[-1])
    for depth in range(len(chain) - 1, 0, -1):
        if chain[depth]:
            break
        del chain[depth - 1][parts[depth - 1]]
    return value


def get_path(doc: dict[str, Any], path: str) -> Any:
    """The value at ``path``, or ``MISSING``."""
    node: Any = doc
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return MISSING
        node = node[part]
    return node


def put_path(doc: dict[str, Any], path: str, value: Any) -> None:
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


def translate(path: str, fields: dict[str, str]) -> str:
    """A canonical dotted path in the product's terms: the longest renamed prefix wins."""
    best = max((c for c in fields if path == c or path.startswith(c + ".")),
               key=len, default=None)
    return path if best is None else fields[best] + path[len(best):]


def _map_value(value: Any, table: dict[str, Any]) -> Any:
    if isinstance(value, list):
        return [_map_value(v, table) for v in value]
    return table.get(value, value) if isinstance(value, str) else value


def convert(doc: dict[str, Any], fields: dict[str, str], values: dict[str, dict[str, Any]],
            forward: bool) -> dict[str, Any]:
    """Rename fields (longest paths first, so ``facts.x.state`` can move apart from the rest
    of ``facts.x``) and map values; ``forward`` is canonical -> product."""
    out = copy.deepcopy(doc)
    pairs = [(c, p) if forward else (p, c) for c, p in fields.items()]
    moved: list[tuple[str, Any]] = []
    for src, dst in sorted(pairs, key=lambda pair: -pair[0].count(".")):
        value = pop_path(out, src)
        if value is not MISSING:
            moved.append((dst, value))
    for dst, value in moved:
        put_path(out, dst, value)
    for canonical_path, table in values.items():
        path = translate(canonical_path, fields) if forward else canonical_path
        value = pop_path(out, path)
        if value is MISSING:
            continue
        if forward:
            new = _map_value(value, table)
        else:
            back = {repr(v): k for k, v in table.items()}
            new = ([back.get(repr(v), v) for v in value] if isinstance(value, list)
                   else back.get(repr(value), value))
        put_path(out, path, new)
    return out
