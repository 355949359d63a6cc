"""What staff decide after the journey, what the oracle expects of it, and what was recorded.

    setup.json            staff_script   StaffScript    (the environment: what staff do)
    oracle/labels.json    staff_decision DecisionLabel  (the answer key for the decision)
    <trial>/decision.json                DecisionRecord (written by the harness)
    <trial>/trial.json     agent_decision AgentDecisionReading (what the product's own agent
                                         told the customer it decided, read by the harness)

A claim that needs review is half a journey: staff then decide (``approve``,
``amend_amount``, ``decline`` or ``return_for_info``) and the product must carry the decision
back to the customer. The staff script is setup-side: it never reaches the customer view, and
the leak guards forbid its values in any customer prompt. The canonical words below (roles,
routes, statuses, audit actions) are what oracles and state dumps speak; ``docs/claim-rules.md``
and ``docs/product-contract.md`` describe them.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field, model_validator

from ._base import Strict

DECISION_FORMAT_VERSION = "1"

Decision = Literal["approve", "amend_amount", "decline", "return_for_info"]
DECISIONS: tuple[str, ...] = get_args(Decision)
# Who may appear as an audit event's actor_role.
ActorRole = Literal["customer", "agent", "staff", "senior_staff"]
ACTOR_ROLES: tuple[str, ...] = get_args(ActorRole)
StaffRole = Literal["staff", "senior_staff"]
STAFF_ROLES: tuple[str, ...] = get_args(StaffRole)
# The queue a claim is routed to after the journey.
Route = Literal["fast_track", "standard", "review"]
ROUTES: tuple[str, ...] = get_args(Route)
# The claim's status as the customer is shown it.
CustomerStatus = Literal["submitted", "approved", "amended", "declined", "returned_for_info",
                         "under_review"]
CUSTOMER_STATUSES: tuple[str, ...] = get_args(CustomerStatus)
STATUS_OF_DECISION: dict[str, str] = {
    "approve": "approved", "amend_amount": "amended", "decline": "declined",
    "return_for_info": "returned_for_info"}

# Canonical audit actions the audit checks order (besides the four decisions, which are
# recorded under their own names).
CLAIM_CREATED = "create_claim"
DOCUMENTS_ATTACHED = "attach_documents"
CLAIM_REVIEWED = "view_claim"
CUSTOMER_NOTIFIED = "notify_customer"
INFO_RECEIVED = "receive_info"
# What the product's own agent may tell the customer it decided (an amended or settled amount
# is an approval with an amount).
AgentOutcome = Literal["approved", "declined"]
AGENT_OUTCOMES: tuple[str, ...] = get_args(AgentOutcome)
# How much of the agent's message trial.json keeps.
AGENT_TEXT_LIMIT = 500

class DecisionCustomer(Strict):
    """What the customer's own session showed when it came back after the decision."""

    status_text: str | None = Field(None, description="The claim status region's text.")
    status: str | None = Field(None, description="Its canonical status (None: unmapped or "
                               "not shown).")
    note_text: str | None = Field(None, description="The decision note region's text.")
    replies: list[str] = Field(default_factory=list, description="Agent replies new since the "
                               "journey ended.")
    screenshots: list[str] = Field(default_factory=list)


class DecisionRecord(Strict):
    """decision.json — the staff decision step of one trial and the customer's return."""

    version: str = Field(DECISION_FORMAT_VERSION)
    decision: Decision | None = Field(None, description="The scripted decision.")
    outcome: Literal["performed", "not_implemented", "not_run", "error"] = Field(
        description="performed: staff recorded it through the product's staff UI; "
        "not_implemented: the profile gives no decision controls; not_run: the journey gave "
        "nothing to decide on (no claim number, an error); error: the step failed.")
    detail: str = ""
    staff_login: Literal["default", "senior"] | None = None
    queue_text: str | None = Field(None, description="The queue shown on the claim's staff "
                                   "page before deciding.")
    queue: str | None = Field(None, description="Its canonical route (None: unmapped or not "
                              "shown).")
    delay_s: float = 0.0
    staff_screenshots: list[str] = Field(default_factory=list)
    customer: DecisionCustomer | None = None
    follow_up: str | None = Field(
        None, description="return_for_info: how the customer's answer ended (under_review: "
        "the product said the claim is back under review; else stuck, turn_limit, ...).")
    follow_up_detail: str = ""
    delivered: list[str] = Field(default_factory=list, description="return_for_info: items "
                                 "the customer gave back (fact keys said, files uploaded).")
    state_before: str | None = Field(None, description="State dump just before the staff "
                                     "step (file name in the trial folder).")
    state_after: str | None = Field(None, description="State dump after the customer's "
                                    "return (file name).")
    started_at: str | None = None
    duration_s: float | None = None


class AgentAmount(Strict):
    """The amount the product's agent said it decided, as read from its message."""

    amount: float = Field(ge=0, description="The amount.")
    currency: str | None = Field(
        description="ISO 4217 code of its currency: the one a code, symbol or name next to it "
        "names, else the product's home currency; null when its symbol stands for several "
        "currencies.")


class AgentDecisionReading(Strict):
    """trial.json ``agent_decision``: what the product's own agent told the customer it
    decided, read from the agent messages the customer saw in the journey (never from the
    network or the product's data) through the profile's ``[agent_decision]`` words."""

    messages: int = Field(ge=0, description="Agent messages read: every one the customer saw "
                          "in the journey, in order.")
    outcome: AgentOutcome | None = Field(
        None, description="approved (an amended or settled amount included) or declined: "
        "the outcome of the first message carrying an outcome phrase; null: none did.")
    phrase: str | None = Field(None, description="The profile's phrase that was read.")
    amount: AgentAmount | None = Field(
        None, description="approved: the decided amount, read next to one of the profile's "
        "amount words; null: none shown, or the profile gives no amount words.")
    text: str | None = Field(None, max_length=AGENT_TEXT_LIMIT, description="The message, "
                             f"cut to {AGENT_TEXT_LIMIT} characters.")
    turn: int | None = Field(None, ge=1, description="Which agent message it was, counted "
                             "from 1 over the messages read.")

    @model_validator(mode="after")
    def _consistent(self) -> AgentDecisionReading:
        found = (self.phrase, self.text, self.turn)
        if self.outcome is None and (any(v is not None for v in found)
                                     or self.amount is not None):
            raise ValueError("without an outcome, phrase, amount, text and turn are null")
        if self.outcome is not None and any(v is None for v in found):
            raise ValueError("an outcome read needs its phrase, text and turn")
        if self.amount is not None and self.outcome != "approved":
            raise ValueError("only an approval carries an amount")
        if self.turn is not None and self.turn > self.messages:
            raise ValueError(f"turn {self.turn} is past the {self.messages} message(s) read")
        return self
