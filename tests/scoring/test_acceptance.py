"""Acceptance criteria: the per-trial measures and each criterion's verdict and interval."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_records import (
    AcceptanceConfig,
    AppliedOverride,
    ComponentResult,
    CustomerAction,
    CustomerTimeModel,
    CustomerWork,
    RunRecord,
    Sheet,
    TrialFacts,
)
from scoring import acceptance_gate, evaluate_acceptance, load_trial, score_run
from scoring._acceptance import contact_reasons
from scoring._acceptance_trial import further_contact, report_duration_s, report_parts

from .builders import Variant, make_labels, write_corpus, write_run

KINDS = [("motor", f"m{i}") for i in range(5)] + [("home", f"h{i}") for i in range(3)] + [
    ("contents", f"c{i}") for i in range(2)]


def _sheet(pack: str, line: str = "motor", scenario: str = "s", *, contact=(), questions=5,
           duration=60.0, work=CustomerWork(), fired=False, expected=False, innocent=False,
           scorable=True, trial: int = 1) -> Sheet:
    """``duration``: the product's time of the report (None: no claim number); ``work``:
    the customer's side of it."""
    review = ComponentResult(name="review", status="pass" if fired == expected else "fail",
                             explanation="", details={"fired": fired, "expected": expected})
    return Sheet(run_id="r", pack_id=pack, trial=trial, path=f"{pack}/trial-{trial}",
                 self_test=False, trial_status="completed" if scorable else "product_error",
                 error_category="none" if scorable else "product_error", scorable=scorable,
                 success=True if scorable else None, explanation="", line=line,
                 scenario=scenario, message_style="plain", innocent_control=innocent,
                 review_required=expected, components=[review],
                 numbers=TrialFacts(agent_questions=questions, report_duration_s=duration,
                                    product_time_s=duration,
                                    customer_work=None if duration is None else work,
                                    further_contact=None if contact is None else list(contact)))


def _corpus(**over) -> list[Sheet]:
    """Ten packs, one per scenario kind, every criterion comfortably met."""
    return [_sheet(f"P{i}", line, kind, **over) for i, (line, kind) in enumerate(KINDS)]


def _eval(sheets, **config):
    return evaluate_acceptance(sheets, AcceptanceConfig.model_validate(config), "test",
                               seed=7, resamples=500)


def _crit(report, name):
    return next(c for c in report.criteria if c.name == name)


def test_a_clean_run_meets_every_criterion_with_intervals():
    report = _eval(_corpus())
    assert report.met and [c.status for c in report.criteria] == ["met"] * 5
    nfc = _crit(report, "no_further_contact")
    assert nfc.estimate == 1.0 and (nfc.low, nfc.high) == (1.0, 1.0) and nfc.conclusive
    # a zero-width interval is not shown as one: a one-sided rule-of-three bound instead
    assert nfc.details["one_sided"] == {"side": "at least", "trials": 10,
                                        "bound": pytest.approx(0.7004, abs=1e-4)}
    assert "[100.0 %, 100.0 %]" not in nfc.explanation
    assert "one-sided bound by the rule of three over 10 trial(s): at least 70.0 %" in (
        nfc.explanation)
    fp = _crit(report, "review_false_positives")
    assert fp.details["one_sided"]["side"] == "at most"  # type: ignore[index]
    assert _crit(report, "scenario_coverage").estimate == 10
    assert _crit(report, "questions").details["median"] == 5
    assert acceptance_gate(report).passed


def test_further_contact_below_the_share_is_not_met_and_the_gate_fails():
    sheets = _corpus()
    for s in sheets[:3]:
        s.numbers.further_contact = ["unasked_item"]
    report = _eval(sheets)
    nfc = _crit(report, "no_further_contact")
    assert nfc.status == "not_met" and nfc.estimate == pytest.approx(0.7)
    assert nfc.low is not None and nfc.low < 0.7 < nfc.high
    assert "3 unasked_item" in nfc.explanation
    gate = acceptance_gate(report)
    assert not gate.passed and "no_further_contact not met" in gate.message


