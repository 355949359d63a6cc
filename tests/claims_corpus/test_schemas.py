from __future__ import annotations

import json
from pathlib import Path

import claims_corpus
import claims_records
from claims_corpus.formats import SCHEMAS as PACK_SCHEMAS

from .conftest import PACKS

SCHEMAS = {**PACK_SCHEMAS, **claims_records.SCHEMAS}


def test_committed_schemas_match_the_models(tmp_path: Path) -> None:
    assert not set(PACK_SCHEMAS) & set(claims_records.SCHEMAS)
    written = claims_corpus.write_schemas(tmp_path)
    assert sorted(p.name for p in written) == sorted(SCHEMAS)
    committed = PACKS / "schema"
    for path in written:
        assert (committed / path.name).read_bytes() == path.read_bytes(), (
            f"packs/schema/{path.name} is out of date: run `claims-harness corpus schema`")
    extra = {p.name for p in committed.glob("*.json")} - set(SCHEMAS)
    assert not extra, f"schemas of no model: {sorted(extra)}"


def test_schema_format_and_staleness(tmp_path: Path) -> None:
    claims_corpus.write_schemas(tmp_path)
    text = (tmp_path / "labels.schema.json").read_text()
    assert text.endswith("}\n") and text.startswith("{\n  ")
    assert json.loads(text)["additionalProperties"] is False
    assert claims_corpus.stale_schemas(tmp_path) == []
    (tmp_path / "labels.schema.json").write_text("{}\n")
    (tmp_path / "old.schema.json").write_text("{}\n")
    assert claims_corpus.stale_schemas(tmp_path) == ["labels.schema.json", "old.schema.json"]
