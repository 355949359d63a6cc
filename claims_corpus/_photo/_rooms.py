"""Settings indoors: a room seen at a wall, or looking up at its ceiling.

The wall view names ``floor`` (and, in a kitchen, ``hob`` with the wall cupboards as
fittings a fire can reach); the ceiling view names ``ceiling`` and hangs a light in front of
any damage. What stands below the ceiling depends on the room: kitchen cupboards only in a
kitchen.
"""

from __future__ import annotations

from claims_corpus.formats.scene import Room

from ._canvas import RGB, Canvas, Region, speckle

CEILING = (238, 234, 224)
CUPBOARD, CUPBOARD_EDGE = (210, 200, 170), (150, 140, 120)

# Wall and floor colours of each room, seen at a wall.
_WALL: dict[str, tuple[RGB, RGB]] = {
    "kitchen": ((226, 222, 210), (150, 140, 120)),
    "living_room": ((214, 204, 186), (150, 110, 76)),
    "bedroom": ((206, 198, 214), (120, 112, 130)),
    "bathroom": ((232, 238, 240), (170, 176, 180)),
    "hallway": ((205, 200, 190), (132, 96, 66)),
    "office": ((200, 208, 214), (96, 100, 108)),
}
# The wall below the ceiling, seen looking up.
_UPPER_WALL: dict[str, RGB] = {
    "kitchen": (196, 214, 196),
    "living_room": (214, 204, 186),
    "bedroom": (206, 198, 214),
    "bathroom": (232, 238, 240),
    "hallway": (205, 200, 190),
    "office": (200, 208, 214),
}


