"""Staff decision controls of a profile, and where the customer sees the decision.

A product without decision controls leaves ``[decision]`` out (or gives no ``confirm``): the
decision step is skipped and the decision components are ``not_implemented``.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from claims_corpus.formats._base import Strict
from claims_records import CUSTOMER_STATUSES, ROUTES

from ._selectors import Selector


class DecisionControls(Strict):
    """[decision]: the staff UI that records a decision, on the claim's staff page (found as
    for reading it), and the customer regions that show it afterwards."""

    approve: Selector = Field(default_factory=list,
                              description="Control choosing 'approve' (clicked).")
    amend_amount: Selector = Field(default_factory=list,
                                   description="Control choosing 'amend the amount' (clicked).")
    decline: Selector = Field(default_factory=list,
                              description="Control choosing 'decline' (clicked).")
    return_for_info: Selector = Field(
        default_factory=list, description="Control choosing 'return to the customer for "
        "information' (clicked).")
    note: Selector = Field(default_factory=list,
                           description="Field for the note to the customer (filled).")
    amount: Selector = Field(default_factory=list, description="Field for the settled amount, "
                             "filled as '<amount> <currency>' (e.g. '1850 GBP').")
    confirm: Selector = Field(default_factory=list,
                              description="Control recording the decision (clicked).")
    recorded: Selector = Field(default_factory=list, description="Shows once the decision is "
                               "recorded (waited for; empty: the page after confirm is enough).")
    refused: Selector = Field(default_factory=list, description="Shows when the product "
                              "refuses the decision (its text is recorded).")
    queue: Selector = Field(default_factory=list, description="The queue the claim is in, on "
                            "its staff page (read for routing; empty: routing not_implemented).")
    queue_words: dict[str, str] = Field(
        default_factory=dict, description="Product words for the queues -> fast_track / "
        "standard / review (empty: the product shows these codes).")
    customer_status: Selector = Field(
        default_factory=list, description="Customer screen: the claim's status.")
    customer_note: Selector = Field(
        default_factory=list, description="Customer screen: the note staff wrote.")
    status_words: dict[str, str] = Field(
        default_factory=dict, description="Product words for the customer status -> "
        "submitted / approved / amended / declined / returned_for_info / under_review.")

    @model_validator(mode="after")
    def _complete(self) -> DecisionControls:
        if not self.confirm:
            return self
        missing = [k for k in ("approve", "amend_amount", "decline", "return_for_info", "note",
                               "amount", "customer_status") if not getattr(self, k)]
        if missing:
            raise ValueError(f"decision controls need {', '.join(missing)} (or leave out "
                             "confirm: the product has no decision controls)")
        for table, allowed in ((self.queue_words, ROUTES),
                               (self.status_words, CUSTOMER_STATUSES)):
            bad = {w: c for w, c in table.items() if c not in allowed}
            if bad:
                raise ValueError(f"{bad} map to no canonical code of {list(allowed)}")
        return self

    @property
    def present(self) -> bool:
        return bool(self.confirm)

    def choice(self, decision: str) -> list[str]:
        return list(getattr(self, decision))
