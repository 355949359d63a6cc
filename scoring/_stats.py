"""Statistics: unbiased pass@k / pass^k, seeded cluster bootstraps, Fisher's exact test with
Holm's correction and the detectable difference of a paired design. Pure Python.

Every resampling function takes an explicit ``random.Random``; nothing uses a global RNG.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from statistics import NormalDist
from typing import TypeVar

from claims_records import ScoringError

DEFAULT_SEED = 20260101
DEFAULT_RESAMPLES = 2000
MIN_PACKS_FOR_CI = 3
T = TypeVar("T")


def pass_at_k(n: int, c: int, k: int) -> float:
    """1 - C(n-c, k) / C(n, k): the chance at least one of k trials drawn from n succeeds."""
    _check(n, c, k)
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """C(c, k) / C(n, k): the chance all of k trials drawn from n succeed."""
    _check(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def _check(n: int, c: int, k: int) -> None:
    if not (0 <= c <= n) or not (1 <= k <= n):
        raise ScoringError(f"pass@k needs 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})",
                           field="k")


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default 'linear' method)."""
    if not sorted_values:
        raise ScoringError("percentile of no values")
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def bootstrap_means(values: Sequence[float], rng: random.Random, resamples: int) -> list[float]:
    """Means of ``resamples`` resamples (with replacement) of ``values``, sorted."""
    n = len(values)
    if n == 0:
        raise ScoringError("bootstrap over no clusters")
    vals = list(values)
    choices = rng.choices
    return sorted(math.fsum(choices(vals, k=n)) / n for _ in range(resamples))


def cluster_bootstrap_ci(per_cluster: Sequence[float], rng: random.Random,
                         resamples: int = DEFAULT_RESAMPLES, level: float = 0.95
                         ) -> tuple[float, float]:
    """Percentile interval for the mean of per-cluster (per-pack) values."""
    means = bootstrap_means(per_cluster, rng, resamples)
    alpha = (1.0 - level) / 2.0
    return _percentile(means, alpha), _percentile(means, 1.0 - alpha)


def mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def cluster_bootstrap_stat(clusters: Sequence[Sequence[T]],
                           statistic: Callable[[list[T]], float | None], rng: random.Random,
                           resamples: int = DEFAULT_RESAMPLES, level: float = 0.95
                           ) -> tuple[float, float] | None:
    """Percentile interval of ``statistic`` over the pooled items of clusters resampled with
    replacement. Resamples where the statistic is undefined (None) are left out; None when
    every one was."""
    if not clusters:
        raise ScoringError("bootstrap over no clusters")
    values = []
    for _ in range(resamples):
        pooled = [item for c in rng.choices(clusters, k=len(clusters)) for item in c]
        v = statistic(pooled)
        if v is not None:
            values.append(v)
    if not values:
        return None
    values.sort()
    alpha = (1.0 - level) / 2.0
    return _percentile(values, alpha), _percentile(values, 1.0 - alpha)


