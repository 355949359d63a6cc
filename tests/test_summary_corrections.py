"""A wrong value planted in the summary (the reference app's ``wrong_summary`` switch), end to end.

With the product's correction path, the scripted customer says which detail is wrong instead of
confirming, the product changes it, and the value scored on the staff side is the corrected
one: the pack passes. Without the correction path (``ignore_corrections``), the customer does
not confirm a summary it knows is wrong; the trial fails with its own failure mode,
``correction_ignored`` (``ignore_corrections`` plants the wrong value itself: it is the fault
the defect panel runs).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claims_records import RunConfig, Sheet, StaffReading

pytestmark = [pytest.mark.slow, pytest.mark.browser]

PACKS = Path(__file__).resolve().parents[1] / "packs"
PACK_ID = "CTL-M-001"
DATE_LABEL = "Date of the incident"


def _run(tmp: Path, faults: list[str]) -> Path:
    """One trial of CTL-M-001 on a reference app started with ``faults``; returns the trial."""
    import claims_dev
    import harness
    import scoring

    env = claims_dev.start_dev(lanes=1, app=True, runtime="reference", faults=faults,
                         baseline_path=PACKS / "baseline.json", log_dir=tmp / "logs")
    try:
        profile = harness.load_profile("reference").with_lanes([
            harness.Lane(name=ln.name, base_url=ln.base_url, seed_url=ln.seed_url,
                         database=ln.database) for ln in env.lanes])
        _, run_dir = harness.run(
            RunConfig(corpora=[str(PACKS)], customer="scripted", packs=[PACK_ID]),
            harness.RunContext(profile=profile, runs_dir=tmp / "runs", run_id="faulty",
                               seed_token=env.seed_token))
    finally:
        env.close()
    scoring.score_run(run_dir, PACKS)
    return run_dir / PACK_ID / "trial-1"


def _sheet(trial: Path) -> Sheet:
    return Sheet.model_validate_json((trial / "sheet.json").read_text("utf-8"))


def _corrections(trial: Path) -> list[dict]:
    events = [json.loads(line) for line in (trial / "journey.jsonl").read_text().splitlines()]
    return [e["action"] for e in events
            if e.get("action") and e["action"].get("corrects")]


def test_the_customer_corrects_a_planted_value_and_the_corrected_value_is_scored(
        tmp_path: Path) -> None:
    trial = _run(tmp_path, ["wrong_summary"])
    corrections = _corrections(trial)
    assert corrections and corrections[0]["kind"] == "say"
    assert corrections[0]["corrects"] == [DATE_LABEL]
    assert "12 March 2026" in corrections[0]["text"]
    staff = StaffReading.model_validate_json((trial / "staff.json").read_text("utf-8"))
    assert staff.facts["incident_date"].value == "2026-03-12"  # the corrected value
    assert staff.facts["incident_date"].state == "confirmed"
    sheet = _sheet(trial)
    assert sheet.success is True, sheet.explanation
    journey = next(c for c in sheet.components if c.name == "journey")
    assert journey.details["corrections"] == [{"step": journey.details["corrections"][0]["step"],
                                               "details": [DATE_LABEL]}]


def test_without_a_correction_path_the_pack_fails_as_correction_ignored(tmp_path: Path) -> None:
    trial = _run(tmp_path, ["ignore_corrections"])
    actions = _corrections(trial)
    assert [a["kind"] for a in actions] == ["say", "say", "done"]  # told twice, then gave up
    sheet = _sheet(trial)
    assert sheet.trial_status == "agent_stopped" and sheet.success is False
    journey = next(c for c in sheet.components if c.name == "journey")
    assert "correction_ignored" in journey.failure_modes
    assert "correction_ignored" in sheet.failure_modes
    assert DATE_LABEL in journey.explanation
