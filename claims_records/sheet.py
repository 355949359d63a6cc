"""The scoring sheet of one trial, written by the scorer (``scoring``) into the trial folder.

    <run-id>/<pack-id>/trial-<n>/sheet.json   Sheet          one per trial
    <run-id>/<pack-id>/trial-<n>/human.json   HumanVerdicts  a reviewer's verdicts (optional)

with the component names, failure modes and fidelity rules a sheet may carry, and what the
run summary (``summary.py``) and the comparison (``comparison.py``) share with it: the format
version and the scorer's identity (ScorerInfo).

``docs/scoring.md`` explains every rule behind these numbers.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field, field_validator

from ._base import Strict
from ._json import JsonField
from .acceptance import CustomerWork
from .trial import StaffSource

SHEET_FORMAT_VERSION = "1"

# error_category of a trial whose record is damaged (a file missing, empty, cut short or
# unreadable): not scorable, kept out of the rates like an infrastructure error, and listed.
UNSCORABLE = "unscorable"

ComponentStatus = Literal["pass", "fail", "not_implemented", "not_scored", "queued"]

# Where a component's score was read from (docs/scoring.md, "Sources"): the staff side as the
# harness read it (StaffReading.source: its staff screen or its stores), the customer's screen
# text, the product's state, its audit log, or a human reviewer's verdicts.
ScoreSource = Literal[StaffSource, "screen_text", "state", "audit_log", "human"]
SCORE_SOURCES: tuple[str, ...] = get_args(ScoreSource)

# Component names, in the order a sheet lists them: the names of the scorer's declared
# components (scoring.components.REGISTRY), which a test keeps equal to this tuple. The floor
# keeps its own copy to validate sheet.json and overrides.json without importing the scorer.
COMPONENTS: tuple[str, ...] = (
    "triage",
    "review",
    "explanation",
    "facts",
    "incident_datetime",
    "journey",
    "waiting_list",
    "privacy",
    "state",
    "assertions_state",
    "assertions_text",
    "assertions_human",
    "agent_decision",
    "routing",
    "target",
    "decision_state",
    "note",
    "follow_through",
    "audit",
)

# Every failure-mode label a sheet may carry (docs/scoring.md defines each).
FAILURE_MODES: tuple[str, ...] = (
    "claim_not_found",
    "wrong_triage",
    "missing_reason",
    "extra_reason",
    "false_flag",
    "missed_flag",
    "innocent_flagged",
    "wrong_check_outcome",
    "false_check_hit",
    "not_checked_as_clear",
    "explanation_not_passed_on",
    "missing_fact",
    "wrong_fact",
    "unconfirmed_fact",
    "invented_fact",
    "window_collapsed",
    "window_as_unknown",
    "wrong_optional_fact",
    "no_claim_number",
    "repeated_question",
    "dead_end_reply",
    "stuck",
    "agent_stopped",
    "correction_ignored",
    "upload_not_acknowledged",
    "unrequested_handoff",
    "waiting_list_missing",
    "unasked_item",
    "data_leak",
    "state_mismatch",
    "unexpected_change",
    "assertion_failed",
    "human_rejected",
    "unmapped_term",
    "wrong_route",
    "wrong_authority",
    "missing_note",
    "no_follow_through",
    "audit_out_of_order",
    "audit_mutated",
)


# Every rule of the fidelity audit of the simulated customer (docs/scoring.md, "Fidelity").
FidelityRule = Literal[
    "invented",            # a specific value in no source the customer has
    "volunteered",         # a fact given before the agent asked for it
    "unrequested_upload",  # a file nobody asked for
    "hinting",             # steering or correcting the agent
    "out_of_character",    # talking about being a model, prompts, tests, JSON
    "premature_give_up",   # ending while the screen asked something it could answer
]
FIDELITY_RULES: tuple[str, ...] = get_args(FidelityRule)


def _known_modes(v: list[str]) -> list[str]:
    unknown = [m for m in v if m not in FAILURE_MODES]
    if unknown:
        raise ValueError(f"unknown failure modes {unknown}; known: {list(FAILURE_MODES)}")
    return v


class AppliedOverride(Strict):
    """A reviewer's override in effect on one criterion (from the run's overrides.json)."""

    mechanical: ComponentStatus = Field(description="The mechanical scorer's status, kept "
                                        "beside the reviewer's.")
    by: str = Field(description="Who overrode it.")
    at: str = Field(description="When the override was recorded (UTC).")
    why: str = Field(description="The reviewer's reason.")


class ComponentResult(Strict):
    """One scored criterion of one trial."""

    name: str = Field(description="Component name, one of COMPONENTS.")
    status: ComponentStatus = Field(
        description="pass / fail; not_implemented (the product does not show this region: "
        "shown, never counted); not_scored (infrastructure, product or simulator error); "
        "queued (waiting for a reviewer's verdict)."
    )
    explanation: str = Field(description="One line naming what differed (or what was checked).")
    failure_modes: list[str] = Field(default_factory=list, description="Failure-mode labels.")
    details: dict[str, JsonField] = Field(
        default_factory=dict, description="Machine-readable evidence behind the status."
    )
    override: AppliedOverride | None = Field(
        None, description="Set when a reviewer overrode this criterion: status is then the "
        "reviewer's value and override.mechanical the scorer's.")
    source: ScoreSource | None = Field(
        None, description="The source the pass or fail was read from: for the staff-side "
        "components the staff reading's own (staff_screen or stores), for the others the one "
        "their declaration names (screen_text, state, audit_log, human). None when the "
        "component was not scored (not_implemented, not_scored, queued) and in sheets written "
        "before it was recorded.")

    @field_validator("name")
    @classmethod
    def _known_component(cls, v: str) -> str:
        if v not in COMPONENTS:
            raise ValueError(f"unknown component {v!r}; known: {list(COMPONENTS)}")
        return v

    @field_validator("failure_modes")
    @classmethod
    def _modes(cls, v: list[str]) -> list[str]:
        return _known_modes(v)


class ScorerInfo(Strict):
    """Which scorer wrote a sheet or summary. Results of different scorers are not compared
    unless asked (``compare --allow-different-scorer``)."""

    version: str = Field(description="The harness distribution's version.")
    source_hash: str = Field(description="sha256 over the scoring package's rule sources; "
                             "any change to a rule changes it.")

    def label(self) -> str:
        return f"{self.version}+{self.source_hash[:12]}"


class TrialFacts(Strict):
    """Descriptive numbers of one trial (never decide success on their own)."""

    claim_number: str | None = None
    customer_messages: int = 0
    steps: int = 0
    repeated_questions: int = 0
    dead_end_replies: int = 0
    retries: int = 0
    duration_s: float | None = None
    median_turn_s: float | None = None
    longest_turn_s: float | None = None
    cost_usd: float | None = None
    total_tokens: int = 0
    agent_questions: int = Field(
        0, description="Question sentences in the agent's new replies (acceptance: fewer "
        "than the limit).")
    report_duration_s: float | None = Field(
        None, description="First customer message to the claim number on screen, from the "
        "journey timestamps (machine time: the simulated customer's own speed included, a "
        "paced customer's typing of the opening message too); None when no claim number was "
        "shown.")
    product_time_s: float | None = Field(
        None, description="The product's share of that span: the waits for its replies; "
        "None when no claim number was shown.")
    customer_work: CustomerWork | None = Field(
        None, description="What the customer's side of that span asks of a person (words "
        "read, characters typed, clicks, uploads), for the acceptance criteria's model of "
        "the customer's time; None when no claim number was shown.")
    customer_time_s: float | None = Field(
        None, description="The customer's side of the report in a person's time: "
        "customer_work through acceptance.toml's [report_duration.customer_time] model; None "
        "when no claim number was shown.")
    report_modelled_s: float | None = Field(
        None, description="The report's time as a person would take it, the time the report "
        "duration criterion decides on and every report shows first: product_time_s + "
        "customer_time_s; None when no claim number was shown.")
    further_contact: list[str] | None = Field(
        None, description="Why the claim needs further contact (unasked_item: a waiting-list "
        "item the customer never asked for; contact_request, handoff, no_claim_number, "
        "return_for_info); [] when it needs none; "
        "None when it cannot be told (the waiting list is not shown and nothing else says so).")


class FidelityFinding(Strict):
    """One customer message or action that broke a behaviour rule of the simulated customer."""

    rule: FidelityRule
    step: int = Field(ge=0, description="Journey step of the message or action.")
    message: str = Field(description="What the customer sent or did, as recorded.")
    evidence: str = Field(description="One line: what broke the rule.")
    value: str | None = Field(None, description="The value at fault, when there is one.")


class FidelityAudit(Strict):
    """The fidelity audit of one trial's customer: every message and action, by rule."""

    audited: bool = Field(description="False when the record or the pack's customer view "
                          "could not be read; the note says why.")
    note: str = ""
    messages: int = Field(0, description="Customer messages audited (the first is the pack's).")
    actions: int = Field(0, description="Customer actions audited (clicks, uploads, ...).")
    findings: list[FidelityFinding] = Field(default_factory=list)


