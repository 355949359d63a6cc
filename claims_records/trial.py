"""One trial's record formats (ARCHITECTURE §8): what a trial folder of a run holds, written
by the harness and read by the scorer.

    <run-id>/<pack-id>/trial-<n>/journey.jsonl        JourneyEvent per line
    <run-id>/<pack-id>/trial-<n>/customer-model.jsonl CustomerModelCall per line
    <run-id>/<pack-id>/trial-<n>/staff.json           StaffReading
    <run-id>/<pack-id>/trial-<n>/trial.json           TrialResult
    <run-id>/<pack-id>/trial-<n>/state-before.json    StateDump (state.py)
    <run-id>/<pack-id>/trial-<n>/state-after.json     StateDump

A trial's status, stop reason and token usage are the run record's (``run.py``), which lists
every trial with them.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ._base import Strict
from ._json import JsonField
from .decision import AgentDecisionReading
from .run import (
    RUN_FORMAT_VERSION,
    NewConversationWay,
    SimulatorErrorKind,
    StopReason,
    TokenUsage,
    TrialStatus,
)


class ScreenReading(Strict):
    """What the customer could see, as visible text per screen region."""

    latest_reply: str = ""
    chips: list[str] = Field(default_factory=list)
    todo: str = ""
    sidebar: str = ""
    dialogs: list[str] = Field(default_factory=list)
    cards: list[str] = Field(default_factory=list, description="Cards needing action.")
    facts_panel: str = ""
    upload_error: str = ""
    sign_in_prompt: bool = False
    claim_number: str | None = None
    buttons: list[str] = Field(default_factory=list, description="Other visible action buttons.")


class CustomerAction(Strict):
    """The customer's next action, strictly parsed."""

    kind: Literal["say", "click", "upload", "sign_in", "done"]
    text: str | None = Field(
        None, description="Text to type ('say'; optional last words on 'done')."
    )
    label: str | None = Field(None, description="Visible label to click ('click').")
    file: str | None = Field(None, description="Material file name ('upload').")
    reason: str | None = Field(None, description="Why the customer ended ('done').")
    corrects: list[str] = Field(
        default_factory=list,
        description="Details shown to the customer that this action says are wrong, by their "
        "label on screen: on 'say' a correction; on 'done' what was still wrong when the "
        "customer gave up.",
    )

    def describe(self) -> str:
        """What the customer did, in one line: the message it typed, else the action in
        brackets ("[clicked: Yes]", "[uploaded: quote.pdf]", "[signed in]", "[ended: ...]")."""
        if self.kind == "say":
            return self.text or ""
        if self.kind == "click":
            return f"[clicked: {self.label}]"
        if self.kind == "upload":
            return f"[uploaded: {self.file}]"
        if self.kind == "sign_in":
            return "[signed in]"
        last = f"{self.text} " if self.text else ""
        return f"{last}[ended: {self.reason or 'no reason given'}]"


class Timings(Strict):
    reply_wait_s: float | None = Field(None, description="Waiting for the product's reply.")
    customer_s: float | None = Field(None, description="Customer deciding (model or script); "
                                     "on the opening message, a paced customer's typing.")
    action_s: float | None = Field(None, description="Performing the action in the browser.")


class JourneyEvent(Strict):
    """One line of journey.jsonl: one step of the loop."""

    version: str = Field(RUN_FORMAT_VERSION)
    step: int = Field(ge=0)
    ts: str
    screen: ScreenReading | None = None
    action: CustomerAction | None = None
    timings: Timings = Field(default_factory=Timings)
    screenshot: str | None = Field(None, description="Path relative to the trial folder.")
    product_event: str | None = Field(
        None, description="Something the product did wrong at this step, seen on screen "
        "(e.g. upload_not_acknowledged) — never the customer's doing.")
    note: str = ""


class CustomerModelCall(Strict):
    """One line of customer-model.jsonl."""

    version: str = Field(RUN_FORMAT_VERSION)
    step: int
    attempt: int = Field(ge=1, description="1, then one more for each re-ask after an "
                         "unusable answer (transport retries are in http_statuses).")
    ts: str
    request: dict[str, JsonField] = Field(
        description="Request body sent (messages, model, params).")
    reply: str | None = Field(None, description="Raw reply text.")
    action: CustomerAction | None = None
    error: str | None = Field(None, description="What went wrong; never holds the API key.")
    error_kind: SimulatorErrorKind | None = None
    status_code: int | None = Field(None, description="HTTP status of the last attempt.")
    http_statuses: list[int | None] = Field(
        default_factory=list, description="One per HTTP attempt the client made for this "
        "call, retries included; null when no answer came (timeout, connection).")
    response_format: str | None = Field(None, description="Structured-output mode used.")
    usage: TokenUsage = Field(default_factory=TokenUsage)
    cost_usd: float | None = None
    latency_s: float | None = None
    prompt_hash: str | None = Field(
        None, description="sha256 (hex) of the canonical JSON of what decides the answer: "
        "the request's messages, model and sampling parameters, without its structured-output "
        "fields (response_format, guided_json, format). A replay (`run --replay`) finds the "
        "answer by it. Absent in records written before it was kept.")
    replayed: bool = Field(
        False, description="The call was answered from the recording of the run that "
        "run.json's options.replay names, not by an endpoint: no request was sent, usage and "
        "cost are zero, and 'request' holds the recorded request's structured-output fields.")


