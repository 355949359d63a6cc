"""Props drawn in front of everything else: a bucket, a burnt pan, a cut bicycle lock.

A prop goes where its recipe's ``x``/``y`` say (fractions of the photo) or, by default, where
it belongs: the bucket under the leak, the pan on the hob, the lock on the ground.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._canvas import Canvas


def _at(c: Canvas, part: Any, region: str, default: tuple[float, float]) -> tuple[int, int]:
    if region in c.regions:
        rx, ry = c.regions[region].points["centre"]
    else:
        rx, ry = c.w * default[0], c.h * default[1]
    x = int(c.w * part.x) if part.x is not None else int(rx)
    y = int(c.h * part.y) if part.y is not None else int(ry)
    return x, y


def bucket(c: Canvas, part: Any) -> None:
    cx, _ = _at(c, part, "leak", (0.5, 0.86))
    top = int(c.h * part.y) if part.y is not None else int(c.h * 0.86)
    bottom = c.h - 4 if part.y is None else min(c.h - 4, top + 62)
    c.draw.polygon([(cx - 50, top), (cx + 50, top), (cx + 38, bottom), (cx - 38, bottom)],
                   fill=(40, 110, 190))
    c.draw.ellipse((cx - 50, top - 10, cx + 50, top + 10), fill=(90, 140, 200))


def burnt_pan(c: Canvas, part: Any) -> None:
    x, y = _at(c, part, "hob", (0.5, 0.62))
    c.draw.ellipse((x - 54, y - 6, x + 54, y + 16), fill=(18, 18, 18))
    c.draw.line((x + 50, y + 4, x + 130, y - 6), fill=(18, 18, 18), width=8)


def cut_lock(c: Canvas, part: Any) -> None:
    x, y = _at(c, part, "ground", (0.5, 0.9))
    y = min(y, c.h - 56)  # the whole lock in the frame
    steel, cut = (150, 152, 158), (230, 230, 234)
    c.draw.arc((x - 92, y - 80, x + 20, y + 32), 180, 330, fill=steel, width=12)  # shackle
    c.draw.line((x + 48, y - 40, x + 116, y - 68), fill=steel, width=12)  # the cut-off end
    c.draw.ellipse((x + 108, y - 76, x + 124, y - 60), fill=cut)
    c.draw.ellipse((x + 14, y - 34, x + 30, y - 18), fill=cut)  # where the shackle was cut
    c.draw.rounded_rectangle((x - 108, y + 4, x + 36, y + 48), 10, fill=(40, 40, 44))  # body
    c.draw.ellipse((x - 8, y + 14, x + 8, y + 30), fill=(90, 90, 96))  # keyhole barrel


PROPS: dict[str, Callable[[Canvas, Any], None]] = {
    "bucket": bucket,
    "burnt_pan": burnt_pan,
    "cut_lock": cut_lock,
}
