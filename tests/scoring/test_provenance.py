"""Scorer provenance: sheets and summaries say which scorer wrote them and which corpus the
oracle came from; a re-score keeps the previous summary; compare refuses different scorers
unless told."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_records import RunSummary, ScorerInfo, ScoringError, Sheet
from scoring import _provenance as provenance
from scoring import compare, score_run, scorer_info

from .builders import make_labels, write_corpus, write_run

runner = CliRunner()


def _scored(tmp_path, name="r"):
    labels = [make_labels(p) for p in ("CTL-M-001", "CTL-M-002", "CTL-M-003")]
    corpus = write_corpus(tmp_path / "packs", labels)
    run_dir = write_run(tmp_path / name, corpus, [(lab, 1, None) for lab in labels],
                        run_id=name)
    return run_dir, score_run(run_dir, resamples=300)


def test_every_sheet_and_summary_names_its_scorer_and_corpus(tmp_path):
    run_dir, summary = _scored(tmp_path)
    me = scorer_info()
    assert summary.scorer == me and summary.scored_at
    assert len(me.source_hash) == 64
    sheet = Sheet.model_validate_json((run_dir / "CTL-M-001/trial-1/sheet.json").read_text())
    assert sheet.scorer == me and sheet.corpus_hash == summary.corpus_hash


def test_the_scorer_hash_follows_the_rule_sources_only():
    names = {p.name for p in provenance.rule_sources()}
    assert {"_sheet.py", "_claim_checks.py", "_summary.py", "_stats.py"} <= names
    assert "_report.py" not in names and not any(n.endswith(".j2") for n in names)


def test_a_rescore_keeps_the_previous_summary_beside_the_new_one(tmp_path):
    run_dir, first = _scored(tmp_path)
    assert not list(run_dir.glob("summary.previous-*.json"))
    score_run(run_dir, resamples=300)  # same result: nothing to keep
    assert not list(run_dir.glob("summary.previous-*.json"))
    old = json.loads((run_dir / "summary.json").read_text())
    old["scorer"] = {"version": "0.1.0", "source_hash": "0" * 64}
    (run_dir / "summary.json").write_text(json.dumps(old))
    score_run(run_dir, resamples=300)
    kept = RunSummary.model_validate_json((run_dir / "summary.previous-1.json").read_text())
    assert kept.scorer.version == "0.1.0"
    assert RunSummary.model_validate_json((run_dir / "summary.json").read_text()).scorer == \
        scorer_info()
    (run_dir / "summary.json").write_text("{damaged")
    score_run(run_dir, resamples=300)
    assert (run_dir / "summary.previous-2.json").read_text() == "{damaged"


def test_compare_refuses_different_scorers_unless_told(tmp_path):
    _, a = _scored(tmp_path, "a")
    _, b = _scored(tmp_path, "b")
    older = b.model_copy(update={"scorer": ScorerInfo(version="0.1.0", source_hash="f" * 64)})
    with pytest.raises(ScoringError, match="different scorers") as err:
        compare(a, older)
    assert err.value.context["field"] == "scorer" and "re-score" in str(err.value)
    unrecorded = b.model_copy(update={"scorer": None})
    with pytest.raises(ScoringError, match="an unrecorded scorer"):
        compare(unrecorded, a)
    allowed = compare(a, older, allow_different_scorer=True)
    assert allowed.different_scorer_allowed and allowed.baseline_scorer.version == "0.1.0"
    same = compare(a, b)
    assert same.scorer == same.baseline_scorer == scorer_info()


def test_compare_command_says_so_and_takes_the_flag(tmp_path):
    a_dir, _ = _scored(tmp_path, "a")
    b_dir, _ = _scored(tmp_path, "b")
    data = json.loads((b_dir / "summary.json").read_text())
    data["scorer"]["source_hash"] = "e" * 64
    (b_dir / "summary.json").write_text(json.dumps(data))
    refused = runner.invoke(app, ["compare", str(a_dir), "--baseline", str(b_dir)])
    assert refused.exit_code == 2 and "different scorers" in refused.output
    told = runner.invoke(app, ["compare", str(a_dir), "--baseline", str(b_dir),
                               "--allow-different-scorer"])
    # compared, and too thin for a verdict on three packs: exit 3, not a refusal
    assert told.exit_code == 3 and "TOO THIN" in told.output, told.output
