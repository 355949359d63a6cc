"""Scoring speaks canonical terms only: the claim number by the product's own pattern, words a
profile could not map, capabilities a product lacks, state it does not expose, uploads it
never acknowledged."""

from __future__ import annotations

import json
from pathlib import Path

from claims_records import RunRecord
from scoring import load_trial, score_trial, summarise

from .builders import make_labels, write_run

TOLD = {"id": "claim-number-told", "judge": "text", "description": "Claim number told.",
        "text": {"pattern": "{claim_number}"}}


def _sheet(tmp_path: Path, product: dict | None = None, staff: dict | None = None,
           result: dict | None = None, events=None, labels=None):
    labels = labels or make_labels(assertions=[TOLD])
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, None)])
    run_json = json.loads((run_dir / "run.json").read_text())
    run_json["product"].update(product or {})
    (run_dir / "run.json").write_text(json.dumps(run_json))
    trial = run_dir / labels.pack_id / "trial-1"
    for name, change in (("staff.json", staff), ("trial.json", result)):
        if change:
            data = json.loads((trial / name).read_text())
            data.update(change)
            (trial / name).write_text(json.dumps(data))
    if events is not None:
        lines = [json.loads(x) for x in (trial / "journey.jsonl").read_text().splitlines()]
        events(lines)
        (trial / "journey.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    return run, score_trial(load_trial(run, run_dir, run.trials[0], "anonymous"), labels)


def _status(sheet) -> dict[str, str]:
    return {c.name: c.status for c in sheet.components}


def test_the_claim_number_assertion_uses_the_products_own_pattern(tmp_path):
    _, sheet = _sheet(tmp_path / "a", {"claim_number_pattern": r"NWF-\d{4}-\d{6}"})
    assert _status(sheet)["assertions_text"] == "pass"
    _, sheet = _sheet(tmp_path / "b", {"claim_number_pattern": r"CLM-\d{2}-[A-Z0-9]{6}"})
    text = next(c for c in sheet.components if c.name == "assertions_text")
    assert text.status == "fail" and "not found" in text.details["assertions"][0]["why"]
    _, sheet = _sheet(tmp_path / "c")
    text = next(c for c in sheet.components if c.name == "assertions_text")
    assert text.status == "fail" and "records no claim-number pattern" in text.explanation


def test_words_the_vocabulary_could_not_map_never_pass(tmp_path):
    _, sheet = _sheet(tmp_path, staff={"unmapped": {"triage_class": ["Routine-ish"],
                                                    "fact_states": ["Maybe"]}})
    by_name = {c.name: c for c in sheet.components}
    assert by_name["triage"].status == "fail"
    assert "unmapped_term" in by_name["triage"].failure_modes
    assert "Routine-ish" in by_name["triage"].explanation
    assert by_name["facts"].status == "fail" and "unmapped_term" in by_name["facts"].failure_modes
    assert by_name["review"].status == "pass"


def test_a_product_without_a_staff_side(tmp_path):
    staff = {"available": False, "found": False, "triage_class": None, "reasons": [],
             "review_required": None, "checks": {}, "facts": {}, "waiting_list": [],
             "not_shown": ["claim", "triage_class", "reasons", "review_signal", "checks",
                           "facts", "waiting_list"]}
    _, sheet = _sheet(tmp_path, {"claim_number_pattern": r"NWF-\d{4}-\d{6}"}, staff=staff)
    status = _status(sheet)
    for name in ("triage", "review", "facts", "incident_datetime", "waiting_list"):
        assert status[name] == "not_implemented", name
    assert status["journey"] == "pass" and sheet.success is True
    triage = next(c for c in sheet.components if c.name == "triage")
    assert "no staff side" in triage.explanation


def test_state_the_product_does_not_expose_is_not_implemented(tmp_path):
    labels = make_labels()
    _, sheet = _sheet(tmp_path, {"state_source": "none"}, labels=labels)
    status = _status(sheet)
    assert status["state"] == "not_implemented"
    assert status["assertions_state"] == "not_implemented"
    assert sheet.success is True


def test_an_upload_the_product_never_showed_fails_the_journey(tmp_path):
    def ignore(lines):
        lines[1]["product_event"] = "upload_not_acknowledged"

    _, sheet = _sheet(tmp_path, {"claim_number_pattern": r"NWF-\d{4}-\d{6}"}, events=ignore)
    journey = next(c for c in sheet.components if c.name == "journey")
    assert journey.status == "fail" and journey.failure_modes == ["upload_not_acknowledged"]
    assert [u["step"] for u in journey.details["unacknowledged_uploads"]] == [1]


def test_a_not_implemented_trial_is_shown_and_never_counted(tmp_path):
    run, sheet = _sheet(tmp_path, result={"status": "not_implemented",
                                          "stop_reason": "not_implemented",
                                          "detail": "needs customer accounts"})
    assert sheet.scorable is False and sheet.success is None
    assert set(_status(sheet).values()) == {"not_implemented"}
    summary = summarise(run, [sheet])
    assert summary.scorable_trials == 0 and summary.infrastructure_errors == []
    assert [t.pack_id for t in summary.not_implemented_trials] == ["CTL-M-001"]
