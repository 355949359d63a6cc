"""What staff do after the journey (setup side) and what the oracle expects of the decision.

    setup.json            staff_script   StaffScript    (the environment: what staff do)
    oracle/labels.json    staff_decision DecisionLabel  (the answer key for the decision)

The decision's canonical words and the record the harness writes (``decision.json``) live in
``claims_records.decision``. The staff script is setup-side: it never reaches the customer
view, and the leak guards forbid its values in any customer prompt.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from claims_records.decision import CustomerStatus, Decision, StaffRole

from ._base import Strict
from .end_state import ExpectedEndState
from .values import Money

MAX_DELAY_S = 60.0
MIN_NOTE_CHARS = 10


class StaffScript(Strict):
    """setup.json ``staff_script``: what staff do once the journey has ended."""

    decision: Decision = Field(description="approve | amend_amount | decline | "
                               "return_for_info.")
    note: str = Field(min_length=MIN_NOTE_CHARS, max_length=2000, description="The note staff "
                      "write for the customer with the decision (at least 10 characters besides "
                      "spaces).")
    amount: Money | None = Field(None, description="amend_amount: the settled amount, with its "
                                 "currency.")
    requested: str | None = Field(
        None, description="return_for_info: the fact key or material file staff ask for. It "
        "must be a 'comes later' item of the pack that arrives only after the journey "
        "(facts: later.arrives null; materials: later.arrives null); it arrives when staff "
        "ask for it.")
    staff: Literal["default", "senior"] = Field(
        "default", description="Who decides: the pack's staff sign-in (default) or the "
        "baseline's senior staff sign-in (senior_staff_credentials).")
    delay_s: float = Field(0.0, ge=0, le=MAX_DELAY_S, description="Simulated time between the "
                           "journey and the decision, in seconds.")

    @field_validator("note")
    @classmethod
    def _note_says_something(cls, note: str) -> str:
        if len(note.strip()) < MIN_NOTE_CHARS:
            raise ValueError(f"the note must hold at least {MIN_NOTE_CHARS} characters besides "
                             f"the spaces around it (it holds {len(note.strip())})")
        return note

    @model_validator(mode="after")
    def _fits_decision(self) -> StaffScript:
        if (self.amount is None) == (self.decision == "amend_amount"):
            raise ValueError("give 'amount' exactly for amend_amount")
        if (self.requested is None) == (self.decision == "return_for_info"):
            raise ValueError("give 'requested' exactly for return_for_info")
        return self


class DecisionLabel(Strict):
    """oracle/labels.json ``staff_decision``: the answer key of the staff decision."""

    allowed_roles: list[StaffRole] = Field(
        min_length=1, description="Staff roles allowed to take the decision (an amount above "
        "the senior limit: senior_staff only).")
    customer_status: CustomerStatus = Field(
        description="The status the customer must be shown after the decision (for "
        "return_for_info: returned_for_info, and under_review once the item is given).")
    note_terms: list[str] = Field(
        default_factory=list, description="Words or phrases the customer-visible note must "
        "carry (case-insensitive).")
    note_amount: Money | None = Field(
        None, description="An amount the customer-visible note must show, with its currency.")
    requested: str | None = Field(
        None, description="return_for_info: the fact key or material file that must reach "
        "the product after the request.")
    expected_end_state: ExpectedEndState = Field(
        default_factory=ExpectedEndState, description="The state after the decision against "
        "the state just before it: documents by collection and id (or match), with the "
        "fields allowed to vary.")
