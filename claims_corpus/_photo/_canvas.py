"""The drawing surface every part paints on, the regions parts name, and shared strokes.

Parts draw in photo pixels. An object registers **regions** (``bumper``, ``screen``,
``pane``...) so that a damage part can be put "at" it without knowing the object: a region has
a bounding box, an optional outline (glass: cracks stop at its edge), named points (``left``,
``centre``, ``right``: where a dent or impact goes), a characteristic size for the damage and
the surface colour. ``hints`` carry exact pixel positions an object wants a damage to use.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Point = tuple[float, float]
Box = tuple[int, int, int, int]


class RecipeError(ValueError):
    """A recipe that cannot be drawn; ``field`` is the dotted path of the bad value."""

    def __init__(self, path: str, message: str) -> None:
        self.field = path
        self.reason = message
        super().__init__(f"{path}: {message}")


@dataclass
class Region:
    """A named place on the object or setting where damage can be drawn."""

    box: Box
    points: dict[str, Point]
    size: int
    outline: Sequence[Point] | None = None
    colour: RGB | None = None
    hints: dict[str, int] = field(default_factory=dict)
    fittings: list[Box] = field(default_factory=list)
    fitting_style: tuple[RGB, RGB] | None = None  # fill and edge, to redraw an intact fitting
    overdraw: Callable[[Canvas], None] | None = None  # parts of the object lying over it

    def point(self, side: str | None, default: str) -> Point:
        name = side or default
        if name not in self.points:
            return self.points[default]
        return self.points[name]


@dataclass
class Canvas:
    """One photo being drawn: the image, its seeded randomness and the regions named so far."""

    width: int
    height: int
    seed: int
    img: Image.Image = field(init=False)
    draw: ImageDraw.ImageDraw = field(init=False)
    rng: random.Random = field(init=False)
    regions: dict[str, Region] = field(default_factory=dict)
    front: list[Callable[[Canvas], None]] = field(default_factory=list)
    backdrop: Image.Image | None = None  # the setting alone, to replace a part of the object

    def __post_init__(self) -> None:
        self.img = Image.new("RGB", (self.width, self.height))
        self.draw = ImageDraw.Draw(self.img)
        self.rng = random.Random(self.seed)

    @property
    def w(self) -> int:
        return self.width

    @property
    def h(self) -> int:
        return self.height

    def fill(self, colour: RGB) -> None:
        self.draw.rectangle((0, 0, self.width, self.height), fill=colour)

    def region(self, name: str, field_path: str, what: str) -> Region:
        if name not in self.regions:
            known = ", ".join(sorted(self.regions)) or "none"
            raise RecipeError(field_path, f"{what} has no region {name!r}; regions: {known}")
        return self.regions[name]

    def restore(self, box: Box) -> None:
        """Put the setting back inside ``box`` (a part of the object is drawn anew there)."""
        if self.backdrop is not None:
            x0, y0, x1, y1 = (int(v) for v in box)
            self.img.paste(self.backdrop.crop((x0, y0, x1, y1)), (x0, y0))

    def tint(self, colour: RGB, mask: Image.Image) -> None:
        """Lay ``colour`` over the photo through a greyscale mask (soot, smoke, damp)."""
        self.img.paste(Image.new("RGB", self.img.size, colour), (0, 0), mask)
        self.draw = ImageDraw.Draw(self.img)


def rgb(text: str) -> RGB:
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


def darker(colour: RGB, by: int) -> RGB:
    return tuple(max(0, c - by) for c in colour)  # type: ignore[return-value]


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


SEVERITY_SCALE = {"minor": 0.6, "moderate": 1.0, "severe": 1.4}


def speckle(c: Canvas, box: Box, base: RGB, count: int, spread: int) -> None:
    """Light texture so flat areas look less like a diagram."""
    x0, y0, x1, y1 = box
    xs, ys = max(x0, x1 - 1), max(y0, y1 - 1)
    randint, pixels = c.rng.randint, c.img.load()
    assert pixels is not None  # an RGB image in memory always has its pixels
    width, height = c.img.size
    r, g, b = base
    # the same draws in the same order as one point at a time (the photos are pinned byte for
    # byte); a pixel written directly costs a fraction of a drawn point
    for _ in range(count):
        x, y = randint(x0, xs), randint(y0, ys)
        d = randint(-spread, spread)
        if 0 <= x < width and 0 <= y < height:
            pixels[x, y] = (max(0, min(255, r + d)), max(0, min(255, g + d)),
                            max(0, min(255, b + d)))


def cracks(draw: ImageDraw.ImageDraw, rng: random.Random, cx: int, cy: int, reach: int,
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


def cracks_within(c: Canvas, cx: int, cy: int, reach: int, arms: int, colour: RGB,
                  outline: Sequence[Point], width: int = 2) -> None:
    """Cracks drawn only inside ``outline`` (the glass), as real cracks stop at its edge."""
    layer = c.img.copy()
    cracks(ImageDraw.Draw(layer), c.rng, cx, cy, reach, arms, colour, width)
    mask = Image.new("L", c.img.size, 0)
    ImageDraw.Draw(mask).polygon(outline, fill=255)
    c.img.paste(layer, (0, 0), mask)


def side_points(y: int, xs: tuple[int, int, int]) -> dict[str, Point]:
    """``left``/``centre``/``right`` points on one line."""
    return {"left": (xs[0], y), "centre": (xs[1], y), "right": (xs[2], y)}