def test_exactly_the_share_is_met_and_deciding_on_the_interval_is_stricter():
    sheets = _corpus()
    for s in sheets[:2]:
        s.numbers.further_contact = ["handoff"]
    assert _crit(_eval(sheets), "no_further_contact").status == "met"  # 80 % >= 80 %
    strict = _crit(_eval(sheets, decide_on="interval"), "no_further_contact")
    assert strict.status == "not_met" and strict.conclusive is False


def test_unknown_contact_is_left_out_and_all_unknown_is_not_measurable():
    sheets = _corpus(contact=None)
    assert _crit(_eval(sheets), "no_further_contact").status == "not_measurable"
    sheets[0].numbers.further_contact = []
    nfc = _crit(_eval(sheets), "no_further_contact")
    assert nfc.status == "met" and nfc.too_thin and nfc.low is None
    assert nfc.details["unknown"] == 9


def test_review_false_positives_counted_for_packs_and_innocent_controls_apart():
    sheets = _corpus()
    sheets[0] = _sheet("P0", "motor", "m0", fired=True, expected=False, innocent=True)
    sheets[1] = _sheet("P1", "motor", "m1", fired=True, expected=True)  # a true positive
    fp = _crit(_eval(sheets), "review_false_positives")
    assert fp.status == "not_met" and fp.estimate == 1
    assert fp.details["innocent_controls"] == {"trials": 1, "false_positives": 1}
    assert fp.details["packs"] == {"trials": 8, "false_positives": 0}
    clean = _crit(_eval(_corpus()), "review_false_positives")
    assert clean.status == "met" and "rule of three" in clean.explanation
    assert _crit(_eval([_sheet("P", expected=True, fired=True)]),
                 "review_false_positives").status == "not_measurable"


def test_duration_and_questions_limits():
    sheets = _corpus()
    sheets[0].numbers.product_time_s = 301.0
    sheets[1] = _sheet("P1", "motor", "m1", duration=None)  # never reached a claim number
    sheets[2].numbers.agent_questions = 10  # "fewer than 10"
    report = _eval(sheets)
    dur = _crit(report, "report_duration")
    assert dur.status == "not_met" and dur.estimate == pytest.approx(0.8)
    assert dur.details["unfinished"] == 1 and dur.details["p90"] == pytest.approx(108.2)
    q = _crit(report, "questions")
    assert q.status == "not_met" and "most 10 (P2 trial 1)" in q.explanation
    relaxed = _eval(sheets, questions={"fewer_than": 11},
                    report_duration={"limit_s": 300, "min_share_under": 0.8})
    assert _crit(relaxed, "questions").status == "met"
    assert _crit(relaxed, "report_duration").status == "met"


def test_the_customers_modelled_time_is_reading_typing_deciding_clicking_and_sending():
    model = CustomerTimeModel()  # 238 words/min read, 36.2 words/min typed (5 characters)
    assert model.seconds(CustomerWork(words_read=238)) == pytest.approx(60.0)
    assert model.seconds(CustomerWork(chars_typed=181)) == pytest.approx(60.0)
    assert model.seconds(CustomerWork(actions=2, clicks=1, uploads=1, sign_ins=1)) == \
        pytest.approx(2 * 1.35 + 1.1 + 20 + 15)
    say = CustomerWork.of_step("What is your policy number?", CustomerAction(
        kind="say", text="NWF-POL-100234"))
    assert say == CustomerWork(words_read=5, chars_typed=14, actions=1)
    upload = CustomerWork.of_step("", CustomerAction(kind="upload", file="rear.jpg"))
    assert (upload.uploads, upload.chars_typed, upload.actions) == (1, 0, 1)
    leaving = CustomerWork.of_step("Bye.", CustomerAction(kind="done", reason="claim number"))
    assert leaving == CustomerWork(words_read=1)  # leaving without last words takes no time
    assert say + upload == CustomerWork(words_read=5, chars_typed=14, uploads=1, actions=2)


