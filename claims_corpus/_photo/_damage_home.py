"""Damage to a home: a ceiling leak, tiles off a roof, fire and soot, a forced lock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw, ImageFilter

from ._canvas import SEVERITY_SCALE, Canvas, Region

WOOD = (222, 184, 130)


def water_stain(c: Canvas, part: Any, region: Region, field: str) -> None:
    """Tide-mark rings, sagging plaster with the laths showing, drips falling."""
    s = SEVERITY_SCALE[part.severity]
    draw, rng = c.draw, c.rng
    cx, cy = region.point(part.side, "centre")
    for ring in range(int(6 * s), 0, -1):
        rx = region.size * ring + rng.randint(-8, 8)
        ry = region.size // 2 * ring + rng.randint(-4, 4)
        tone = min(230, 150 + ring * 12)
        draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=(tone, tone - 40, tone - 90))
    draw.ellipse((cx - 60, cy - 26, cx + 60, cy + 26), fill=(120, 90, 60))  # sag
    draw.polygon([(cx - 30, cy - 8), (cx + 24, cy - 14), (cx + 36, cy + 10), (cx - 20, cy + 14)],
                 fill=(70, 54, 40))  # fallen plaster showing laths
    for lx in range(cx - 26, cx + 30, 10):
        draw.line((lx, cy - 10, lx + 4, cy + 12), fill=(150, 110, 70), width=3)
    for i in range(5):  # drips
        y = cy + 40 + i * 40
        draw.ellipse((cx - 3, y, cx + 3, y + 10), fill=(120, 160, 210))
    c.regions["leak"] = Region(box=(cx - 60, cy - 26, cx + 60, cy + 26),
                               points={"centre": (cx, cy)}, size=60)


def missing_tiles(c: Canvas, part: Any, region: Region, field: str) -> None:
    """A patch of tiles gone: roof felt and battens showing, loose tiles, broken ones below."""
    s = SEVERITY_SCALE[part.severity]
    draw, rng = c.draw, c.rng
    w, h = c.w, c.h
    tile, edge = region.fitting_style or ((168, 78, 56), (120, 52, 38))
    hx0, hy0 = region.point(part.side, "centre")

    def k(v: int) -> int:
        return int(v * s)

    hole = [(hx0, hy0), (hx0 + k(150), hy0 - k(8)), (hx0 + k(190), hy0 + k(70)),
            (hx0 + k(120), hy0 + k(118)), (hx0 - k(10), hy0 + k(96))]
    draw.polygon(hole, fill=(40, 40, 44))
    for by in range(hy0 + 4, hy0 + k(118), 18):
        draw.line((hx0 - 8, by, hx0 + k(186), by + 4), fill=(176, 138, 86), width=5)
    for _ in range(10):  # loose tiles hanging at the hole's edge
        x = hx0 + rng.randint(-10, k(180))
        y = hy0 + rng.randint(-6, k(110))
        draw.polygon([(x, y), (x + 30, y + 6), (x + 26, y + 20), (x - 4, y + 14)], fill=tile,
                     outline=edge)
    for _ in range(k(22)):  # broken tiles on the ground
        x, y = rng.randint(20, w - 40), rng.randint(h - 40, h - 8)
        draw.polygon([(x, y), (x + rng.randint(10, 24), y + 2), (x + 14, y + rng.randint(6, 12))],
                     fill=tile)


def fire(c: Canvas, part: Any, region: Region, field: str) -> None:
    """Fittings beside the seat of the fire charred and blistered, soot spreading upwards."""
    s = SEVERITY_SCALE[part.severity]
    draw, rng = c.draw, c.rng
    w, h = c.w, c.h
    fx, fy = region.point(part.side, "centre")
    reach = region.size * s
    charred = [abs((b[0] + b[2]) / 2 - fx) <= reach for b in region.fittings]
    for i, (x0, y0, x1, y1) in enumerate(region.fittings):
        if charred[i]:
            draw.rectangle((x0, y0, x1, y1), fill=(36, 30, 26), outline=(20, 16, 14), width=2)
            for _ in range(30):
                bx, by = rng.randint(x0 + 4, x1 - 4), y0 + rng.randint(4, y1 - y0 - 5)
                draw.ellipse((bx - 4, by - 3, bx + 4, by + 3), fill=(80, 50, 30))
        elif region.fitting_style and any(charred[:i]):  # keep overlaps as they were drawn
            fill, edge = region.fitting_style
            draw.rectangle((x0, y0, x1, y1), fill=fill, outline=edge, width=2)
    mask = Image.new("L", (w, h), 0)
    md = ImageDraw.Draw(mask)
    wide, narrow = int(300 * s), int(150 * s)
    md.polygon([(fx - 50, fy), (fx - wide, 0), (fx + wide, 0), (fx + 50, fy)], fill=200)
    md.polygon([(fx - 30, fy), (fx - narrow, 0), (fx + narrow, 0), (fx + 30, fy)], fill=255)
    md.rectangle((0, 0, w, int(h * 0.05)), fill=170)
    for _ in range(int(90 * s)):
        t = rng.random()
        y = int(fy * (1 - t))
        x = fx + int(rng.gauss(0, 40 + 160 * t))
        r = rng.randint(10, 30)
        md.ellipse((x - r, y - r, x + r, y + r), fill=rng.randint(170, 255))
    c.tint((22, 20, 18), mask.filter(ImageFilter.GaussianBlur(10)))


def forced_lock(c: Canvas, part: Any, region: Region, field: str) -> None:
    """The frame splintered at the lock, bare wood showing, the lock hanging off."""
    draw, rng = c.draw, c.rng
    fx1, lock_y = region.point(part.side, "centre")
    n = int(26 * SEVERITY_SCALE[part.severity])
    for _ in range(n):
        x = fx1 + rng.randint(-8, 20)
        y = lock_y + rng.randint(-70, 70)
        draw.polygon([(x, y), (x + rng.randint(8, 30), y + rng.randint(-4, 4)),
                      (x + rng.randint(2, 10), y + rng.randint(10, 40))], fill=WOOD)
    draw.rectangle((fx1 - 6, lock_y - 30, fx1 + 22, lock_y + 30), fill=(200, 160, 110))
    draw.polygon([(fx1 - 56, lock_y + 10), (fx1 - 26, lock_y + 2), (fx1 - 16, lock_y + 70),
                  (fx1 - 46, lock_y + 78)], fill=(180, 160, 60), outline=(90, 80, 30))
    draw.ellipse((fx1 - 42, lock_y + 30, fx1 - 28, lock_y + 44), fill=(40, 40, 40))
    floor = region.hints.get("floor_y", c.h)
    for _ in range(int(18 * SEVERITY_SCALE[part.severity])):  # splinters on the floor
        x, y = fx1 + rng.randint(-60, 60), floor - rng.randint(4, 30)
        draw.line((x, y, x + rng.randint(6, 26), y + rng.randint(-3, 3)), fill=WOOD, width=3)


HOME_DAMAGE: dict[str, Callable[[Canvas, Any, Region, str], None]] = {
    "water_stain": water_stain,
    "missing_tiles": missing_tiles,
    "fire": fire,
    "forced_lock": forced_lock,
}
