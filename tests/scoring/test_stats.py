"""Statistics against hand-computed values."""

from __future__ import annotations

import math
import random

import pytest

from claims_records import ScoringError
from scoring import bootstrap_means, cluster_bootstrap_ci, pass_at_k, pass_hat_k
from scoring._stats import _percentile


@pytest.mark.parametrize(
    ("n", "c", "k", "at_k", "hat_k"),
    [
        # n=5, c=2, k=2: C(3,2)/C(5,2) = 3/10 fail-all; C(2,2)/C(5,2) = 1/10 all-pass
        (5, 2, 2, 0.7, 0.1),
        # n=5, c=2, k=1: plain success rate both ways
        (5, 2, 1, 0.4, 0.4),
        # n=4, c=3, k=3: C(1,3)=0 -> pass@3 = 1; C(3,3)/C(4,3) = 1/4
        (4, 3, 3, 1.0, 0.25),
        # n=3, c=0: nothing ever succeeds
        (3, 0, 2, 0.0, 0.0),
        # n=3, c=3: everything succeeds
        (3, 3, 3, 1.0, 1.0),
        # n=6, c=4, k=3: 1 - C(2,3)/C(6,3) = 1; C(4,3)/C(6,3) = 4/20
        (6, 4, 3, 1.0, 0.2),
        # n=6, c=2, k=3: 1 - C(4,3)/C(6,3) = 1 - 4/20 = 0.8; C(2,3) = 0
        (6, 2, 3, 0.8, 0.0),
    ],
)
def test_pass_at_k_and_pass_hat_k_by_hand(n, c, k, at_k, hat_k):
    assert pass_at_k(n, c, k) == pytest.approx(at_k)
    assert pass_hat_k(n, c, k) == pytest.approx(hat_k)


def test_pass_hat_k_never_exceeds_pass_at_k_and_falls_with_k():
    for n in range(1, 7):
        for c in range(n + 1):
            hats = [pass_hat_k(n, c, k) for k in range(1, n + 1)]
            ats = [pass_at_k(n, c, k) for k in range(1, n + 1)]
            assert all(h <= a + 1e-12 for h, a in zip(hats, ats, strict=True))
            assert hats == sorted(hats, reverse=True)
            assert ats == sorted(ats)


@pytest.mark.parametrize(("n", "c", "k"), [(3, 4, 1), (3, 1, 0), (3, 1, 4), (2, -1, 1)])
def test_impossible_counts_are_refused(n, c, k):
    with pytest.raises(ScoringError):
        pass_hat_k(n, c, k)
    with pytest.raises(ScoringError):
        pass_at_k(n, c, k)


def test_percentile_interpolates_between_order_statistics():
    values = [0.0, 1.0, 2.0, 3.0, 4.0]
    assert _percentile(values, 0.25) == pytest.approx(1.0)
    assert _percentile(values, 0.1) == pytest.approx(0.4)
    assert _percentile(values, 0.975) == pytest.approx(3.9)
    assert _percentile([5.0], 0.5) == 5.0


def test_bootstrap_with_a_fixed_seed_reproduces_exactly():
    rates = [1.0, 0.5, 0.0, 1.0, 0.75]
    a = cluster_bootstrap_ci(rates, random.Random(42), 500)
    b = cluster_bootstrap_ci(rates, random.Random(42), 500)
    assert a == b
    assert bootstrap_means(rates, random.Random(42), 50) == bootstrap_means(
        rates, random.Random(42), 50)
    assert bootstrap_means(rates, random.Random(43), 50) != bootstrap_means(
        rates, random.Random(42), 50)


def test_bootstrap_resamples_are_the_documented_draws():
    """Each resample draws n clusters with replacement: index floor(random() * n)."""
    values = [0.0, 0.25, 1.0]
    got = bootstrap_means(values, random.Random(7), 4)
    rng = random.Random(7)
    expected = []
    for _ in range(4):
        picks = [values[math.floor(rng.random() * 3)] for _ in range(3)]
        expected.append(math.fsum(picks) / 3)
    assert got == sorted(expected)


def test_ci_sanity():
    # identical packs: no spread at all
    assert cluster_bootstrap_ci([0.5] * 6, random.Random(1), 200) == (0.5, 0.5)
    # the interval holds the mean, stays in [0, 1], and narrows with more packs
    few = [1.0, 0.0, 1.0, 0.0]
    many = few * 25
    lo_f, hi_f = cluster_bootstrap_ci(few, random.Random(3), 2000)
    lo_m, hi_m = cluster_bootstrap_ci(many, random.Random(3), 2000)
    assert 0.0 <= lo_f <= 0.5 <= hi_f <= 1.0
    assert lo_m <= 0.5 <= hi_m
    assert hi_m - lo_m < hi_f - lo_f
    # for 100 fair coin packs the 95 % interval is about mean ± 1.96 * 0.05
    assert hi_m - lo_m == pytest.approx(2 * 1.96 * 0.05, abs=0.03)


def test_bootstrap_over_nothing_is_an_error():
    with pytest.raises(ScoringError):
        cluster_bootstrap_ci([], random.Random(0), 10)


def test_cohen_kappa_by_hand():
    from scoring import cohen_kappa

    # p_o = 3/4; rater A: a 2, b 2; rater B: a 1, b 3; p_e = (2*1 + 2*3) / 16 = 1/2
    assert cohen_kappa([("a", "a"), ("b", "b"), ("a", "b"), ("b", "b")]) == pytest.approx(0.5)
    assert cohen_kappa([("a", "a"), ("b", "b")]) == pytest.approx(1.0)
    # systematic disagreement on two labels: p_o = 0, p_e = 1/2 -> -1
    assert cohen_kappa([("a", "b"), ("b", "a")]) == pytest.approx(-1.0)
    assert cohen_kappa([("a", "a"), ("a", "a")]) is None  # chance agreement is certain
    assert cohen_kappa([]) is None


def test_cluster_bootstrap_stat_is_seeded_and_skips_undefined_resamples():
    from scoring._stats import cluster_bootstrap_stat, cohen_kappa

    clusters = [[("a", "a")], [("b", "b")], [("a", "b")], [("b", "b"), ("a", "a")]]
    one = cluster_bootstrap_stat(clusters, cohen_kappa, random.Random(3), 400)
    two = cluster_bootstrap_stat(clusters, cohen_kappa, random.Random(3), 400)
    assert one == two and one is not None and -1.0 <= one[0] <= one[1] <= 1.0
    assert cluster_bootstrap_stat([[("a", "a")]], cohen_kappa, random.Random(1), 50) is None
    with pytest.raises(ScoringError):
        cluster_bootstrap_stat([], cohen_kappa, random.Random(1), 10)
