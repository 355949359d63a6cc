"""Vehicles: a hatchback from the rear, the side or the front, and a bicycle.

Regions a damage can name:

- car, rear: ``bumper``, ``tail_light_left``, ``tail_light_right``, ``rear_window``
- car, side: ``door``, ``front_wing``, ``side_window``
- car, front: ``windscreen``, ``bonnet``, ``bumper``, ``headlight_left``, ``headlight_right``
- bicycle: ``front_wheel``, ``rear_wheel``, ``frame``
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from claims_corpus.formats.scene import Bicycle, Car

from ._canvas import Canvas, Region, darker, rgb, side_points, speckle
from ._plates import draw_plate

_DEFAULT_COLOUR = {"rear": "2f5d8a", "side": "b8b8bc", "front": "3c4a3e"}
LAMP_RED = (178, 24, 28)
LAMP_WHITE = (230, 232, 220)


def _lamp(box: tuple[int, int, int, int]) -> Region:
    x0, y0, x1, y1 = box
    centre = ((x0 + x1) // 2, (y0 + y1) // 2)
    return Region(box=box, points={"centre": centre}, size=(x1 - x0) // 2)


def _rear(c: Canvas, part: Car) -> None:
    width, height = c.w, c.h
    body = rgb(part.colour or _DEFAULT_COLOUR["rear"])
    left, right = int(width * 0.12), int(width * 0.88)
    top, bottom = int(height * 0.22), int(height * 0.80)
    for wx in (left + 20, right - 90):  # wheels, then body, roof and rear window
        c.draw.rounded_rectangle((wx, bottom - 30, wx + 70, bottom + 24), 14, fill=(18, 18, 20))
    c.draw.rounded_rectangle((left, int(height * 0.42), right, bottom), 26, fill=body)
    c.draw.polygon([(left + 60, int(height * 0.43)), (left + 110, top),
                    (right - 110, top), (right - 60, int(height * 0.43))], fill=body)
    window = [(left + 80, int(height * 0.42)), (left + 122, top + 14),
              (right - 122, top + 14), (right - 80, int(height * 0.42))]
    c.draw.polygon(window, fill=(40, 52, 64))
    speckle(c, (left, int(height * 0.42), right, bottom), body, width * 2, 10)
    lt_y = int(height * 0.47)
    for x0 in (left + 14, right - 84):  # tail lights
        c.draw.rounded_rectangle((x0, lt_y, x0 + 70, lt_y + 34), 6, fill=LAMP_RED)
    if part.plate is not None:
        draw_plate(c, (width // 2, int(height * 0.56) + 20), (170, 40), 26, part.plate, rear=True)
    by0, by1 = int(height * 0.66), int(height * 0.77)
    c.draw.rounded_rectangle((left - 8, by0, right + 8, by1), 16, fill=(58, 58, 62))  # bumper
    speckle(c, (left - 8, by0, right + 8, by1), (58, 58, 62), width * 2, 12)
    cy = (by0 + by1) // 2
    c.regions["bumper"] = Region(
        box=(left - 8, by0, right + 8, by1), size=int(width * 0.12), colour=(58, 58, 62),
        points=side_points(cy, (int(width * 0.28), int(width * 0.5), int(width * 0.72))))
    c.regions["tail_light_left"] = _lamp((left + 14, lt_y, left + 84, lt_y + 34))
    c.regions["tail_light_right"] = _lamp((right - 84, lt_y, right - 14, lt_y + 34))
    c.regions["rear_window"] = Region(
        box=(left + 80, top + 14, right - 80, int(height * 0.42)), outline=window,
        points=side_points((top + int(height * 0.42)) // 2,
                           (left + 140, width // 2, right - 140)), size=int(width * 0.12))


def _side(c: Canvas, part: Car) -> None:
    w, h = c.w, c.h
    body = rgb(part.colour or _DEFAULT_COLOUR["side"])
    left, right = int(w * 0.06), int(w * 0.94)
    sill, belt, roof = int(h * 0.74), int(h * 0.48), int(h * 0.28)
    for wx in (int(w * 0.22), int(w * 0.78)):
        c.draw.ellipse((wx - 52, sill - 46, wx + 52, sill + 58), fill=(20, 20, 22))
        c.draw.ellipse((wx - 26, sill - 20, wx + 26, sill + 32), fill=(150, 150, 156))
    c.draw.rounded_rectangle((left, belt, right, sill), 30, fill=body)
    c.draw.polygon([(int(w * 0.22), belt), (int(w * 0.34), roof), (int(w * 0.80), roof),
                    (int(w * 0.90), belt)], fill=body)
    glass = (52, 66, 80)
    front_glass = [(int(w * 0.27), belt - 6), (int(w * 0.36), roof + 10),
                   (int(w * 0.54), roof + 10), (int(w * 0.54), belt - 6)]
    c.draw.polygon(front_glass, fill=glass)
    c.draw.polygon([(int(w * 0.57), belt - 6), (int(w * 0.57), roof + 10),
                    (int(w * 0.78), roof + 10), (int(w * 0.86), belt - 6)], fill=glass)
    speckle(c, (left, belt, right, sill), body, w * 2, 8)
    door_l, door_r = int(w * 0.30), int(w * 0.555)
    edge = darker(body, 60)
    c.draw.line((door_l, belt - 6, door_l, sill - 4), fill=edge, width=2)
    c.draw.line((door_r, roof + 10, door_r, sill - 4), fill=edge, width=2)
    c.draw.rectangle((door_r - 40, belt + 16, door_r - 14, belt + 24), fill=edge)  # handle
    c.regions["door"] = Region(
        box=(int(w * 0.14), int(h * 0.55), int(w * 0.62), sill), colour=body, size=70,
        points={"centre": (int(w * 0.43), int(h * 0.60)), "left": (int(w * 0.36), int(h * 0.60)),
                "right": (int(w * 0.50), int(h * 0.60))},
        hints={"streak_x0": int(w * 0.2), "streak_x1": int(w * 0.6), "streak_y": int(h * 0.56)})
    c.regions["front_wing"] = Region(
        box=(left, belt, door_l, sill), colour=body, size=int(w * 0.08),
        points=side_points(int(h * 0.60), (left + 30, (left + door_l) // 2, door_l - 30)))
    c.regions["side_window"] = Region(
        box=(int(w * 0.27), roof + 10, int(w * 0.54), belt - 6), outline=front_glass,
        points=side_points((roof + belt) // 2, (int(w * 0.36), int(w * 0.45), int(w * 0.50))),
        size=int(w * 0.10))


def _front(c: Canvas, part: Car) -> None:
    w, h = c.w, c.h
    body = rgb(part.colour or _DEFAULT_COLOUR["front"])
    left, right = int(w * 0.10), int(w * 0.90)
    c.draw.rounded_rectangle((left, int(h * 0.50), right, int(h * 0.86)), 28, fill=body)
    screen = [(int(w * 0.20), int(h * 0.50)), (int(w * 0.30), int(h * 0.16)),
              (int(w * 0.70), int(h * 0.16)), (int(w * 0.80), int(h * 0.50))]
    c.draw.polygon([(x, y - 10) for x, y in screen], fill=body)
    c.draw.polygon(screen, fill=(120, 150, 170))
    c.draw.polygon([screen[1], (int(w * 0.42), int(h * 0.16)), (int(w * 0.26), int(h * 0.46))],
                   fill=(165, 190, 205))  # reflection
    lamps = []
    for x0 in (left + 16, right - 106):
        box = (x0, int(h * 0.56), x0 + 90, int(h * 0.64))
        c.draw.rounded_rectangle(box, 8, fill=LAMP_WHITE)
        lamps.append(box)
    c.draw.rectangle((int(w * 0.38), int(h * 0.60), int(w * 0.62), int(h * 0.68)),
                     fill=(30, 30, 34))  # grille
    if part.plate is not None:
        draw_plate(c, (w // 2, int(h * 0.76)), (150, 34), 22, part.plate, rear=False)
    c.regions["windscreen"] = Region(
        box=(screen[0][0], screen[1][1], screen[3][0], screen[0][1]), outline=screen,
        points={"left": (int(w * 0.36), int(h * 0.36)), "centre": (w // 2, int(h * 0.36)),
                "right": (int(w * 0.64), int(h * 0.36)),
                "run_left": (int(w * 0.26), int(h * 0.44)),
                "run_right": (int(w * 0.74), int(h * 0.44))},
        size=int(w * 0.16))
    c.regions["bonnet"] = Region(
        box=(left, int(h * 0.50), right, int(h * 0.56)), colour=body, size=int(w * 0.10),
        points=side_points(int(h * 0.53), (int(w * 0.30), w // 2, int(w * 0.70))))
    c.regions["bumper"] = Region(
        box=(left, int(h * 0.68), right, int(h * 0.86)), colour=body, size=int(w * 0.10),
        points=side_points(int(h * 0.78), (int(w * 0.28), w // 2, int(w * 0.72))))
    c.regions["headlight_left"] = _lamp(lamps[0])
    c.regions["headlight_right"] = _lamp(lamps[1])


def car(c: Canvas, part: Car) -> None:
    {"rear": _rear, "side": _side, "front": _front}[part.view](c, part)


def _wheel(c: Canvas, cx: int, cy: int, r: int) -> None:
    c.draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=(24, 24, 26), width=7)
    c.draw.ellipse((cx - r + 6, cy - r + 6, cx + r - 6, cy + r - 6), outline=(170, 172, 176),
                   width=2)
    for i in range(16):  # spokes
        a = 2 * math.pi * i / 16
        c.draw.line((cx, cy, cx + math.cos(a) * (r - 7), cy + math.sin(a) * (r - 7)),
                    fill=(190, 192, 196), width=1)
    c.draw.ellipse((cx - 6, cy - 6, cx + 6, cy + 6), fill=(120, 120, 124))


def _bicycle_frame(c: Canvas, frame: tuple[int, int, int], cy: int, rear_x: int, front_x: int,
                   r: int) -> None:
    """Frame, saddle, handlebar, chainring and chain (in front of the wheels)."""
    w = c.w
    crank = (int(w * 0.47), cy + 6)
    seat = (int(w * 0.42), cy - int(r * 1.15))
    head = (int(w * 0.66), cy - int(r * 1.05))
    for a, b in ((crank, seat), (crank, head), (seat, head), (crank, (rear_x, cy)),
                 (seat, (rear_x, cy)), (head, (front_x, cy))):
        c.draw.line((*a, *b), fill=frame, width=8)
    c.draw.line((seat[0] - 4, seat[1], seat[0] - 10, seat[1] - 22), fill=(40, 40, 40), width=5)
    c.draw.rounded_rectangle((seat[0] - 34, seat[1] - 30, seat[0] + 14, seat[1] - 20), 5,
                             fill=(30, 30, 30))  # saddle
    c.draw.line((head[0], head[1], head[0] - 6, head[1] - 26), fill=(40, 40, 40), width=5)
    c.draw.line((head[0] - 26, head[1] - 30, head[0] + 18, head[1] - 24), fill=(40, 40, 40),
                width=6)  # handlebar
    c.draw.ellipse((crank[0] - 14, crank[1] - 14, crank[0] + 14, crank[1] + 14),
                   outline=(90, 90, 96), width=4)  # chainring
    c.draw.line((crank[0], crank[1] - 12, rear_x, cy - 6), fill=(70, 70, 74), width=2)  # chain
    c.draw.line((crank[0], crank[1] + 12, rear_x, cy + 6), fill=(70, 70, 74), width=2)


def bicycle(c: Canvas, part: Bicycle) -> None:
    w, h = c.w, c.h
    frame = rgb(part.colour)
    ground = c.regions["ground"].box[1] if "ground" in c.regions else int(h * 0.88)
    r = int(h * 0.19)
    cy = min(ground + r // 3, h - 4) - r
    rear_x, front_x = int(w * 0.27), int(w * 0.73)
    _wheel(c, rear_x, cy, r)
    _wheel(c, front_x, cy, r)

    def overdraw(cv: Canvas) -> None:
        _bicycle_frame(cv, frame, cy, rear_x, front_x, r)

    overdraw(c)
    for name, x in (("rear_wheel", rear_x), ("front_wheel", front_x)):
        c.regions[name] = Region(box=(x - r - 4, cy - r - 4, x + r + 5, cy + r + 5), size=r,
                                 points={"centre": (x, cy), "left": (x - r // 2, cy),
                                         "right": (x + r // 2, cy)},
                                 overdraw=overdraw)
    seat_y, crank_y, head_y = cy - int(r * 1.15), cy + 6, cy - int(r * 1.05)
    c.regions["frame"] = Region(box=(rear_x, head_y, front_x, crank_y), colour=frame,
                                size=int(w * 0.06),
                                points=side_points((seat_y + crank_y) // 2,
                                                   (int(w * 0.42), int(w * 0.54), int(w * 0.66))))


VEHICLES: dict[str, Callable[[Canvas, Any], None]] = {"car": car, "bicycle": bicycle}
