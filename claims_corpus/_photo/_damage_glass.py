"""Damage to glass: a cracked windscreen or pane, a smashed pane, a broken screen, shards."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ._canvas import SEVERITY_SCALE, Canvas, Point, RecipeError, Region, cracks_within

CRACK = (250, 250, 250)
_DEAD_PATCH = ((-50, -30), (70, -40), (90, 60), (-30, 80))  # for a crack reach of 217 px


def _run_end(region: Region, cx: float) -> Point:
    """Where a long crack runs to: the lower corner away from the impact."""
    x0, y0, x1, y1 = region.box
    centre = (x0 + x1) / 2
    name = "run_left" if cx >= centre else "run_right"
    if name in region.points:
        return region.points[name]
    x = x0 + (x1 - x0) // 6 if name == "run_left" else x1 - (x1 - x0) // 6
    return (x, y0 + 3 * (y1 - y0) // 4)


def _glass(region: Region, field: str) -> Sequence[Point]:
    if region.outline is None:
        raise RecipeError(field, "this region is not glass; glass damage needs a window, "
                          "windscreen, pane or screen")
    return region.outline


def cracked_glass(c: Canvas, part: Any, region: Region, field: str) -> None:
    """A stone chip with a long crack running across the glass and a star of short ones."""
    outline = _glass(region, field)
    cx, cy = region.point(part.side, "right")
    c.draw.line((cx, cy, *_run_end(region, cx)), fill=CRACK, width=3)
    reach = int(region.size * SEVERITY_SCALE[part.severity])
    cracks_within(c, cx, cy, reach, 7, CRACK, outline)


def broken_glass(c: Canvas, part: Any, region: Region, field: str) -> None:
    """A hole smashed through the pane, cracks out to its edges, shards fallen below."""
    outline = _glass(region, field)
    s = SEVERITY_SCALE[part.severity]
    cx, cy = region.point(part.side, "centre")
    rng = c.rng
    radius = region.size * 0.45 * s
    hole = []
    for i in range(14):
        a = 2 * math.pi * i / 14 + rng.uniform(-0.15, 0.15)
        r = radius * rng.uniform(0.45, 1.0)
        hole.append((cx + math.cos(a) * r, cy + math.sin(a) * r * 0.9))
    cracks_within(c, int(cx), int(cy), int(region.size * 1.2 * s), 12, CRACK, outline)
    behind = c.img.getpixel((int(cx), int(cy)))
    c.draw.polygon(hole, fill=tuple(max(0, v - 70) for v in behind))  # no glass: darker, no glare
    c.draw.line([*hole, hole[0]], fill=(236, 244, 250), width=3)  # the jagged edge
    for i in range(0, 14, 2):  # glass fragments still in the frame
        x, y = hole[i]
        c.draw.polygon([(x, y), (x + rng.randint(-14, 14), y + rng.randint(-14, 14)),
                        ((x + cx) / 2, (y + cy) / 2)], fill=(206, 228, 240))
    floor = region.hints.get("sill_y", region.box[3] + 12)
    for _ in range(int(40 * s)):  # shards on the sill and the floor below
        x = cx + rng.gauss(0, radius * 1.2)
        y = floor + abs(rng.gauss(0, 10))
        size = rng.randint(2, 6)
        c.draw.polygon([(x, y), (x + size, y + rng.randint(-size, size)),
                        (x + rng.randint(-size, size), y + size)],
                       fill=rng.choice(((210, 230, 240), (236, 246, 250), (170, 200, 216))))


def cracked_screen(c: Canvas, part: Any, region: Region, field: str) -> None:
    """A display broken from an impact: a dead patch, cracks to the edges, coloured lines."""
    outline = _glass(region, field)
    cx, cy = region.point(part.side, "left")
    reach = int(region.size * SEVERITY_SCALE[part.severity])
    k = reach / 217
    c.draw.polygon([(cx + int(dx * k), cy + int(dy * k)) for dx, dy in _DEAD_PATCH],
                   fill=(64, 40, 90))
    cracks_within(c, cx, cy, reach, 11, (236, 240, 248), outline)
    x0, y0, x1, y1 = region.box
    for _ in range(4):  # coloured lines typical of a broken panel
        x = c.rng.randint(x0 + 10, x1 - 10)
        c.draw.line((x, y0 + 2, x, y1 - 2),
                    fill=c.rng.choice(((200, 40, 200), (40, 200, 210))), width=1)


def glass_on_ground(c: Canvas, part: Any, region: Region, field: str) -> None:
    """Broken side-window glass scattered where a car stood."""
    s = SEVERITY_SCALE[part.severity]
    cx, cy = region.point(part.side, "centre")
    spread_x, spread_y = c.w * 0.09 * s, c.h * 0.07 * s
    for _ in range(part.pieces):
        x = int(cx + c.rng.gauss(0, spread_x))
        y = int(cy + c.rng.gauss(0, spread_y))
        size = c.rng.randint(2, 6)
        pts = [(x + c.rng.randint(-size, size), y + c.rng.randint(-size, size)) for _ in range(3)]
        c.draw.polygon(pts, fill=c.rng.choice(((200, 225, 235), (170, 205, 220),
                                               (235, 245, 250))))


GLASS_DAMAGE: dict[str, Callable[[Canvas, Any, Region, str], None]] = {
    "cracked_glass": cracked_glass,
    "broken_glass": broken_glass,
    "cracked_screen": cracked_screen,
    "glass_on_ground": glass_on_ground,
}
