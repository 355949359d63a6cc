"""Which packs the defect panel runs each fault on: only packs where the fault can show (by
the manifest, the pack's oracle and its customer's view), a small sample by default that
shares packs across faults and spreads them over the lines, every pack on request, and the
panel's cost said before anything starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import claims_corpus
from claims_cli.app import app
from claims_cli.selftest_cmd import _applicable, _sample, _with_decision
from claims_reference_app import FAULTS

PACKS = Path(__file__).resolve().parents[2] / "packs"
SELECTED = [p.name for p in claims_corpus.list_packs(PACKS)]
MANIFEST = claims_corpus.load_manifest(PACKS)
LINES = {p: e.line for p, e in MANIFEST.packs.items()}


def fitting(fault: str, selected: list[str] = SELECTED) -> list[str]:
    return _applicable(PACKS, MANIFEST, selected, FAULTS[fault],
                       _with_decision(PACKS, selected, FAULTS[fault].decisions))


def test_a_fault_runs_only_where_it_can_show() -> None:
    # invent_fact records a police reference only where the customer gave none
    knows_reference = {p for p in SELECTED if "police_reference" in
                       {f.key for f in claims_corpus.load_customer_view(PACKS / p).facts}}
    assert "CTL-C-001" in knows_reference
    assert set(fitting("invent_fact")) == set(SELECTED) - knows_reference
    # flag_one_check turns a clear policy_start_30d into a hit: never where it already is one
    clear = {p for p in SELECTED if claims_corpus.load_labels(PACKS / p).review.checks
             .get("policy_start_30d") == "clear"}
    assert {"CTL-M-002", "CTL-M-003"}.isdisjoint(clear)
    assert set(fitting("flag_one_check")) == clear
    # lose_fact drops the incident time: only where the oracle expects one collected
    assert all("incident_time" in claims_corpus.load_labels(PACKS / p).expected_facts
               for p in fitting("lose_fact"))
    # the manifest's own criteria still hold
    assert all(MANIFEST.packs[p].review_required for p in fitting("miss_flag"))
    assert all("mid_question" in MANIFEST.packs[p].pressure for p in fitting("drop_questions"))


@pytest.mark.parametrize("per_fault", [1, 2, 3])
def test_the_default_sample_takes_that_many_packs_each_from_the_lines_in_turn(
        per_fault: int) -> None:
    every = {f: fitting(f) for f in FAULTS}
    sample = _sample(every, per_fault, LINES)
    for fault, packs in sample.items():
        assert len(packs) == min(per_fault, len(every[fault])), fault
        assert set(packs) <= set(every[fault])
        wanted_lines = {LINES[p] for p in every[fault]}
        assert len({LINES[p] for p in packs}) == min(len(packs), len(wanted_lines)), fault
    union = set().union(*sample.values())
    assert len(union) < sum(len(p) for p in sample.values())  # faults share packs
    assert _sample(every, None, LINES) == every  # --all-packs: every pack each fault fits


def test_packs_per_fault_1_never_picks_a_pack_where_the_fault_cannot_show() -> None:
    selected = ["CTL-M-001", "CTL-C-001", "CTL-H-001"]
    every = {f: fitting(f, selected) for f in FAULTS if fitting(f, selected)}
    sample = _sample(every, 1, LINES)
    assert sample["invent_fact"] != ["CTL-C-001"]  # a theft reported with a reference


def test_the_panels_cost_is_printed_before_anything_starts(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    import claims_dev

    def refuse(*args: object, **kwargs: object) -> None:
        raise RuntimeError("nothing starts in this test")

    monkeypatch.setattr(claims_dev, "start_stores", refuse)
    for extra, scope in (([], "2 pack(s) per fault"), (["--all-packs"], "every pack")):
        result = CliRunner().invoke(app, ["selftest", "defects", "--packs", str(PACKS),
                                          "--runs-dir", str(tmp_path), *extra])
        first = result.output.splitlines()[0]
        assert first.startswith("panel: 19 fault(s) on ") and scope in first, result.output
        assert " min on an idle two-core machine" in first
        assert isinstance(result.exception, RuntimeError)
