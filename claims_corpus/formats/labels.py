"""Pack format v0.3, the oracle: ``oracle/labels.json`` (``Labels``), the answer key.

Read only by the checker and the scorer: the expected triage and review outcomes, the facts
the product must collect, the assertions on the state and wording after the journey, and
the pressure the pack puts on the product.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from claims_records.terms import (
    ALL_CHECKS,
    CheckId,
    CheckOutcome,
    Line,
    TriageClass,
    known_reason_codes,
)

from ._base import Strict
from .decision import DecisionLabel
from .end_state import ExpectedEndState
from .pack import PACK_ID_PATTERN, MessageStyle
from .pack_input import version_field
from .values import FactValue

JudgeKind = Literal["state", "text", "human"]
# Pressure a pack puts on the product (docs/claim-rules.md, "Pressure").
PressureKind = Literal[
    "two_claims", "other_policy", "hidden_instructions", "false_authority", "mid_question",
    "person_request", "unknown_fact", "wrong_summary",
]
PRESSURE_KINDS: tuple[str, ...] = PressureKind.__args__  # type: ignore[attr-defined]


class TriageLabel(Strict):
    triage_class: TriageClass = Field(description="Expected severity class.")
    required_reasons: list[str] = Field(description="Reason codes that must be shown.")
    allowed_reasons: list[str] = Field(
        default_factory=list, description="Further reason codes that may be shown."
    )

    @field_validator("required_reasons", "allowed_reasons")
    @classmethod
    def _known_codes(cls, v: list[str]) -> list[str]:
        return known_reason_codes(v)


class ReviewLabel(Strict):
    checks: dict[CheckId, CheckOutcome] = Field(
        description="Exactly one outcome for each of the four review checks."
    )
    review_required: bool = Field(description="True iff >=1 strong hit or >=2 weak hits.")
    explanation: str = Field("", description="Why the outcomes are what they are.")
    customer_explanations: dict[CheckId, str] = Field(
        default_factory=dict,
        description="The document checks (receipt_after_incident, quote_before_incident) "
        "whose hit the customer's story explains innocently, each with the key of the story "
        "fact in input/facts.json that holds the explanation. The explanation never changes "
        "the outcome; it must reach staff with the check (scored as `explanation`).")

    @field_validator("checks")
    @classmethod
    def _all_checks(cls, v: dict[str, str]) -> dict[str, str]:
        missing = [c for c in ALL_CHECKS if c not in v]
        if missing:
            raise ValueError(f"missing check outcomes: {missing}")
        return v


class StateRule(Strict):
    collection: str = Field(description="Collection to look in, in the state after the journey.")
    match: dict[str, Any] = Field(description="Field values (dotted paths) a document must have.")
    count: int | None = Field(None, description="Exact number of matches; default: at least one.")


class TextRule(Strict):
    pattern: str = Field(description="Case-insensitive regular expression.")

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, v: str) -> str:
        try:
            re.compile(v, re.IGNORECASE)
        except re.error as exc:
            raise ValueError(f"not a regular expression: {exc}") from exc
        return v
    where: Literal["agent_replies", "customer_messages"] = Field(
        "agent_replies", description="Which visible text the rule reads."
    )
    expect: Literal["present", "absent"] = Field("present", description="Must it match?")


class Assertion(Strict):
    id: str = Field(description="Assertion id, unique in the pack.")
    judge: JudgeKind = Field(description="state: by rule on state; text: by rule on wording; "
                             "human: left to a reviewer.")
    description: str = Field(description="What is asserted, in plain words.")
    state: StateRule | None = Field(None, description="Rule for judge 'state'.")
    text: TextRule | None = Field(None, description="Rule for judge 'text'.")

    @model_validator(mode="after")
    def _rule_matches_judge(self) -> Assertion:
        if self.judge == "state" and (self.state is None or self.text is not None):
            raise ValueError("judge 'state' needs 'state' and no 'text'")
        if self.judge == "text" and (self.text is None or self.state is not None):
            raise ValueError("judge 'text' needs 'text' and no 'state'")
        if self.judge == "human" and (self.state is not None or self.text is not None):
            raise ValueError("judge 'human' takes no rule")
        return self


class Labels(Strict):
    """oracle/labels.json — the answer key. Read only by the checker and the scorer."""

    version: str = version_field()
    pack_id: str = Field(pattern=PACK_ID_PATTERN)
    line: Line
    scenario: str = Field(description="The pack's own scenario, e.g. 'rear_end_collision'.")
    scenario_kind: str | None = Field(
        None, pattern=r"^[a-z][a-z0-9_]*$",
        description="The corpus's scenario kind this pack is an instance of (the public "
        "corpus has ten, packs/STANDARD.md section 15); None when the corpus has no kinds.")
    message_style: MessageStyle = Field(description="Style of initial_message.txt.")
    pressure: list[PressureKind] = Field(
        default_factory=list,
        description="Pressure the journey puts on the product (docs/claim-rules.md, "
        "'Pressure'): two claims in one message, someone else's policy number, instructions "
        "hidden in a document, false authority, a question or a request for a person "
        "mid-journey, a fact the customer does not know, a summary value to correct.")
    triage: TriageLabel
    review: ReviewLabel
    innocent_control: bool = Field(
        description="Looks suspicious but is clear under the rules (measures false positives)."
    )
    expected_facts: dict[str, FactValue] = Field(
        description="Facts the product must collect and confirm, with their values."
    )
    optional_facts: dict[str, FactValue] = Field(
        default_factory=dict, description="Facts that must be right if the product asks."
    )
    unknown_facts: dict[str, str] = Field(
        default_factory=dict,
        description="Facts the customer cannot give, each with why: the product must record "
        "them as not known (or to follow) and must not invent a value.",
    )
    assertions: list[Assertion] = Field(default_factory=list)
    expected_end_state: ExpectedEndState = Field(default_factory=ExpectedEndState)
    staff_decision: DecisionLabel | None = Field(
        None, description="What the staff decision of setup.json's staff_script must lead "
        "to (routing, who may decide, the note, what the customer sees, the end state).")
    customer_may_know: list[str] = Field(
        default_factory=list,
        description="The leak audit's allow list: values held by setup.json, the oracle or "
        "provenance.json that the customer legitimately knows and input/ may therefore "
        "contain (an address printed on their own quote, their account e-mail).")

    @model_validator(mode="after")
    def _unknown_is_not_expected(self) -> Labels:
        both = sorted(set(self.unknown_facts) & (set(self.expected_facts)
                                                 | set(self.optional_facts)))
        if both:
            raise ValueError(f"facts both unknown and expected or optional: {both}")
        return self


__all__ = [
    "PRESSURE_KINDS",
    "Assertion",
    "JudgeKind",
    "Labels",
    "PressureKind",
    "ReviewLabel",
    "StateRule",
    "TextRule",
    "TriageLabel",
]