def test_a_report_fast_at_machine_speed_is_not_under_the_limit_when_a_person_would_take_longer():
    """The product answers in 40 s; the customer reads 200 words, types 1,200 characters,
    sends 2 photos and decides 20 times: about 50 + 398 + 40 + 27 s of a person's time, so
    not under 5 minutes."""
    slow_side = CustomerWork(words_read=200, chars_typed=1200, uploads=2, actions=20)
    sheets = _corpus()
    sheets[0] = _sheet("P0", duration=40.0, work=slow_side)
    dur = _crit(_eval(sheets), "report_duration")
    assert dur.status == "not_met" and dur.estimate == pytest.approx(0.9)
    assert "product 60.0 s + customer 0.0 s modelled" in dur.explanation, dur.explanation
    assert "under 300 s" in dur.threshold
    # a corpus of fast desk typists sets its own model: the same report is then under
    fast = _eval(sheets, report_duration={"customer_time": {"typing_wpm": 120}})
    assert _crit(fast, "report_duration").status == "met"
    assert _crit(fast, "report_duration").details["customer_time"]["typing_wpm"] == 120


def test_sheets_scored_before_the_split_are_not_measured_but_named():
    sheets = _corpus(duration=None)
    for s in sheets:
        s.numbers.report_duration_s = 60.0  # measured, but not split into the two parts
    dur = _crit(_eval(sheets), "report_duration")
    assert dur.status == "not_measurable" and "score the run again" in dur.explanation


def test_scenario_coverage_counts_kinds_per_line_and_ignores_errors():
    sheets = _corpus()
    sheets[-1] = _sheet("P9", "contents", "c1", scorable=False)
    cov = _crit(_eval(sheets), "scenario_coverage")
    assert cov.status == "not_met" and "contents 1 of 2" in cov.explanation
    assert cov.details["contents"] == {"needed": 2, "covered": ["c0"]}
    unnamed = [_sheet(s.pack_id, s.line, "") for s in _corpus()]
    assert _crit(_eval(unnamed), "scenario_coverage").status == "not_measurable"


def test_no_scorable_trial_is_not_measurable_everywhere_and_fails_the_gate():
    report = _eval([_sheet("P", scorable=False)])
    assert {c.status for c in report.criteria} == {"not_measurable"}
    assert not acceptance_gate(report).passed
    assert not acceptance_gate(None).passed


# --------------------------------------------------------------------------- per trial


def _record(tmp_path: Path, variant: Variant | None = None):
    labels = make_labels()
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, variant)])
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    return load_trial(run, run_dir, run.trials[0]), run_dir


def test_trial_measures_from_a_recorded_journey(tmp_path):
    rec, _ = _record(tmp_path)
    # builders: the initial message sent at 10:00:00 after 0.01 s of typing it, the claim
    # number eleven steps later
    assert rec.events[0].timings.customer_s == 0.01
    assert report_duration_s(rec.events) == 12.01
    # the product's time: its 12 replies after the first message (1.0 s + 0.1 s per step);
    # the customer: the opening message, 10 replies read and answered, one click to confirm
    product, work = report_parts(rec.events)
    assert product == pytest.approx(sum(1.0 + 0.1 * step for step in range(1, 13)))
    assert (work.actions, work.clicks, work.uploads) == (12, 1, 0)
    assert work.chars_typed == sum(len(ev.action.text) for ev in rec.events[:11])
    assert work.words_read == sum(len(ev.screen.latest_reply.split()) for ev in rec.events[1:12])
    assert further_contact(rec, rec.staff) == []
    assert further_contact(rec, rec.staff, ["approve"]) == []
    assert further_contact(rec, rec.staff, ["return_for_info"]) == ["return_for_info"]


def test_further_contact_reasons(tmp_path):
    # the customer's own question on the waiting list is asked for, not further contact
    rec, _ = _record(tmp_path / "q", Variant(customer_question="Will my premium go up?"))
    assert further_contact(rec, rec.staff) == []
    rec, _ = _record(tmp_path / "u", Variant(waiting=(("question", "Premium review"),)))
    assert further_contact(rec, rec.staff) == ["unasked_item"]
    rec, _ = _record(tmp_path / "n", Variant(no_claim=True))
    assert further_contact(rec, rec.staff) == ["no_claim_number"]
    rec, _ = _record(tmp_path / "h", Variant(hidden=("waiting_list",)))
    assert further_contact(rec, rec.staff) is None  # cannot be told


