"""JSON Schema export: one schema file per pack format (``claims_corpus.formats.SCHEMAS``) and
per record format (``claims_records.SCHEMAS``)."""

from __future__ import annotations

import json
from pathlib import Path

import claims_records

from .formats import SCHEMAS as PACK_SCHEMAS

SCHEMAS = {**PACK_SCHEMAS, **claims_records.SCHEMAS}


def render_schemas() -> dict[str, bytes]:
    """The bytes of every schema file, keyed by file name (sorted keys, indent 2, newline)."""
    return {
        name: (json.dumps(model.model_json_schema(), indent=2, sort_keys=True,
                          ensure_ascii=False) + "\n").encode("utf-8")
        for name, model in sorted(SCHEMAS.items())
    }


def write_schemas(directory: Path | str) -> list[Path]:
    """Write every schema into ``directory``; returns the paths written."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    out: list[Path] = []
    for name, data in render_schemas().items():
        path = directory / name
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
        out.append(path)
    return out


def stale_schemas(directory: Path | str) -> list[str]:
    """Schema files that are missing, different, or no longer generated (extra ``*.json``)."""
    directory = Path(directory)
    expected = render_schemas()
    stale = [name for name, data in expected.items()
             if not (directory / name).is_file() or (directory / name).read_bytes() != data]
    if directory.is_dir():
        stale += sorted(p.name for p in directory.glob("*.json") if p.name not in expected)
    return stale
