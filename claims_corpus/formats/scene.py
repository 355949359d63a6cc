"""Photo recipes of ``corpus.photo/2``: a scene composed from named parts.

A photo's ``parameters`` in ``provenance.json`` describe the scene as data, so a pack author
adds a subject (a broken window, a bicycle, a laptop, a car on Irish plates) by combining
parts, without code::

    {"scene": {"setting": {"kind": "room", "room": "living_room"},
               "object": {"kind": "window"},
               "damage": [{"kind": "broken_glass", "at": "pane", "side": "left"}],
               "props": []},
     "width": 640, "height": 480, "seed": 7, "quality": 80}

A scene is drawn in layers: the **setting** (where the photo is taken), the **object** (the
thing photographed, with its named regions: ``bumper``, ``screen``, ``pane``...), each
**damage** on a region of the object or the setting, then the **props** in front. Every part
and option is checked here; an unknown kind or option is an error naming its field. The same
recipe always makes the same bytes. ``packs/STANDARD.md`` lists the parts with examples.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from ._base import Strict

Colour = Annotated[str, Field(pattern=r"^[0-9a-fA-F]{6}$",
                              description="Six hex digits, e.g. '2f5d8a'.")]
Side = Literal["left", "centre", "right"]
Severity = Literal["minor", "moderate", "severe"]
Fraction = Annotated[float, Field(ge=0.0, le=1.0)]
RoomName = Literal["kitchen", "living_room", "bedroom", "bathroom", "hallway", "office"]
PlateCountry = Literal["GB", "IE", "DE", "FR", "NL", "US"]

# --------------------------------------------------------------------------- settings


class Street(Strict):
    """A street: sky, a brick wall, tarmac."""

    kind: Literal["street"]
    ground: float = Field(0.80, ge=0.5, le=0.95,
                          description="Where the ground starts, as a fraction of the height.")


class Yard(Strict):
    """A yard in front of a plain rendered wall, tarmac underfoot."""

    kind: Literal["yard"]


class CarPark(Strict):
    """A car park seen from a bay: three marked bays, the middle one empty, parked cars."""

    kind: Literal["car_park"]
    bay_number: str = Field("14", pattern=r"^[A-Z0-9]{1,4}$",
                            description="Number painted in the middle bay.")


class CountryLane(Strict):
    """A country lane with a dry-stone wall."""

    kind: Literal["country_lane"]


class House(Strict):
    """The front of a house under its roof line (draw the roof as the object)."""

    kind: Literal["house"]


class Garden(Strict):
    """A back garden: a wooden fence and a lawn."""

    kind: Literal["garden"]


class PlainWall(Strict):
    """A close-up against a plain wall."""

    kind: Literal["plain_wall"]
    colour: Colour = "cdc8be"


class Room(Strict):
    """Inside a room: looking at a wall (``wall``) or up at the ceiling (``ceiling``)."""

    kind: Literal["room"]
    room: RoomName
    view: Literal["wall", "ceiling"] = "wall"


Setting = Annotated[Street | Yard | CarPark | CountryLane | House | Garden | PlainWall | Room,
                    Field(discriminator="kind")]

# --------------------------------------------------------------------------- objects


class Plate(Strict):
    """A number plate, drawn in the style of its country."""

    country: PlateCountry = Field(description="ISO 3166 code: GB, IE, DE, FR, NL or US.")
    text: str = Field(pattern=r"^[A-Z0-9](?:[A-Z0-9 -]{0,9}[A-Z0-9])?$",
                      description="The registration as printed, capitals and digits.")
    caption: str | None = Field(
        None, pattern=r"^[A-Za-z0-9][A-Za-z0-9 .'-]{0,23}$",
        description="Small print on the plate, plain letters: a US state, an Irish county "
        "('BAILE ATHA CLIATH'), a French department number.")


class Car(Strict):
    """A hatchback from the ``rear``, the ``side`` (driver's side) or the ``front``."""

    kind: Literal["car"]
    view: Literal["rear", "side", "front"]
    colour: Colour | None = Field(None, description="Body colour (default per view).")
    plate: Plate | None = Field(None, description="Number plate (rear and front views).")

    @model_validator(mode="after")
    def _plate_is_visible(self) -> Car:
        if self.view == "side" and self.plate is not None:
            raise ValueError("a side view shows no number plate; remove 'plate'")
        return self


class Bicycle(Strict):
    """A bicycle seen from the side."""

    kind: Literal["bicycle"]
    colour: Colour = "c0392b"


class Television(Strict):
    """A flat television on a low unit."""

    kind: Literal["television"]
    brand: str = Field("VISTRA", max_length=12)


class Laptop(Strict):
    """An open laptop on a table."""

    kind: Literal["laptop"]
    colour: Colour = "5a5f66"


class Window(Strict):
    """A two-pane window in a wall, the garden outside."""

    kind: Literal["window"]
    curtains: bool = True


class Door(Strict):
    """A panelled door in its frame."""

    kind: Literal["door"]
    colour: Colour = "2e5a3c"
    open: bool = Field(True, description="Ajar (dark gap at the lock side) or shut.")


class Roof(Strict):
    """A pitched tiled roof."""

    kind: Literal["roof"]


SceneObject = Annotated[Car | Bicycle | Television | Laptop | Window | Door | Roof,
                        Field(discriminator="kind")]

# --------------------------------------------------------------------------- damage


class _Damage(Strict):
    at: str | None = Field(None, description="Region of the object or setting (default: the "
                           "usual one for this damage).")
    side: Side | None = Field(None, description="Where in the region, as seen in the photo.")
    severity: Severity = "moderate"


class Dent(_Damage):
    """A pushed-in hollow with cracks and the other vehicle's paint."""

    kind: Literal["dent"]


class Scrape(_Damage):
    """Long bare-metal streaks along a panel with a shallow dent."""

    kind: Literal["scrape"]


class BrokenLight(_Damage):
    """A smashed lamp: cracks across the lens."""

    kind: Literal["broken_light"]


class CrushedFront(_Damage):
    """A front end pushed in: buckled bonnet, bumper torn off, debris on the ground."""

    kind: Literal["crushed_front"]


class CrackedGlass(_Damage):
    """A stone chip with a long crack and a star of short ones (windscreen, window pane)."""

    kind: Literal["cracked_glass"]


class BrokenGlass(_Damage):
    """A hole smashed through a pane, cracks to its edges, shards below."""

    kind: Literal["broken_glass"]


class CrackedScreen(_Damage):
    """A display broken from an impact: cracks, a dead patch, coloured lines."""

    kind: Literal["cracked_screen"]


class GlassOnGround(_Damage):
    """Broken window glass scattered on the ground."""

    kind: Literal["glass_on_ground"]
    pieces: int = Field(150, ge=10, le=600)


class WaterStain(_Damage):
    """A ceiling leak: tide-mark rings, sagging plaster, drips."""

    kind: Literal["water_stain"]


class MissingTiles(_Damage):
    """Tiles blown off a roof: battens showing, broken tiles below."""

    kind: Literal["missing_tiles"]


class Fire(_Damage):
    """Fire damage: charred fittings beside the seat of the fire, soot up the wall."""

    kind: Literal["fire"]


class ForcedLock(_Damage):
    """A door forced at the lock: splintered frame, the lock hanging loose."""

    kind: Literal["forced_lock"]


class BentWheel(_Damage):
    """A buckled bicycle wheel."""

    kind: Literal["bent_wheel"]


Damage = Annotated[Dent | Scrape | BrokenLight | CrushedFront | CrackedGlass | BrokenGlass
                   | CrackedScreen | GlassOnGround | WaterStain | MissingTiles | Fire
                   | ForcedLock | BentWheel, Field(discriminator="kind")]

# --------------------------------------------------------------------------- props


class _Prop(Strict):
    x: Fraction | None = Field(None, description="Where across the photo (default per prop).")
    y: Fraction | None = Field(None, description="Where down the photo (default per prop).")


class Bucket(_Prop):
    """A bucket catching drips (placed under the leak by default)."""

    kind: Literal["bucket"]


class BurntPan(_Prop):
    """A burnt pan (on the hob by default)."""

    kind: Literal["burnt_pan"]


class CutLock(_Prop):
    """A cut bicycle lock lying on the ground."""

    kind: Literal["cut_lock"]


Prop = Annotated[Bucket | BurntPan | CutLock, Field(discriminator="kind")]

# --------------------------------------------------------------------------- the recipe


class Scene(Strict):
    """What the photo shows, part by part."""

    setting: Setting
    object: SceneObject | None = Field(None, description="The thing photographed; none when "
                                       "the setting itself is the subject (a ceiling, a bay).")
    damage: list[Damage] = Field(default_factory=list, description="Drawn in order.")
    props: list[Prop] = Field(default_factory=list, description="Drawn last, in order.")


class PhotoRecipe(Strict):
    """``parameters`` of a material made by ``corpus.photo/2`` (in ``provenance.json``)."""

    scene: Scene
    width: int = Field(640, ge=320, le=1600)
    height: int = Field(480, ge=240, le=1200)
    seed: int = Field(0, description="Seed of the drawing's random texture and cracks.")
    quality: int = Field(80, ge=30, le=95, description="JPEG quality.")