def test_scored_sheets_carry_the_measures_and_the_summary_the_criteria(tmp_path):
    labels = [make_labels(f"CTL-M-00{i}") for i in range(1, 4)]
    root = write_corpus(tmp_path / "packs", labels)
    run_dir = write_run(tmp_path / "run", root, [(lab, 1, Variant(ask_twice=True))
                                                 for lab in labels])
    summary = score_run(run_dir)
    sheet = Sheet.model_validate_json((run_dir / "CTL-M-001/trial-1/sheet.json").read_text())
    # nine facts asked by a question (one by a request), each asked twice
    assert sheet.numbers.agent_questions == 18 and sheet.scenario == "rear_end_collision"
    acc = summary.acceptance
    assert acc is not None and acc.source == "defaults from the standard"
    assert _crit(acc, "questions").status == "not_met"
    assert _crit(acc, "scenario_coverage").status == "not_met"
    (root / "acceptance.toml").write_text('version = "1"\n[questions]\nfewer_than = 25\n'
                                          '[scenario_coverage]\nmotor = 1\nhome = 0\n'
                                          'contents = 0\n')
    acc = score_run(run_dir).acceptance
    assert acc.source.endswith("acceptance.toml")
    assert _crit(acc, "questions").status == "met"
    assert _crit(acc, "scenario_coverage").status == "met"


def test_gate_acceptance_on_the_command_line(tmp_path):
    labels = [make_labels(f"CTL-M-00{i}") for i in range(1, 4)]
    root = write_corpus(tmp_path / "packs", labels)
    run_dir = write_run(tmp_path / "run", root, [(lab, 1, None) for lab in labels])
    (root / "acceptance.toml").write_text('[scenario_coverage]\nmotor = 1\nhome = 0\n'
                                          'contents = 0\n')
    runner = CliRunner()
    ok = runner.invoke(app, ["gate", str(run_dir), "--acceptance"])
    assert ok.exit_code == 0, ok.output
    assert "PASS: acceptance: all 5 acceptance criteria met" in ok.output
    junit = (run_dir / "junit.xml").read_text()
    assert "acceptance" in junit and 'name="questions"' in junit
    (root / "acceptance.toml").write_text('[questions]\nfewer_than = 3\n')
    score_run(run_dir)
    bad = runner.invoke(app, ["gate", str(run_dir), "--acceptance", "--min-pass-hat-k", "0.5",
                              "--k", "1"])
    assert bad.exit_code == 1, bad.output
    assert "FAIL: acceptance:" in bad.output and "questions not met" in bad.output
    assert "<failure" in (run_dir / "junit.xml").read_text()
    neither = runner.invoke(app, ["gate", str(run_dir)])
    assert neither.exit_code == 2 and "--acceptance" in neither.output


def test_a_broken_acceptance_file_names_its_field(tmp_path):
    labels = [make_labels()]
    root = write_corpus(tmp_path / "packs", labels)
    run_dir = write_run(tmp_path / "run", root, [(labels[0], 1, None)])
    (root / "acceptance.toml").write_text('[questions]\nfewer_than = "ten"\n')
    result = CliRunner().invoke(app, ["score", str(run_dir)])
    assert result.exit_code == 2
    assert "acceptance.toml" in result.output and "questions.fewer_than" in result.output
    assert json.loads((run_dir / "run.json").read_text())["run_id"] == "run-1"


