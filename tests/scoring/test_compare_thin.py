"""compare on thin data: too thin below the minimum of packs and trials, per-pack tests
corrected for many packs (Holm–Bonferroni), and the smallest difference the run could detect."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli.app import app
from claims_records import ScoringError
from scoring import compare, detectable_difference, fisher_exact, holm, packs_needed, score_run

from .builders import Variant, make_labels, write_corpus, write_run

runner = CliRunner()


def _run(tmp_path: Path, name: str, packs: int, trials: int, failing: bool) -> Path:
    labels = [make_labels(f"CTL-M-{i:03d}") for i in range(1, packs + 1)]
    corpus = write_corpus(tmp_path / "packs", labels)
    spec = [(lab, n, Variant(ask_twice=True) if failing else None)
            for lab in labels for n in range(1, trials + 1)]
    run_dir = write_run(tmp_path / name, corpus, spec, run_id=name)
    score_run(run_dir, resamples=200)
    return run_dir


def _compare(tmp_path: Path, packs: int, trials: int):
    bad = _run(tmp_path, "bad", packs, trials, failing=True)
    good = _run(tmp_path, "good", packs, trials, failing=False)
    return good, bad


def test_one_pack_one_trial_is_too_thin_with_no_verdict(tmp_path):
    good, bad = _compare(tmp_path, 1, 1)
    result = runner.invoke(app, ["compare", str(bad), "--baseline", str(good),
                                 "--resamples", "200"])
    assert result.exit_code == 3, result.output  # no verdict: nothing a scheduler may pass
    assert "TOO THIN:" in result.output and "WORSE" not in result.output
    assert "fewer than the minimum of 3 paired packs" in result.output
    import scoring

    c = compare(scoring.load_summary(bad), scoring.load_summary(good), resamples=200)
    assert c.too_thin and c.verdict == "inconclusive"
    assert c.low is None and c.high is None  # no interval either
    assert c.mean_difference == pytest.approx(-1.0)


@pytest.mark.parametrize(("packs", "trials", "thin"),
                         [(3, 1, True), (4, 1, False), (2, 5, True), (3, 2, False)])
def test_thinness_is_decided_by_packs_and_trials(tmp_path, packs, trials, thin):
    """One trial a side needs four packs (the conservative bound's detectable difference is
    above 1 with three); two trials need the three-pack minimum."""
    import scoring

    good, bad = _compare(tmp_path, packs, trials)
    c = compare(scoring.load_summary(bad), scoring.load_summary(good), resamples=200)
    assert c.too_thin is thin, c.explanation
    assert c.verdict == ("inconclusive" if thin else "worse"), c.explanation
    if thin and packs >= 3:
        assert "even a 100 % vs 0 % difference" in c.explanation


def test_clear_difference_on_enough_packs_is_a_verdict_with_the_correction_named(tmp_path):
    good, bad = _compare(tmp_path, 6, 6)
    result = runner.invoke(app, ["compare", str(good), "--baseline", str(bad),
                                 "--resamples", "200", "--difference", "0.2"])
    assert result.exit_code == 0, result.output
    assert "BETTER:" in result.output
    assert "Holm–Bonferroni over 6 pack(s)" in result.output
    # 6/6 against 0/6: Fisher p = 2/924, times 6 packs after Holm's correction
    adjusted = 6 * 2 / 924
    assert f"CTL-M-001 better (adjusted p {adjusted:.3g})" in result.output
    # every difference is 1.0 (observed spread 0), so the conservative bound decides:
    # sqrt(1/24 + 1/24) * (1.960 + 0.842) / sqrt(6) = 0.330
    assert "smallest difference this run could detect: 0.330 (80% power" in result.output
    assert "a difference of 0.20 needs about 17 paired pack(s)" in result.output


def test_per_pack_claims_wait_for_the_correction(tmp_path):
    """3/3 against 0/3 is p = 0.1 for one pack: the run is clearly better over six packs, but
    no single pack is claimed."""
    import scoring

    good, bad = _compare(tmp_path, 6, 3)
    c = compare(scoring.load_summary(good), scoring.load_summary(bad), resamples=200)
    assert c.verdict == "better" and not c.too_thin
    assert c.correction == "Holm–Bonferroni"
    assert all(d.p_value == pytest.approx(0.1) and d.adjusted_p_value == pytest.approx(0.6)
               and d.verdict == "inconclusive" for d in c.packs)
    assert all((d.run_c, d.baseline_c) == (3, 0) for d in c.packs)
    assert "no single pack differs" in c.explanation
    assert c.detectable_difference == pytest.approx(detectable_difference(c.spread, 6))


def test_observed_spread_wins_over_the_bound_when_larger(tmp_path):
    import scoring

    labels = [make_labels(f"CTL-M-{i:03d}") for i in range(1, 5)]
    corpus = write_corpus(tmp_path / "packs", labels)
    spec = [(lab, n, Variant(ask_twice=True) if i % 2 else None)
            for i, lab in enumerate(labels) for n in range(1, 5)]
    a = score_run(write_run(tmp_path / "a", corpus, spec, run_id="a"), resamples=200)
    b_dir = _run(tmp_path, "b", 4, 4, failing=False)
    c = compare(a, scoring.load_summary(b_dir), resamples=200)
    # differences 0, -1, 0, -1: sd 0.577 > the bound sqrt(1/16 + 1/16) = 0.354
    assert c.spread == pytest.approx(0.57735, abs=1e-4)


def test_fisher_exact_two_sided():
    assert fisher_exact(3, 3, 0, 3) == pytest.approx(0.1)
    assert fisher_exact(1, 4, 3, 4) == pytest.approx(0.4857142857)
    assert fisher_exact(2, 4, 2, 4) == pytest.approx(1.0)
    assert fisher_exact(1, 1, 0, 1) == pytest.approx(1.0)
    with pytest.raises(ScoringError):
        fisher_exact(3, 2, 0, 1)


def test_holm_adjusts_in_the_given_order():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.001]) == pytest.approx([0.5, 0.002])
    assert holm([]) == []


def test_detectable_difference_and_packs_needed():
    assert detectable_difference(1.0, 1) == pytest.approx(2.8016, abs=1e-4)
    assert detectable_difference(0.5, 100) == pytest.approx(0.14008, abs=1e-4)
    assert packs_needed(0.5, 0.14008) == 100
    with pytest.raises(ScoringError):
        packs_needed(0.5, 0.0)


def test_the_explanation_names_ten_packs_and_counts_the_rest(tmp_path):
    import scoring

    good, bad = _compare(tmp_path, 12, 6)
    c = compare(scoring.load_summary(bad), scoring.load_summary(good), resamples=200)
    # 6/6 against 0/6 on each of 12 packs: adjusted p = 12 * 2/924 = 0.026, each one worse
    assert [d.verdict for d in c.packs] == ["worse"] * 12
    assert "CTL-M-010 worse" in c.explanation and "CTL-M-011" not in c.explanation
    assert c.explanation.endswith("and 2 more")
