"""The analyst's commands in-process: `review override`, `score --packs` (a corrected oracle)
and `report --rescored`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import scoring
from claims_cli.app import app
from tests.scoring.test_rescore import corrected_copy, scored_run

runner = CliRunner()


def test_review_override_records_rescores_and_says_what_it_did(tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path)

    result = runner.invoke(app, [
        "review", "override", str(run_dir), "--pack", "CTL-M-002", "--trial", "1",
        "--criterion", "triage", "--value", "fail", "--by", "Ann  Lee",
        "--why", "The photo shows a second car."])

    assert result.exit_code == 0, result.output
    assert "CTL-M-002 trial 1 triage: pass -> fail by Ann Lee at " in result.output
    assert "5/6 scorable trials succeeded, including 1 reviewer override(s) (1 changed a " \
           "trial's success)" in result.output
    kept = json.loads((run_dir / "overrides.json").read_text())
    assert kept["overrides"][0]["why"] == "The photo shows a second car."
    score = runner.invoke(app, ["score", str(run_dir)])
    assert score.exit_code == 0, score.output
    assert "includes 1 reviewer override(s): 1 changed a criterion, 1 changed a trial's " \
           "success" in score.output


def test_review_override_refusal_is_one_line_and_exit_2(tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path)

    result = runner.invoke(app, [
        "review", "override", str(run_dir), "--pack", "CTL-M-001", "--trial", "1",
        "--criterion", "privacy", "--value", "fail", "--by", "Ann Lee", "--why", "x"])

    assert result.exit_code == 2
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "does not score this criterion" in lines[0] and "field=privacy" in lines[0]
    assert not (run_dir / "overrides.json").exists()


def test_score_packs_writes_a_labelled_version_and_report_rescored_shows_it(
        tmp_path: Path) -> None:
    run_dir, corpus = scored_run(tmp_path)
    fixed = corrected_copy(corpus, tmp_path / "packs-fixed")

    result = runner.invoke(app, ["score", str(run_dir), "--packs", str(fixed)])

    assert result.exit_code == 0, result.output
    assert f"RE-SCORED against {fixed}" in result.output
    assert "1 pack(s) differ from the run's, 2 identical" in result.output
    assert "changed CTL-M-002: oracle/labels.json" in result.output
    oracle_id = next((run_dir / "rescored").iterdir()).name
    assert f"--rescored {oracle_id}" in result.output
    assert f"wrote {run_dir / 'rescored' / oracle_id / 'summary.json'}" in result.output

    report = runner.invoke(app, ["report", str(run_dir), "--rescored", oracle_id])

    assert report.exit_code == 0, report.output
    index = run_dir / "rescored" / oracle_id / "report" / "index.html"
    assert f"wrote {index}" in report.output
    text = index.read_text()
    assert 'data-testid="rescored"' in text and "RE-SCORED" in text
    assert "oracle/labels.json" in text
    page = (index.parent / "packs" / "CTL-M-002.html").read_text()
    assert 'data-testid="oracle-hash"' in page and "scoring sheet (re-scored)" in page
    assert 'data-testid="rescored-page"' in page
    assert not (run_dir / "report").exists()  # the run's own report is not written


def test_score_packs_refuses_a_changed_input_and_report_an_unknown_version(
        tmp_path: Path) -> None:
    run_dir, corpus = scored_run(tmp_path)
    fixed = corrected_copy(corpus, tmp_path / "packs-fixed")
    (fixed / "CTL-M-001" / "setup.json").write_text("{}")

    result = runner.invoke(app, ["score", str(run_dir), "--packs", str(fixed)])

    assert result.exit_code == 2
    assert "CTL-M-001 (setup.json)" in result.output and "pack=CTL-M-001" in result.output
    assert not (run_dir / "rescored").exists()
    report = runner.invoke(app, ["report", str(run_dir), "--rescored", "../.."])
    assert report.exit_code == 2
    assert "no such re-scored version; known: none" in report.output


def test_score_packs_and_corpus_together_are_refused(tmp_path: Path) -> None:
    run_dir, corpus = scored_run(tmp_path)

    result = runner.invoke(app, ["score", str(run_dir), "--packs", str(corpus), "--corpus",
                                 str(corpus)])

    assert result.exit_code == 2
    assert "not both" in result.output
    assert not (run_dir / "rescored").exists()


def test_gate_and_compare_say_how_many_overrides_their_numbers_include(tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path / "a")
    baseline, _ = scored_run(tmp_path / "b")
    scoring.record_override(run_dir, "CTL-M-001", 1, "journey", "fail", "Ann Lee", "Slow.")

    gate = runner.invoke(app, ["gate", str(run_dir), "--min-pass-hat-k", "0.5", "--k", "1"])
    compare = runner.invoke(app, ["compare", str(run_dir), "--baseline", str(baseline)])

    assert "includes 1 reviewer override(s): 1 changed a criterion, 1 changed a trial's " \
           "success" in gate.output
    assert "the run's numbers include 1 reviewer override(s) (1 changed a trial's success)" \
           in compare.output
    assert "the baseline's numbers include" not in compare.output
