"""The detection matrix of the planted-defect panel, from sheets (pure)."""

from __future__ import annotations

from claims_records import Sheet
from scoring import PanelRun, defect_panel, matrix_lines


def _sheet(pack: str, modes: list[str] | None = None, scorable: bool = True) -> Sheet:
    return Sheet(run_id="r", pack_id=pack, trial=1, path=f"{pack}/trial-1", self_test=False,
                 trial_status="completed" if scorable else "harness_error",
                 error_category="none" if scorable else "harness_error", scorable=scorable,
                 success=(not modes) if scorable else None, explanation="", line="motor",
                 message_style="plain", innocent_control=False, review_required=False,
                 components=[], failure_modes=modes or [])


def test_matrix_counts_detection_labels_and_false_alarms():
    clean = PanelRun("clean", [_sheet("A"), _sheet("B")], 10.0)
    faults = [
        ("ask_twice", "asks twice", "repeated_question",
         PanelRun("ask_twice", [_sheet("A", ["repeated_question"]),
                                _sheet("B", ["dead_end_reply"])], 12.0)),
        ("miss_flag", "never flags", "missed_flag",
         PanelRun("miss_flag", [_sheet("A"), _sheet("B", scorable=False)], 8.0)),
    ]
    panel = defect_panel("p", "0.2.0", clean, faults)
    ask, miss = panel.faults
    assert (ask.detected, ask.labelled, ask.other_modes) == (["A", "B"], ["A"],
                                                             {"dead_end_reply": 1})
    assert ask.caught and not miss.caught and miss.errors == 1 and miss.packs == ["A"]
    assert not panel.passed and panel.false_alarms == {}
    text = "\n".join(matrix_lines(panel))
    assert "| `ask_twice` | `repeated_question` | 2/2 A, B | 1/2 |" in text
    assert "**MISSED**" in text and "Panel FAILED: missed miss_flag." in text


def test_a_failure_on_the_clean_run_is_a_false_alarm():
    clean = PanelRun("clean", [_sheet("A", ["wrong_fact"])])
    faults = [("lose_fact", "drops a fact", "missing_fact",
               PanelRun("lose_fact", [_sheet("A", ["missing_fact"])]))]
    panel = defect_panel("p", "0.2.0", clean, faults)
    assert panel.false_alarms == {"A": ["wrong_fact"]} and not panel.passed
    assert "false alarms on the clean run" in matrix_lines(panel)[-1]
    fine = defect_panel("p", "0.2.0", PanelRun("clean", [_sheet("A")]), faults)
    assert fine.passed and matrix_lines(fine)[-1].startswith("Panel PASSED")