def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Cohen's kappa of two raters' labels on the same items: (p_o - p_e) / (1 - p_e).
    None when there is no item or chance agreement is certain (both used one same label)."""
    n = len(pairs)
    if n == 0:
        return None
    observed = sum(1 for a, b in pairs if a == b) / n
    first, second = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    expected = math.fsum(first[k] * second[k] for k in first) / (n * n)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def fisher_exact(c1: int, n1: int, c2: int, n2: int) -> float:
    """Two-sided p-value of Fisher's exact test on successes c1 of n1 against c2 of n2: the
    chance, with the margins fixed, of a table no more likely than the one seen. Exact, so no
    RNG."""
    if not (0 <= c1 <= n1 and 0 <= c2 <= n2) or n1 + n2 == 0:
        raise ScoringError(f"Fisher's exact test needs 0 <= c <= n (c1={c1}, n1={n1}, "
                           f"c2={c2}, n2={n2})")
    total, successes = n1 + n2, c1 + c2
    whole = math.comb(total, successes)

    def prob(x: int) -> float:
        return math.comb(n1, x) * math.comb(n2, successes - x) / whole

    seen = prob(c1)
    lo, hi = max(0, successes - n2), min(n1, successes)
    p = math.fsum(q for q in (prob(x) for x in range(lo, hi + 1)) if q <= seen * (1 + 1e-9))
    return min(1.0, p)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the given order: the i-th smallest p times
    (m - i + 1), made non-decreasing, capped at 1. Rejecting where the adjusted value is at
    most alpha keeps the chance of any false claim among the m at most alpha."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def detectable_difference(spread: float, clusters: int, alpha: float = 0.05,
                          power: float = 0.8) -> float:
    """The smallest true mean difference a paired design over ``clusters`` packs, whose
    per-pack differences have standard deviation ``spread``, detects with probability
    ``power`` at two-sided level ``alpha``: (z(1 - alpha/2) + z(power)) * spread / sqrt(n).
    A normal approximation: with few packs it understates the difference."""
    if clusters < 1:
        raise ScoringError("a detectable difference needs at least one pack")
    z = NormalDist()
    return (z.inv_cdf(1.0 - alpha / 2.0) + z.inv_cdf(power)) * spread / math.sqrt(clusters)


def packs_needed(spread: float, difference: float, alpha: float = 0.05,
                 power: float = 0.8) -> int:
    """Paired packs needed to detect ``difference`` (see detectable_difference)."""
    if difference <= 0:
        raise ScoringError("the difference to detect must be above zero", field="difference")
    z = NormalDist()
    k = (z.inv_cdf(1.0 - alpha / 2.0) + z.inv_cdf(power)) * spread / difference
    return max(1, math.ceil(k * k - 1e-9))


def sample_sd(values: Sequence[float]) -> float | None:
    """Sample standard deviation (n - 1); None below two values."""
    if len(values) < 2:
        return None
    m = math.fsum(values) / len(values)
    return math.sqrt(math.fsum((v - m) ** 2 for v in values) / (len(values) - 1))


def rule_of_three(n: int, level: float = 0.95) -> float | None:
    """The one-sided bound on a rate when none of ``n`` trials showed it: -ln(1 - level)/n,
    about 3/n at 95 % (Hanley & Lippman-Hand, 1983); None for n = 0."""
    if n <= 0:
        return None
    return min(1.0, -math.log(1.0 - level) / n)


def degenerate_bound(estimate: float | None, low: float | None, high: float | None,
                     trials: int, level: float = 0.95) -> dict[str, float | int | str] | None:
    """What to say instead of a zero-width interval. A percentile bootstrap over packs has
    no width when every pack measured the same share: at 100 % (or 0 %) the rule of three
    gives a one-sided bound over the trials (``side``: "at least" or "at most"); at any
    other share the packs merely agree (``side``: "no spread"). None for an interval with
    width, or none at all."""
    if estimate is None or low is None or high is None or high - low > 1e-9:
        return None
    bound = rule_of_three(trials, level)
    if bound is not None and estimate >= 1.0 - 1e-9:
        return {"side": "at least", "bound": 1.0 - bound, "trials": trials}
    if bound is not None and estimate <= 1e-9:
        return {"side": "at most", "bound": bound, "trials": trials}
    return {"side": "no spread", "bound": estimate, "trials": trials}


def bound_words(bound: dict[str, float | int | str] | None, level: float = 0.95) -> str:
    """One line for ``degenerate_bound``'s answer (empty for None)."""
    if bound is None:
        return ""
    pct = f"{100 * float(bound['bound']):.1f} %"
    if bound["side"] == "no spread":
        return (f"every pack measured {pct}: no spread between packs, so no interval "
                "(a zero-width bootstrap interval would claim a certainty there is not)")
    return (f"{round(100 * level)} % one-sided bound by the rule of three over "
            f"{bound['trials']} trial(s): {bound['side']} {pct} (the bootstrap interval has "
            "no width when every pack measured the same)")
