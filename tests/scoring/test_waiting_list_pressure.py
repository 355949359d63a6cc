"""The waiting list under pressure: a question and a request for a person typed mid-journey.

On the reference runtime both reach the staff waiting list under the claim and the packs pass;
with the fault switch ``drop_questions`` the question never reaches it and the waiting-list
component fails with ``waiting_list_missing`` on the question pack (the request for a person,
not a question, still gets there). Run records come from the real runner.
"""

from __future__ import annotations

import pytest

from scoring import load_sheets, score_run

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def _waiting(sheet):
    return next(c for c in sheet.components if c.name == "waiting_list")


def test_reference_runtime_puts_question_and_person_request_on_the_waiting_list(real_runs):
    run_dir = real_runs.get("pressure")
    summary = score_run(run_dir)
    assert summary.infrastructure_errors == []
    assert summary.successes == summary.scorable_trials == 2, [
        f"{r.pack_id}: {r.explanation}" for r in summary.reading_list]
    sheets = {s.pack_id: s for s in load_sheets(run_dir)}
    question = _waiting(sheets["CTL-C-008"])
    assert question.status == "pass"
    assert question.details["questions"] == ["Will you send someone round to look at the door?"]
    person = _waiting(sheets["CTL-H-014"])
    assert person.status == "pass"
    assert person.details["questions"] == [] and person.details["contact_requests"] == 1
    assert person.details["shown_contact_requests"] >= 1


def test_dropped_questions_fail_the_waiting_list(real_runs):
    summary = score_run(real_runs.get("drop_questions"))
    assert summary.infrastructure_errors == []
    sheets = {s.pack_id: s for s in load_sheets(real_runs.get("drop_questions"))}
    question = _waiting(sheets["CTL-C-008"])
    assert question.status == "fail"
    assert question.failure_modes == ["waiting_list_missing"]
    assert question.details["missing"] == ["Will you send someone round to look at the door?"]
    assert sheets["CTL-C-008"].success is False
    assert _waiting(sheets["CTL-H-014"]).status == "pass"
