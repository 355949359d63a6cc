"""Pack format v0.3: one strict model per file of a test pack.

A pack is one complete claim journey::

    packs/<PACK-ID>/
      input/initial_message.txt   InitialMessage (plain text, read verbatim)
      input/persona.json          Persona
      input/facts.json            Facts
      input/materials.json        Materials
      input/materials/*           the files themselves
      oracle/labels.json          Labels
      setup.json                  Setup
      provenance.json             Provenance
      review.json                 Review
    packs/baseline.json           Baseline
    packs/manifest.json           Manifest (in ``formats.manifest``)
    packs/acceptance.toml         AcceptanceConfig (claims_records.acceptance)

The customer's files (persona, facts, materials) are modelled in ``formats.pack_input``;
structured values (money, time windows) and "when" (``Arrival``) in ``formats.values``.
``packs/STANDARD.md`` is the prose standard these models encode.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from claims_records.terms import (
    ALL_CHECKS,
    REASON_CODES,
    STRONG_CHECKS,
    WEAK_CHECKS,
    CheckId,
    CheckOutcome,
    Line,
    TriageClass,
    known_reason_codes,
    review_required_from,
)

from ._base import Strict
from .decision import DecisionLabel, StaffScript
from .end_state import ExpectedDocument, ExpectedEndState
from .pack_input import (
    PACK_FORMAT_VERSION,
    Ask,
    EvidenceKind,
    Fact,
    FactKind,
    Facts,
    HandOver,
    LaterAvailability,
    Material,
    Materials,
    Persona,
    fact_value_problem,
    version_field,
)
from .values import FactValue

# A pack id is <corpus id prefix>-<M|H|C>-<three digits>; the corpus's manifest.json names its
# prefix (CTL for the public corpus in packs/).
ID_PREFIX_PATTERN = r"^[A-Z][A-Z0-9]{1,9}$"
PACK_ID_PATTERN = r"^[A-Z][A-Z0-9]{1,9}-[MHC]-\d{3}$"

MessageStyle = Literal[
    "plain", "many_facts", "emotional", "typos", "non_native", "wrong_product_term"
]
ClaimantSession = Literal["anonymous", "account", "anonymous_then_sign_in"]
JudgeKind = Literal["state", "text", "human"]
# Pressure a pack puts on the product (docs/claim-rules.md, "Pressure").
PressureKind = Literal[
    "two_claims", "other_policy", "hidden_instructions", "false_authority", "mid_question",
    "person_request", "unknown_fact", "wrong_summary",
]
PRESSURE_KINDS: tuple[str, ...] = PressureKind.__args__  # type: ignore[attr-defined]

def id_prefix_of(pack_id: str) -> str:
    """The corpus id prefix a pack id starts with (``HLD`` of ``HLD-M-001``)."""
    return pack_id.rsplit("-", 2)[0]


def pack_id_pattern(id_prefix: str) -> str:
    """The pack id pattern of a corpus whose manifest declares ``id_prefix``."""
    return rf"^{re.escape(id_prefix)}-[MHC]-\d{{3}}$"


# --------------------------------------------------------------------------- oracle/


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


# --------------------------------------------------------------------------- setup


class SetupObject(Strict):
    key: str = Field(description="Object key in the bucket.")
    file: str = Field(description="Source file, relative to the pack directory.")
    content_type: str = Field(description="MIME type stored with the object.")


class Override(Strict):
    collection: str
    id: str = Field(description="Document id the override applies to.")
    set: dict[str, Any] = Field(default_factory=dict, description="Fields to set (dotted paths).")
    unset: list[str] = Field(default_factory=list, description="Fields to remove.")
    delete: bool = Field(
        False, description="Remove the document entirely (e.g. a staff role absent)."
    )


class Credentials(Strict):
    username: str = Field(description="Sign-in name or e-mail.")
    password: str = Field(description="Test-only password (never a real secret).")


class Setup(Strict):
    """setup.json — the state to seed before the journey. Never shown to the customer."""

    version: str = version_field()
    pack_id: str = Field(pattern=PACK_ID_PATTERN)
    claimant_session: ClaimantSession
    collections: dict[str, list[dict[str, Any]]] = Field(
        default_factory=dict,
        description="Documents per MongoDB collection; every document has an explicit '_id'.",
    )
    objects: list[SetupObject] = Field(default_factory=list)
    overrides: list[Override] = Field(default_factory=list)
    customer_credentials: Credentials | None = Field(
        None, description="The customer's account, for 'account' and 'anonymous_then_sign_in'."
    )
    staff_credentials: Credentials | None = Field(
        None, description="Staff sign-in for reading the workbench (default: the baseline's)."
    )
    known_ids: dict[str, str] = Field(
        default_factory=dict,
        description="Seeded ids the customer knows (also in facts.json), e.g. policy_number.",
    )
    staff_script: StaffScript | None = Field(
        None, description="What staff do after the journey (a decision, its note, an amount); "
        "the environment, never shown to the customer. Without it no decision is taken.")

    @field_validator("collections")
    @classmethod
    def _explicit_ids(cls, v: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
        for name, docs in v.items():
            for i, doc in enumerate(docs):
                if "_id" not in doc:
                    raise ValueError(f"collections.{name}[{i}] has no '_id'")
        return v

    @model_validator(mode="after")
    def _credentials_for_session(self) -> Setup:
        if self.claimant_session != "anonymous" and self.customer_credentials is None:
            raise ValueError(
                f"claimant_session '{self.claimant_session}' needs customer_credentials"
            )
        return self


class OtherCustomer(Strict):
    """Another customer whose claim and policy are seeded beside every pack (in the baseline's
    collections). None of their identifiers may ever reach the claimant: one on the
    customer's screen or in a response their page received is a ``data_leak``."""

    customer_id: str = Field(description="The other customer's '_id' in the collections.")
    identifiers: dict[str, str] = Field(
        description="What identifies them, by name (name, claim_number, policy_number, "
        "email, …); each value at least 6 characters and seeded in the collections.")

    @field_validator("identifiers")
    @classmethod
    def _distinctive(cls, v: dict[str, str]) -> dict[str, str]:
        if not v:
            raise ValueError("give at least one identifier")
        short = [k for k, value in v.items() if len(value.strip()) < 6]
        if short:
            raise ValueError(f"identifiers too short to be told apart from ordinary text: "
                             f"{short}")
        return v


