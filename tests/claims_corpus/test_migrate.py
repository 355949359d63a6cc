"""`corpus migrate`: a v0.2 corpus becomes v0.3 without changing what it says."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import claims_corpus
from claims_records import PackError

from .conftest import PACKS

JSON_FILES = ("input/persona.json", "input/facts.json", "input/materials.json",
              "oracle/labels.json", "setup.json", "provenance.json", "review.json")


def _rewrite(path: Path, change: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _as_v02(pack: Path) -> None:
    """Write a committed v0.3 pack back in the v0.2 shape."""
    def facts(d: dict) -> None:
        for f in d["facts"]:
            if f["kind"] == "money":
                f["value"] = f["value"]["amount"]

    def materials(d: dict) -> None:
        for m in d["materials"]:
            if m.get("later"):
                m["later"]["available_after_messages"] = m["later"].pop("arrives")[
                    "after_messages"]

    def labels(d: dict) -> None:
        d.pop("unknown_facts")
        for group in ("expected_facts", "optional_facts"):
            for key, value in d[group].items():
                if isinstance(value, dict):
                    d[group][key] = value["amount"]

    def persona(d: dict) -> None:
        d.pop("correction_phrase")
        d.pop("hands_over")

    edits = {"input/facts.json": facts, "input/materials.json": materials,
             "oracle/labels.json": labels, "input/persona.json": persona}
    for name in JSON_FILES:
        edit = edits.get(name, lambda _: None)
        _rewrite(pack / name, lambda d, edit=edit: (edit(d), d.update(version="0.2")))


@pytest.fixture
def v02_corpus(tmp_path: Path) -> Path:
    root = tmp_path / "packs"
    root.mkdir()
    shutil.copy2(PACKS / "baseline.json", root / "baseline.json")
    for pack_id in ("CTL-M-004", "CTL-C-001"):
        shutil.copytree(PACKS / pack_id, root / pack_id)
        _as_v02(root / pack_id)
    manifest = json.loads((PACKS / "manifest.json").read_text(encoding="utf-8"))
    manifest.pop("id_prefix")
    manifest.pop("name")
    manifest.update(version="0.2", packs={})
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    _rewrite(root / "baseline.json", lambda d: d.update(version="0.2"))
    return root


def test_a_v02_corpus_is_migrated_and_then_checks_clean(v02_corpus: Path) -> None:
    assert claims_corpus.check_corpus(v02_corpus).problems  # v0.2 files fail the v0.3 models
    changed = claims_corpus.migrate_corpus(v02_corpus)
    assert "CTL-C-001/input/facts.json" in changed and "manifest.json" in changed
    claims_corpus.update_manifest(v02_corpus)
    assert claims_corpus.check_corpus(v02_corpus).lines() == []
    c001 = claims_corpus.load_pack(v02_corpus / "CTL-C-001")
    value = c001.facts.as_dict()["items_value"].value
    assert (value.amount, value.currency) == (1850, "GBP")
    assert c001.labels.expected_facts["items_value"] == value
    later = claims_corpus.load_pack(v02_corpus / "CTL-M-004").materials.materials[1].later
    assert later is not None and later.arrives.after_messages == 3
    assert claims_corpus.load_manifest(v02_corpus).id_prefix == "CTL"
    assert claims_corpus.migrate_corpus(v02_corpus) == []  # a second run changes nothing


def test_a_file_of_another_version_leaves_everything_untouched(v02_corpus: Path) -> None:
    _rewrite(v02_corpus / "CTL-M-004/review.json", lambda d: d.update(version="0.1"))
    before = {p: p.read_bytes() for p in v02_corpus.rglob("*.json")}
    with pytest.raises(PackError, match="cannot migrate version '0.1'") as exc:
        claims_corpus.migrate_corpus(v02_corpus)
    assert exc.value.context["file"] == "review.json"
    assert {p: p.read_bytes() for p in v02_corpus.rglob("*.json")} == before
