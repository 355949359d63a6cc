"""The history index (entries, trend, HTML) and the choice of tonight's baseline."""

from __future__ import annotations

import pytest

from claims_nightly import add_night, load_history
from claims_nightly._baseline import find_baseline, pack_changes
from claims_records import (
    Comparison,
    CorpusInfo,
    GateOutcome,
    HistoryIndex,
    NightEntry,
    PackDifference,
    RunSummary,
)
from scoring import trend

CORPUS = [CorpusInfo(version="0.2.2", hash="h1", path="packs")]


def _night(run_id: str, value: float | None, passed: bool = True, config: str = "c",
           corpora=CORPUS, **kw) -> NightEntry:
    return NightEntry(config=config, config_digest="d", run_id=run_id, run_path=run_id,
                      started_at=f"2026-03-01T0{len(run_id)}:00:00+00:00", finished_at="x",
                      outcome="ok" if passed else "gate_failed", exit_code=0 if passed else 1,
                      corpora=corpora, gate=GateOutcome(passed=passed, k=1, floor=0.8,
                                                        value=value, message="m"), **kw)


def test_trend_says_when_it_is_too_thin():
    assert trend([]).direction == "too_thin" and trend([]).last_change is None
    two = trend([1.0, 0.5])
    assert two.direction == "too_thin" and two.last_change == pytest.approx(-0.5)
    assert "too few" in two.describe()
    down = trend([1.0, 0.9, None, 0.7, 0.6])
    assert down.direction == "down" and down.slope < 0 and down.nights == 4
    assert trend([0.5, 0.5, 0.5]).direction == "flat"
    assert trend([0.2, 0.5, 0.9]).direction == "up"
    assert trend([0.0] * 10 + [1.0, 1.0, 1.0], window=3).direction == "flat"


def test_nights_are_added_under_the_lock_and_rendered_with_a_trend(tmp_path):
    add_night(tmp_path, _night("n1", 1.0))
    add_night(tmp_path, _night("n2", 0.5, passed=False, reasons=["gate: below"]))
    add_night(tmp_path, _night("other", 0.9, config="kestrel"))
    add_night(tmp_path, _night("n2", 0.4, passed=False))  # the same night again: replaced
    history = load_history(tmp_path)
    assert [n.run_id for n in history.nights] == ["n1", "other", "n2"]
    html = (tmp_path / "index.html").read_text()
    assert html.count('class="config"') == 2
    section = html.split('data-config="c"')[1].split("</section>")[0]
    assert section.index('data-run="n2"') < section.index('data-run="n1"')  # newest first
    assert "<polyline" in section and "-0.600 since the previous night" in section
    assert "gate_failed" in section


def _summary(run_id: str) -> RunSummary:
    from scoring import scorer_info

    return RunSummary.model_validate({
        "run_id": run_id, "self_test": False, "corpus_version": "0.2.2", "corpus_hash": "h1",
        "product_runtime": "reference", "customer": "scripted", "trials": 0,
        "scorable_trials": 0, "successes": 0, "packs": [],
        "mean_success": {"estimate": None, "seed": 1, "resamples": 100, "packs": 0,
                         "too_thin": True},
        "review": {}, "innocent_controls": {}, "scorer": scorer_info().model_dump()})


def test_the_baseline_is_the_latest_earlier_passing_night_on_the_same_corpora(tmp_path):
    from scoring import scorer_info

    for run_id in ("n1", "n3"):
        (tmp_path / run_id).mkdir()
        (tmp_path / run_id / "run.json").write_text("{}")
        (tmp_path / run_id / "summary.json").write_text(_summary(run_id).model_dump_json())
    other = [CorpusInfo(version="0.3.0", hash="h2", path="packs")]
    history = HistoryIndex(nights=[_night("n1", 1.0), _night("n2", 0.2, passed=False),
                                   _night("n3", 0.9), _night("n4", 1.0, corpora=other),
                                   _night("k1", 1.0, config="kestrel")])
    me = scorer_info()
    found = find_baseline(history, "c", "tonight", CORPUS, tmp_path, me)
    assert found.entry.run_id == "n3" and found.summary.run_id == "n3"
    first = find_baseline(HistoryIndex(), "c", "tonight", CORPUS, tmp_path, me)
    assert first.entry is None and "first night" in first.note
    failing = HistoryIndex(nights=[_night("n2", 0.2, passed=False)])
    assert "no earlier night passed" in find_baseline(failing, "c", "t", CORPUS, tmp_path,
                                                      me).note
    new_corpus = [CorpusInfo(version="0.4.0", hash="h9", path="packs")]
    note = find_baseline(history, "c", "t", new_corpus, tmp_path, me).note
    assert "no earlier passing night used these corpora" in note and "0.3.0" in note
    gone = HistoryIndex(nights=[_night("vanished", 1.0)])
    assert "gone" in find_baseline(gone, "c", "t", CORPUS, tmp_path, me).note


def test_pack_changes_name_regressions_and_improvements():
    diffs = [PackDifference(pack_id=p, run_rate=r, baseline_rate=b, difference=r - b,
                            run_n=3, baseline_n=3)
             for p, r, b in (("A", 0.0, 1.0), ("B", 2 / 3, 1.0), ("C", 1.0, 1 / 3),
                             ("D", 0.5, 1.0))]
    comparison = Comparison(run_id="r", baseline_run_id="b", corpus_version="1",
                            baseline_corpus_version="1", packs=diffs, mean_difference=0,
                            seed=1, resamples=100, verdict="inconclusive", explanation="")
    down, up = pack_changes(comparison, 0.5)
    assert [c.pack_id for c in down] == ["A", "D"] and [c.pack_id for c in up] == ["C"]


def test_pass_hat_k_has_an_interval_over_packs_or_says_it_is_too_thin():
    from scoring import pass_hat_k_interval

    thin = pass_hat_k_interval([1.0, 0.0], seed=3, resamples=200)
    assert thin.too_thin and thin.low is None and thin.estimate == 0.5
    wide = pass_hat_k_interval([1.0, 0.0, 1.0, 1.0], seed=3, resamples=500)
    assert not wide.too_thin and wide.low <= 0.75 <= wide.high and wide.seed == 3
    assert pass_hat_k_interval([1.0, 0.0, 1.0, 1.0], seed=3, resamples=500) == wide
