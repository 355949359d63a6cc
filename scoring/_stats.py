"""Statistics: unbiased pass@k / pass^k and seeded cluster bootstraps. Pure Python.

Every resampling function takes an explicit ``random.Random``; nothing uses a global RNG.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
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