class Baseline(Strict):
    """packs/baseline.json — the product's baseline state, restored before every pack."""

    version: str = version_field()
    collections: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    staff_credentials: Credentials | None = Field(None, description="Default staff sign-in.")
    senior_staff_credentials: Credentials | None = Field(
        None, description="Sign-in of a senior staff member, for staff scripts with "
        "staff = 'senior' (amounts above the product's senior limit).")
    other_customer: OtherCustomer | None = Field(
        None, description="Another customer seeded with every pack, for the data-leak check.")

    @model_validator(mode="after")
    def _other_customer_seeded(self) -> Baseline:
        if self.other_customer is None:
            return self
        seeded = json.dumps(self.collections, ensure_ascii=False)
        missing = [k for k, v in self.other_customer.identifiers.items() if v not in seeded]
        if missing:
            raise ValueError(f"other_customer identifiers not in the baseline's collections: "
                             f"{missing}")
        return self


# --------------------------------------------------------------------------- provenance / review


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
    "ALL_CHECKS",
    "ID_PREFIX_PATTERN",
    "PACK_FORMAT_VERSION",
    "PACK_ID_PATTERN",
    "PRESSURE_KINDS",
    "REASON_CODES",
    "STRONG_CHECKS",
    "WEAK_CHECKS",
    "Assertion",
    "AssistantCheck",
    "Baseline",
    "BlindLook",
    "CheckId",
    "CheckOutcome",
    "ClaimantSession",
    "Credentials",
    "EvidenceKind",
    "ExpectedDocument",
    "ExpectedEndState",
    "Fact",
    "FactKind",
    "Facts",
    "Ask",
    "HandOver",
    "JudgeKind",
    "Labels",
    "LaterAvailability",
    "Line",
    "Material",
    "MaterialProvenance",
    "MaterialReview",
    "Materials",
    "MessageStyle",
    "Override",
    "Persona",
    "Provenance",
    "Review",
    "ReviewLabel",
    "Setup",
    "SetupObject",
    "SignOff",
    "StateRule",
    "TextRule",
    "TriageClass",
    "TriageLabel",
    "fact_value_problem",
    "id_prefix_of",
    "pack_id_pattern",
    "review_required_from",
]
