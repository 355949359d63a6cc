"""A product with no reset, no runtime report and no staff side: refused unless the run says
so, then labelled everywhere its numbers appear, and the staff components not_implemented
without any staff sign-in being tried."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import scoring
from claims_records import RunConfig
from harness import RunContext, run

from .pages import PageServer, chat_profile

pytestmark = [pytest.mark.browser]

PACKS = Path(__file__).resolve().parents[2] / "packs"


@pytest.fixture(scope="module")
def labelled_run(tmp_path_factory) -> Path:
    server = PageServer()
    try:
        profile = chat_profile("signal=attr&claim_after=2", selector=".thread",
                               attribute="data-state", value="idle")
        profile = profile.model_copy(update={
            "base_url": server.url,
            "capabilities": profile.capabilities.model_copy(update={"runtime_report": False})})
        runs = tmp_path_factory.mktemp("runs")
        _, run_dir = run(RunConfig(corpora=[str(PACKS)], packs=["CTL-M-001", "CTL-M-003"],
                                   no_reset=True, allow_unreported_runtime=True),
                         RunContext(profile=profile, runs_dir=runs, run_id="labelled"))
    finally:
        server.close()
    scoring.score_run(run_dir, PACKS)
    scoring.write_report(run_dir)
    return run_dir


def test_the_run_is_labelled_everywhere(labelled_run: Path) -> None:
    record = json.loads((labelled_run / "run.json").read_text())
    assert record["labels"] == ["no reset", "runtime not reported"]
    assert record["product"]["runtime"] == "not reported"
    assert record["product"]["runtime_reported"] is False
    summary = scoring.load_summary(labelled_run)
    assert summary.labels == ["no reset", "runtime not reported"]
    gate = scoring.gate(summary, 0.0, 1)
    assert "no reset; runtime not reported" in gate.message
    page = (labelled_run / "report" / "index.html").read_text()
    assert page.count('data-testid="run-label"') == 2
    transcript = (labelled_run / "CTL-M-001" / "trial-1" / "transcript.md").read_text()
    assert "Run labelled: no reset, runtime not reported" in transcript


def test_an_account_pack_is_a_not_implemented_trial(labelled_run: Path) -> None:
    trial = json.loads((labelled_run / "CTL-M-003" / "trial-1" / "trial.json").read_text())
    assert trial["status"] == "not_implemented" and trial["steps"] == 0
    summary = scoring.load_summary(labelled_run)
    assert [t.pack_id for t in summary.not_implemented_trials] == ["CTL-M-003"]
    assert summary.infrastructure_errors == [] and summary.scorable_trials == 1


def test_no_staff_side_means_not_implemented_and_no_sign_in(labelled_run: Path) -> None:
    trial = labelled_run / "CTL-M-001" / "trial-1"
    staff = json.loads((trial / "staff.json").read_text())
    assert staff["available"] is False and staff["screenshots"] == []
    sheet = json.loads((trial / "sheet.json").read_text())
    status = {c["name"]: c["status"] for c in sheet["components"]}
    for name in ("triage", "review", "facts", "incident_datetime", "waiting_list"):
        assert status[name] == "not_implemented", (name, status)
    assert status["journey"] == "pass" and sheet["success"] is True
    reset = json.loads((trial / "trial.json").read_text())["reset"]
    assert reset == {"adapter": "none", "took_ms": reset["took_ms"], "verified": None}
