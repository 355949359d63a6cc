"""The scenario table and the generator: the table lists every pack of packs/ with the
classification its files carry, and building a row again gives the same files byte for byte."""

from __future__ import annotations

import filecmp
from pathlib import Path

import pytest

import claims_corpus
from claims_corpus.authoring import SCENARIO_KINDS, build_pack, load_table
from claims_records import PackError

PACKS = Path(__file__).resolve().parents[2] / "packs"


@pytest.fixture(scope="module")
def table():
    return load_table()


def test_the_table_lists_every_pack_with_its_classification(table) -> None:
    manifest = claims_corpus.load_manifest(PACKS)
    rows = {r.id: r for r in table.pack}
    assert sorted(rows) == sorted(manifest.packs)
    checks = {"receipt": "receipt_after_incident", "quote": "quote_before_incident",
              "prior": "prior_claims_12m", "policy": "policy_start_30d"}
    for pack_id, entry in manifest.packs.items():
        row = rows[pack_id]
        assert (entry.scenario_kind, entry.message_style, entry.claimant_session) == (
            row.kind, row.style, row.session), pack_id
        assert entry.line == SCENARIO_KINDS[row.kind]
        assert sorted(entry.pressure) == sorted(row.pressure), pack_id
        assert entry.innocent_control == bool(row.control), pack_id
        hits = {c for c, o in claims_corpus.load_pack(PACKS / pack_id).labels.review.checks.items()
                if o == "hit"}
        meant = {checks[h] for h in row.hits}
        if row.control in ("policy_weak_only", "prior_weak_only"):
            meant.add(checks[row.control.split("_")[0]])
        assert hits == meant, pack_id


@pytest.mark.parametrize("pack_id", ["CTL-M-009", "CTL-H-015", "CTL-C-014",
                                     "CTL-M-024", "CTL-C-017"])  # an undated quote, no start date
def test_a_row_builds_the_same_pack_byte_for_byte(table, tmp_path, pack_id) -> None:
    n, row = next((i, r) for i, r in enumerate(table.pack) if r.id == pack_id)
    built = build_pack(row, n, tmp_path)
    ours = sorted(p.relative_to(PACKS / pack_id) for p in (PACKS / pack_id).rglob("*")
                  if p.is_file())
    assert ours == sorted(p.relative_to(built) for p in built.rglob("*") if p.is_file())
    for rel in ours:
        assert filecmp.cmp(PACKS / pack_id / rel, built / rel, shallow=False), rel


def test_a_hand_written_row_is_never_generated(table, tmp_path) -> None:
    n, row = next((i, r) for i, r in enumerate(table.pack) if r.hand_written)
    with pytest.raises(PackError, match="hand-written"):
        build_pack(row, n, tmp_path)


def test_a_description_the_message_does_not_hold_is_refused(table, tmp_path) -> None:
    n, row = next((i, r) for i, r in enumerate(table.pack) if not r.hand_written)
    bad = row.model_copy(update={"description": "A meteor landed on the conservatory roof."})
    with pytest.raises(PackError, match="description") as err:
        build_pack(bad, n, tmp_path)
    assert err.value.context["pack"] == row.id
