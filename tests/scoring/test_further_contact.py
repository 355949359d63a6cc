"""One definition of further contact: the waiting_list component and the acceptance criterion
"Claims needing no further contact" read the staff waiting list the same way
(scoring._journey_checks.waiting_items). An item the customer asked for (a question of theirs,
the opening message's included) passes waiting_list and is not further contact; an item they
never asked for fails waiting_list as unasked_item and is further contact as unasked_item."""

from __future__ import annotations

from pathlib import Path

import pytest

from claims_records import AcceptanceConfig, RunRecord
from scoring import evaluate_acceptance, load_trial, score_trial
from scoring._acceptance_trial import further_contact

from .builders import Variant, make_labels, write_run

# CTL-M-002's opening message (packs/CTL-M-002/input/initial_message.txt): it ends in a
# question, and the reference app puts the whole message on the waiting list as a question.
CTL_M_002 = ("hi, somebody hit my car while it was parked outside my house and just drove off. "
             "it happend on 4 march 2026 at about 22:15, i heard a bang and saw a white van "
             "driving away. the drivers door is all scraped and dented. my policy number is "
             "NWF-POL-100318, how do i clam for this?")


def _trial(tmp_path: Path, variant: Variant, **labels_changes):
    labels = make_labels("CTL-M-002", **labels_changes)
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, variant)])
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    rec = load_trial(run, run_dir, run.trials[0], "anonymous")
    return rec, labels, score_trial(rec, labels)


def _waiting(sheet):
    return next(c for c in sheet.components if c.name == "waiting_list")


def _no_further_contact(sheet):
    report = evaluate_acceptance([sheet], AcceptanceConfig(), "test", seed=7, resamples=100)
    return next(c for c in report.criteria if c.name == "no_further_contact")


def _agree(rec, labels, sheet) -> None:
    """The component and the acceptance measure say the same about the waiting list."""
    unasked = "unasked_item" in _waiting(sheet).failure_modes
    assert unasked == ("unasked_item" in (sheet.numbers.further_contact or []))
    assert sheet.numbers.further_contact == further_contact(rec, rec.staff, labels=labels)


def test_ctl_m_002_opening_question_on_the_waiting_list_is_asked_for_in_both(tmp_path):
    rec, labels, sheet = _trial(tmp_path, Variant(opening=CTL_M_002,
                                                  waiting=(("question", CTL_M_002),)))
    wl = _waiting(sheet)
    assert wl.status == "pass", wl.explanation
    assert wl.details["unasked_items"] == [] and len(wl.details["asked_items"]) == 1
    assert "all asked for by the customer" in wl.explanation
    assert sheet.numbers.further_contact == []
    assert sheet.success is True
    _agree(rec, labels, sheet)
    nfc = _no_further_contact(sheet)
    assert nfc.estimate == 1.0 and nfc.status == "met"


def test_the_question_sentence_alone_is_asked_for_too(tmp_path):
    rec, labels, sheet = _trial(tmp_path, Variant(opening=CTL_M_002,
                                                  waiting=(("question", "How do I clam for "
                                                                        "this?"),)))
    assert _waiting(sheet).status == "pass" and sheet.numbers.further_contact == []
    _agree(rec, labels, sheet)


def test_the_opening_question_need_not_be_queued(tmp_path):
    rec, labels, sheet = _trial(tmp_path, Variant(opening=CTL_M_002))
    wl = _waiting(sheet)
    assert wl.status == "pass" and wl.details["questions"] == []
    assert sheet.numbers.further_contact == []
    _agree(rec, labels, sheet)


@pytest.mark.parametrize("item", [
    ("question", "Will my premium go up?"),  # a question the customer never asked
    ("contact_request", "Passed to a colleague by the assistant."),  # nobody asked for one
])
def test_an_item_the_customer_never_asked_for_fails_in_both(tmp_path, item):
    rec, labels, sheet = _trial(tmp_path, Variant(waiting=(item,)))
    wl = _waiting(sheet)
    assert wl.status == "fail" and wl.failure_modes == ["unasked_item"]
    assert "never asked for" in wl.explanation and item[1][:20] in wl.explanation
    assert wl.details["unasked_items"] == [{"kind": item[0], "text": item[1]}]
    assert sheet.numbers.further_contact == ["unasked_item"]
    assert sheet.success is False and "unasked_item" in sheet.failure_modes
    _agree(rec, labels, sheet)
    nfc = _no_further_contact(sheet)
    assert nfc.estimate == 0.0 and "1 unasked_item" in nfc.explanation


def test_ctl_m_002_with_an_unasked_item_beside_the_asked_one(tmp_path):
    rec, labels, sheet = _trial(tmp_path, Variant(
        opening=CTL_M_002, waiting=(("question", CTL_M_002), ("question", "Send an engineer"))))
    wl = _waiting(sheet)
    assert wl.failure_modes == ["unasked_item"]
    assert [i["text"] for i in wl.details["unasked_items"]] == ["Send an engineer"]
    assert sheet.numbers.further_contact == ["unasked_item"]
    _agree(rec, labels, sheet)


def test_a_second_incident_reported_is_an_asked_for_contact_request(tmp_path):
    item = ("contact_request", "A second, separate incident to report: Separately, my "
            "daughter's bicycle was stolen")
    rec, labels, sheet = _trial(tmp_path, Variant(waiting=(item,)), pressure=["two_claims"])
    assert _waiting(sheet).status == "pass" and sheet.numbers.further_contact == []
    _agree(rec, labels, sheet)


def test_a_mid_journey_question_on_the_list_is_asked_for_and_a_missing_one_fails(tmp_path):
    rec, labels, sheet = _trial(tmp_path / "on", Variant(customer_question="Will my premium "
                                                                           "go up?"))
    assert _waiting(sheet).status == "pass" and sheet.numbers.further_contact == []
    _agree(rec, labels, sheet)
    rec, labels, sheet = _trial(tmp_path / "off", Variant(customer_question="Will my premium "
                                                                            "go up?",
                                                          question_on_list=False))
    assert _waiting(sheet).failure_modes == ["waiting_list_missing"]
    assert sheet.numbers.further_contact == []
    _agree(rec, labels, sheet)
