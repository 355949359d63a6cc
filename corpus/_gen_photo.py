"""Deterministic damage photos drawn with Pillow (same parameters -> same bytes).

Each subject is a plain drawing of the thing a customer would photograph, with the damage
drawn where the parameters say. Parameters are stored in ``provenance.json``.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from ._gen_scenes import SCENES

PHOTO_GENERATOR = "corpus.photo/1"
MAX_JPEG_BYTES = 100_000

_SIDES = {"left": 0.28, "centre": 0.5, "right": 0.72}


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _speckle(draw: ImageDraw.ImageDraw, rng: random.Random, box: tuple[int, int, int, int],
             base: tuple[int, int, int], count: int, spread: int) -> None:
    """Light texture so flat areas look less like a diagram."""
    x0, y0, x1, y1 = box
    for _ in range(count):
        x, y = rng.randint(x0, x1 - 1), rng.randint(y0, y1 - 1)
        d = rng.randint(-spread, spread)
        draw.point((x, y), fill=tuple(max(0, min(255, c + d)) for c in base))


def _dent(draw: ImageDraw.ImageDraw, rng: random.Random, cx: int, cy: int, w: int, h: int,
          severity: str) -> None:
    scale = {"minor": 0.6, "moderate": 1.0, "severe": 1.4}.get(severity, 1.0)
    w, h = int(w * scale), int(h * scale)
    # the pushed-in area: a darker hollow with a bright rim on its upper edge
    draw.ellipse((cx - w, cy - h, cx + w, cy + h), fill=(38, 38, 42))
    draw.ellipse((cx - w + 6, cy - h + 4, cx + w - 6, cy + h - 2), fill=(24, 24, 28))
    draw.arc((cx - w, cy - h, cx + w, cy + h), 190, 350, fill=(150, 150, 155), width=3)
    # cracks running out from the centre of the impact
    for _ in range(int(5 * scale) + 2):
        x, y = cx, cy
        for _ in range(rng.randint(3, 6)):
            nx = x + rng.randint(-w // 3, w // 3)
            ny = y + rng.randint(-h // 2, h // 2)
            draw.line((x, y, nx, ny), fill=(205, 205, 210), width=2)
            x, y = nx, ny
    # scuffs of the other car's paint
    for _ in range(int(14 * scale)):
        x = cx + rng.randint(-w, w)
        y = cy + rng.randint(-h, h)
        draw.line((x, y, x + rng.randint(8, 22), y + rng.randint(-3, 3)),
                  fill=(190, 60, 50), width=2)


def _car_rear(params: dict[str, Any], rng: random.Random) -> Image.Image:
    width = int(params.get("width", 640))
    height = int(params.get("height", 480))
    body = tuple(int(params.get("body_colour", "2f5d8a")[i:i + 2], 16) for i in (0, 2, 4))
    img = Image.new("RGB", (width, height), (176, 196, 214))
    draw = ImageDraw.Draw(img)
    ground_y = int(height * 0.78)
    draw.rectangle((0, ground_y, width, height), fill=(92, 94, 98))
    _speckle(draw, rng, (0, ground_y, width, height), (92, 94, 98), width * 6, 14)
    draw.rectangle((0, int(height * 0.30), width, ground_y), fill=(156, 150, 140))  # wall
    left, right = int(width * 0.12), int(width * 0.88)
    top, bottom = int(height * 0.22), int(height * 0.80)
    # wheels, then body, roof and rear window
    for wx in (left + 20, right - 90):
        draw.rounded_rectangle((wx, bottom - 30, wx + 70, bottom + 24), 14, fill=(18, 18, 20))
    draw.rounded_rectangle((left, int(height * 0.42), right, bottom), 26, fill=body)
    draw.polygon([(left + 60, int(height * 0.43)), (left + 110, top),
                  (right - 110, top), (right - 60, int(height * 0.43))], fill=body)
    draw.polygon([(left + 80, int(height * 0.42)), (left + 122, top + 14),
                  (right - 122, top + 14), (right - 80, int(height * 0.42))], fill=(40, 52, 64))
    _speckle(draw, rng, (left, int(height * 0.42), right, bottom), body, width * 2, 10)
    # tail lights
    lt_y = int(height * 0.47)
    for x0 in (left + 14, right - 84):
        draw.rounded_rectangle((x0, lt_y, x0 + 70, lt_y + 34), 6, fill=(178, 24, 28))
    # number plate
    plate = str(params.get("plate", "AB12 CDE"))
    pw, ph = 170, 40
    px, py = (width - pw) // 2, int(height * 0.56)
    draw.rectangle((px, py, px + pw, py + ph), fill=(245, 205, 40), outline=(20, 20, 20), width=2)
    draw.text((width // 2, py + ph // 2), plate, fill=(10, 10, 10), font=_font(26), anchor="mm")
    # bumper
    by0, by1 = int(height * 0.66), int(height * 0.77)
    draw.rounded_rectangle((left - 8, by0, right + 8, by1), 16, fill=(58, 58, 62))
    _speckle(draw, rng, (left - 8, by0, right + 8, by1), (58, 58, 62), width * 2, 12)
    damage = params.get("damage") or {}
    part = damage.get("part", "bumper")
    side = _SIDES.get(damage.get("side", "centre"), 0.5)
    severity = damage.get("severity", "moderate")
    if part == "bumper":
        _dent(draw, rng, int(width * side), (by0 + by1) // 2, int(width * 0.12),
              (by1 - by0) // 2, severity)
    elif part == "tail_light":
        x0 = left + 14 if side < 0.5 else right - 84
        for _ in range(8):
            draw.line((x0 + 35, lt_y + 17, x0 + rng.randint(0, 70), lt_y + rng.randint(0, 34)),
                      fill=(240, 240, 240), width=2)
    elif part != "none":
        raise ValueError(f"damage.part: unknown damage part {part!r}")
    return img.filter(ImageFilter.SMOOTH)


SUBJECTS: dict[str, Callable[[dict[str, Any], random.Random], Image.Image]] = {
    "car_rear": _car_rear,
    **SCENES,
}


def make_photo(params: dict[str, Any]) -> bytes:
    """Draw the photo described by ``params`` and return JPEG bytes (at most 100 KB).

    Raises ``ValueError`` naming the bad parameter.
    """
    subject = params.get("subject")
    if subject not in SUBJECTS:
        raise ValueError(f"subject: unknown photo subject {subject!r}; known: {sorted(SUBJECTS)}")
    img = SUBJECTS[subject](params, random.Random(int(params.get("seed", 0))))
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=int(params.get("quality", 80)), optimize=False,
             progressive=False, subsampling=2)
    data = buf.getvalue()
    if len(data) > MAX_JPEG_BYTES:
        raise ValueError(f"quality: photo is {len(data)} bytes, more than {MAX_JPEG_BYTES}")
    return data
