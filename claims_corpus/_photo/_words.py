"""The words a description of each part would use: what "mentions the subject" means.

A photo's subject is its object (or, without one, its setting) and each kind of damage. A
blind description mentions the subject when, for every one of these, it uses at least one of
its words (case-insensitive, as a word start: "crack" matches "cracked").
"""

from __future__ import annotations

from claims_corpus.formats.scene import PhotoRecipe

_DAMAGED = ("damage", "broken")

OBJECT_WORDS: dict[str, tuple[str, ...]] = {
    "car": ("car", "vehicle", "hatchback", "automobile", "sedan", "saloon", "suv"),
    "bicycle": ("bicycle", "bike", "cycle"),
    "television": ("television", "tv", "telly", "flat screen", "flatscreen"),
    "laptop": ("laptop", "notebook computer", "computer", "macbook", "chromebook"),
    "window": ("window", "pane", "glazing"),
    "door": ("door",),
    "roof": ("roof",),
}
SETTING_WORDS: dict[str, tuple[str, ...]] = {
    "street": ("street", "road"),
    "yard": ("yard", "wall"),
    "car_park": ("car park", "parking", "bay", "lot"),
    "country_lane": ("wall", "lane", "road"),
    "house": ("house", "home"),
    "garden": ("garden", "fence", "lawn"),
    "plain_wall": ("wall",),
    "ceiling": ("ceiling",),
    "kitchen": ("kitchen", "cooker", "hob", "stove"),
    "living_room": ("living room", "lounge", "sitting room"),
    "bedroom": ("bedroom",),
    "bathroom": ("bathroom",),
    "hallway": ("hall", "corridor"),
    "office": ("office", "study", "desk"),
}
DAMAGE_WORDS: dict[str, tuple[str, ...]] = {
    "dent": ("dent", "crumple", "pushed in", "crush", "impact", "collision", *_DAMAGED),
    "scrape": ("scrape", "scratch", "scuff", "gouge", *_DAMAGED),
    "broken_light": ("smash", "crack", "shatter", *_DAMAGED),
    "crushed_front": ("crash", "crush", "crumple", "buckle", "smash", "wreck", *_DAMAGED),
    "cracked_glass": ("crack", "chip", "shatter", *_DAMAGED),
    "broken_glass": ("smash", "shatter", "hole", "crack", *_DAMAGED),
    "cracked_screen": ("crack", "shatter", "smash", *_DAMAGED),
    "glass_on_ground": ("glass", "shard", "fragment"),
    "water_stain": ("water", "stain", "leak", "damp", "moisture", "wet"),
    "missing_tiles": ("missing", "tile", "hole", "blown", *_DAMAGED),
    "fire": ("fire", "soot", "burn", "charred", "scorch", "smoke"),
    "forced_lock": ("forced", "break-in", "splinter", "pried", "prised", "kicked", *_DAMAGED),
    "bent_wheel": ("bent", "buckle", "twisted", "warped", *_DAMAGED),
}


def subject_groups(recipe: PhotoRecipe) -> list[tuple[str, tuple[str, ...]]]:
    """(name, words) for each thing a description of the photo must mention."""
    scene = recipe.scene
    groups: list[tuple[str, tuple[str, ...]]] = []
    if scene.object is not None:
        groups.append((scene.object.kind, OBJECT_WORDS[scene.object.kind]))
    else:
        setting = scene.setting
        key: str = setting.kind
        if setting.kind == "room":
            key = "ceiling" if setting.view == "ceiling" else setting.room
        groups.append((key, SETTING_WORDS[key]))
    for damage in scene.damage:
        if all(name != damage.kind for name, _ in groups):
            groups.append((damage.kind, DAMAGE_WORDS[damage.kind]))
    return groups


def _options(part: object, skip: tuple[str, ...] = ("kind",)) -> str:
    data = {k: v for k, v in part.model_dump(exclude_none=True).items()  # type: ignore[attr-defined]
            if k not in skip}
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in data.items())


def describe(recipe: PhotoRecipe) -> list[str]:
    """The recipe in plain lines, for a reviewer: setting, object, each damage, props."""
    scene = recipe.scene
    lines = [f"setting: {scene.setting.kind.replace('_', ' ')}"
             + (f" ({_options(scene.setting)})" if _options(scene.setting) else "")]
    if scene.object is not None:
        obj = scene.object
        text = f"object: {obj.kind}"
        opts = _options(obj, ("kind", "plate"))
        if opts:
            text += f" ({opts})"
        plate = getattr(obj, "plate", None)
        if plate is not None:
            text += f", {plate.country} number plate {plate.text!r}"
            if plate.caption:
                text += f" ({plate.caption})"
        lines.append(text)
    for d in scene.damage:
        at = f" at {d.at}" if d.at else ""
        opts = _options(d, ("kind", "at"))
        lines.append(f"damage: {d.kind.replace('_', ' ')}{at}" + (f" ({opts})" if opts else ""))
    for p in scene.props:
        lines.append(f"prop: {p.kind.replace('_', ' ')}")
    return lines