class GraderEntry(Strict):
    """One aspect of the grader record: the status of its component, and why."""

    status: ComponentStatus
    explanation: str
    failure_modes: list[str] = Field(default_factory=list)

    @field_validator("failure_modes")
    @classmethod
    def _modes(cls, v: list[str]) -> list[str]:
        return _known_modes(v)


class GraderRecord(Strict):
    """The staff decision's grader record of one trial: routing, target, state, note,
    follow-through and audit, each with its status and failure modes."""

    decision: str | None = Field(description="The scripted decision.")
    routing: GraderEntry
    target: GraderEntry
    state: GraderEntry
    note: GraderEntry
    follow_through: GraderEntry
    audit: GraderEntry
    failure_modes: list[str] = Field(default_factory=list)


class Sheet(Strict):
    """sheet.json — the scoring sheet of one trial."""

    version: str = Field(SHEET_FORMAT_VERSION)
    run_id: str
    pack_id: str
    trial: int = Field(ge=1)
    path: str = Field(description="Trial folder relative to the run folder.")
    self_test: bool = Field(description="The run drove a controlled runtime on purpose.")
    trial_status: str = Field(description="TrialStatus of the trial.")
    error_category: str = Field(
        description="ErrorCategory of the trial status, or 'unscorable' when the record is "
        "damaged (see damage).")
    scorable: bool = Field(
        description="False for product, simulator and harness errors, damaged records and "
        "simulator-suspect trials.")
    damage: list[str] = Field(
        default_factory=list,
        description="What is wrong with the trial's record (file missing, empty, cut short, "
        "unreadable); non-empty exactly when error_category is 'unscorable'.")
    success: bool | None = Field(
        description="Every scorable component passed and at least one was scored; "
        "None when the trial is not scorable."
    )
    explanation: str = Field(description="One line: why the trial passed or failed.")
    line: str = Field(description="Pack line (motor / home / contents).")
    scenario: str = Field("", description="The pack's scenario kind (oracle).")
    message_style: str
    session_mode: str | None = Field(None, description="claimant_session of the pack, if known.")
    corpus: str | None = Field(None, description="Id prefix of the pack's corpus.")
    innocent_control: bool
    review_required: bool = Field(description="The oracle's review_required.")
    components: list[ComponentResult]
    failure_modes: list[str] = Field(default_factory=list)
    numbers: TrialFacts = Field(default_factory=TrialFacts)
    grader: GraderRecord | None = Field(
        None, description="The staff decision's grader record; None when the pack has no "
        "staff script.")
    human_file: str | None = Field(None, description="human.json used, relative to the trial.")
    simulator_suspect: bool = Field(
        False, description="The fidelity audit found the customer at fault: the trial is "
        "shown but kept out of the agent's rates.")
    fidelity: FidelityAudit | None = Field(None, description="The customer's fidelity audit.")
    scorer: ScorerInfo | None = Field(None, description="The scorer that wrote this sheet.")
    corpus_hash: str | None = Field(None, description="Hash of the corpus the pack's oracle "
                                    "came from.")
    mechanical_success: bool | None = Field(
        None, description="Success as the mechanical scorer decided it, before reviewer "
        "overrides; set only when an override applies to this trial.")
    oracle_hash: str | None = Field(
        None, description="Set when re-scored against packs other than the run's own "
        "(`score --packs`): the content hash of the pack the oracle was read from.")

    @field_validator("failure_modes")
    @classmethod
    def _modes(cls, v: list[str]) -> list[str]:
        return _known_modes(v)


# --------------------------------------------------------------------------- human verdicts


class HumanVerdict(Strict):
    verdict: Literal["pass", "fail"]
    reviewer: str = Field(min_length=1, description="Who judged it.")
    note: str = ""
    date: str | None = Field(None, description="ISO date or timestamp of the verdict.")


class HumanVerdicts(Strict):
    """human.json — a reviewer's verdicts on the human-judged assertions of one trial."""

    version: str = Field(SHEET_FORMAT_VERSION)
    run_id: str | None = None
    pack_id: str
    trial: int = Field(ge=1)
    verdicts: dict[str, HumanVerdict] = Field(description="assertion id -> verdict.")
