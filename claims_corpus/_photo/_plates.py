"""Number plates in the style of their country.

GB: white at the front, yellow at the rear, black letters. IE, DE, FR and NL: the blue EU
band with the country's letters; Irish plates white at both ends with the county in small
print, French plates with the department in a blue band on the right, Dutch plates yellow.
US: a shorter, taller plate with the state's name above the number.
"""

from __future__ import annotations

import math

from claims_corpus.formats.scene import Plate

from ._canvas import RGB, Canvas, font

INK = (10, 10, 10)
EDGE = (20, 20, 20)
WHITE = (250, 250, 246)
YELLOW = (245, 205, 40)
EU_BLUE = (0, 51, 153)
EU_STAR = (255, 204, 0)
_EU_LETTERS = {"IE": "IRL", "DE": "D", "FR": "F", "NL": "NL"}


def _fitted(c: Canvas, text: str, size: int, room: int) -> int:
    """The largest font size up to ``size`` at which ``text`` fits in ``room`` pixels."""
    while size > 8 and c.draw.textlength(text, font=font(size)) > room:
        size -= 1
    return size


def _eu_band(c: Canvas, box: tuple[int, int, int, int], letters: str) -> int:
    """Draw the EU band at the left of the plate; returns its width."""
    x0, y0, _, y1 = box
    band = max(12, (y1 - y0) * 11 // 20)
    c.draw.rectangle((x0 + 2, y0 + 2, x0 + band, y1 - 2), fill=EU_BLUE)
    cx, cy, r = x0 + 2 + (band - 2) // 2, y0 + (y1 - y0) // 3, max(3, band // 4)
    for i in range(12):  # the ring of stars, as dots
        a = 2 * math.pi * i / 12
        sx, sy = cx + r * math.cos(a), cy + r * math.sin(a)
        c.draw.ellipse((sx - 1, sy - 1, sx + 1, sy + 1), fill=EU_STAR)
    size = _fitted(c, letters, max(7, (y1 - y0) // 3), band - 3)
    c.draw.text((cx, y1 - 3), letters, fill=(255, 255, 255), font=font(size), anchor="mb")
    return band


def draw_plate(c: Canvas, centre: tuple[int, int], size: tuple[int, int], font_size: int,
               plate: Plate, rear: bool) -> None:
    """A plate centred at ``centre``, ``size`` = (width, height) of a European plate."""
    cx, cy = centre
    pw, ph = size
    country = plate.country
    if country == "US":
        pw, ph = int(pw * 0.62), int(pw * 0.31)
    box = (cx - pw // 2, cy - ph // 2, cx + pw // 2, cy + ph // 2)
    fill: RGB = YELLOW if (country == "GB" and rear) or country == "NL" else WHITE
    c.draw.rectangle(box, fill=fill, outline=EDGE, width=2)
    left, right = box[0], box[2]
    ink = INK
    if country in _EU_LETTERS:
        left += _eu_band(c, box, _EU_LETTERS[country])
    if country == "FR":
        band = max(12, ph * 11 // 20)
        c.draw.rectangle((right - band, box[1] + 2, right - 2, box[3] - 2), fill=EU_BLUE)
        if plate.caption:
            small = _fitted(c, plate.caption, max(7, ph // 3), band - 4)
            c.draw.text((right - band // 2 - 1, box[3] - 4), plate.caption, fill=(255, 255, 255),
                        font=font(small), anchor="mb")
        right -= band
    top, bottom = box[1], box[3]
    if country == "US":
        ink = (20, 40, 110)
        caption = plate.caption or ""
        if caption:
            small = _fitted(c, caption.upper(), max(8, ph // 5), pw - 10)
            c.draw.text((cx, top + 3), caption.upper(), fill=(150, 20, 30), font=font(small),
                        anchor="mt")
            top += ph // 4
    elif country == "IE" and plate.caption:
        small = _fitted(c, plate.caption, max(7, ph // 4), right - left - 8)
        c.draw.text(((left + right) // 2, top + 2), plate.caption, fill=INK, font=font(small),
                    anchor="mt")
        top += ph // 4
    if left == box[0] and right == box[2] and top == box[1]:
        size_px = _fitted(c, plate.text, font_size, pw - 8)
        c.draw.text((cx, cy), plate.text, fill=ink, font=font(size_px), anchor="mm")
        return
    size_px = _fitted(c, plate.text, font_size, right - left - 8)
    c.draw.text(((left + right) // 2 + 1, (top + bottom) // 2 + 1), plate.text, fill=ink,
                font=font(size_px), anchor="mm")
