"""Where a product without a staff screen keeps its staff-side fields in its stored state
(``[staff_stores]``).

The staff side is then read from the state dump taken after the journey, in canonical terms:
the collections and fields the store layer gives back after ``[mapping]``
(``StoreSet.dump()``). The defaults are the canonical layout (docs/reference-app.md,
"Collections"), so a profile whose mapping lands everything there writes only the section's
name; a field the product's stores do not hold is given as ``''`` and is recorded under
``not_shown`` (its components ``not_implemented``), never guessed. Stored words other than the
canonical codes are read through ``[staff_vocabulary]``, as words on a staff screen are.
"""

from __future__ import annotations

import re

from pydantic import Field, model_validator

from claims_corpus.formats._base import Strict

_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")

# Staff region (StaffReading.not_shown) -> the [staff_stores] key that says where it is held.
HELD_REGIONS: dict[str, str] = {
    "triage_class": "triage_class", "reasons": "reasons", "urgency": "urgency",
    "review_signal": "review_required", "checks": "checks", "facts": "facts",
    "waiting_list": "waiting_list",
}


class StaffStores(Strict):
    """Where the staff-side fields are in the canonical state dump (dotted paths inside a
    claim document unless said otherwise; '' = the stores do not hold it)."""

    claims: str = Field("claims", description="The canonical collection holding claims.")
    claim_number: str = Field(
        "_id", description="The field of a claim holding its claim number (the journey's "
        "claim number is looked for there).")
    triage_class: str = Field("triage.class", description="The triage class.")
    reasons: str = Field("triage.reasons", description="The triage reasons (a list).")
    urgency: str = Field("triage.urgency", description="The urgency (recorded, not scored).")
    review_required: str = Field(
        "review.review_required", description="The review flag: a boolean, or a word read "
        "through staff_vocabulary.review_signal.")
    checks: str = Field(
        "review.checks", description="The review checks: check id -> {outcome, rests_on}, or "
        "check id -> outcome.")
    check_outcome: str = Field("outcome", description="Inside a check: its outcome.")
    check_rests_on: str = Field(
        "rests_on", description="Inside a check: what its outcome rests on ('' = not held).")
    facts: str = Field("facts", description="The collected facts: key -> {value, state}.")
    fact_value: str = Field("value", description="Inside a fact: its value.")
    fact_state: str = Field("state", description="Inside a fact: its state.")
    waiting_list: str = Field(
        "waiting_list", description="The canonical collection holding customers' questions "
        "and contact requests (a collection, not a field of the claim).")
    waiting_kind: str = Field("kind", description="Inside a waiting-list item: question or "
                              "contact request.")
    waiting_text: str = Field("text", description="Inside a waiting-list item: the "
                              "customer's words.")
    waiting_claim: str = Field(
        "claim_number", description="Inside a waiting-list item: the claim number it belongs "
        "to; only the journey's claim's items are read ('' = the items name no claim: every "
        "item is read, as every lane is reset before a trial).")

    @model_validator(mode="after")
    def _paths(self) -> StaffStores:
        for name in type(self).model_fields:
            value = getattr(self, name)
            if value and not _PATH.match(value):
                raise ValueError(f"{name} = {value!r} is not a dotted field path "
                                 "(name.name...)")
        for name in ("claims", "claim_number", "check_outcome", "fact_value",
                     "waiting_kind", "waiting_text"):
            if not getattr(self, name):
                raise ValueError(f"{name} may not be empty: the staff side cannot be read "
                                 "without it")
        if "." in self.claims or "." in self.waiting_list:
            raise ValueError("claims and waiting_list name collections, not dotted paths")
        return self

    def not_held(self) -> list[str]:
        """The staff regions the stores do not hold, as a reading lists them (not_shown)."""
        return [region for region, key in HELD_REGIONS.items() if not getattr(self, key)]

    def describe(self) -> str:
        """One line: where claims are found and what is not held."""
        gone = self.not_held()
        return (f"claims in {self.claims!r} by {self.claim_number!r}"
                + (f", waiting list in {self.waiting_list!r}" if self.waiting_list else "")
                + (f"; not held: {', '.join(gone)}" if gone else ""))
