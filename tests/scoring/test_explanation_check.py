"""The explanation component: the customer's innocent explanation of a document check's hit
reaches staff on that check's row (oracle: review.customer_explanations)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from claims_corpus import load_customer_view
from claims_records import FAILURE_MODES, RunRecord, StaffReading
from scoring import PackContext, load_trial, score_trial
from scoring._explanation_check import words

from .builders import Variant, make_labels, write_run

PACK = Path(__file__).resolve().parents[2] / "packs" / "CTL-C-001"
VIEW = load_customer_view(PACK)
SAY = next(f.say for f in VIEW.facts if f.key == "receipt_reprint")
ROW = "laptop-receipt.pdf: purchase date 2026-02-23 vs incident date 2026-02-21"
HIT = {"receipt_after_incident": "hit", "quote_before_incident": "not_applicable",
       "prior_claims_12m": "clear", "policy_start_30d": "clear"}


def _labels(explained: bool = True):
    review = {"checks": HIT, "review_required": True}
    if explained:
        review["customer_explanations"] = {"receipt_after_incident": "receipt_reprint"}
    return make_labels(review=review)


def _score(tmp_path: Path, rests_on: str | None, said: str | None = SAY, explained=True,
           hidden: tuple[str, ...] = (), view=VIEW):
    labels = _labels(explained)
    variant = Variant(customer_question=said, question_on_list=False, hidden=hidden)
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, variant)])
    staff_path = run_dir / "CTL-M-001/trial-1/staff.json"
    staff = StaffReading.model_validate_json(staff_path.read_text())
    if rests_on is None:
        del staff.checks["receipt_after_incident"]
    else:
        staff.checks["receipt_after_incident"].rests_on = rests_on
    staff_path.write_text(staff.model_dump_json())
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    record = load_trial(run, run_dir, run.trials[0], "anonymous")
    sheet = score_trial(record, labels, pack=PackContext(view=view))
    return next((c for c in sheet.components if c.name == "explanation"), None), sheet


CASES = [
    # (case, what staff see on the row, what the customer said, status)
    ("verbatim after what the check rests on", f'{ROW}. The customer explains: "{SAY}"', SAY,
     "pass"),
    ("close paraphrase by the product", f"{ROW}. Customer lost the original; the shop "
     "printed a copy in February.", SAY, "pass"),
    ("an LLM customer's own words, kept", f"{ROW}. Customer: the shop reprinted the receipt "
     "because the original was lost.", "The shop reprinted it because I lost the original.",
     "pass"),
    ("dropped: only what the check rests on", ROW, SAY, "fail"),
    ("a word or two of it only", f"{ROW}; copy", SAY, "fail"),
    ("never came up in the conversation", f'{ROW}. The customer explains: "{SAY}"',
     "No, nothing else.", "fail"),
    ("a message sharing only the item and the month with the story",
     f'{ROW}. The customer explains: "I have the receipt for the laptop from February."',
     "I have the receipt for the laptop from February.", "fail"),
    ("the check's row is missing", None, SAY, "fail"),
]


@pytest.mark.parametrize(("case", "row", "said", "status"), CASES, ids=[c[0] for c in CASES])
def test_explanation_reaches_staff(tmp_path, case, row, said, status):
    result, _ = _score(tmp_path, row, said)
    assert result is not None
    assert result.status == status, result.explanation
    if status == "fail":
        assert result.failure_modes == ["explanation_not_passed_on"]
    else:
        assert result.failure_modes == []
    assert result.details["checks"]["receipt_after_incident"]["story_fact"] == "receipt_reprint"


def test_absent_when_the_story_explains_nothing(tmp_path):
    result, sheet = _score(tmp_path, ROW, explained=False)
    assert result is None and "explanation" not in [c.name for c in sheet.components]


def test_not_implemented_when_staff_see_no_checks_and_not_scored_without_the_view(tmp_path):
    result, _ = _score(tmp_path / "a", ROW, hidden=("checks",))
    assert result is not None and result.status == "not_implemented"
    result, _ = _score(tmp_path / "b", ROW, view=None)
    assert result is not None and result.status == "not_scored"


def test_a_story_fact_missing_from_the_view_is_never_a_pass(tmp_path):
    view = dataclasses.replace(VIEW, facts=tuple(f for f in VIEW.facts
                                                 if f.key != "receipt_reprint"))
    result, _ = _score(tmp_path, f'{ROW}. The customer explains: "{SAY}"', view=view)
    assert result is not None and result.status == "fail"


def test_words_ignore_numbers_and_stem_endings():
    assert words("The shop reprinted 2 receipts on 23 February") == words(
        "shop reprint receipt february") and len(words("shop reprint receipt february")) == 4
    assert words("quoted tiles") == words("a quote for a tile")
    assert "explanation_not_passed_on" in FAILURE_MODES
