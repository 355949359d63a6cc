"""Reviewer overrides: kept in overrides.json with who, when, why and the mechanical value,
applied every time the run is scored (re-scored versions too), shown beside the mechanical
value in the sheet and the report, and counted in the summary."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import scoring
from claims_records import (
    ScoreOverride,
    ScoreOverrides,
    ScoringError,
    Sheet,
    read_model,
    read_overrides,
    write_model_atomic,
)
from tests.scoring.test_rescore import corrected_copy, scored_run


def _sheet(run_dir: Path, pack: str, trial: int, base: Path | None = None) -> Sheet:
    return read_model(Sheet, (base or run_dir) / pack / f"trial-{trial}" / "sheet.json")


def test_an_override_is_kept_applied_counted_and_survives_rescoring(tmp_path: Path) -> None:
    run_dir, corpus = scored_run(tmp_path)

    o, summary = scoring.record_override(run_dir, "CTL-M-002", 1, "triage", "fail",
                                         "  Ann\u00a0 Lee ", "The photo shows a second car.")

    assert (o.by, o.mechanical, o.value) == ("Ann Lee", "pass", "fail")
    kept = read_overrides(run_dir, "run-1")
    assert kept.overrides == [o] and kept.version == "1"
    sheet = _sheet(run_dir, "CTL-M-002", 1)
    triage = next(c for c in sheet.components if c.name == "triage")
    assert triage.status == "fail" and triage.override is not None
    assert (triage.override.mechanical, triage.override.by, triage.override.why) == (
        "pass", "Ann Lee", "The photo shows a second car.")
    assert (sheet.success, sheet.mechanical_success) == (False, True)
    assert sheet.explanation.startswith("triage: failed by reviewer override (overridden: "
                                         "triage pass -> fail by Ann Lee: The photo shows")
    assert summary.successes == 5
    assert (summary.overrides.applied, summary.overrides.changed,
            summary.overrides.trials_changed) == (1, 1, 1)
    untouched = _sheet(run_dir, "CTL-M-002", 2)
    assert untouched.mechanical_success is None and untouched.success is True

    again = scoring.score_run(run_dir)  # a plain re-score applies it again
    assert again.overrides.applied == 1 and again.successes == 5
    fixed = corrected_copy(corpus, tmp_path / "packs-fixed")
    rescored = scoring.score_run(run_dir, packs=[fixed])  # and so does a corrected oracle
    out = scoring.rescored_dir(run_dir, rescored.rescored)  # type: ignore[arg-type]
    applied = next(c for c in _sheet(run_dir, "CTL-M-002", 1, out).components
                   if c.name == "triage")
    assert applied.override is not None and applied.override.mechanical == "fail"
    assert rescored.overrides.applied == 1 and rescored.overrides.changed == 0


def test_the_last_override_takes_effect_and_the_history_stays(tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path)
    scoring.record_override(run_dir, "CTL-M-001", 2, "journey", "fail", "Ann Lee", "Slow.")
    o, summary = scoring.record_override(run_dir, "CTL-M-001", 2, "journey", "pass",
                                         "Bo Chen", "Not slow: the product was waiting.")

    assert o.mechanical == "pass"  # the scorer's value, not the earlier override's
    assert [x.by for x in read_overrides(run_dir, "run-1").overrides] == ["Ann Lee", "Bo Chen"]
    journey = next(c for c in _sheet(run_dir, "CTL-M-001", 2).components
                   if c.name == "journey")
    assert journey.status == "pass" and journey.override is not None
    assert journey.override.by == "Bo Chen"
    assert (summary.overrides.applied, summary.overrides.changed) == (1, 0)
    assert summary.successes == 6


@pytest.mark.parametrize(("pack", "trial", "criterion", "value", "by", "why", "words"), [
    ("CTL-M-009", 1, "triage", "fail", "Ann Lee", "x", "no such trial"),
    ("CTL-M-001", 1, "privacy", "fail", "Ann Lee", "x", "does not score this criterion"),
    ("CTL-M-001", 1, "triage", "maybe", "Ann Lee", "x", "override refused"),
    ("CTL-M-001", 1, "triage", "fail", "   ", "x", "only spaces"),
    ("CTL-M-001", 1, "triage", "fail", "Ann\u202eLee", "x", "U+202E"),
    ("CTL-M-001", 1, "triage", "fail", "Ann Lee", "  ", "reason"),
])
def test_refused_overrides_name_the_problem_and_keep_nothing(
        tmp_path: Path, pack: str, trial: int, criterion: str, value: str, by: str,
        why: str, words: str) -> None:
    run_dir, _ = scored_run(tmp_path)
    before = (run_dir / "summary.json").read_bytes()

    with pytest.raises(ScoringError) as err:
        scoring.record_override(run_dir, pack, trial, criterion, value, by, why)

    assert words in str(err.value)
    assert err.value.context["pack"] == pack
    assert not (run_dir / "overrides.json").exists()
    assert (run_dir / "summary.json").read_bytes() == before


def test_an_override_of_a_criterion_no_sheet_scores_is_listed_not_applied(
        tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path)
    write_model_atomic(run_dir / "overrides.json", ScoreOverrides(run_id="run-1", overrides=[
        ScoreOverride(pack_id="CTL-M-003", trial=1, component="privacy", value="fail",
                      mechanical="pass", by="Ann Lee", at="2026-03-12T10:00:00+00:00",
                      why="Saw another customer's name.")]))

    summary = scoring.score_run(run_dir)

    assert summary.overrides.applied == 0
    assert summary.overrides.unmatched == ["CTL-M-003/1/privacy"]


def test_an_overrides_file_of_another_run_is_refused(tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path)
    (run_dir / "overrides.json").write_text(json.dumps({"run_id": "other", "overrides": []}))
    with pytest.raises(Exception, match="another run"):
        scoring.score_run(run_dir)


def test_the_report_shows_the_override_beside_the_mechanical_value(tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path)
    scoring.record_override(run_dir, "CTL-M-002", 1, "facts", "fail", "Ann Lee",
                            "The registration was read back wrong on screen 4.")

    index = scoring.write_report(run_dir)

    page = (index.parent / "packs" / "CTL-M-002.html").read_text()
    assert 'data-testid="override-note"' in page
    assert "Ann Lee" in page and "The registration was read back wrong on screen 4." in page
    assert "mechanical: <span class=\"badge pass\">pass</span>" in page
    assert 'data-testid="success-overridden"' in page
    text = index.read_text()
    assert "1 reviewer override(s)</span> included in these numbers" in text
    assert "1 changed a trial's success" in text


def test_an_unscored_trial_or_one_kept_out_of_the_rates_cannot_be_overridden(
        tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path)
    (run_dir / "CTL-M-001/trial-1/sheet.json").unlink()
    with pytest.raises(ScoringError, match="not scored yet"):
        scoring.record_override(run_dir, "CTL-M-001", 1, "triage", "fail", "Ann Lee", "x")

    sheet = _sheet(run_dir, "CTL-M-001", 2)
    kept_out = sheet.model_copy(update={"scorable": False, "success": None,
                                        "error_category": "harness_error"})
    write_model_atomic(run_dir / "CTL-M-001/trial-2/sheet.json", kept_out)
    with pytest.raises(ScoringError, match="kept out of the rates"):
        scoring.record_override(run_dir, "CTL-M-001", 2, "triage", "fail", "Ann Lee", "x")
    assert not (run_dir / "overrides.json").exists()


def test_a_trial_failed_by_an_override_carries_it_into_acceptance_and_the_report(
        tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path)
    _, summary = scoring.record_override(run_dir, "CTL-M-002", 1, "waiting_list", "fail",
                                         "Ann Lee", "The list holds a request nobody made.")
    scoring.record_override(run_dir, "CTL-M-003", 2, "triage", "fail", "Bo Chen",
                            "The photo shows a second car.")

    index = scoring.write_report(run_dir)

    summary = scoring.load_summary(run_dir)
    nfc = next(c for c in summary.acceptance.criteria  # type: ignore[union-attr]
               if c.name == "no_further_contact")
    assert nfc.details["reasons"] == {"reviewer_waiting_list": 1}
    assert nfc.details["overrides"] == ["CTL-M-002/1 waiting_list by Ann Lee"]
    text = index.read_text()
    assert 'data-testid="criterion-override"' in text
    # no "Failure modes: None." above two failed trials: they are named instead
    assert "<p>None" not in text
    assert re.search(r'data-testid="unlabelled-failures">2 failing trial', text)
    page = (index.parent / "packs" / "CTL-M-002.html").read_text()
    contact = re.findall(r'data-testid="further-contact">([^<]*)<', page)
    assert contact[0] == ("reviewer waiting list (reviewer override of the waiting list; "
                          "mechanical: none)")
    assert contact[1] == "none"  # trial 2: not overridden, passed
    page = (index.parent / "packs" / "CTL-M-003.html").read_text()
    contact = re.findall(r'data-testid="further-contact">([^<]*)<', page)
    assert contact[1].startswith("none by the mechanical reading only; a reviewer failed "
                                 "this trial (triage)")


def test_a_report_older_than_an_override_says_so(tmp_path: Path) -> None:
    run_dir, corpus = scored_run(tmp_path)
    fixed = corrected_copy(corpus, tmp_path / "packs-fixed")
    rescored = scoring.score_run(run_dir, packs=[fixed])
    name = scoring.rescored_dir(run_dir, rescored.rescored).name  # type: ignore[arg-type]
    assert 'data-testid="late-override"' not in scoring.write_report(
        run_dir, rescored=name).read_text()

    scoring.record_override(run_dir, "CTL-M-001", 1, "triage", "fail", "Ann Lee",
                            "The photo shows a second car.")  # re-scores the run's own only

    own = scoring.write_report(run_dir).read_text()
    assert 'data-testid="late-override"' not in own
    text = scoring.write_report(run_dir, rescored=name).read_text()
    warning = re.search(r'data-testid="late-override"[^>]*>(.*?)</div>', text, flags=re.S)
    assert warning is not None
    assert "OLDER THAN AN OVERRIDE" in warning.group(1)
    assert "Ann Lee overrode CTL-M-001 trial 1 triage (pass → fail)" in warning.group(1)
    assert "re-scored version" in warning.group(1)


def test_the_report_reads_as_sentences(tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path)
    index = scoring.write_report(run_dir)
    text = re.sub(r"<[^>]+>", "", index.read_text())
    assert re.search(r"\d\.(Simulator|Time|Cost)", text) is None, text
    assert re.search(r"\.\s+Simulator-suspect trials", text)
    page = re.sub(r"<[^>]+>", "", (index.parent / "packs" / "CTL-M-001.html").read_text())
    assert "review False" not in page and "review True" not in page
    assert "review signal not shown" in page
    verdict = re.search(r'data-testid="verdict"[^>]*>(.*?)</div>', index.read_text(),
                        flags=re.S).group(1)  # type: ignore[union-attr]
    assert "6 of 6 scorable trials succeeded (100.0 %); 0 failed." in verdict
    mean = re.search(r'data-testid="mean-one-sided">(.*?)</span>', index.read_text())
    assert mean is not None and mean.group(1) == "≥ 50.1 %"  # 1 - (-ln 0.05)/6, the rule of three
