"""The trend of a nightly series (pass^k or mean success, one value per night), and the
interval of one night's pass^k.

Deterministic: the change since the previous night, and a least-squares slope per night over
the last ``window`` nights, which is only given with at least ``min_points`` measured nights
(fewer are "too thin" for a line, and the trend says so).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from claims_records import Interval

from ._stats import MIN_PACKS_FOR_CI, cluster_bootstrap_ci, mean

TREND_WINDOW = 7
MIN_TREND_POINTS = 3
FLAT = 0.01  # a slope smaller than one point per night in absolute value is flat


TrendDirection = Literal["up", "down", "flat", "too_thin"]


@dataclass(frozen=True)
class Trend:
    nights: int  # measured nights in the window
    window: int
    last_change: float | None  # latest measured value minus the one before it
    slope: float | None  # change per night (least squares); None when too thin
    direction: TrendDirection

    def describe(self, what: str = "pass^k") -> str:
        change = ("" if self.last_change is None
                  else f"{self.last_change:+.3f} since the previous night; ")
        if self.direction == "too_thin":
            return (f"{change}{self.nights} measured night(s): too few for a {what} trend "
                    f"line ({MIN_TREND_POINTS} needed)")
        return (f"{change}{what} {self.direction} ({self.slope:+.3f} per night over the last "
                f"{self.nights} nights)")


def trend(values: list[float | None], window: int = TREND_WINDOW,
          min_points: int = MIN_TREND_POINTS) -> Trend:
    """Trend of ``values`` (oldest first; None = not measured that night)."""
    recent = values[-window:]
    points = [(i, v) for i, v in enumerate(recent) if v is not None]
    last_change = points[-1][1] - points[-2][1] if len(points) >= 2 else None
    if len(points) < min_points:
        return Trend(len(points), window, last_change, None, "too_thin")
    n = len(points)
    mx = sum(i for i, _ in points) / n
    my = sum(v for _, v in points) / n
    sxx = sum((i - mx) ** 2 for i, _ in points)
    slope = sum((i - mx) * (v - my) for i, v in points) / sxx
    direction: TrendDirection = "flat" if abs(slope) < FLAT else ("up" if slope > 0 else "down")
    return Trend(n, window, last_change, slope, direction)


def pass_hat_k_interval(per_pack: list[float], seed: int, resamples: int) -> Interval:
    """Mean of the packs' pass^k with a cluster bootstrap interval over packs (seeded), or
    "too thin" with fewer than MIN_PACKS_FOR_CI packs."""
    too_thin = len(per_pack) < MIN_PACKS_FOR_CI
    low = high = None
    if per_pack and not too_thin:
        low, high = cluster_bootstrap_ci(per_pack, random.Random(seed), resamples)
    return Interval(estimate=mean(per_pack), low=low, high=high, seed=seed,
                    resamples=resamples, packs=len(per_pack), too_thin=too_thin,
                    method="cluster bootstrap over packs of their pass^k, percentile interval")
