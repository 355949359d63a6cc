"""Drawing a recipe: setting, object, damage, front layers, props; then JPEG bytes."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from PIL import ImageFilter
from pydantic import ValidationError

from claims_corpus.formats.scene import PhotoRecipe

from ._canvas import Canvas, RecipeError, Region
from ._damage_body import BODY_DAMAGE
from ._damage_glass import GLASS_DAMAGE
from ._damage_home import HOME_DAMAGE
from ._household import HOUSEHOLD
from ._outdoor import SETTINGS as OUTDOOR
from ._props import PROPS
from ._rooms import room
from ._vehicles import VEHICLES

MAX_JPEG_BYTES = 100_000

SETTINGS: dict[str, Callable[[Canvas, Any], None]] = {**OUTDOOR, "room": room}
OBJECTS: dict[str, Callable[[Canvas, Any], None]] = {**VEHICLES, **HOUSEHOLD}
DAMAGE: dict[str, Callable[[Canvas, Any, Region, str], None]] = {
    **BODY_DAMAGE, **GLASS_DAMAGE, **HOME_DAMAGE}
# Where a damage goes when its recipe names no region: the first of these the scene has.
DEFAULT_AT: dict[str, tuple[str, ...]] = {
    "dent": ("bumper", "door", "bonnet", "frame"),
    "scrape": ("door", "front_wing", "bumper", "frame"),
    "broken_light": ("tail_light_left", "headlight_left"),
    "crushed_front": ("bonnet",),
    "cracked_glass": ("windscreen", "pane", "rear_window", "side_window", "screen"),
    "broken_glass": ("pane", "side_window", "rear_window", "windscreen"),
    "cracked_screen": ("screen",),
    "glass_on_ground": ("bay", "ground"),
    "water_stain": ("ceiling",),
    "missing_tiles": ("roof",),
    "fire": ("hob", "floor", "ground"),
    "forced_lock": ("lock",),
    "bent_wheel": ("front_wheel", "rear_wheel"),
}


def _field_path(loc: tuple[int | str, ...], data: object, error_type: str) -> str:
    """A pydantic location as a dotted path of the recipe, without union tag names."""
    parts: list[str] = []
    node = data
    for item in loc:
        if (isinstance(node, dict) and item in node) or (
                isinstance(node, list) and isinstance(item, int) and 0 <= item < len(node)):
            node = node[item]
        elif isinstance(node, dict) and isinstance(item, str) and node.get("kind") == item:
            continue  # the tag pydantic adds for a discriminated union
        parts.append(str(item))
    if error_type.startswith("union_tag"):
        parts.append("kind")
    return ".".join(parts) or "<parameters>"


def parse_recipe(params: dict[str, Any]) -> PhotoRecipe:
    """The strict recipe, or ``RecipeError`` naming the first bad field (and how many more)."""
    try:
        return PhotoRecipe.model_validate(params)
    except ValidationError as exc:
        errors = exc.errors()
        first = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise RecipeError(_field_path(tuple(first["loc"]), params, first["type"]),
                          first["msg"] + more) from exc


def _what(recipe: PhotoRecipe) -> str:
    obj = recipe.scene.object
    if obj is None:
        return f"the {recipe.scene.setting.kind} setting"
    view = getattr(obj, "view", None)
    return f"{obj.kind} ({view} view)" if view else obj.kind


def draw_recipe(recipe: PhotoRecipe) -> Canvas:
    """Draw every layer of the scene onto a new canvas."""
    scene = recipe.scene
    c = Canvas(recipe.width, recipe.height, recipe.seed)
    SETTINGS[scene.setting.kind](c, scene.setting)
    c.backdrop = c.img.copy()
    if scene.object is not None:
        OBJECTS[scene.object.kind](c, scene.object)
    for i, damage in enumerate(scene.damage):
        field = f"scene.damage.{i}.at"
        name = damage.at or next((r for r in DEFAULT_AT[damage.kind] if r in c.regions), None)
        if name is None:
            raise RecipeError(field, f"{_what(recipe)} has no region for {damage.kind!r}; "
                              f"name one with 'at' (regions: {', '.join(sorted(c.regions))})")
        DAMAGE[damage.kind](c, damage, c.region(name, field, _what(recipe)), field)
    for layer in c.front:
        layer(c)
    for prop in scene.props:
        PROPS[prop.kind](c, prop)
    return c


def make_photo(params: dict[str, Any]) -> bytes:
    """Draw the photo a recipe describes and return JPEG bytes (at most 100 KB).

    Raises ``RecipeError`` (a ``ValueError``) naming the bad field of the recipe.
    """
    recipe = parse_recipe(params)
    img = draw_recipe(recipe).img.filter(ImageFilter.SMOOTH)
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=recipe.quality, optimize=False, progressive=False,
             subsampling=2)
    data = buf.getvalue()
    if len(data) > MAX_JPEG_BYTES:
        raise RecipeError("quality", f"photo is {len(data)} bytes, more than {MAX_JPEG_BYTES}")
    return data
