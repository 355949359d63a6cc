"""The trend of a nightly series (pass^k or mean success, one value per night).

Deterministic: the change since the previous night, and a least-squares slope per night over
the last ``window`` nights, which is only given with at least ``min_points`` measured nights
(fewer are "too thin" for a line, and the trend says so).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

TREND_WINDOW = 7
MIN_TREND_POINTS = 3
FLAT = 0.01  # a slope smaller than one point per night in absolute value is flat


@dataclass(frozen=True)
class Trend:
    nights: int  # measured nights in the window
    window: int
    last_change: float | None  # latest measured value minus the one before it
    slope: float | None  # change per night (least squares); None when too thin
    direction: Literal["up", "down", "flat", "too_thin"]

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
    direction = "flat" if abs(slope) < FLAT else ("up" if slope > 0 else "down")
    return Trend(n, window, last_change, slope, direction)
