"""Things in and on a home: a television, a laptop, a window, a door, a roof.

Regions a damage can name:

- television, laptop: ``screen``
- window: ``pane``
- door: ``lock``
- roof: ``roof``
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from claims_corpus.formats.scene import Door, Laptop, Roof, Television, Window

from ._canvas import Canvas, Region, darker, font, rgb, side_points
from ._outdoor import EAVES

TILE, TILE_EDGE = (168, 78, 56), (120, 52, 38)


def _floor_y(c: Canvas, default: float) -> int:
    floor = c.regions.get("floor") or c.regions.get("ground")
    return floor.box[1] if floor is not None and floor.box[1] < c.h else int(c.h * default)


def television(c: Canvas, part: Television) -> None:
    w, h = c.w, c.h
    floor_y = _floor_y(c, 0.84)
    c.draw.rectangle((int(w * 0.16), int(h * 0.70), int(w * 0.84), floor_y), fill=(64, 52, 44))
    c.draw.rectangle((int(w * 0.46), int(h * 0.62), int(w * 0.54), int(h * 0.70)),
                     fill=(30, 30, 32))  # TV foot
    sx0, sy0, sx1, sy1 = int(w * 0.10), int(h * 0.10), int(w * 0.90), int(h * 0.62)
    c.draw.rectangle((sx0, sy0, sx1, sy1), fill=(22, 22, 24))  # bezel
    c.draw.rectangle((sx0 + 10, sy0 + 10, sx1 - 10, sy1 - 12), fill=(14, 16, 22))  # screen
    glass = [(sx0 + 10, sy0 + 10), (sx1 - 10, sy0 + 10), (sx1 - 10, sy1 - 12),
             (sx0 + 10, sy1 - 12)]
    c.regions["screen"] = Region(
        box=(sx0 + 10, sy0 + 10, sx1 - 10, sy1 - 12), outline=glass, size=int(w * 0.34),
        points={"left": (int(w * 0.36), int(h * 0.30)), "centre": (w // 2, int(h * 0.34)),
                "right": (int(w * 0.64), int(h * 0.30))})

    def badge(cv: Canvas) -> None:  # the maker's name sits in front of any crack
        cv.draw.text((w // 2, sy1 - 4), part.brand, fill=(150, 150, 150), font=font(12),
                     anchor="mb")

    c.front.append(badge)


def laptop(c: Canvas, part: Laptop) -> None:
    w, h = c.w, c.h
    shell = rgb(part.colour)
    table = int(h * 0.70)
    c.draw.rectangle((0, table, w, h), fill=(140, 100, 64))  # table top
    c.draw.line((0, table, w, table), fill=(110, 76, 46), width=3)
    for y in range(table + 18, h, 22):  # wood grain
        c.draw.line((0, y, w, y + c.rng.randint(-4, 4)), fill=(128, 90, 56), width=1)
    lx0, lx1, ly0, hinge = int(w * 0.24), int(w * 0.76), int(h * 0.14), int(h * 0.66)
    c.draw.polygon([(lx0 - 30, int(h * 0.88)), (lx1 + 30, int(h * 0.88)), (lx1, hinge),
                    (lx0, hinge)], fill=shell)  # base
    for row in range(4):  # keys
        y = hinge + 10 + row * 13
        inset = 6 + (3 - row) * 6
        for x in range(lx0 + inset - 20 + row * 4, lx1 - inset + 20 - row * 4, 20):
            c.draw.rectangle((x, y, x + 15, y + 9), fill=darker(shell, 50))
    c.draw.rectangle((w // 2 - 40, int(h * 0.83) - 12, w // 2 + 40, int(h * 0.86)),
                     fill=darker(shell, 20))  # trackpad
    c.draw.rectangle((lx0, ly0, lx1, hinge), fill=darker(shell, 30))  # lid
    gx0, gy0, gx1, gy1 = lx0 + 10, ly0 + 10, lx1 - 10, hinge - 12
    c.draw.rectangle((gx0, gy0, gx1, gy1), fill=(28, 44, 70))  # screen, switched on
    c.draw.rectangle((gx0, gy0, gx1, gy0 + 14), fill=(52, 70, 100))
    glass = [(gx0, gy0), (gx1, gy0), (gx1, gy1), (gx0, gy1)]
    cy = (gy0 + gy1) // 2
    c.regions["screen"] = Region(
        box=(gx0, gy0, gx1, gy1), outline=glass, size=int((gx1 - gx0) * 0.45),
        points=side_points(cy - 20, (gx0 + (gx1 - gx0) // 3, (gx0 + gx1) // 2,
                                     gx1 - (gx1 - gx0) // 3)))


def window(c: Canvas, part: Window) -> None:
    w, h = c.w, c.h
    fx0, fy0, fx1, fy1 = int(w * 0.22), int(h * 0.10), int(w * 0.78), int(h * 0.66)
    c.draw.rectangle((fx0 - 14, fy0 - 14, fx1 + 14, fy1 + 14), fill=(246, 246, 244))  # frame
    gx0, gy0, gx1, gy1 = fx0 + 8, fy0 + 8, fx1 - 8, fy1 - 8
    outside = int(gy0 + (gy1 - gy0) * 0.62)
    c.draw.rectangle((gx0, gy0, gx1, outside), fill=(168, 200, 226))  # sky through the glass
    c.draw.rectangle((gx0, outside, gx1, gy1), fill=(96, 140, 80))  # the garden
    c.draw.polygon([(gx0, gy0), (gx0 + (gx1 - gx0) // 3, gy0), (gx0, gy0 + (gy1 - gy0) // 2)],
                   fill=(196, 220, 238))  # reflection
    c.draw.rectangle((fx0 - 30, fy1 + 14, fx1 + 30, fy1 + 30), fill=(236, 236, 232))  # sill
    if part.curtains:
        for x0, x1 in ((fx0 - 90, fx0 - 18), (fx1 + 18, fx1 + 90)):
            c.draw.rectangle((x0, fy0 - 30, x1, int(h * 0.80)), fill=(150, 60, 70))
            for x in range(x0 + 12, x1, 16):
                c.draw.line((x, fy0 - 30, x, int(h * 0.80)), fill=(120, 44, 54), width=2)
        c.draw.line((fx0 - 100, fy0 - 32, fx1 + 100, fy0 - 32), fill=(90, 70, 50), width=6)
    glass = [(gx0, gy0), (gx1, gy0), (gx1, gy1), (gx0, gy1)]
    third = (gx1 - gx0) // 4
    cy = gy0 + (gy1 - gy0) * 2 // 5
    c.regions["pane"] = Region(
        box=(gx0, gy0, gx1, gy1), outline=glass, size=int((gx1 - gx0) * 0.40),
        points={"left": (gx0 + third, cy), "centre": ((gx0 + gx1) // 2, cy),
                "right": (gx1 - third, cy), "run_left": (gx0 + third // 2, gy1 - 20),
                "run_right": (gx1 - third // 2, gy1 - 20)},
        hints={"sill_y": fy1 + 22})


def door(c: Canvas, part: Door) -> None:
    w, h = c.w, c.h
    colour = rgb(part.colour)
    fx0, fx1, fy0 = int(w * 0.26), int(w * 0.74), int(h * 0.04)
    c.draw.rectangle((fx0 - 22, fy0 - 16, fx1 + 22, h), fill=(236, 232, 222))  # frame
    if part.open:
        c.draw.rectangle((fx0, fy0, fx1, h), fill=(18, 18, 20))  # gap: ajar, dark inside
        c.draw.polygon([(fx0, fy0), (fx1 - 30, fy0 + 10), (fx1 - 30, h), (fx0, h)], fill=colour)
    else:
        c.draw.rectangle((fx0, fy0, fx1, h), fill=colour)
    for py in (int(h * 0.12), int(h * 0.52)):  # panels
        c.draw.rectangle((fx0 + 30, py, fx1 - 62, py + int(h * 0.32)),
                         outline=darker(colour, 30), width=4)
    lock_y = int(h * 0.50)
    c.regions["lock"] = Region(box=(fx1 - 60, lock_y - 70, fx1 + 22, lock_y + 78),
                               points={"centre": (fx1, lock_y)}, size=70, colour=colour,
                               hints={"floor_y": h})


def roof(c: Canvas, part: Roof) -> None:
    w, h = c.w, c.h
    eaves, ridge = int(h * EAVES), int(h * 0.12)
    c.draw.polygon([(0, eaves), (int(w * 0.08), ridge), (int(w * 0.92), ridge), (w, eaves)],
                   fill=(150, 70, 50))
    for row, y in enumerate(range(ridge + 4, eaves, 18)):
        off = 0 if row % 2 else 18
        for x in range(-36 + off, w, 36):
            c.draw.rectangle((x + 1, y + 1, x + 34, y + 16), fill=TILE, outline=TILE_EDGE)
    hx0, hy0 = int(w * 0.40), int(h * 0.26)
    c.regions["roof"] = Region(box=(int(w * 0.08), ridge, int(w * 0.92), eaves), colour=TILE,
                               fitting_style=(TILE, TILE_EDGE),
                               points={"centre": (hx0, hy0), "left": (int(w * 0.18), hy0),
                                       "right": (int(w * 0.58), hy0)},
                               size=150)


HOUSEHOLD: dict[str, Callable[[Canvas, Any], None]] = {
    "television": television,
    "laptop": laptop,
    "window": window,
    "door": door,
    "roof": roof,
}
