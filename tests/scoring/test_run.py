"""score_run: sheets, summary statistics, and the evidence left untouched."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from claims_records import PackError, RunRecordError, RunSummary, Sheet
from scoring import load_sheets, pass_hat_k, score_run

from .builders import Variant, make_labels, write_corpus, write_run


def _mixed_run(tmp_path: Path) -> Path:
    labels = [make_labels("CTL-M-001"), make_labels("CTL-M-002"),
              make_labels("CTL-M-003", innocent_control=True, message_style="typos")]
    corpus = write_corpus(tmp_path / "packs", labels)
    trials = [
        (labels[0], 1, None), (labels[0], 2, None), (labels[0], 3, Variant(ask_twice=True)),
        (labels[1], 1, None), (labels[1], 2, Variant(status="product_error", detail="500")),
        (labels[1], 3, Variant(lose=("incident_time",))),
        (labels[2], 1, Variant(flag=True)), (labels[2], 2, None),
        (labels[2], 3, Variant(status="simulator_error", detail="429 after retries")),
    ]
    return write_run(tmp_path / "run", corpus, trials)


def _snapshot(run_dir: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(run_dir)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(run_dir.rglob("*")) if p.is_file()}


def test_score_run_writes_one_sheet_per_trial_and_a_summary(tmp_path):
    run_dir = _mixed_run(tmp_path)
    summary = score_run(run_dir)
    assert RunSummary.model_validate_json((run_dir / "summary.json").read_text()) == summary
    sheets = load_sheets(run_dir)
    assert len(sheets) == 9
    for s in sheets:
        assert Sheet.model_validate_json((run_dir / s.path / "sheet.json").read_text()) == s


def test_summary_numbers(tmp_path):
    summary = score_run(_mixed_run(tmp_path), seed=11, resamples=300)
    assert (summary.trials, summary.scorable_trials, summary.successes) == (9, 7, 4)
    packs = {p.pack_id: p for p in summary.packs}
    p1, p2, p3 = packs["CTL-M-001"], packs["CTL-M-002"], packs["CTL-M-003"]
    assert (p1.n, p1.c) == (3, 2) and (p2.n, p2.c) == (2, 1) and (p3.n, p3.c) == (2, 1)
    assert p2.errors == {"product_error": 1} and p3.errors == {"simulator_error": 1}
    assert [k.k for k in p1.k_stats] == [1, 2, 3]
    assert p1.k_stats[1].pass_hat_k == pytest.approx(pass_hat_k(3, 2, 2)) == pytest.approx(1 / 3)
    assert p1.k_stats[1].pass_at_k == pytest.approx(1.0)
    # mean of per-pack rates, not of trials
    ms = summary.mean_success
    assert ms.estimate == pytest.approx((2 / 3 + 1 / 2 + 1 / 2) / 3)
    assert (ms.seed, ms.resamples, ms.packs, ms.too_thin) == (11, 300, 3, False)
    assert ms.low <= ms.estimate <= ms.high
    # infrastructure errors are listed but never in the rates
    assert summary.errors_by_category == {"product_error": 1, "simulator_error": 1}
    assert {(e.pack_id, e.trial) for e in summary.infrastructure_errors} == {
        ("CTL-M-002", 2), ("CTL-M-003", 3)}
    assert summary.failure_modes["repeated_question"] == 1
    assert summary.failure_modes["missing_fact"] == 1
    assert summary.failure_modes["false_flag"] == 1
    # review counts: innocent controls on their own
    assert summary.innocent_controls.false_positive == 1
    assert summary.innocent_controls.true_negative == 1
    assert summary.review.false_positive == 0 and summary.review.true_negative == 5
    # slices and the reading list
    assert set(summary.slices) == {"line", "flagged_vs_innocent", "message_style",
                                   "session_mode", "corpus"}
    assert summary.slices["message_style"]["typos"].packs == 1
    assert summary.slices["flagged_vs_innocent"]["innocent_control"].trials == 2
    assert summary.slices["session_mode"]["anonymous"].packs == 3
    assert {(r.pack_id, r.trial) for r in summary.reading_list} == {
        ("CTL-M-001", 3), ("CTL-M-002", 3), ("CTL-M-003", 1)}
    assert all(r.explanation for r in summary.reading_list)
    assert summary.components["assertions_human"].queued == 7
    assert summary.components["triage"].not_scored == 2
    assert p1.mean_cost_usd == pytest.approx(0.01)


def test_too_thin_without_three_scorable_packs(tmp_path):
    labels = make_labels()
    run_dir = write_run(tmp_path / "run", write_corpus(tmp_path / "packs", [labels]),
                        [(labels, 1, None), (labels, 2, None)])
    ms = score_run(run_dir).mean_success
    assert ms.too_thin is True and ms.low is None and ms.estimate == 1.0


def test_rescoring_rewrites_only_sheets_and_summary(tmp_path):
    run_dir = _mixed_run(tmp_path)
    before = _snapshot(run_dir)
    score_run(run_dir)
    first = _snapshot(run_dir)
    new = set(first) - set(before)
    assert {Path(p).name for p in new} == {"sheet.json", "summary.json"}
    assert all(first[p] == before[p] for p in before)
    os.utime(run_dir / "run.json")  # nothing else may change on a second scoring either
    evidence = {p: v for p, v in _snapshot(run_dir).items()
                if Path(p).name not in ("sheet.json", "summary.json")}
    score_run(run_dir)
    after = _snapshot(run_dir)
    assert all(after[p] == v for p, v in evidence.items())
    assert set(after) == set(first)
    assert not list(run_dir.rglob("*.tmp"))


def test_rescoring_picks_up_human_verdicts(tmp_path):
    run_dir = _mixed_run(tmp_path)
    score_run(run_dir)
    (run_dir / "CTL-M-001/trial-1/human.json").write_text(json.dumps({
        "pack_id": "CTL-M-001", "trial": 1,
        "verdicts": {"tone": {"verdict": "fail", "reviewer": "Ann Lee", "note": "curt"}}}))
    summary = score_run(run_dir)
    sheet = Sheet.model_validate_json((run_dir / "CTL-M-001/trial-1/sheet.json").read_text())
    assert sheet.human_file == "human.json" and sheet.success is False
    assert "human_rejected" in sheet.failure_modes
    assert summary.components["assertions_human"].failed == 1


def test_a_broken_oracle_names_pack_file_and_field(tmp_path):
    run_dir = _mixed_run(tmp_path)
    path = tmp_path / "packs/CTL-M-002/oracle/labels.json"
    data = json.loads(path.read_text())
    data["triage"]["triage_class"] = "urgent"
    path.write_text(json.dumps(data))
    with pytest.raises(PackError) as err:
        score_run(run_dir)
    ctx = err.value.context
    assert ctx["pack"] == "CTL-M-002" and ctx["file"].endswith("labels.json")
    assert ctx["field"] == "triage.triage_class"


def test_a_missing_oracle_is_a_pack_error(tmp_path):
    run_dir = _mixed_run(tmp_path)
    (tmp_path / "packs/CTL-M-003/oracle/labels.json").unlink()
    with pytest.raises(PackError, match="no oracle/labels.json") as err:
        score_run(run_dir)
    assert err.value.context["pack"] == "CTL-M-003"


def test_a_bad_journey_line_makes_that_trial_unscorable_naming_the_line(tmp_path):
    run_dir = _mixed_run(tmp_path)
    path = run_dir / "CTL-M-001/trial-2/journey.jsonl"
    lines = path.read_text().splitlines()
    lines[2] = lines[2].replace('"step": 2', '"step": -2')
    path.write_text("\n".join(lines) + "\n")
    summary = score_run(run_dir)
    sheet = Sheet.model_validate_json((path.parent / "sheet.json").read_text())
    assert sheet.error_category == "unscorable" and sheet.scorable is False
    assert "line 3: step" in sheet.damage[0]
    assert [(e.pack_id, e.trial) for e in summary.unscorable] == [("CTL-M-001", 2)]
    assert summary.scorable_trials == 6  # the other trials are scored as before


def test_no_run_json_is_a_run_record_error(tmp_path):
    with pytest.raises(RunRecordError, match="no run.json"):
        score_run(tmp_path)


def test_corpus_root_override(tmp_path):
    run_dir = _mixed_run(tmp_path)
    moved = tmp_path / "elsewhere"
    (tmp_path / "packs").rename(moved)
    with pytest.raises(PackError):
        score_run(run_dir)
    assert score_run(run_dir, moved).trials == 9


def test_two_corpora_are_reported_apart(tmp_path):
    """A run over the public corpus and a held-out one: each corpus gets its own numbers, and
    each pack's oracle is read from its own corpus (named by its id prefix)."""
    public = [make_labels("CTL-M-001"), make_labels("CTL-M-002")]
    held_out = [make_labels("HLD-M-001")]
    write_corpus(tmp_path / "packs", public)
    write_corpus(tmp_path / "held-out", held_out)
    corpora = [{"id_prefix": "CTL", "version": "0.3.0", "path": str(tmp_path / "packs")},
               {"id_prefix": "HLD", "name": "held-out", "version": "1.0.0",
                "path": str(tmp_path / "held-out")}]
    trials = [(public[0], 1, None), (public[1], 1, Variant(flag=True)), (held_out[0], 1, None)]
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", trials, corpora=corpora,
                        corpus_version="0.3.0")
    summary = score_run(run_dir)
    by = {c.id_prefix: c for c in summary.corpora}
    assert [c.id_prefix for c in summary.corpora] == ["CTL", "HLD"]
    assert (by["CTL"].packs, by["CTL"].successes, by["CTL"].mean_success.estimate) == (2, 1, 0.5)
    assert (by["HLD"].packs, by["HLD"].successes, by["HLD"].mean_success.estimate) == (1, 1, 1.0)
    assert by["HLD"].name == "held-out" and by["HLD"].version == "1.0.0"
    assert by["CTL"].failure_modes and not by["HLD"].failure_modes
    assert summary.slices["corpus"]["HLD"].packs == 1
    sheet = Sheet.model_validate_json((run_dir / "HLD-M-001/trial-1/sheet.json").read_text())
    assert sheet.corpus == "HLD"
    # the held-out oracle lives only in its own folder: a missing folder is named
    (tmp_path / "held-out").rename(tmp_path / "moved")
    with pytest.raises(PackError, match="labels.json"):
        score_run(run_dir)


