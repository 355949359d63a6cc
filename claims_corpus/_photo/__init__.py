"""``corpus.photo/2``: deterministic photos drawn from a scene described by parts.

The recipe (``claims_corpus.formats.scene.PhotoRecipe``) names a setting, an object, damage and
props; each part is drawn by its own module (outdoor and room settings, vehicles and plates,
household things, body/glass/home damage, props). The same recipe always makes the same bytes
(Pillow is pinned). ``subject_groups`` says what a description of the photo must mention.
"""

from __future__ import annotations

from ._canvas import RecipeError
from ._render import DAMAGE, DEFAULT_AT, MAX_JPEG_BYTES, OBJECTS, PROPS, SETTINGS, make_photo
from ._render import parse_recipe as parse_photo_recipe
from ._words import DAMAGE_WORDS, OBJECT_WORDS, SETTING_WORDS, describe, subject_groups

PHOTO_GENERATOR = "corpus.photo/2"

__all__ = [
    "DAMAGE",
    "DAMAGE_WORDS",
    "DEFAULT_AT",
    "MAX_JPEG_BYTES",
    "OBJECTS",
    "OBJECT_WORDS",
    "PHOTO_GENERATOR",
    "PROPS",
    "SETTINGS",
    "SETTING_WORDS",
    "RecipeError",
    "describe",
    "make_photo",
    "parse_photo_recipe",
    "subject_groups",
]
