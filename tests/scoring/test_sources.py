"""The source each score came from: the formats that record it (old records without it still
load), the source each component records, and a source a component does not declare refused."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

import pytest
from pydantic import BaseModel, ValidationError

from claims_corpus import load_customer_view
from claims_corpus.formats import Labels
from claims_records import (
    SCORE_SOURCES,
    ComponentCounts,
    ComponentResult,
    RunRecord,
    Sheet,
    StaffReading,
    StaffSource,
    TrialStatus,
)
from scoring import load_trial, score_run, score_trial, write_report
from scoring._record import CheckInput, PackContext, TrialRecord
from scoring.components import REGISTRY, Component, score_component

from .builders import Variant, make_labels, write_corpus, write_run

PACKS = Path(__file__).resolve().parents[2] / "packs"

# A sheet as the scorer wrote it before sources were recorded (no "source" anywhere).
OLD_SHEET: dict[str, Any] = {
    "version": "1", "run_id": "run-1", "pack_id": "CTL-M-001", "trial": 1,
    "path": "CTL-M-001/trial-1", "self_test": False, "trial_status": "completed",
    "error_category": "none", "scorable": True, "success": True,
    "explanation": "all 2 scored components passed", "line": "motor",
    "message_style": "plain", "innocent_control": False, "review_required": False,
    "components": [
        {"name": "triage", "status": "pass", "explanation": "class standard",
         "failure_modes": [], "details": {}},
        {"name": "journey", "status": "pass", "explanation": "claim number obtained"},
    ],
}
# staff.json as the harness wrote it before the source was kept.
OLD_STAFF: dict[str, Any] = {"version": "1", "claim_number": "NWF-2026-000123", "found": True,
                             "triage_class": "standard", "not_shown": []}


@pytest.mark.parametrize(("model", "data", "read", "expected"), [
    (Sheet, OLD_SHEET, lambda s: [c.source for c in s.components], [None, None]),
    (ComponentResult, OLD_SHEET["components"][0], lambda c: c.source, None),
    (StaffReading, OLD_STAFF, lambda r: r.source, "staff_screen"),
    (ComponentCounts, {"passed": 3, "failed": 1}, lambda c: c.sources, {}),
], ids=["sheet", "component", "staff", "summary component"])
def test_records_written_before_sources_still_load(model: type[BaseModel], data: dict[str, Any],
                                                   read: Any, expected: Any) -> None:
    assert read(model.model_validate(data)) == expected


def test_a_staff_source_is_a_score_source() -> None:
    assert set(get_args(StaffSource)) <= set(SCORE_SOURCES)


@pytest.mark.parametrize(("model", "data"), [
    (ComponentResult, {**OLD_SHEET["components"][0], "source": "network_log"}),
    (StaffReading, {**OLD_STAFF, "source": "screen_text"}),
])
def test_a_source_outside_the_closed_set_is_refused(model: type[BaseModel],
                                                    data: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="source"):
        model.model_validate(data)


# --------------------------------------------------------------------------- scored sources


def _sheet(tmp_path: Path, source: str, hidden: tuple[str, ...] = (), labels: Labels | None = None
           ) -> dict[str, ComponentResult]:
    """A faithful trial whose staff side was read from ``source``, scored."""
    labels = labels or make_labels(review={"checks": HIT, "review_required": True,
                                           "customer_explanations": EXPLAINED})
    run_dir = write_run(tmp_path / "run", tmp_path / "packs",
                        [(labels, 1, Variant(hidden=hidden))])
    staff_path = run_dir / "CTL-M-001/trial-1/staff.json"
    staff = StaffReading.model_validate_json(staff_path.read_text())
    staff.source = source
    staff_path.write_text(staff.model_dump_json())
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    sheet = score_trial(load_trial(run, run_dir, run.trials[0]), labels,
                        pack=PackContext(view=load_customer_view(PACKS / "CTL-C-001"),
                                         other_customer={"name": "Priya Shah"}))
    return {c.name: c for c in sheet.components}


HIT = {"receipt_after_incident": "hit", "quote_before_incident": "not_applicable",
       "prior_claims_12m": "clear", "policy_start_30d": "clear"}
EXPLAINED = {"receipt_after_incident": "receipt_reprint"}
# The source every other component's score is read from, whatever the staff reading's.
FIXED = {"journey": "screen_text", "privacy": "screen_text", "state": "state",
         "assertions_state": "state", "assertions_text": "screen_text"}


@pytest.mark.parametrize("source", get_args(StaffSource))
def test_each_score_records_the_source_it_was_read_from(tmp_path: Path, source: str) -> None:
    by = _sheet(tmp_path, source)
    for name in ("triage", "review", "facts", "incident_datetime", "waiting_list"):
        assert by[name].status in ("pass", "fail") and by[name].source == source, name
    for name, fixed in FIXED.items():
        assert by[name].status in ("pass", "fail") and by[name].source == fixed, name
    # waiting for a reviewer, or never read (no [agent_decision]): read from nothing
    assert by["assertions_human"].status == "queued" and by["assertions_human"].source is None
    assert by["agent_decision"].status == "not_implemented"
    assert by["agent_decision"].source is None


def test_a_staff_region_not_shown_records_no_source(tmp_path: Path) -> None:
    by = _sheet(tmp_path, "stores", hidden=("facts", "waiting_list"))
    assert [(by[n].status, by[n].source) for n in ("facts", "waiting_list", "triage")] == [
        ("not_implemented", None), ("not_implemented", None), ("pass", "stores")]


def test_the_explanation_is_refused_from_the_stores(tmp_path: Path) -> None:
    screen, stores = _sheet(tmp_path / "screen", "staff_screen"), _sheet(tmp_path, "stores")
    assert screen["explanation"].status == "fail"  # checked: the row says nothing of it
    assert screen["explanation"].source == "staff_screen"
    refused = stores["explanation"]
    assert (refused.status, refused.source, refused.failure_modes) == (
        "not_implemented", None, [])
    assert refused.explanation == ("explanation is scored only from the staff screen; this "
                                   "trial's staff side was read from the product's stores")
    assert refused.details == {"read_from": "stores", "scored_from": ["staff_screen"]}


STAFF_SIDE = [c for c in REGISTRY if c.staff_reading]


def _never(t: CheckInput) -> ComponentResult:
    raise AssertionError("a refused source is never checked")


@pytest.mark.parametrize(("declared", "read_from"), [
    (c, s) for c in [*STAFF_SIDE, Component("triage", ("stores",), _never, staff_reading=True)]
    for s in get_args(StaffSource) if s not in c.sources],
    ids=lambda v: v.name if isinstance(v, Component) else v)
def test_a_component_refuses_a_source_it_does_not_declare(declared: Component,
                                                          read_from: str) -> None:
    record = TrialRecord(run_id="r", pack_id="CTL-M-001", trial=1, path="CTL-M-001/trial-1",
                         self_test=False, status=TrialStatus.COMPLETED,
                         staff=StaffReading(found=True, source=read_from))
    result = score_component(declared, CheckInput(record, make_labels()))
    assert (result.name, result.status, result.source) == (declared.name, "not_implemented",
                                                           None)
    assert f"read from the product's {read_from.replace('_', ' ')}" in result.explanation


def test_the_staff_side_components_are_the_ones_named_in_the_docs() -> None:
    assert [c.name for c in STAFF_SIDE] == ["triage", "review", "explanation", "facts",
                                            "incident_datetime", "waiting_list"]


def test_the_summary_and_the_report_say_which_source_each_score_came_from(
        tmp_path: Path) -> None:
    labels = [make_labels("CTL-M-001"), make_labels("CTL-M-002")]
    corpus = write_corpus(tmp_path / "packs", labels)
    run_dir = write_run(tmp_path / "run", corpus, [(labels[0], 1, None), (labels[0], 2, None),
                                                   (labels[1], 1, None)])
    for trial in ("CTL-M-001/trial-2", "CTL-M-002/trial-1"):  # no staff screen: the stores
        path = run_dir / trial / "staff.json"
        path.write_text(StaffReading.model_validate_json(path.read_text()).model_copy(
            update={"source": "stores"}).model_dump_json())

    summary = score_run(run_dir)
    assert summary.components["triage"].sources == {"staff_screen": 1, "stores": 2}
    assert summary.components["journey"].sources == {"screen_text": 3}
    assert summary.components["assertions_human"].sources == {}  # queued: read from nothing

    index = write_report(run_dir)
    text = index.read_text()
    assert ("triage: 1 from the staff screen, 2 from stores · review: 1 from the staff "
            "screen, 2 from stores") in text
    assert "read from the product's stores, not from a staff screen" in text
    assert "<td>staff screen 1, stores 2</td>" in text and "<td>screen text 3</td>" in text
    page = (index.parent / "packs" / "CTL-M-002.html").read_text()
    shown = re.findall(r'<td data-testid="source">([^<]*)</td>', page)
    assert shown[:7] == ["stores", "stores", "stores", "stores", "screen text", "stores",
                         "state"]


@pytest.mark.parametrize(("product", "recorded", "shown"), [
    ({}, "staff_screen", "read from the staff screen"),  # a record made before it was kept
    ({"capabilities": {"staff_side": False}}, "none", "none (the product has no staff side"),
    ({"capabilities": {"staff_side": False}, "staff_side": "stores"}, "stores",
     "read from the stores (the product has no staff screen"),
], ids=["older-record", "no-staff-side", "stores"])
def test_the_run_record_and_the_report_say_where_the_staff_side_was_read(
        tmp_path: Path, product: dict[str, Any], recorded: str, shown: str) -> None:
    labels = [make_labels("CTL-M-001")]
    corpus = write_corpus(tmp_path / "packs", labels)
    run_dir = write_run(tmp_path / "run", corpus, [(labels[0], 1, None)])
    path = run_dir / "run.json"
    data = json.loads(path.read_text())
    data["product"].update(product)
    path.write_text(json.dumps(data))
    assert RunRecord.model_validate(data).product.staff_side == recorded
    score_run(run_dir)
    text = write_report(run_dir).read_text()
    cell = re.search(r'<td data-testid="staff-side">([^<]*)</td>', text)
    assert cell is not None and cell[1].startswith(shown)