class StaffCheck(Strict):
    outcome: str = Field(description="Outcome as shown (hit / clear / not_checked / ...).")
    rests_on: str = ""


class StaffFact(Strict):
    value: str
    state: str = Field(description="State as shown (needed / suggested / confirmed).")


class StaffWaitingItem(Strict):
    kind: str = Field(description="question / contact_request / ...")
    text: str


# Where the staff-side fields of staff.json were read (docs/scoring.md, "Sources").
StaffSource = Literal["staff_screen", "stores"]


class StaffReading(Strict):
    """staff.json — what the staff workbench showed after the journey.

    A region the product does not show is listed in ``not_shown`` (scored as
    not_implemented), never filled with a guess.
    """

    version: str = Field(RUN_FORMAT_VERSION)
    source: StaffSource = Field(
        "staff_screen", description="Where these staff-side fields were read: staff_screen "
        "(the product's staff pages, through the profile's selectors and vocabulary) or "
        "stores (the product's stored state, for a product without a staff screen whose "
        "profile maps the staff fields to its stores). Each scoring component declares the "
        "sources it may be scored from; a reading from another is scored not_implemented. "
        "Absent in readings recorded before it was kept: staff_screen.")
    claim_number: str | None = None
    found: bool = False
    triage_class: str | None = None
    reasons: list[str] = Field(default_factory=list)
    urgency: str | None = None
    review_required: bool | None = None
    checks: dict[str, StaffCheck] = Field(default_factory=dict)
    facts: dict[str, StaffFact] = Field(default_factory=dict)
    waiting_list: list[StaffWaitingItem] = Field(default_factory=list)
    not_shown: list[str] = Field(default_factory=list)
    available: bool = Field(True, description="The product has a staff side (profile).")
    unmapped: dict[str, list[str]] = Field(
        default_factory=dict, description="Shown words the profile's vocabulary does not map, "
        "per kind (triage_class, reasons, ...); a component cannot pass on them.")
    screenshots: list[str] = Field(default_factory=list)
    error: str | None = None


class NewConversationInfo(Strict):
    """The step that started a new conversation before the trial (a product holding one
    conversation for its whole process)."""

    by: NewConversationWay = Field(description="url (opened in the customer's browser), "
                                   "control (clicked on the start page) or restart (the "
                                   "product restarted by a command).")
    took_ms: float = Field(description="How long the step took (a restart: until the product "
                           "answered as ready).")
    ok: bool = Field(description="The step did what it should; false: the trial did not run "
                     "(a product error).")
    fresh: bool | None = Field(None, description="The journey's first screen showed no "
                               "customer message of an earlier conversation; null: not "
                               "looked at (the step failed).")
    detail: str = Field("", description="What the step did, or why it failed.")


class ResetInfo(Strict):
    adapter: str = Field(description="seed_route | endpoint | stores | endpoint+stores | "
                         "command+stores | none.")
    took_ms: float | None = None
    verified: bool | None = Field(None, description="State after reset equals baseline + "
                                  "setup; null when the adapter cannot tell.")


class TrialResult(Strict):
    """trial.json — the trial's own summary, written last and atomically."""

    version: str = Field(RUN_FORMAT_VERSION)
    pack_id: str
    trial: int
    lane: str | None = None
    status: TrialStatus
    stop_reason: StopReason | None = None
    detail: str = ""
    simulator_error_kind: SimulatorErrorKind | None = Field(
        None, description="The customer model's failure, for a simulator_error.")
    attempt: int = Field(1, ge=1, description="Which attempt of the trial this folder holds: "
                         "more than 1 after infrastructure errors were run again "
                         "(--retry-infra); the earlier ones are in <folder>.attempt-<k>.")
    self_test: bool = False
    claim_number: str | None = None
    customer_messages: int = 0
    steps: int = 0
    started_at: str
    ended_at: str
    duration_s: float
    turn_times_s: list[float] = Field(default_factory=list, description="Reply wait per turn.")
    retries: int = Field(0, description="Customer-model retries plus browser action retries.")
    product_events: list[str] = Field(
        default_factory=list, description="Product-side events seen on screen "
        "(upload_not_acknowledged, ...).")
    reset: ResetInfo | None = None
    new_conversation: NewConversationInfo | None = Field(
        None, description="The new-conversation step run before the journey, when the product "
        "needs one.")
    agent_decision: AgentDecisionReading | None = Field(
        None, description="What the product's own agent told the customer it decided, read "
        "from the agent messages of the journey through the profile's [agent_decision] "
        "words; null: not read (the profile gives no such words, or the trial ran none).")
    cost_usd: float | None = None
    tokens: TokenUsage = Field(default_factory=TokenUsage)
