"""Smoke discrimination: the scorer tells the reference runtime from broken products.

The reference runtime must score full marks on the smoke packs; each fault switch and the
controlled runtime (run as a self-test) must score clearly lower, with the failure modes the
fault produces. Run records come from the real runner against the reference app.
"""

from __future__ import annotations

import pytest

from scoring import compare, load_sheets, score_run

pytestmark = [pytest.mark.slow, pytest.mark.browser]

EXPECTED_MODES: dict[str, set[str]] = {
    "flag_everything": {"false_flag"},
    "ask_twice": {"repeated_question"},
    "lose_fact": {"missing_fact"},
    "controlled": {"no_claim_number", "claim_not_found"},
}


def test_reference_runtime_scores_full_marks(real_runs):
    run_dir = real_runs.get("reference")
    summary = score_run(run_dir)
    assert summary.infrastructure_errors == []
    assert summary.scorable_trials == len(real_runs.packs)
    assert summary.successes == summary.scorable_trials, [
        f"{r.pack_id}: {r.explanation}" for r in summary.reading_list]
    assert summary.failure_modes == {}
    assert summary.self_test is False
    for sheet in load_sheets(run_dir):
        statuses = {c.name: c.status for c in sheet.components}
        assert statuses["journey"] == "pass" and statuses["state"] == "pass"
        assert statuses["triage"] == "pass" and statuses["review"] == "pass"
        assert sheet.numbers.repeated_questions == 0 and sheet.numbers.dead_end_replies == 0


@pytest.mark.parametrize("variant", sorted(EXPECTED_MODES))
def test_faults_score_clearly_lower_with_their_failure_modes(real_runs, variant):
    reference = score_run(real_runs.get("reference"))
    run_dir = real_runs.get(variant)
    summary = score_run(run_dir)
    assert summary.infrastructure_errors == []
    assert summary.successes == 0, [r.explanation for r in summary.reading_list]
    for sheet in load_sheets(run_dir):
        assert sheet.success is False
        assert EXPECTED_MODES[variant] & set(sheet.failure_modes), (
            sheet.pack_id, sheet.failure_modes, sheet.explanation)
    verdict = compare(summary, reference)
    # one trial on each of three packs: too thin for a verdict (docs/scoring.md)
    assert verdict.too_thin and verdict.verdict == "inconclusive", verdict.explanation
    assert verdict.mean_difference == pytest.approx(-1.0)


def test_flag_everything_flags_innocent_controls(real_runs):
    summary = score_run(real_runs.get("flag_everything"))
    assert summary.innocent_controls.false_positive == summary.innocent_controls.trials >= 1
    innocent = [s for s in load_sheets(real_runs.get("flag_everything")) if s.innocent_control]
    assert innocent and all("innocent_flagged" in s.failure_modes for s in innocent)


def test_lose_fact_fails_the_incident_time_on_its_own(real_runs):
    run_dir = real_runs.get("lose_fact")
    score_run(run_dir)
    sheets = load_sheets(run_dir)
    assert len(sheets) == len(real_runs.packs)
    for sheet in sheets:
        comps = {c.name: c for c in sheet.components}
        assert comps["incident_datetime"].status == "fail"
        assert "incident_time" in comps["incident_datetime"].explanation
        assert comps["facts"].status == "pass"


def test_controlled_runtime_is_labelled_self_test_everywhere(real_runs):
    run_dir = real_runs.get("controlled")
    summary = score_run(run_dir)
    assert summary.self_test is True and summary.product_runtime == "controlled"
    assert all(s.self_test for s in load_sheets(run_dir))


def _criterion(summary, name):
    return next(c for c in summary.acceptance.criteria if c.name == name)


@pytest.mark.parametrize(("variant", "broken"), [("ask_twice", "questions"),
                                                 ("flag_everything", "review_false_positives")])
def test_a_fault_that_breaks_an_acceptance_criterion_fails_the_gate(real_runs, variant, broken):
    from typer.testing import CliRunner

    from claims_cli import app

    reference = score_run(real_runs.get("reference"))
    assert _criterion(reference, broken).status == "met"
    run_dir = real_runs.get(variant)
    summary = score_run(run_dir)
    assert summary.faults == [variant]
    assert _criterion(summary, broken).status == "not_met", _criterion(summary, broken)
    result = CliRunner().invoke(app, ["gate", str(run_dir), "--acceptance"])
    assert result.exit_code == 1, result.output
    assert f"{broken} not met" in result.output
    assert f"FAULTS switched on in the product: {variant}" in result.output
    assert f"FAULTS {variant}" in (run_dir / "junit.xml").read_text()


def test_a_fault_run_is_labelled_in_the_report_header(real_runs, tmp_path):
    from scoring import write_report

    run_dir = real_runs.get("lose_fact")
    score_run(run_dir)
    index = write_report(run_dir, tmp_path / "report")
    for page in (index, index.parent / "packs" / f"{real_runs.packs[0]}.html"):
        html = page.read_text()
        assert 'data-testid="fault-label"' in html and "DEFECT RUN" in html
        assert "faults lose_fact" in html
    html = index.read_text()
    assert html.index('data-testid="acceptance"') < html.index('data-testid="overview"')
    clean = write_report(real_runs.get("reference"), tmp_path / "clean").read_text()
    assert 'data-testid="fault-label"' not in clean
