"""The canonical <-> Kestrel mapping of canonical_mapping.toml, applied to documents."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

MAPPING_FILE = Path(__file__).with_name("canonical_mapping.toml")


def _flatten(doc: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if isinstance(value, dict) and value:
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def _unflatten(flat: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path, value in flat.items():
        *parents, leaf = path.split(".")
        node = out
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = value
    return out


def _rename(path: str, renames: dict[str, str]) -> str:
    best = max((p for p in renames if path == p or path.startswith(p + ".")), key=len,
               default=None)
    return path if best is None else renames[best] + path[len(best):]


def _map_value(value: Any, table: dict[str, str] | None) -> Any:
    if not table:
        return value
    if isinstance(value, list):
        return [table.get(v, v) if isinstance(v, str) else v for v in value]
    return table.get(value, value) if isinstance(value, str) else value


class Mapping:
    """Collection rename, field renames (longest prefix) and value maps per field."""

    def __init__(self, path: Path = MAPPING_FILE) -> None:
        self.raw = tomllib.loads(path.read_text(encoding="utf-8"))["collections"]

    def collection(self, canonical: str) -> str:
        return self.raw[canonical]["to"]

    def canonical_names(self) -> list[str]:
        return list(self.raw)

    def to_product(self, canonical: str, doc: dict[str, Any]) -> dict[str, Any]:
        spec = self.raw[canonical]
        fields, values = spec.get("fields", {}), spec.get("values", {})
        return _unflatten({_rename(p, fields): _map_value(v, values.get(p))
                           for p, v in _flatten(doc).items()})

    def to_canonical(self, canonical: str, doc: dict[str, Any]) -> dict[str, Any]:
        spec = self.raw[canonical]
        inverse = {v: k for k, v in spec.get("fields", {}).items()}
        values = {k: {b: a for a, b in t.items()} for k, t in spec.get("values", {}).items()}
        out = {}
        for p, v in _flatten(doc).items():
            canon = _rename(p, inverse)
            out[canon] = _map_value(v, values.get(canon))
        return _unflatten(out)

    def fixtures(self, collections: dict[str, list[dict[str, Any]]]) -> dict[str, list]:
        """Setup collections (canonical) as Kestrel fixtures; unmapped ones are dropped."""
        out: dict[str, list] = {}
        for name, docs in collections.items():
            target = self.collection(name)
            if target:
                out.setdefault(target, []).extend(self.to_product(name, d) for d in docs)
        return out