def _floor(c: Canvas, colour: RGB, top: int) -> None:
    c.draw.rectangle((0, top, c.w, c.h), fill=colour)
    c.regions["floor"] = Region(box=(0, top, c.w, c.h),
                                points={"left": (c.w // 4, (top + c.h) // 2),
                                        "centre": (c.w // 2, (top + c.h) // 2),
                                        "right": (3 * c.w // 4, (top + c.h) // 2)},
                                size=max(8, (c.h - top) // 2))
    c.regions["ground"] = c.regions["floor"]


def _kitchen_wall(c: Canvas) -> None:
    w, h = c.w, c.h
    worktop = int(h * 0.62)
    c.draw.rectangle((0, worktop, w, worktop + 14), fill=(90, 80, 70))
    for x0 in range(0, w, 128):  # base units
        c.draw.rectangle((x0 + 4, worktop + 18, x0 + 124, h), fill=CUPBOARD,
                         outline=CUPBOARD_EDGE, width=2)
    hob_x = int(w * 0.50)
    c.draw.rectangle((hob_x - 90, worktop + 18, hob_x + 90, h), fill=(60, 60, 64))  # cooker
    c.draw.rectangle((hob_x - 70, worktop + 50, hob_x + 70, h - 30), fill=(24, 24, 26))
    top, bottom = int(h * 0.12), int(h * 0.40)
    cupboards = [(10, top, 110, bottom), (hob_x - 215, top, hob_x - 75, bottom),
                 (hob_x + 75, top, hob_x + 215, bottom), (w - 110, top, w - 10, bottom)]
    for box in cupboards:  # wall cupboards
        c.draw.rectangle(box, fill=CUPBOARD, outline=CUPBOARD_EDGE, width=2)
    c.regions["hob"] = Region(box=(hob_x - 90, worktop - 20, hob_x + 90, worktop + 18),
                              points={"centre": (hob_x, worktop), "left": (hob_x - 40, worktop),
                                      "right": (hob_x + 40, worktop)},
                              size=int(w * 0.30), fittings=cupboards,
                              fitting_style=(CUPBOARD, CUPBOARD_EDGE))
    c.regions["floor"] = Region(box=(0, h - 10, w, h), points={"centre": (w // 2, h - 5)},
                                size=10)
    c.regions["ground"] = c.regions["floor"]


def _bathroom_tiles(c: Canvas, top: int, bottom: int) -> None:
    for y in range(top, bottom, 32):
        c.draw.line((0, y, c.w, y), fill=(200, 208, 212), width=2)
    for x in range(0, c.w, 32):
        c.draw.line((x, top, x, bottom), fill=(200, 208, 212), width=2)


def _wall_view(c: Canvas, room: str) -> None:
    wall, floor = _WALL[room]
    c.fill(wall)
    if room == "kitchen":
        _kitchen_wall(c)
        return
    floor_y = int(c.h * 0.84)
    if room == "bathroom":
        _bathroom_tiles(c, 0, floor_y)
    elif room in ("hallway", "bedroom", "office"):
        c.draw.rectangle((0, floor_y - 14, c.w, floor_y), fill=(240, 238, 232))  # skirting
    _floor(c, floor, floor_y)


def _below_ceiling(c: Canvas, room: str, wall_top: int) -> None:
    """What stands on the wall under the ceiling: it says which room this is."""
    w, h = c.w, c.h
    if room == "kitchen":
        for x0 in range(20, w, 150):  # wall cupboards
            c.draw.rectangle((x0, wall_top + 20, x0 + 130, h - 40), fill=(232, 228, 214),
                             outline=(170, 166, 150), width=2)
    elif room == "living_room":
        c.draw.rectangle((int(w * 0.10), wall_top + 30, int(w * 0.32), h - 50),
                         fill=(120, 90, 60))  # picture frame
        c.draw.rectangle((int(w * 0.12), wall_top + 40, int(w * 0.30), h - 60),
                         fill=(150, 180, 200))
        c.draw.line((int(w * 0.55), wall_top + 16, int(w * 0.95), wall_top + 16),
                    fill=(90, 70, 50), width=6)  # curtain pole
        for x0 in (int(w * 0.56), int(w * 0.86)):
            c.draw.rectangle((x0, wall_top + 18, x0 + int(w * 0.08), h), fill=(150, 60, 70))
        c.draw.rectangle((int(w * 0.64), wall_top + 24, int(w * 0.86), h), fill=(170, 200, 225))
    elif room == "bathroom":
        _bathroom_tiles(c, wall_top + 4, h)
        c.draw.rectangle((int(w * 0.60), wall_top + 30, int(w * 0.80), h - 20),
                         fill=(200, 215, 225), outline=(150, 150, 150), width=3)  # mirror
    elif room == "bedroom":
        c.draw.rectangle((int(w * 0.06), wall_top + 24, int(w * 0.40), h), fill=(236, 232, 226),
                         outline=(170, 160, 150), width=2)  # wardrobe
        c.draw.line((int(w * 0.23), wall_top + 24, int(w * 0.23), h), fill=(170, 160, 150),
                    width=2)
    elif room == "hallway":
        c.draw.rectangle((int(w * 0.40), wall_top + 40, int(w * 0.62), h),
                         fill=(240, 238, 232))  # top of a door frame
        c.draw.rectangle((int(w * 0.42), wall_top + 48, int(w * 0.60), h), fill=(150, 110, 70))
    elif room == "office":
        c.draw.rectangle((int(w * 0.10), wall_top + 60, int(w * 0.60), wall_top + 68),
                         fill=(110, 80, 50))  # shelf with books
        for i, x in enumerate(range(int(w * 0.12), int(w * 0.56), 18)):
            colour = ((150, 40, 40), (40, 80, 140), (60, 120, 60), (180, 150, 60))[i % 4]
            c.draw.rectangle((x, wall_top + 22, x + 14, wall_top + 60), fill=colour)


def _ceiling_light(c: Canvas) -> None:
    cx = int(c.w * 0.48) + 170 * c.w // 640
    cy = int(c.h * 0.18)
    c.draw.ellipse((cx - 26, cy - 14, cx + 26, cy + 14), fill=(250, 250, 240),
                   outline=(180, 180, 170))


def _ceiling_view(c: Canvas, room: str) -> None:
    w, h = c.w, c.h
    c.fill(CEILING)
    wall_top = int(h * 0.58)
    c.draw.rectangle((0, wall_top, w, h), fill=_UPPER_WALL[room])
    c.draw.line((0, wall_top, w, wall_top), fill=(200, 196, 186), width=4)  # cornice
    _below_ceiling(c, room, wall_top)
    speckle(c, (0, 0, w, wall_top), CEILING, w * 4, 6)
    c.regions["ceiling"] = Region(box=(0, 0, w, wall_top),
                                  points={"centre": (int(w * 0.48), int(h * 0.28)),
                                          "left": (int(w * 0.30), int(h * 0.28)),
                                          "right": (int(w * 0.66), int(h * 0.28))},
                                  size=40, colour=CEILING)
    c.regions["floor"] = Region(box=(0, h - 4, w, h), points={"centre": (w // 2, h - 4)}, size=4)
    c.front.append(_ceiling_light)  # the light hangs in front of any stain


def room(c: Canvas, part: Room) -> None:
    if part.view == "ceiling":
        _ceiling_view(c, part.room)
    else:
        _wall_view(c, part.room)
