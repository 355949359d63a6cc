"""Damage to bodywork and frames: dents, scrapes, smashed lamps, a crushed front, a bent wheel.

Each function draws one damage part at a region (see ``_canvas.Region``); sizes scale with
``severity`` (minor 0.6, moderate 1, severe 1.4).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ._canvas import SEVERITY_SCALE, Canvas, Region, cracks, darker


def dent(c: Canvas, part: Any, region: Region, field: str) -> None:
    """A darker hollow with a bright rim, cracks out from the impact, the other car's paint."""
    scale = SEVERITY_SCALE[part.severity]
    cx, cy = region.point(part.side, "centre")
    w, h = int(region.size * scale), int((region.box[3] - region.box[1]) // 2 * scale)
    draw, rng = c.draw, c.rng
    draw.ellipse((cx - w, cy - h, cx + w, cy + h), fill=(38, 38, 42))
    draw.ellipse((cx - w + 6, cy - h + 4, cx + w - 6, cy + h - 2), fill=(24, 24, 28))
    draw.arc((cx - w, cy - h, cx + w, cy + h), 190, 350, fill=(150, 150, 155), width=3)
    for _ in range(int(5 * scale) + 2):
        x, y = cx, cy
        for _ in range(rng.randint(3, 6)):
            nx = x + rng.randint(-w // 3, w // 3)
            ny = y + rng.randint(-h // 2, h // 2)
            draw.line((x, y, nx, ny), fill=(205, 205, 210), width=2)
            x, y = nx, ny
    for _ in range(int(14 * scale)):
        x = cx + rng.randint(-w, w)
        y = cy + rng.randint(-h, h)
        draw.line((x, y, x + rng.randint(8, 22), y + rng.randint(-3, 3)),
                  fill=(190, 60, 50), width=2)


def scrape(c: Canvas, part: Any, region: Region, field: str) -> None:
    """A shallow dent with long bare-metal streaks along the panel."""
    s = SEVERITY_SCALE[part.severity]
    draw, rng = c.draw, c.rng
    body = region.colour or (150, 150, 150)
    x0, y0, x1, _ = region.box
    cx, cy = region.point(part.side, "centre")
    dw, dh = int(region.size * s), int(region.size * s) * 3 // 8
    draw.ellipse((cx - dw, cy - dh, cx + dw, cy + dh), fill=darker(body, 70))
    draw.arc((cx - dw, cy - dh, cx + dw, cy + dh), 190, 350, fill=(235, 235, 238), width=3)
    for i in range(int(16 * s)):
        y = y0 + rng.randint(-14, 22)
        sx0 = x0 + rng.randint(0, 40)
        sx1 = x1 + rng.randint(-30, 40)
        colour = (230, 230, 232) if i % 3 else (240, 240, 240)
        draw.line((sx0, y, sx1, y + rng.randint(-6, 6)), fill=colour,
                  width=rng.choice((1, 2, 2, 3)))
    hx0 = region.hints.get("streak_x0", x0 + (x1 - x0) // 8)
    hx1 = region.hints.get("streak_x1", x1 - (x1 - x0) // 16)
    hy = region.hints.get("streak_y", y0 + 6)
    for _ in range(int(10 * s)):
        x = rng.randint(hx0, hx1)
        y = hy + rng.randint(-10, 16)
        draw.line((x, y, x + rng.randint(10, 30), y), fill=(245, 245, 245), width=2)


def broken_light(c: Canvas, part: Any, region: Region, field: str) -> None:
    """Cracks across a lamp's lens from its centre; a severe one has its lens knocked out."""
    x0, y0, x1, y1 = region.box
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    if part.severity == "severe":
        c.draw.rounded_rectangle(region.box, 8, fill=(60, 60, 64))
        cracks(c.draw, c.rng, cx, cy, max(20, (x1 - x0) * 5 // 9), 6, (240, 240, 240))
        return
    for _ in range(int(8 * SEVERITY_SCALE[part.severity])):
        c.draw.line((cx, cy, x0 + c.rng.randint(0, x1 - x0), y0 + c.rng.randint(0, y1 - y0)),
                    fill=(240, 240, 240), width=2)


def crushed_front(c: Canvas, part: Any, region: Region, field: str) -> None:
    """A buckled bonnet, the bumper torn off and hanging, debris on the ground."""
    s = SEVERITY_SCALE[part.severity]
    draw, rng = c.draw, c.rng
    body = region.colour or (120, 120, 120)
    x0, y0, x1, y1 = region.box
    ridge = []
    for i in range(9):
        x = x0 + 10 + i * (x1 - x0 - 20) // 8
        ridge.append((x, y0 - int((26 if i % 2 else 0) * s) - rng.randint(0, 10)))
    draw.polygon([(x0 + 10, y1 + 4), *ridge, (x1 - 10, y1 + 4)], fill=darker(body, 40))
    draw.line(ridge, fill=(230, 220, 220), width=3)
    bumper = c.regions.get("bumper")
    ground = c.regions["ground"].box[1] if "ground" in c.regions else c.h - 20
    if bumper is not None:
        bx0, by0, bx1, _ = bumper.box
        mid = (bx0 + bx1) // 2
        draw.polygon([(bx0, by0 + 6), (mid + int(40 * s), by0 + 12),
                      (mid, ground + 6), (bx0 - 10, ground - 4)], fill=(40, 40, 44))
    for _ in range(int(40 * s)):
        x, y = rng.randint(x0, x1), rng.randint(ground, c.h - 4)
        draw.rectangle((x, y, x + rng.randint(2, 8), y + rng.randint(2, 5)), fill=(220, 220, 220))


def bent_wheel(c: Canvas, part: Any, region: Region, field: str) -> None:
    """A wheel buckled out of round, its spokes snapped."""
    s = SEVERITY_SCALE[part.severity]
    cx, cy = region.points["centre"]
    r = region.size
    draw, rng = c.draw, c.rng
    c.restore(region.box)  # the straight wheel goes; the buckled one is drawn in its place
    bend = int(r * 0.35 * s)
    pts = []
    for i in range(41):
        a = 2 * math.pi * i / 40
        wobble = bend * math.sin(a * 2) * (1 if math.cos(a) > 0 else 0.4)
        pts.append((cx + math.cos(a) * (r - wobble * 0.6), cy + math.sin(a) * r - wobble * 0.3))
    for i in range(0, 40, 3):  # the spokes still holding, pulled out of line
        draw.line((cx, cy, *pts[i]), fill=(190, 192, 196), width=1)
    draw.line(pts, fill=(24, 24, 26), width=7, joint="curve")
    for _ in range(int(6 * s)):
        a = rng.uniform(0, 2 * math.pi)
        length = rng.uniform(0.3, 0.8) * r
        draw.line((cx + math.cos(a) * length, cy + math.sin(a) * length,
                   cx + math.cos(a + 0.5) * r * 0.95, cy + math.sin(a + 0.5) * r * 0.95),
                  fill=(200, 200, 204), width=2)
    draw.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=(120, 120, 124))
    if region.overdraw is not None:
        region.overdraw(c)


BODY_DAMAGE: dict[str, Callable[[Canvas, Any, Region, str], None]] = {
    "dent": dent,
    "scrape": scrape,
    "broken_light": broken_light,
    "crushed_front": crushed_front,
    "bent_wheel": bent_wheel,
}
