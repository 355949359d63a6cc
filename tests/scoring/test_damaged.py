"""Damaged run records: the damage is reported (unscorable, with the reason), kept out of the
rates, shown in the sheet, the summary, the CLI and the report, and never scored as agent
behaviour; one damaged trial never stops the scoring of the others."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_records import RunSummary, Sheet
from scoring import score_run, write_report

from .builders import make_labels, write_corpus, write_run


def _run(tmp_path: Path) -> Path:
    """Two packs, three completed trials each, all of them successes."""
    labels = [make_labels("CTL-M-001"), make_labels("CTL-M-002")]
    corpus = write_corpus(tmp_path / "packs", labels)
    return write_run(tmp_path / "run", corpus,
                     [(lab, n, None) for lab in labels for n in (1, 2, 3)])


TRIAL = "CTL-M-001/trial-2"


def _cut_mid_line(p: Path) -> None:
    data = p.read_bytes()
    p.write_bytes(data[: len(data) - 40])


def _cut_at_line(p: Path) -> None:
    lines = p.read_text().splitlines(keepends=True)
    p.write_text("".join(lines[: len(lines) // 2]))


def _garble(p: Path) -> None:
    p.write_text("{not json")


# (id, damage done to the trial folder, words the reason holds)
DAMAGE: list[tuple[str, Callable[[Path], None], str]] = [
    ("trial.json deleted", lambda t: (t / "trial.json").unlink(), "trial.json is missing"),
    ("trial.json unreadable", lambda t: _garble(t / "trial.json"), "trial.json is unreadable"),
    ("journey.jsonl deleted", lambda t: (t / "journey.jsonl").unlink(),
     "journey.jsonl is missing"),
    ("journey.jsonl empty", lambda t: (t / "journey.jsonl").write_text(""),
     "journey.jsonl is empty"),
    ("journey.jsonl blank lines only", lambda t: (t / "journey.jsonl").write_text("\n\n"),
     "journey.jsonl is empty"),
    ("journey.jsonl cut at a line boundary", lambda t: _cut_at_line(t / "journey.jsonl"),
     "cut short"),
    ("journey.jsonl cut mid-line", lambda t: _cut_mid_line(t / "journey.jsonl"),
     "journey.jsonl is unreadable"),
    ("state-after.json missing", lambda t: (t / "state-after.json").unlink(),
     "state-after.json is missing"),
    ("state-before.json missing", lambda t: (t / "state-before.json").unlink(),
     "state-before.json is missing"),
    ("state-after.json cut", lambda t: _cut_mid_line(t / "state-after.json"),
     "state-after.json is unreadable"),
    ("staff.json missing", lambda t: (t / "staff.json").unlink(), "staff.json is missing"),
    ("staff.json unreadable", lambda t: _garble(t / "staff.json"), "staff.json is unreadable"),
    ("staff.json not UTF-8", lambda t: (t / "staff.json").write_bytes(b"\xff\xfe{"),
     "staff.json is unreadable"),
    ("human.json unreadable", lambda t: _garble(t / "human.json"), "human.json is unreadable"),
]


@pytest.mark.parametrize("case", DAMAGE, ids=[d[0] for d in DAMAGE])
def test_damaged_trial_is_unscorable_with_the_reason(tmp_path, case):
    _, damage, reason = case
    run_dir = _run(tmp_path)
    damage(run_dir / TRIAL)
    summary = score_run(run_dir)

    sheet = Sheet.model_validate_json((run_dir / TRIAL / "sheet.json").read_text())
    assert (sheet.error_category, sheet.scorable, sheet.success) == ("unscorable", False, None)
    assert any(reason in d for d in sheet.damage), sheet.damage
    assert reason in sheet.explanation
    assert all(c.status == "not_scored" for c in sheet.components)
    # out of the rates, like an infrastructure error, and listed on its own
    assert (summary.trials, summary.scorable_trials, summary.successes) == (6, 5, 5)
    assert summary.mean_success.estimate == pytest.approx(1.0)
    assert [(u.pack_id, u.trial, u.category) for u in summary.unscorable] == [
        ("CTL-M-001", 2, "unscorable")]
    assert reason in summary.unscorable[0].detail
    assert summary.infrastructure_errors == []
    assert summary.errors_by_category == {"unscorable": 1}
    pack = next(p for p in summary.packs if p.pack_id == "CTL-M-001")
    assert (pack.n, pack.c, pack.errors) == (2, 2, {"unscorable": 1})
    assert summary.reading_list == []  # never an agent failure


def test_trial_folder_deleted_while_run_json_says_completed(tmp_path):
    import shutil

    run_dir = _run(tmp_path)
    shutil.rmtree(run_dir / TRIAL)
    summary = score_run(run_dir)
    assert [u.detail for u in summary.unscorable] == [
        "the trial folder is missing although run.json says completed"]
    assert summary.scorable_trials == 5


def test_several_damages_are_all_named(tmp_path):
    run_dir = _run(tmp_path)
    (run_dir / TRIAL / "staff.json").unlink()
    _cut_mid_line(run_dir / TRIAL / "journey.jsonl")
    (run_dir / TRIAL / "state-after.json").unlink()
    score_run(run_dir)
    sheet = Sheet.model_validate_json((run_dir / TRIAL / "sheet.json").read_text())
    assert len(sheet.damage) == 3


def test_a_mid_line_cut_in_every_pack_never_stops_the_others(tmp_path):
    run_dir = _run(tmp_path)
    for trial in ("CTL-M-001/trial-1", "CTL-M-002/trial-3"):
        _cut_mid_line(run_dir / trial / "journey.jsonl")
    summary = score_run(run_dir)
    assert summary.scorable_trials == 4 and summary.successes == 4
    assert sorted((u.pack_id, u.trial) for u in summary.unscorable) == [
        ("CTL-M-001", 1), ("CTL-M-002", 3)]


def test_an_infrastructure_error_stays_one_even_with_missing_files(tmp_path):
    """A product error never had a staff reading; that is not damage."""
    from .builders import Variant

    labels = [make_labels("CTL-M-001")]
    corpus = write_corpus(tmp_path / "packs", labels)
    run_dir = write_run(tmp_path / "run", corpus,
                        [(labels[0], 1, Variant(status="product_error", detail="500"))])
    summary = score_run(run_dir)
    assert summary.unscorable == []
    assert [e.category for e in summary.infrastructure_errors] == ["product_error"]


def test_cli_report_and_summary_show_unscorable_trials(tmp_path):
    run_dir = _run(tmp_path)
    (run_dir / TRIAL / "trial.json").unlink()
    _cut_mid_line(run_dir / "CTL-M-002/trial-1/journey.jsonl")
    result = CliRunner().invoke(app, ["score", str(run_dir)])
    assert result.exit_code == 0, result.output
    assert "unscorable (damaged records, not in the rates): 2" in result.output
    assert "CTL-M-001 trial 2: trial.json is missing" in result.output
    summary = RunSummary.model_validate_json((run_dir / "summary.json").read_text())
    assert len(summary.unscorable) == 2
    index = write_report(run_dir)
    html = index.read_text()
    assert "Unscorable trials" in html and "trial.json is missing" in html
    page = (index.parent / "packs" / "CTL-M-002.html").read_text()
    assert "unscorable" in page and "journey.jsonl is unreadable" in page


def test_a_damaged_human_file_leaves_the_trial_readable_in_the_report(tmp_path):
    run_dir = _run(tmp_path)
    (run_dir / TRIAL / "human.json").write_text(json.dumps({"nonsense": True}))
    score_run(run_dir)
    index = write_report(run_dir)
    assert "human.json is unreadable" in (index.parent / "packs/CTL-M-001.html").read_text()
