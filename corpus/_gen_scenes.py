"""More photo subjects for ``corpus.photo/1``: one plain drawing per kind of loss.

Each function takes the photo's parameters and a seeded ``random.Random`` and returns the
image; ``SCENES`` maps subject names to them (merged into the photo generator's subjects).
Common parameters: ``width``/``height`` (default 640x480); subject-specific ones are read
with defaults, so a recipe in ``provenance.json`` stays short.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw, ImageFilter, ImageFont

RGB = tuple[int, int, int]


def _rgb(value: Any, default: str) -> RGB:
    text = str(value or default)
    if len(text) != 6:
        raise ValueError(f"colour {text!r}: expected six hex digits")
    return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]


def _size(params: dict[str, Any]) -> tuple[int, int]:
    return int(params.get("width", 640)), int(params.get("height", 480))


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _speckle(draw: ImageDraw.ImageDraw, rng: random.Random, box: tuple[int, int, int, int],
             base: RGB, count: int, spread: int) -> None:
    x0, y0, x1, y1 = box
    for _ in range(count):
        x, y = rng.randint(x0, max(x0, x1 - 1)), rng.randint(y0, max(y0, y1 - 1))
        d = rng.randint(-spread, spread)
        draw.point((x, y), fill=tuple(max(0, min(255, c + d)) for c in base))


def _cracks(draw: ImageDraw.ImageDraw, rng: random.Random, cx: int, cy: int, reach: int,
            arms: int, colour: RGB, width: int = 2) -> None:
    """Cracks radiating from an impact point, each a jagged line with a side branch."""
    for i in range(arms):
        angle = 2 * math.pi * i / arms + rng.uniform(-0.25, 0.25)
        x, y = float(cx), float(cy)
        steps = rng.randint(4, 7)
        for s in range(steps):
            length = reach / steps * rng.uniform(0.7, 1.3)
            angle += rng.uniform(-0.35, 0.35)
            nx, ny = x + math.cos(angle) * length, y + math.sin(angle) * length
            draw.line((x, y, nx, ny), fill=colour, width=width)
            if s == 1 and rng.random() < 0.6:
                ba = angle + rng.choice((-1, 1)) * rng.uniform(0.5, 1.0)
                draw.line((nx, ny, nx + math.cos(ba) * length * 0.8,
                           ny + math.sin(ba) * length * 0.8), fill=colour, width=1)
            x, y = nx, ny
    r = max(4, reach // 14)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=2)


def _cracks_within(img: Image.Image, rng: random.Random, cx: int, cy: int, reach: int,
                   arms: int, colour: RGB, outline: list[tuple[int, int]], width: int = 2) -> None:
    """Cracks drawn only inside ``outline`` (the glass), as real cracks stop at its edge."""
    layer = img.copy()
    _cracks(ImageDraw.Draw(layer), rng, cx, cy, reach, arms, colour, width)
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).polygon(outline, fill=255)
    img.paste(layer, (0, 0), mask)


def _plate(draw: ImageDraw.ImageDraw, cx: int, cy: int, text: str, front: bool) -> None:
    pw, ph = 150, 34
    fill = (250, 250, 246) if front else (245, 205, 40)
    draw.rectangle((cx - pw // 2, cy - ph // 2, cx + pw // 2, cy + ph // 2), fill=fill,
                   outline=(20, 20, 20), width=2)
    draw.text((cx, cy), text, fill=(10, 10, 10), font=_font(22), anchor="mm")


def _street(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, h: int, ground_y: int) -> None:
    draw.rectangle((0, 0, w, ground_y), fill=(176, 196, 214))
    draw.rectangle((0, int(h * 0.30), w, ground_y), fill=(150, 128, 112))  # brick wall
    for y in range(int(h * 0.30), ground_y, 14):
        draw.line((0, y, w, y), fill=(128, 108, 94))
    draw.rectangle((0, ground_y, w, h), fill=(92, 94, 98))
    _speckle(draw, rng, (0, ground_y, w, h), (92, 94, 98), w * 5, 14)


# --------------------------------------------------------------------------- motor


def _car_side_scrape(params: dict[str, Any], rng: random.Random) -> Image.Image:
    """Side view of a parked hatchback with a long scrape and dent across the front door."""
    w, h = _size(params)
    body = _rgb(params.get("body_colour"), "b8b8bc")
    img = Image.new("RGB", (w, h))
    draw = ImageDraw.Draw(img)
    ground_y = int(h * 0.80)
    _street(draw, rng, w, h, ground_y)
    left, right = int(w * 0.06), int(w * 0.94)
    sill, belt, roof = int(h * 0.74), int(h * 0.48), int(h * 0.28)
    for wx in (int(w * 0.22), int(w * 0.78)):
        draw.ellipse((wx - 52, sill - 46, wx + 52, sill + 58), fill=(20, 20, 22))
        draw.ellipse((wx - 26, sill - 20, wx + 26, sill + 32), fill=(150, 150, 156))
    draw.rounded_rectangle((left, belt, right, sill), 30, fill=body)
    draw.polygon([(int(w * 0.22), belt), (int(w * 0.34), roof), (int(w * 0.80), roof),
                  (int(w * 0.90), belt)], fill=body)
    glass = (52, 66, 80)
    draw.polygon([(int(w * 0.27), belt - 6), (int(w * 0.36), roof + 10), (int(w * 0.54), roof + 10),
                  (int(w * 0.54), belt - 6)], fill=glass)
    draw.polygon([(int(w * 0.57), belt - 6), (int(w * 0.57), roof + 10), (int(w * 0.78), roof + 10),
                  (int(w * 0.86), belt - 6)], fill=glass)
    _speckle(draw, rng, (left, belt, right, sill), body, w * 2, 8)
    door_l, door_r = int(w * 0.30), int(w * 0.555)
    edge = tuple(max(0, c - 60) for c in body)
    draw.line((door_l, belt - 6, door_l, sill - 4), fill=edge, width=2)
    draw.line((door_r, roof + 10, door_r, sill - 4), fill=edge, width=2)
    draw.rectangle((door_r - 40, belt + 16, door_r - 14, belt + 24), fill=edge)  # handle
    damage = params.get("damage") or {}
    severity = {"minor": 0.6, "moderate": 1.0, "severe": 1.4}.get(
        damage.get("severity", "moderate"), 1.0)
    # the dent: a darker hollow with a light rim; the scrape: long bare-metal streaks
    cx, cy = int(w * 0.43), int(h * 0.60)
    dw, dh = int(70 * severity), int(26 * severity)
    draw.ellipse((cx - dw, cy - dh, cx + dw, cy + dh), fill=tuple(max(0, c - 70) for c in body))
    draw.arc((cx - dw, cy - dh, cx + dw, cy + dh), 190, 350, fill=(235, 235, 238), width=3)
    for i in range(int(16 * severity)):
        y = int(h * 0.55) + rng.randint(-14, 22)
        x0 = int(w * 0.14) + rng.randint(0, 40)
        x1 = int(w * 0.62) + rng.randint(-30, 40)
        colour = (230, 230, 232) if i % 3 else (240, 240, 240)
        draw.line((x0, y, x1, y + rng.randint(-6, 6)), fill=colour, width=rng.choice((1, 2, 2, 3)))
    for _ in range(int(10 * severity)):
        x = rng.randint(int(w * 0.2), int(w * 0.6))
        y = int(h * 0.56) + rng.randint(-10, 16)
        draw.line((x, y, x + rng.randint(10, 30), y), fill=(245, 245, 245), width=2)
    return img.filter(ImageFilter.SMOOTH)


def _empty_parking_bay(params: dict[str, Any], rng: random.Random) -> Image.Image:
    """An empty marked parking bay with smashed window glass where a car stood."""
    w, h = _size(params)
    img = Image.new("RGB", (w, h), (70, 72, 76))
    draw = ImageDraw.Draw(img)
    horizon = int(h * 0.32)
    draw.rectangle((0, 0, w, horizon), fill=(150, 128, 112))  # back wall
    for y in range(0, horizon, 14):
        draw.line((0, y, w, y), fill=(128, 108, 94))
    _speckle(draw, rng, (0, horizon, w, h), (70, 72, 76), w * 8, 16)
    line = (236, 236, 230)
    # bay lines in perspective: three bays, the middle one empty
    top_xs = [int(w * f) for f in (0.08, 0.36, 0.64, 0.92)]
    bottom_xs = [int(w * f) for f in (-0.45, 0.12, 0.88, 1.45)]
    for tx, bx in zip(top_xs, bottom_xs, strict=True):
        draw.line((tx, horizon + 6, bx, h), fill=line, width=6)
    draw.line((top_xs[0], horizon + 6, top_xs[3], horizon + 6), fill=line, width=5)
    bay_no = str(params.get("bay_number", "14"))
    draw.text((w // 2, int(h * 0.45)), bay_no, fill=line, font=_font(44), anchor="mm")
    # neighbouring parked cars, cut by the frame
    draw.rounded_rectangle((-120, horizon + 20, int(w * 0.22), int(h * 0.80)), 30,
                           fill=(130, 30, 34))
    draw.rounded_rectangle((int(w * 0.80), horizon + 20, w + 120, int(h * 0.80)), 30,
                           fill=(34, 60, 100))
    # broken side-window glass scattered in the empty bay
    for _ in range(int(params.get("glass_pieces", 150))):
        x = int(w * 0.5 + rng.gauss(0, w * 0.09))
        y = int(h * 0.68 + rng.gauss(0, h * 0.07))
        s = rng.randint(2, 6)
        pts = [(x + rng.randint(-s, s), y + rng.randint(-s, s)) for _ in range(3)]
        draw.polygon(pts, fill=rng.choice(((200, 225, 235), (170, 205, 220), (235, 245, 250))))
    return img.filter(ImageFilter.SMOOTH)


def _windscreen_crack(params: dict[str, Any], rng: random.Random) -> Image.Image:
    """Front of a car, its windscreen cracked from a stone chip."""
    w, h = _size(params)
    body = _rgb(params.get("body_colour"), "3c4a3e")
    img = Image.new("RGB", (w, h))
    draw = ImageDraw.Draw(img)
    ground_y = int(h * 0.84)
    _street(draw, rng, w, h, ground_y)
    left, right = int(w * 0.10), int(w * 0.90)
    draw.rounded_rectangle((left, int(h * 0.50), right, int(h * 0.86)), 28, fill=body)
    screen = [(int(w * 0.20), int(h * 0.50)), (int(w * 0.30), int(h * 0.16)),
              (int(w * 0.70), int(h * 0.16)), (int(w * 0.80), int(h * 0.50))]
    draw.polygon([(x, y - 10) for x, y in screen], fill=body)
    draw.polygon(screen, fill=(120, 150, 170))
    draw.polygon([screen[1], (int(w * 0.42), int(h * 0.16)), (int(w * 0.26), int(h * 0.46))],
                 fill=(165, 190, 205))  # reflection
    for x0 in (left + 16, right - 106):
        draw.rounded_rectangle((x0, int(h * 0.56), x0 + 90, int(h * 0.64)), 8,
                               fill=(230, 232, 220))
    draw.rectangle((int(w * 0.38), int(h * 0.60), int(w * 0.62), int(h * 0.68)),
                   fill=(30, 30, 34))  # grille
    _plate(draw, w // 2, int(h * 0.76), str(params.get("plate", "AB12 CDE")), front=True)
    side = str((params.get("damage") or {}).get("side", "right"))
    cx = int(w * (0.64 if side == "right" else 0.36))
    cy = int(h * 0.36)
    draw.line((cx, cy, int(w * 0.26), int(h * 0.44)), fill=(250, 250, 250), width=3)
    _cracks_within(img, rng, cx, cy, int(w * 0.16), 7, (250, 250, 250), screen)
    return img.filter(ImageFilter.SMOOTH)


def _car_front_crash(params: dict[str, Any], rng: random.Random) -> Image.Image:
    """Front of a car crushed against a stone wall: bonnet buckled, bumper off, lamp smashed."""
    w, h = _size(params)
    body = _rgb(params.get("body_colour"), "a52a2a")
    img = Image.new("RGB", (w, h), (120, 130, 110))
    draw = ImageDraw.Draw(img)
    ground_y = int(h * 0.82)
    draw.rectangle((0, 0, w, int(h * 0.12)), fill=(150, 160, 172))
    # dry-stone wall
    for row, y in enumerate(range(int(h * 0.12), ground_y, 34)):
        x = -rng.randint(0, 40) - (20 if row % 2 else 0)
        while x < w:
            sw = rng.randint(50, 90)
            grey = rng.randint(120, 160)
            draw.rounded_rectangle((x, y, x + sw - 4, y + 30), 8, fill=(grey, grey - 6, grey - 14))
            x += sw
    draw.rectangle((0, ground_y, w, h), fill=(88, 90, 92))
    _speckle(draw, rng, (0, ground_y, w, h), (88, 90, 92), w * 4, 14)
    left, right = int(w * 0.12), int(w * 0.88)
    draw.rounded_rectangle((left, int(h * 0.46), right, int(h * 0.84)), 24, fill=body)
    draw.polygon([(int(w * 0.24), int(h * 0.46)), (int(w * 0.32), int(h * 0.20)),
                  (int(w * 0.68), int(h * 0.20)), (int(w * 0.76), int(h * 0.46))],
                 fill=(70, 90, 104))
    # buckled bonnet: a zigzag ridge
    ridge = []
    for i in range(9):
        x = left + 10 + i * (right - left - 20) // 8
        ridge.append((x, int(h * 0.46) - (26 if i % 2 else 0) - rng.randint(0, 10)))
    draw.polygon([(left + 10, int(h * 0.52)), *ridge, (right - 10, int(h * 0.52))],
                 fill=tuple(max(0, c - 40) for c in body))
    draw.line(ridge, fill=(230, 220, 220), width=3)
    # headlamps: left smashed, right intact
    draw.rounded_rectangle((left + 14, int(h * 0.55), left + 104, int(h * 0.63)), 8,
                           fill=(60, 60, 64))
    _cracks(draw, rng, left + 58, int(h * 0.59), 50, 6, (240, 240, 240), width=2)
    draw.rounded_rectangle((right - 104, int(h * 0.55), right - 14, int(h * 0.63)), 8,
                           fill=(230, 232, 220))
    # bumper torn off and hanging to the ground
    draw.polygon([(left, int(h * 0.70)), (int(w * 0.55), int(h * 0.72)),
                  (int(w * 0.50), ground_y + 6), (left - 10, ground_y - 4)], fill=(40, 40, 44))
    for _ in range(40):
        x, y = rng.randint(left, right), rng.randint(ground_y, h - 4)
        draw.rectangle((x, y, x + rng.randint(2, 8), y + rng.randint(2, 5)), fill=(220, 220, 220))
    return img.filter(ImageFilter.SMOOTH)


# --------------------------------------------------------------------------- home


def _ceiling_water_stain(params: dict[str, Any], rng: random.Random) -> Image.Image:
    """Kitchen ceiling with a brown water stain, sagging wet plaster and drips into a bucket."""
    w, h = _size(params)
    img = Image.new("RGB", (w, h), (238, 234, 224))
    draw = ImageDraw.Draw(img)
    wall_top = int(h * 0.58)
    draw.rectangle((0, wall_top, w, h), fill=(196, 214, 196))  # wall
    draw.line((0, wall_top, w, wall_top), fill=(200, 196, 186), width=4)  # cornice
    for x0 in range(20, w, 150):  # wall cupboards
        draw.rectangle((x0, wall_top + 20, x0 + 130, h - 40), fill=(232, 228, 214),
                       outline=(170, 166, 150), width=2)
    _speckle(draw, rng, (0, 0, w, wall_top), (238, 234, 224), w * 4, 6)
    cx, cy = int(w * 0.48), int(h * 0.28)
    for ring in range(6, 0, -1):  # tide-mark rings of the stain
        rx, ry = 40 * ring + rng.randint(-8, 8), 20 * ring + rng.randint(-4, 4)
        tone = 150 + ring * 12
        draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=(tone, tone - 40, tone - 90))
    draw.ellipse((cx - 60, cy - 26, cx + 60, cy + 26), fill=(120, 90, 60))  # sag
    draw.polygon([(cx - 30, cy - 8), (cx + 24, cy - 14), (cx + 36, cy + 10), (cx - 20, cy + 14)],
                 fill=(70, 54, 40))  # fallen plaster showing laths
    for lx in range(cx - 26, cx + 30, 10):
        draw.line((lx, cy - 10, lx + 4, cy + 12), fill=(150, 110, 70), width=3)
    # drips and a bucket
    bucket_y = int(h * 0.86)
    for i in range(5):
        y = cy + 40 + i * 40
        draw.ellipse((cx - 3, y, cx + 3, y + 10), fill=(120, 160, 210))
    draw.polygon([(cx - 50, bucket_y), (cx + 50, bucket_y), (cx + 38, h - 4), (cx - 38, h - 4)],
                 fill=(40, 110, 190))
    draw.ellipse((cx - 50, bucket_y - 10, cx + 50, bucket_y + 10), fill=(90, 140, 200))
    light = (cx + 170, int(h * 0.18))  # ceiling light for scale
    draw.ellipse((light[0] - 26, light[1] - 14, light[0] + 26, light[1] + 14), fill=(250, 250, 240),
                 outline=(180, 180, 170))
    return img.filter(ImageFilter.SMOOTH)


def _roof_missing_tiles(params: dict[str, Any], rng: random.Random) -> Image.Image:
    """A pitched tiled roof with a patch of tiles blown off, battens showing, tiles below."""
    w, h = _size(params)
    img = Image.new("RGB", (w, h), (150, 158, 170))
    draw = ImageDraw.Draw(img)
    eaves, ridge = int(h * 0.62), int(h * 0.12)
    draw.rectangle((0, eaves, w, h), fill=(214, 204, 184))  # house front
    for x0 in (int(w * 0.18), int(w * 0.64)):
        draw.rectangle((x0, eaves + 30, x0 + 110, eaves + 120), fill=(70, 90, 110),
                       outline=(250, 250, 250), width=6)
    draw.polygon([(0, eaves), (int(w * 0.08), ridge), (int(w * 0.92), ridge), (w, eaves)],
                 fill=(150, 70, 50))
    tile = (168, 78, 56)
    for row, y in enumerate(range(ridge + 4, eaves, 18)):
        off = 0 if row % 2 else 18
        for x in range(-36 + off, w, 36):
            draw.rectangle((x + 1, y + 1, x + 34, y + 16), fill=tile, outline=(120, 52, 38))
    # the missing patch: roof felt and timber battens where the tiles were
    hx0, hy0 = int(w * 0.40), int(h * 0.26)
    hole = [(hx0, hy0), (hx0 + 150, hy0 - 8), (hx0 + 190, hy0 + 70), (hx0 + 120, hy0 + 118),
            (hx0 - 10, hy0 + 96)]
    draw.polygon(hole, fill=(40, 40, 44))
    for by in range(hy0 + 4, hy0 + 118, 18):
        draw.line((hx0 - 8, by, hx0 + 186, by + 4), fill=(176, 138, 86), width=5)
    for _ in range(10):  # loose tiles hanging at the hole's edge
        x = hx0 + rng.randint(-10, 180)
        y = hy0 + rng.randint(-6, 110)
        draw.polygon([(x, y), (x + 30, y + 6), (x + 26, y + 20), (x - 4, y + 14)], fill=tile,
                     outline=(120, 52, 38))
    for _ in range(22):  # broken tiles on the ground
        x, y = rng.randint(20, w - 40), rng.randint(h - 40, h - 8)
        draw.polygon([(x, y), (x + rng.randint(10, 24), y + 2), (x + 14, y + rng.randint(6, 12))],
                     fill=tile)
    return img.filter(ImageFilter.SMOOTH)


def _kitchen_fire(params: dict[str, Any], rng: random.Random) -> Image.Image:
    """A kitchen after a pan fire: charred cupboards over the hob, soot up the wall and ceiling."""
    w, h = _size(params)
    img = Image.new("RGB", (w, h), (226, 222, 210))
    draw = ImageDraw.Draw(img)
    worktop = int(h * 0.62)
    draw.rectangle((0, worktop, w, worktop + 14), fill=(90, 80, 70))
    for x0 in range(0, w, 128):  # base units
        draw.rectangle((x0 + 4, worktop + 18, x0 + 124, h), fill=(210, 200, 170),
                       outline=(150, 140, 120), width=2)
    hob_x = int(w * 0.50)
    draw.rectangle((hob_x - 90, worktop + 18, hob_x + 90, h), fill=(60, 60, 64))  # cooker
    draw.rectangle((hob_x - 70, worktop + 50, hob_x + 70, h - 30), fill=(24, 24, 26))
    # wall cupboards: the two beside the hob charred and blistered, the outer two intact
    for x0, x1, charred in ((10, 110, False), (hob_x - 215, hob_x - 75, True),
                            (hob_x + 75, hob_x + 215, True), (w - 110, w - 10, False)):
        fill = (36, 30, 26) if charred else (210, 200, 170)
        draw.rectangle((x0, int(h * 0.12), x1, int(h * 0.40)), fill=fill,
                       outline=(20, 16, 14) if charred else (150, 140, 120), width=2)
        if charred:
            for _ in range(30):
                bx, by = rng.randint(x0 + 4, x1 - 4), int(h * 0.12) + rng.randint(4, 130)
                draw.ellipse((bx - 4, by - 3, bx + 4, by + 3), fill=(80, 50, 30))
    # soot: smoke staining spreading up from the hob, across the wall and the ceiling
    mask = Image.new("L", (w, h), 0)
    md = ImageDraw.Draw(mask)
    md.polygon([(hob_x - 50, worktop), (hob_x - 300, 0), (hob_x + 300, 0), (hob_x + 50, worktop)],
               fill=200)
    md.polygon([(hob_x - 30, worktop), (hob_x - 150, 0), (hob_x + 150, 0), (hob_x + 30, worktop)],
               fill=255)
    md.rectangle((0, 0, w, int(h * 0.05)), fill=170)
    for _ in range(90):
        t = rng.random()
        y = int(worktop * (1 - t))
        x = hob_x + int(rng.gauss(0, 40 + 160 * t))
        r = rng.randint(10, 30)
        md.ellipse((x - r, y - r, x + r, y + r), fill=rng.randint(170, 255))
    mask = mask.filter(ImageFilter.GaussianBlur(10))
    img.paste(Image.new("RGB", (w, h), (22, 20, 18)), (0, 0), mask)
    draw = ImageDraw.Draw(img)
    # burnt pan on the hob
    draw.ellipse((hob_x - 54, worktop - 6, hob_x + 54, worktop + 16), fill=(18, 18, 18))
    draw.line((hob_x + 50, worktop + 4, hob_x + 130, worktop - 6), fill=(18, 18, 18), width=8)
    return img.filter(ImageFilter.SMOOTH)


# --------------------------------------------------------------------------- contents


def _forced_door(params: dict[str, Any], rng: random.Random) -> Image.Image:
    """A back door forced open: splintered frame at the lock, the lock hanging loose."""
    w, h = _size(params)
    img = Image.new("RGB", (w, h), (205, 200, 190))
    draw = ImageDraw.Draw(img)
    door = _rgb(params.get("door_colour"), "2e5a3c")
    fx0, fx1, fy0 = int(w * 0.26), int(w * 0.74), int(h * 0.04)
    draw.rectangle((fx0 - 22, fy0 - 16, fx1 + 22, h), fill=(236, 232, 222))  # frame
    draw.rectangle((fx0, fy0, fx1, h), fill=(18, 18, 20))  # gap: door ajar, dark inside
    draw.polygon([(fx0, fy0), (fx1 - 30, fy0 + 10), (fx1 - 30, h), (fx0, h)], fill=door)
    for py in (int(h * 0.12), int(h * 0.52)):  # panels
        draw.rectangle((fx0 + 30, py, fx1 - 62, py + int(h * 0.32)),
                       outline=tuple(max(0, c - 30) for c in door), width=4)
    lock_y = int(h * 0.50)
    # splintered frame around the lock: bare wood shards
    for _ in range(26):
        x = fx1 + rng.randint(-8, 20)
        y = lock_y + rng.randint(-70, 70)
        draw.polygon([(x, y), (x + rng.randint(8, 30), y + rng.randint(-4, 4)),
                      (x + rng.randint(2, 10), y + rng.randint(10, 40))], fill=(222, 184, 130))
    draw.rectangle((fx1 - 6, lock_y - 30, fx1 + 22, lock_y + 30), fill=(200, 160, 110))
    # the lock hanging off at an angle
    draw.polygon([(fx1 - 56, lock_y + 10), (fx1 - 26, lock_y + 2), (fx1 - 16, lock_y + 70),
                  (fx1 - 46, lock_y + 78)], fill=(180, 160, 60), outline=(90, 80, 30))
    draw.ellipse((fx1 - 42, lock_y + 30, fx1 - 28, lock_y + 44), fill=(40, 40, 40))
    for _ in range(18):  # splinters on the floor
        x, y = fx1 + rng.randint(-60, 60), h - rng.randint(4, 30)
        draw.line((x, y, x + rng.randint(6, 26), y + rng.randint(-3, 3)), fill=(222, 184, 130),
                  width=3)
    return img.filter(ImageFilter.SMOOTH)


def _tv_cracked_screen(params: dict[str, Any], rng: random.Random) -> Image.Image:
    """A flat television on its stand, the screen shattered from an impact point."""
    w, h = _size(params)
    img = Image.new("RGB", (w, h), (214, 204, 186))
    draw = ImageDraw.Draw(img)
    floor_y = int(h * 0.84)
    draw.rectangle((0, floor_y, w, h), fill=(150, 110, 76))
    draw.rectangle((int(w * 0.16), int(h * 0.70), int(w * 0.84), floor_y), fill=(64, 52, 44))
    draw.rectangle((int(w * 0.46), int(h * 0.62), int(w * 0.54), int(h * 0.70)),
                   fill=(30, 30, 32))  # TV foot
    sx0, sy0, sx1, sy1 = int(w * 0.10), int(h * 0.10), int(w * 0.90), int(h * 0.62)
    draw.rectangle((sx0, sy0, sx1, sy1), fill=(22, 22, 24))  # bezel
    draw.rectangle((sx0 + 10, sy0 + 10, sx1 - 10, sy1 - 12), fill=(14, 16, 22))  # screen
    cx, cy = int(w * 0.36), int(h * 0.30)
    # a dead patch of the panel where the glass broke
    draw.polygon([(cx - 50, cy - 30), (cx + 70, cy - 40), (cx + 90, cy + 60), (cx - 30, cy + 80)],
                 fill=(64, 40, 90))
    glass = [(sx0 + 10, sy0 + 10), (sx1 - 10, sy0 + 10), (sx1 - 10, sy1 - 12), (sx0 + 10, sy1 - 12)]
    _cracks_within(img, rng, cx, cy, int(w * 0.34), 11, (236, 240, 248), glass)
    for _ in range(4):  # coloured lines typical of a broken panel
        x = rng.randint(sx0 + 20, sx1 - 20)
        draw.line((x, sy0 + 12, x, sy1 - 14), fill=rng.choice(((200, 40, 200), (40, 200, 210))),
                  width=1)
    draw.text((w // 2, sy1 - 4), str(params.get("brand", "VISTRA")), fill=(150, 150, 150),
              font=_font(12), anchor="mb")
    return img.filter(ImageFilter.SMOOTH)


SCENES: dict[str, Callable[[dict[str, Any], random.Random], Image.Image]] = {
    "car_side_scrape": _car_side_scrape,
    "empty_parking_bay": _empty_parking_bay,
    "windscreen_crack": _windscreen_crack,
    "car_front_crash": _car_front_crash,
    "ceiling_water_stain": _ceiling_water_stain,
    "roof_missing_tiles": _roof_missing_tiles,
    "kitchen_fire": _kitchen_fire,
    "forced_door": _forced_door,
    "tv_cracked_screen": _tv_cracked_screen,
}