def test_trials_run_again_after_an_infrastructure_error_are_counted(tmp_path):
    from typer.testing import CliRunner

    from claims_cli import app
    from claims_records import EarlierAttempt, RunRecord, TrialStatus
    from scoring import write_report

    run_dir = _mixed_run(tmp_path)
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    entry = run.trials[3]  # CTL-M-002 trial 1: a killed browser twice, then a clean attempt
    run.trials[3] = entry.model_copy(update={"attempts": 3, "earlier_attempts": [
        EarlierAttempt(attempt=k, status=TrialStatus.HARNESS_ERROR, detail="browser closed",
                       path=f"{entry.path}.attempt-{k}") for k in (1, 2)]})
    (run_dir / "run.json").write_text(run.model_dump_json(indent=2))
    summary = score_run(run_dir)
    retried, = summary.retried
    assert (retried.pack_id, retried.trial, retried.attempts) == ("CTL-M-002", 1, 3)
    assert retried.earlier == ["harness_error", "harness_error"]
    assert summary.trials == 9  # each trial counted once, by its last attempt
    result = CliRunner().invoke(app, ["score", str(run_dir)])
    assert ("run again after an infrastructure error: 1 trial(s), 2 earlier attempt(s) kept "
            "apart") in result.output
    index = write_report(run_dir)
    assert "Run again after an infrastructure error: 1 trial(s), 2 earlier attempt(s)" in (
        index.read_text(encoding="utf-8"))
