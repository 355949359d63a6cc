"""Settings outdoors: where a car, a bicycle or a house is photographed.

Each setting fills the whole photo and names the regions a damage or an object may use:
``ground`` (where things stand) and, for the car park, ``bay``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from claims_corpus.formats.scene import CarPark, CountryLane, Garden, House, PlainWall, Street, Yard

from ._canvas import Canvas, Region, font, rgb, speckle

SKY = (176, 196, 214)
TARMAC = (92, 94, 98)
BRICK, MORTAR = (150, 128, 112), (128, 108, 94)
EAVES = 0.62  # where a house's roof meets its front wall, as a fraction of the height


def _ground(c: Canvas, y: int) -> None:
    c.regions["ground"] = Region(box=(0, y, c.w, c.h),
                                 points={"left": (c.w * 0.25, (y + c.h) / 2),
                                         "centre": (c.w * 0.5, (y + c.h) / 2),
                                         "right": (c.w * 0.75, (y + c.h) / 2)},
                                 size=max(8, (c.h - y) // 2))


def street(c: Canvas, part: Street) -> None:
    w, h = c.w, c.h
    ground_y = int(h * part.ground)
    c.draw.rectangle((0, 0, w, ground_y), fill=SKY)
    c.draw.rectangle((0, int(h * 0.30), w, ground_y), fill=BRICK)
    for y in range(int(h * 0.30), ground_y, 14):
        c.draw.line((0, y, w, y), fill=MORTAR)
    c.draw.rectangle((0, ground_y, w, h), fill=TARMAC)
    speckle(c, (0, ground_y, w, h), TARMAC, w * 5, 14)
    _ground(c, ground_y)


def yard(c: Canvas, part: Yard) -> None:
    w, h = c.w, c.h
    c.fill(SKY)
    ground_y = int(h * 0.78)
    c.draw.rectangle((0, ground_y, w, h), fill=TARMAC)
    speckle(c, (0, ground_y, w, h), TARMAC, w * 6, 14)
    c.draw.rectangle((0, int(h * 0.30), w, ground_y), fill=(156, 150, 140))  # rendered wall
    _ground(c, ground_y)


def car_park(c: Canvas, part: CarPark) -> None:
    w, h = c.w, c.h
    c.fill((70, 72, 76))
    horizon = int(h * 0.32)
    c.draw.rectangle((0, 0, w, horizon), fill=BRICK)  # back wall
    for y in range(0, horizon, 14):
        c.draw.line((0, y, w, y), fill=MORTAR)
    speckle(c, (0, horizon, w, h), (70, 72, 76), w * 8, 16)
    line = (236, 236, 230)
    # bay lines in perspective: three bays, the middle one empty
    top_xs = [int(w * f) for f in (0.08, 0.36, 0.64, 0.92)]
    bottom_xs = [int(w * f) for f in (-0.45, 0.12, 0.88, 1.45)]
    for tx, bx in zip(top_xs, bottom_xs, strict=True):
        c.draw.line((tx, horizon + 6, bx, h), fill=line, width=6)
    c.draw.line((top_xs[0], horizon + 6, top_xs[3], horizon + 6), fill=line, width=5)
    c.draw.text((w // 2, int(h * 0.45)), part.bay_number, fill=line, font=font(44), anchor="mm")
    # neighbouring parked cars, cut by the frame
    c.draw.rounded_rectangle((-120, horizon + 20, int(w * 0.22), int(h * 0.80)), 30,
                             fill=(130, 30, 34))
    c.draw.rounded_rectangle((int(w * 0.80), horizon + 20, w + 120, int(h * 0.80)), 30,
                             fill=(34, 60, 100))
    _ground(c, horizon)
    c.regions["bay"] = Region(box=(int(w * 0.22), horizon, int(w * 0.80), h),
                              points={"centre": (w * 0.5, h * 0.68), "left": (w * 0.38, h * 0.68),
                                      "right": (w * 0.62, h * 0.68)},
                              size=int(w * 0.09))


def country_lane(c: Canvas, part: CountryLane) -> None:
    w, h = c.w, c.h
    c.fill((120, 130, 110))
    ground_y = int(h * 0.82)
    c.draw.rectangle((0, 0, w, int(h * 0.12)), fill=(150, 160, 172))
    for row, y in enumerate(range(int(h * 0.12), ground_y, 34)):  # dry-stone wall
        x = -c.rng.randint(0, 40) - (20 if row % 2 else 0)
        while x < w:
            sw = c.rng.randint(50, 90)
            grey = c.rng.randint(120, 160)
            c.draw.rounded_rectangle((x, y, x + sw - 4, y + 30), 8,
                                     fill=(grey, grey - 6, grey - 14))
            x += sw
    c.draw.rectangle((0, ground_y, w, h), fill=(88, 90, 92))
    speckle(c, (0, ground_y, w, h), (88, 90, 92), w * 4, 14)
    _ground(c, ground_y)


def house(c: Canvas, part: House) -> None:
    w, h = c.w, c.h
    c.fill((150, 158, 170))
    eaves = int(h * EAVES)
    c.draw.rectangle((0, eaves, w, h), fill=(214, 204, 184))  # house front
    for x0 in (int(w * 0.18), int(w * 0.64)):
        c.draw.rectangle((x0, eaves + 30, x0 + 110, eaves + 120), fill=(70, 90, 110),
                         outline=(250, 250, 250), width=6)
    _ground(c, h - 40)


def garden(c: Canvas, part: Garden) -> None:
    w, h = c.w, c.h
    c.fill(SKY)
    fence_top, lawn_y = int(h * 0.22), int(h * 0.70)
    wood = (150, 104, 62)
    c.draw.rectangle((0, fence_top, w, lawn_y), fill=wood)
    for x in range(0, w, 24):  # fence boards
        c.draw.line((x, fence_top, x, lawn_y), fill=(110, 74, 42), width=2)
    for y in (int(h * 0.32), int(h * 0.58)):  # rails
        c.draw.rectangle((0, y, w, y + 8), fill=(124, 84, 48))
    speckle(c, (0, fence_top, w, lawn_y), wood, w * 3, 12)
    c.draw.rectangle((0, lawn_y, w, h), fill=(88, 138, 62))
    speckle(c, (0, lawn_y, w, h), (88, 138, 62), w * 8, 22)
    _ground(c, lawn_y)


def plain_wall(c: Canvas, part: PlainWall) -> None:
    c.fill(rgb(part.colour))
    _ground(c, c.h)


SETTINGS: dict[str, Callable[[Canvas, Any], None]] = {
    "street": street,
    "yard": yard,
    "car_park": car_park,
    "country_lane": country_lane,
    "house": house,
    "garden": garden,
    "plain_wall": plain_wall,
}
