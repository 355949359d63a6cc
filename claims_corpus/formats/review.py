"""Pack format v0.3, how a pack's materials were made and checked: ``provenance.json``
(``Provenance``) and ``review.json`` (``Review``).

Neither is ever shown to the customer.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ._base import Strict
from .pack_input import version_field


class MaterialProvenance(Strict):
    file: str
    generator: str = Field(description="Generator and version that made the file.")
    parameters: dict[str, Any] = Field(default_factory=dict, description="Generator inputs.")
    purpose: str = Field(description="What the material is meant to show (answer-revealing).")
    prompt: str | None = Field(None, description="Image prompt, for model-generated images.")
    source_images: list[str] = Field(default_factory=list)
    printed_fields: dict[str, Any] = Field(
        default_factory=dict, description="Fields printed on a document (dates, totals, pages)."
    )
    pages_supplied: list[int] | None = Field(
        None, description="For documents: which pages of the original are in the file."
    )
    pages_total: int | None = Field(None, description="For documents: N in 'Page X of N'.")
    subject_words: dict[str, list[str]] | None = Field(
        None, description="For images: what a description of the image must mention, as named "
        "groups of words (one word of each group is enough). Default for a corpus.photo/2 "
        "recipe: from its parts.")


class Provenance(Strict):
    """provenance.json — how each material was made. Never shown to the customer."""

    version: str = version_field()
    materials: list[MaterialProvenance]


class AssistantCheck(Strict):
    by: str = Field(description="Which assistant or tool checked it.")
    verdict: Literal["ok", "remake"]
    notes: str = ""
    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")


class SignOff(Strict):
    """A named person looked at the image and signed it off (or asked for a remake)."""

    name: str = Field(min_length=2, description="The named person who signed the image off.")
    verdict: Literal["ok", "remake"]
    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$",
                        description="sha256 of the image signed off; a changed image voids it.")
    notes: str = ""


class BlindLook(Strict):
    """The image shown alone (no story, no purpose) to a vision model, and what it said."""

    model: str = Field(description="Vision model shown the image alone, without context.")
    endpoint_host: str | None = Field(None, description="Host of the model endpoint.")
    seen: str = Field(description="What it said it sees.")
    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="sha256 of the image shown.")
    mentions_subject: bool = Field(
        description="The description uses a word of every subject group of the image.")
    missing: list[str] = Field(
        default_factory=list, description="Subject groups the description does not mention.")


class MaterialReview(Strict):
    file: str
    assistant_check: AssistantCheck | None = None
    sign_off: SignOff | None = None
    blind_look: BlindLook | None = None


class Review(Strict):
    """review.json — checks of each material: assistant, named person, blind look."""

    version: str = version_field()
    materials: list[MaterialReview]


__all__ = [
    "AssistantCheck",
    "BlindLook",
    "MaterialProvenance",
    "MaterialReview",
    "Provenance",
    "Review",
    "SignOff",
]