def test_the_report_shows_the_customer_time_model_it_decided_on(tmp_path):
    from scoring import write_report

    labels = [make_labels(f"CTL-M-00{i}") for i in range(1, 4)]
    root = write_corpus(tmp_path / "packs", labels)
    (root / "acceptance.toml").write_text("[report_duration.customer_time]\ntyping_wpm = 52\n"
                                          "upload_s = 12\n")
    run_dir = write_run(tmp_path / "run", root, [(lab, 1, None) for lab in labels])
    summary = score_run(run_dir)
    dur = _crit(summary.acceptance, "report_duration")
    assert "customer" in dur.explanation and dur.details["customer_time"]["typing_wpm"] == 52
    html = write_report(run_dir, tmp_path / "report").read_text()
    model = html.split('data-testid="customer-time-model"', 1)[1].split("</p>", 1)[0]
    assert "typing 52.0 words/min" in model and "12.0 s per file" in model, model
    assert "reading 238.0 words/min" in model


def test_reviewer_overrides_reach_further_contact_and_review_false_positives_with_a_marker():
    def overridden(sheet: Sheet, name: str, value: str, mechanical: str) -> Sheet:
        old = next((c for c in sheet.components if c.name == name), None)
        comp = (old or ComponentResult(name=name, status=value, explanation="")).model_copy(
            update={"status": value, "override": AppliedOverride(
                mechanical=mechanical, by="Ann Lee", at="2026-03-12T10:00:00+00:00",
                why="seen on screen")})
        keep = [c for c in sheet.components if c.name != name]
        return sheet.model_copy(update={"components": [*keep, comp]})

    sheets = _corpus()
    # the reviewer failed a waiting list the scorer passed: further contact, not "none"
    sheets[0] = overridden(sheets[0], "waiting_list", "fail", "pass")
    # the reviewer passed a waiting list the scorer failed on an unasked item
    sheets[1] = overridden(_sheet("P1", contact=("unasked_item",)), "waiting_list", "pass",
                           "fail")
    # a review signal that fired where none was expected, judged right by the reviewer
    sheets[2] = overridden(_sheet("P2", fired=True, expected=False), "review", "pass", "fail")

    assert contact_reasons(sheets[0]) == (["reviewer_waiting_list"],
                                          "P0/1 waiting_list by Ann Lee")
    assert contact_reasons(sheets[1]) == ([], "P1/1 waiting_list by Ann Lee")
    report = _eval(sheets)
    nfc = _crit(report, "no_further_contact")
    assert nfc.estimate == pytest.approx(0.9)
    assert nfc.details["reasons"] == {"reviewer_waiting_list": 1}
    assert nfc.details["overrides"] == ["P0/1 waiting_list by Ann Lee",
                                        "P1/1 waiting_list by Ann Lee"]
    assert "includes 2 reviewer override(s)" in nfc.explanation
    fp = _crit(report, "review_false_positives")
    assert fp.estimate == 0 and fp.status == "met"
    assert fp.details["overrides"] == ["P2/1 review by Ann Lee"]


def test_an_all_error_run_says_no_trial_could_be_scored_not_score_again():
    sheets = [_sheet(s.pack_id, s.line, s.scenario, scorable=False) for s in _corpus()]
    cov = _crit(_eval(sheets), "scenario_coverage")
    assert cov.status == "not_measurable"
    assert "score the run again" not in cov.explanation  # the old, wrong advice
    assert cov.explanation == ("no trial could be scored, so no scenario was tested: "
                               "10 product_error")


def test_the_sheet_carries_the_modelled_report_time_acceptance_decides_on():
    from claims_records import AcceptanceConfig
    from scoring._acceptance import report_time_s, with_modelled_time

    config = AcceptanceConfig()
    work = CustomerWork(words_read=200, chars_typed=1200, uploads=2, actions=20)
    sheet = with_modelled_time(_sheet("P0", duration=40.0, work=work), config)
    product, customer = report_time_s(sheet, config)
    assert sheet.numbers.customer_time_s == pytest.approx(customer, abs=1e-3)
    assert sheet.numbers.report_modelled_s == pytest.approx(product + customer, abs=1e-3)
    assert sheet.numbers.report_modelled_s > 5 * sheet.numbers.report_duration_s
    unfinished = with_modelled_time(_sheet("P1", duration=None), config)
    assert unfinished.numbers.report_modelled_s is None
