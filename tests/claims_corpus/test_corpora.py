"""Several corpora side by side: a held-out corpus with its own prefix beside packs/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import claims_corpus
from claims_records import PackError

from ..conftest import PACKS, make_held_out


def test_a_held_out_corpus_beside_the_public_one(tmp_path: Path) -> None:
    held = make_held_out(tmp_path / "private", {"CTL-M-001": "HLD-M-001"})
    assert claims_corpus.check_corpus(held).lines() == []  # a corpus in its own right
    both = claims_corpus.open_corpora([PACKS, held])
    assert [c.id_prefix for c in both.corpora] == ["CTL", "HLD"]
    assert both.first.root == PACKS and both.corpora[1].name == "held-out set"
    assert both.pack_dir("HLD-M-001") == held / "HLD-M-001"
    assert both.pack_dir("CTL-M-001") == PACKS / "CTL-M-001"
    assert both.corpus_of("HLD-M-001").version == "1.0.0"
    assert "HLD-M-001" in both.pack_ids and "CTL-H-004" in both.pack_ids
    with pytest.raises(PackError, match="no corpus of this run"):
        both.pack_dir("XYZ-M-001")


def test_two_corpora_with_one_prefix_are_refused(tmp_path: Path) -> None:
    twin = make_held_out(tmp_path / "twin", {"CTL-M-001": "CTL-M-901"}, prefix="CTL")
    with pytest.raises(PackError, match="two corpora use the id prefix 'CTL'") as exc:
        claims_corpus.open_corpora([PACKS, twin])
    assert exc.value.context["field"] == "id_prefix"


def test_corpora_must_share_the_product_baseline(tmp_path: Path) -> None:
    held = make_held_out(tmp_path / "private", {"CTL-M-001": "HLD-M-001"})
    baseline = json.loads((held / "baseline.json").read_text())
    baseline["collections"]["staff"] = []
    (held / "baseline.json").write_text(json.dumps(baseline))
    with pytest.raises(PackError, match="baseline differs") as exc:
        claims_corpus.open_corpora([PACKS, held])
    assert exc.value.context["file"] == str(held / "baseline.json")


def test_a_pack_folder_with_another_prefix_is_reported(tmp_path: Path) -> None:
    held = make_held_out(tmp_path / "private", {"CTL-M-001": "HLD-M-001"})
    (held / "CTL-M-002").mkdir()
    problems = claims_corpus.check_corpus(held).problems
    assert [(p.pack, p.file, p.field) for p in problems] == [(None, "CTL-M-002", "<folder>")]
    assert "id prefix 'HLD'" in problems[0].message
    with pytest.raises(PackError, match="do not start with the corpus's id prefix"):
        claims_corpus.open_corpora([PACKS, held])
