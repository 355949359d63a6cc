"""score_trial component by component, on trials built like the runner writes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from claims_corpus.formats import Money, TimeWindow
from claims_corpus.formats.matching import values_match
from claims_records import COMPONENTS, HumanVerdicts, RunRecord, StaffFact, StaffReading, TrialEntry
from scoring import load_trial, score_trial

from .builders import Variant, build_trial, make_labels, write_run


def _score(tmp_path: Path, variant: Variant | None = None, labels=None, human=None,
           self_test: bool = False):
    labels = labels or make_labels()
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, variant)],
                        self_test=self_test)
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    record = load_trial(run, run_dir, run.trials[0], "anonymous")
    return score_trial(record, labels, human)


def _comp(sheet, name):
    return next(c for c in sheet.components if c.name == name)


def test_a_faithful_journey_passes_every_scored_component(tmp_path):
    sheet = _score(tmp_path, Variant(extra={"agent_decision": {"messages": 12}}))
    assert sheet.success is True
    assert sheet.failure_modes == []
    statuses = {c.name: c.status for c in sheet.components}
    assert statuses["assertions_human"] == "queued"
    assert all(s == "pass" for n, s in statuses.items() if n != "assertions_human")
    assert [c.name for c in sheet.components] == [n for n in COMPONENTS if n in statuses]
    assert sheet.numbers.claim_number == "NWF-2026-000123"
    assert sheet.numbers.median_turn_s is not None


def test_review_false_flag_and_innocent_control_reported(tmp_path):
    labels = make_labels(innocent_control=True)
    sheet = _score(tmp_path, Variant(flag=True), labels=labels)
    review = _comp(sheet, "review")
    assert review.status == "fail"
    assert {"false_flag", "innocent_flagged"} <= set(review.failure_modes)
    assert review.details["false_positive"] is True and review.details["false_negative"] is False
    assert "fired, not required" in review.explanation
    assert sheet.success is False


def test_missed_flag_is_a_false_negative(tmp_path):
    checks = {"receipt_after_incident": "hit", "quote_before_incident": "clear",
              "prior_claims_12m": "clear", "policy_start_30d": "clear"}
    labels = make_labels(review={"checks": checks, "review_required": True},
                         triage={"triage_class": "standard",
                                 "required_reasons": ["third_party_involved",
                                                      "vehicle_driveable"],
                                 "allowed_reasons": ["review_required"]})
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, None)])
    staff_path = run_dir / "CTL-M-001/trial-1/staff.json"
    staff = StaffReading.model_validate_json(staff_path.read_text())
    staff.review_required = False
    staff_path.write_text(staff.model_dump_json())
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    review = _comp(score_trial(load_trial(run, run_dir, run.trials[0]), labels), "review")
    assert review.failure_modes == ["missed_flag"]
    assert review.details["false_negative"] is True


def test_not_checked_shown_as_clear_is_its_own_failure(tmp_path):
    checks = {"receipt_after_incident": "not_applicable", "quote_before_incident": "not_checked",
              "prior_claims_12m": "clear", "policy_start_30d": "clear"}
    labels = make_labels(review={"checks": checks, "review_required": False})
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, None)])
    staff_path = run_dir / "CTL-M-001/trial-1/staff.json"
    staff = StaffReading.model_validate_json(staff_path.read_text())
    staff.checks["quote_before_incident"].outcome = "clear"
    staff_path.write_text(staff.model_dump_json())
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    sheet = score_trial(load_trial(run, run_dir, run.trials[0]), labels)
    review = _comp(sheet, "review")
    assert review.failure_modes == ["not_checked_as_clear"]
    assert review.details["not_checked"] == ["quote_before_incident"]
    assert "could not be checked" in review.explanation


def test_triage_wrong_class_missing_and_extra_reasons(tmp_path):
    labels = make_labels()
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, None)])
    staff_path = run_dir / "CTL-M-001/trial-1/staff.json"
    staff = StaffReading.model_validate_json(staff_path.read_text())
    staff.triage_class = "fast_track"
    staff.reasons = ["vehicle_driveable — the car can be driven", "minor_damage"]
    staff_path.write_text(staff.model_dump_json())
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    triage = _comp(score_trial(load_trial(run, run_dir, run.trials[0]), labels), "triage")
    assert triage.status == "fail"
    assert triage.failure_modes == ["extra_reason", "missing_reason", "wrong_triage"]
    assert "fast_track, expected standard" in triage.explanation
    assert "third_party_involved" in triage.explanation and "minor_damage" in triage.explanation


def test_allowed_reason_is_not_extra(tmp_path):
    labels = make_labels()
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, None)])
    staff_path = run_dir / "CTL-M-001/trial-1/staff.json"
    staff = StaffReading.model_validate_json(staff_path.read_text())
    staff.reasons.append("police_report")
    staff_path.write_text(staff.model_dump_json())
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    assert _comp(score_trial(load_trial(run, run_dir, run.trials[0]), labels),
                 "triage").status == "pass"


def test_lost_incident_time_fails_incident_component_only(tmp_path):
    sheet = _score(tmp_path, Variant(lose=("incident_time",)))
    inc = _comp(sheet, "incident_datetime")
    assert inc.status == "fail" and inc.failure_modes == ["missing_fact"]
    assert "incident_time missing" in inc.explanation
    assert _comp(sheet, "facts").status == "pass"
    assert sheet.success is False


def test_wrong_and_unconfirmed_facts(tmp_path):
    labels = make_labels()
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, None)])
    staff_path = run_dir / "CTL-M-001/trial-1/staff.json"
    staff = StaffReading.model_validate_json(staff_path.read_text())
    staff.facts["vehicle_registration"].value = "LK19 XRE"
    staff.facts["injuries"].state = "suggested"
    staff_path.write_text(staff.model_dump_json())
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    facts = _comp(score_trial(load_trial(run, run_dir, run.trials[0]), labels), "facts")
    assert facts.failure_modes == ["unconfirmed_fact", "wrong_fact"]
    assert "vehicle_registration 'LK19 XRE', expected 'LK19 XRD'" in facts.explanation
    assert "injuries is suggested, not confirmed" in facts.explanation


def _staff_facts(tmp_path, labels, **shown: tuple[str, str] | None):
    """Score ``labels`` with the staff side showing ``shown`` (key -> (value, state))."""
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, None)])
    staff_path = run_dir / "CTL-M-001/trial-1/staff.json"
    staff = StaffReading.model_validate_json(staff_path.read_text())
    for key, value in shown.items():
        if value is None:
            staff.facts.pop(key, None)
        else:
            staff.facts[key] = StaffFact(value=value[0], state=value[1])
    staff_path.write_text(staff.model_dump_json())
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    return score_trial(load_trial(run, run_dir, run.trials[0]), labels)


def test_not_known_shown_for_a_known_fact_is_missing_not_wrong(tmp_path):
    sheet = _staff_facts(tmp_path, make_labels(), vehicle_registration=("not known", "unknown"))
    facts = _comp(sheet, "facts")
    assert facts.failure_modes == ["missing_fact"]
    assert "shown as not known" in facts.explanation


@pytest.mark.parametrize(("shown", "status", "modes"), [
    (("not known", "unknown"), "pass", []),
    (("to follow", "to_follow"), "pass", []),
    (("00:00", "confirmed"), "fail", ["invented_fact"]),
    (None, "fail", ["missing_fact"]),
])
def test_an_unknown_time_must_be_recorded_as_not_known(tmp_path, shown, status, modes):
    expected = {k: v for k, v in make_labels().expected_facts.items() if k != "incident_time"}
    labels = make_labels(expected_facts=expected,
                         unknown_facts={"incident_time": "the customer was away"})
    comp = _comp(_staff_facts(tmp_path, labels, incident_time=shown), "incident_datetime")
    assert (comp.status, comp.failure_modes) == (status, modes)


@pytest.mark.parametrize(("shown", "status", "modes"), [
    (("13:00-16:00", "confirmed"), "pass", []),
    (("13:00", "confirmed"), "fail", ["window_collapsed"]),
    (("not known", "unknown"), "fail", ["window_as_unknown"]),
    (("09:00-11:00", "confirmed"), "fail", ["wrong_fact"]),
    (("13:00-16:00", "suggested"), "fail", ["unconfirmed_fact"]),
])
def test_a_time_window_has_its_own_failure_modes(tmp_path, shown, status, modes):
    expected = {**make_labels().expected_facts,
                "incident_time": {"earliest": "13:00", "latest": "16:00"}}
    labels = make_labels(expected_facts=expected)
    comp = _comp(_staff_facts(tmp_path, labels, incident_time=shown), "incident_datetime")
    assert (comp.status, comp.failure_modes) == (status, modes)


def test_optional_fact_only_judged_when_present(tmp_path):
    labels = make_labels(optional_facts={"police_reference": "CR/2026/1234"})
    assert _comp(_score(tmp_path / "a", labels=labels), "facts").status == "pass"
    run_dir = write_run(tmp_path / "b" / "run", tmp_path / "b" / "packs", [(labels, 1, None)])
    staff_path = run_dir / "CTL-M-001/trial-1/staff.json"
    staff = StaffReading.model_validate_json(staff_path.read_text())
    staff.facts["police_reference"] = StaffFact(value="CR/2026/9999", state="confirmed")
    staff_path.write_text(staff.model_dump_json())
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    facts = _comp(score_trial(load_trial(run, run_dir, run.trials[0]), labels), "facts")
    assert facts.failure_modes == ["wrong_optional_fact"]


def test_asking_twice_is_a_repeated_question(tmp_path):
    sheet = _score(tmp_path, Variant(ask_twice=True))
    journey = _comp(sheet, "journey")
    assert journey.status == "fail"
    assert journey.failure_modes == ["repeated_question"]
    assert sheet.numbers.repeated_questions == len(make_labels().expected_facts) - 1
    assert "what is your policy number" in journey.explanation


def test_no_claim_number_and_claim_not_found(tmp_path):
    sheet = _score(tmp_path, Variant(no_claim=True, status="agent_stopped",
                                     detail="nothing left to answer"))
    assert "no_claim_number" in _comp(sheet, "journey").failure_modes
    assert "agent_stopped" in _comp(sheet, "journey").failure_modes
    assert _comp(sheet, "triage").failure_modes == ["claim_not_found"]
    assert "state_mismatch" in _comp(sheet, "state").failure_modes
    assert sheet.success is False


def test_stuck_says_where_and_why(tmp_path):
    sheet = _score(tmp_path, Variant(status="stuck", detail="the same screen 3 times in a row"))
    journey = _comp(sheet, "journey")
    assert {"stuck", "dead_end_reply", "no_claim_number"} <= set(journey.failure_modes)
    assert journey.details["stuck"]["why"] == "the same screen 3 times in a row"
    assert journey.details["stuck"]["reply"] == "One moment."


def test_region_not_shown_is_not_implemented_and_never_counted(tmp_path):
    sheet = _score(tmp_path, Variant(hidden=("triage_class", "reasons", "waiting_list"),
                                     customer_question="Will my premium go up?"))
    assert _comp(sheet, "triage").status == "not_implemented"
    assert _comp(sheet, "waiting_list").status == "not_implemented"
    assert sheet.success is True
    assert "triage not_implemented" in sheet.explanation


def test_customer_question_must_reach_the_waiting_list(tmp_path):
    ok = _score(tmp_path / "a", Variant(customer_question="Will my premium go up?"))
    assert _comp(ok, "waiting_list").status == "pass"
    missing = _score(tmp_path / "b", Variant(customer_question="Will my premium go up?",
                                             question_on_list=False))
    wl = _comp(missing, "waiting_list")
    assert wl.failure_modes == ["waiting_list_missing"]
    assert "Will my premium go up?" in wl.explanation


def test_a_question_in_the_opening_message_is_not_expected_on_the_waiting_list(tmp_path):
    labels = make_labels()
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, None)])
    path = run_dir / "CTL-M-001/trial-1/journey.jsonl"
    text = path.read_text().replace("Someone drove into the back of my car.",
                                    "Someone hit my car, how do I claim for this?")
    path.write_text(text)
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    wl = _comp(score_trial(load_trial(run, run_dir, run.trials[0]), labels), "waiting_list")
    assert wl.status == "pass" and wl.details["questions"] == []


def test_unexpected_state_change_outside_allowed_collections(tmp_path):
    state = _comp(_score(tmp_path, Variant(extra_change=True)), "state")
    assert state.failure_modes == ["unexpected_change"]
    assert "policies/pol-1 changed" in state.explanation


def test_vary_allows_listed_fields_to_differ(tmp_path):
    labels = make_labels(expected_end_state={
        "documents": [
            {"collection": "claims", "match": {"policy_number": "NWF-POL-100234"},
             "change": "added", "fields": {"status": "submitted"}},
            {"collection": "policies", "id": "pol-1", "change": "unchanged",
             "vary": ["policy_number"]},
        ],
        "allow_other_changes_in": ["messages"],
    })
    assert _comp(_score(tmp_path / "a", Variant(extra_change=True), labels=labels),
                 "state").status == "pass"
    labels.expected_end_state.documents[1].vary = []
    state = _comp(_score(tmp_path / "b", Variant(extra_change=True), labels=labels), "state")
    assert state.status == "fail"
    assert "policies/pol-1: changed policy_number, expected unchanged" in state.explanation


def test_state_and_text_assertions(tmp_path):
    labels = make_labels(assertions=[
        {"id": "two-claims", "judge": "state", "description": "d",
         "state": {"collection": "claims", "match": {"status": "submitted"}, "count": 2}},
        {"id": "no-apology", "judge": "text", "description": "d",
         "text": {"pattern": "claim number is", "expect": "absent"}},
        {"id": "said-lights", "judge": "text", "description": "d",
         "text": {"pattern": "red light", "where": "customer_messages"}},
    ])
    sheet = _score(tmp_path, labels=labels)
    st, tx = _comp(sheet, "assertions_state"), _comp(sheet, "assertions_text")
    assert st.status == "fail" and "1 claims document(s) match, expected exactly 2" in \
        st.explanation
    assert tx.status == "fail" and tx.explanation.startswith("no-apology:")
    assert [a["status"] for a in tx.details["assertions"]] == ["fail", "pass"]
    assert "assertions_human" not in {c.name for c in sheet.components}


def test_human_verdicts_decide_human_assertions(tmp_path):
    human = HumanVerdicts(pack_id="CTL-M-001", trial=1,
                          verdicts={"tone": {"verdict": "fail", "reviewer": "Ann Lee",
                                             "note": "curt"}})
    sheet = _score(tmp_path / "a", human=human)
    comp = _comp(sheet, "assertions_human")
    assert comp.status == "fail" and comp.failure_modes == ["human_rejected"]
    assert "Ann Lee" in comp.explanation and sheet.success is False
    human.verdicts["tone"].verdict = "pass"
    assert _comp(_score(tmp_path / "b", human=human), "assertions_human").status == "pass"


@pytest.mark.parametrize("status", ["product_error", "simulator_error", "harness_error"])
def test_infrastructure_errors_are_not_scored(tmp_path, status):
    sheet = _score(tmp_path, Variant(status=status, detail="boom"))
    assert sheet.scorable is False and sheet.success is None
    assert {c.status for c in sheet.components} == {"not_scored"}
    assert f"trial ended in {status}: boom" == sheet.explanation
    assert sheet.error_category == status


def test_pending_trial_without_folder_is_a_harness_error(tmp_path):
    labels = make_labels()
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, None)])
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    entry = TrialEntry(pack_id="CTL-M-001", trial=2, path="CTL-M-001/trial-2")
    sheet = score_trial(load_trial(run, run_dir, entry), labels)
    assert sheet.trial_status == "harness_error" and sheet.success is None


def test_self_test_is_recorded_on_the_sheet(tmp_path):
    assert _score(tmp_path, self_test=True).self_test is True


@pytest.mark.parametrize(
    ("kind", "expected", "shown", "ok"),
    [
        ("date", "2026-03-12", "12 March 2026", True),
        ("date", "2026-03-12", "12/03/2026", True),
        ("date", "2026-03-12", "March 12, 2026", True),
        ("date", "2026-03-12", "13 March 2026", False),
        ("time", "17:40", "5:40 pm", True),
        ("time", "17:40", "about 5.40 in the evening", True),
        ("time", "17:40", "17:45", False),
        ("time", "03:00", "Around 03:00 at night", True),
        ("time", "03:00", "15:00", False),
        ("time", "23:10", "11:10 at night", True),
        ("yes_no", "yes", "Yes", True),
        ("yes_no", True, "yes", True),
        ("yes_no", "no", "Yes", False),
        ("money", 1250, "£1,250.00", True),
        ("money", 1250, "£1,205", False),
        ("choice", "escape_of_water", "Escape of water", True),
        ("choice", "collision", "Theft", False),
        ("money", Money(amount=2400, currency="NZD"), "NZ$2,400", True),
        ("money", Money(amount=2400, currency="NZD"), "2400 NZD", True),
        ("money", Money(amount=2400, currency="NZD"), "£2,400", False),
        ("money", Money(amount=2400, currency="NZD"), "2400", False),  # no currency: pounds
        ("money", Money(amount=2400, currency="NZD"), "$2,400", True),  # a dollar currency
        ("money", Money(amount=1850, currency="GBP"), "1850", True),
        ("time_window", TimeWindow(earliest="13:00", latest="16:00"), "13:00-16:00", True),
        ("time_window", TimeWindow(earliest="13:00", latest="16:00"),
         "between 1pm and 4pm", True),
        ("time_window", TimeWindow(earliest="13:00", latest="16:00"), "13:00", False),
        ("time_window", TimeWindow(earliest="13:00", latest="16:00"), "13:00-15:00", False),
        ("time", "13:00", "13:00-16:00", False),  # a window is not the point it starts at
        ("code", "LK19 XRD", "lk19xrd", True),
        ("text", "Hallam Road, Sheffield", "  hallam road  sheffield ", True),
        ("text", "Hallam Road at the junction with Crookes Road, Sheffield",
         "At the traffic lights on Hallam Road, where it meets Crookes Road, in Sheffield.",
         True),
        ("text", "Hallam Road, Sheffield", "Leeds city centre", False),
    ],
)
def test_values_match_by_kind(kind, expected, shown, ok):
    assert values_match(kind, expected, shown) is ok


def test_trial_builder_writes_every_runner_file(tmp_path):
    entry = build_trial(tmp_path, make_labels(), 1)
    tdir = tmp_path / entry["path"]
    for name in ("trial.json", "journey.jsonl", "staff.json", "state-before.json",
                 "state-after.json", "transcript.md", "network.har"):
        assert (tdir / name).is_file(), name
