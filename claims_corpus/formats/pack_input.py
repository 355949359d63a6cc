"""Pack format v0.3, the customer's side of a pack (``input/``): persona, facts, materials.

    input/persona.json     Persona
    input/facts.json       Facts
    input/materials.json   Materials

These are the files the customer view (``claims_corpus._view``) is built from; ``evidence_kind`` is
the only field of them the customer never sees.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from ._base import Strict
from .values import DATE_PATTERN, TIME_PATTERN, Arrival, FactValue, LaterFact, Money, TimeWindow

PACK_FORMAT_VERSION = "0.3"

FactKind = Literal["date", "time", "text", "number", "money", "yes_no", "choice"]
EvidenceKind = Literal[
    "damage_photo",
    "scene_photo",
    "item_photo",
    "repair_quote",
    "purchase_receipt",
    "receipt",
    "invoice",
    "police_report",
    "medical_note",
    "policy_document",
    "other_document",
]


def version_field() -> Any:
    return Field(PACK_FORMAT_VERSION, description="Pack format version of this file.")


class HandOver(Strict):
    """A file the customer hands over unasked (a receipt on a home claim, a tow invoice)."""

    file: str = Field(description="File name under input/materials/.")
    when: Literal["with_first_upload", "before_confirming", "after_actions"] = Field(
        description="with_first_upload: right after their first upload; before_confirming: "
        "when a summary to confirm is shown; after_actions: once they have taken "
        "'after_actions' actions."
    )
    after_actions: int | None = Field(None, ge=1, description="For when = after_actions.")

    @model_validator(mode="after")
    def _count_for_after_actions(self) -> HandOver:
        if (self.when == "after_actions") != (self.after_actions is not None):
            raise ValueError("'after_actions' is given exactly when 'when' is 'after_actions'")
        return self


class Ask(Strict):
    """Something the customer asks mid-journey, in their own words: a question the claim does
    not answer, or a request to talk to a person. A correct product puts each on the staff
    waiting list under the claim and carries on (docs/claim-rules.md, "Pressure")."""

    text: str = Field(min_length=2, max_length=1000,
                      description="What the customer types, exactly (a question ends in '?').")
    kind: Literal["question", "person"] = Field(
        description="question: a question for the insurer; person: a request to talk to a "
        "person.")
    after_messages: int = Field(
        ge=2, description="Asked in place of the next answer once the customer has typed this "
        "many messages (the opening message counts), before any summary is confirmed.")


class Persona(Strict):
    """input/persona.json — who the customer is and how they speak (customer-visible)."""

    version: str = version_field()
    name: str = Field(description="The customer's full name as they would give it.")
    personality: str = Field(description="A few sentences on temperament and attitude.")
    speaking_style: str = Field(description="How they write: register, length, quirks.")
    dont_know_phrase: str = Field(
        "I'm sorry, I don't know that.",
        description="How this customer says they do not know something, in their own voice.",
    )
    volunteers_information: bool = Field(
        False, description="True only if this person habitually offers facts nobody asked for."
    )
    correction_phrase: str = Field(
        "That's not right.",
        description="How this customer starts telling the agent that a detail shown to them is "
        "wrong, in their own voice; the correct detail follows.",
    )
    asks: list[Ask] = Field(
        default_factory=list,
        description="Questions and requests for a person the customer types mid-journey.",
    )
    hands_over: list[HandOver] = Field(
        default_factory=list,
        description="Files this customer hands over without being asked, and when.",
    )


def fact_value_problem(kind: str, value: object) -> str | None:
    """Why ``value`` is not the canonical form of a fact of ``kind``, or None.

    date: ``YYYY-MM-DD`` (a real day); time: ``HH:MM``, 24 h, or a window
    ``{earliest, latest}``; yes_no: ``"yes"`` or ``"no"``; number: a finite JSON number;
    money: ``{amount, currency}``; text and choice: non-empty text. Booleans are never a
    fact value.
    """
    if isinstance(value, bool):
        return "true/false is not a fact value; yes/no facts are written \"yes\" or \"no\""
    if kind == "money":
        return None if isinstance(value, Money) else (
            f"{value!r} is not money written {{\"amount\": ..., \"currency\": \"GBP\"}}")
    if kind == "time" and isinstance(value, TimeWindow):
        return None
    if isinstance(value, Money | TimeWindow):
        return f"{value!r} is not a {kind} value"
    if kind == "number":
        if not isinstance(value, int | float) or not math.isfinite(value):
            return f"{value!r} is not a number"
        return None
    if not isinstance(value, str) or not value.strip():
        return f"{value!r} is not text"
    if kind == "date":
        try:
            ok = re.fullmatch(DATE_PATTERN, value) and _dt.date.fromisoformat(value)
        except ValueError:
            ok = None
        return None if ok else f"{value!r} is not a calendar date written YYYY-MM-DD"
    if kind == "time":
        return None if re.fullmatch(TIME_PATTERN, value) else (
            f"{value!r} is not a 24-hour time written HH:MM")
    if kind == "yes_no" and value not in ("yes", "no"):
        return f"{value!r} is neither \"yes\" nor \"no\""
    return None


class Fact(Strict):
    """One thing the customer knows."""

    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="Stable fact key, snake_case.")
    kind: FactKind = Field(description="Value type; decides how answers are normalised.")
    value: FactValue = Field(
        description="Canonical value: dates YYYY-MM-DD; times HH:MM (24h) or a window "
        "{earliest, latest}; money {amount, currency}; yes/no 'yes' or 'no'."
    )
    say: str = Field(description="How the customer states this fact when asked, in words.")
    topic: str = Field(
        description="Plain-language subject of the fact ('when it happened', 'the car's "
        "registration'), used to recognise a question about it. Never a system code."
    )
    later: LaterFact | None = Field(
        None, description="Set when the customer does not know this yet at the start."
    )

    @model_validator(mode="after")
    def _value_fits_kind(self) -> Fact:
        problem = fact_value_problem(self.kind, self.value)
        if problem:
            raise ValueError(f"fact {self.key!r} ({self.kind}): {problem}")
        return self


class Facts(Strict):
    """input/facts.json — everything the customer knows; anything absent is unknown."""

    version: str = version_field()
    facts: list[Fact] = Field(description="The facts, in no particular order.")

    @field_validator("facts")
    @classmethod
    def _unique_keys(cls, v: list[Fact]) -> list[Fact]:
        keys = [f.key for f in v]
        dupes = sorted({k for k in keys if keys.count(k) > 1})
        if dupes:
            raise ValueError(f"duplicate fact keys: {dupes}")
        return v

    def as_dict(self) -> dict[str, Fact]:
        return {f.key: f for f in self.facts}


class LaterAvailability(Strict):
    """When a 'comes later' material becomes available to the customer."""

    describe_before: str = Field(
        description="What the customer says if asked for it before it is available."
    )
    arrives: Arrival | None = Field(
        description="When the customer has it (from then it is uploaded when asked, or handed "
        "over as the persona says); null: not during the journey."
    )


class Material(Strict):
    """One file the customer holds or will hold."""

    file: str = Field(description="File name under input/materials/.")
    evidence_kind: EvidenceKind = Field(
        description="System evidence type. NEVER shown to the customer."
    )
    label: str = Field(
        description="Plain-language name a real person would use ('the garage's quote')."
    )
    availability: Literal["at_start", "later"] = Field(
        "at_start", description="Whether the customer has the file from the start."
    )
    later: LaterAvailability | None = Field(
        None, description="Required when availability is 'later'."
    )

    @model_validator(mode="after")
    def _later_needs_details(self) -> Material:
        if (self.availability == "later") != (self.later is not None):
            raise ValueError("'later' must be given exactly when availability is 'later'")
        return self


class Materials(Strict):
    """input/materials.json — the files of the pack."""

    version: str = version_field()
    materials: list[Material] = Field(description="One entry per file in input/materials/.")
