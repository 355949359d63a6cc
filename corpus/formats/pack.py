"""Pack format v0.2: one strict model per file of a test pack.

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
    packs/manifest.json           Manifest
    packs/baseline.json           Baseline
    packs/acceptance.toml         AcceptanceConfig (formats.acceptance)

``packs/STANDARD.md`` is the prose standard these models encode.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from ._base import Strict

PACK_FORMAT_VERSION = "0.2"
PACK_ID_PATTERN = r"^CTL-[MHC]-\d{3}$"

Line = Literal["motor", "home", "contents"]
MessageStyle = Literal[
    "plain", "many_facts", "emotional", "typos", "non_native", "wrong_product_term"
]
ClaimantSession = Literal["anonymous", "account", "anonymous_then_sign_in"]
TriageClass = Literal["fast_track", "standard", "complex"]
CheckId = Literal[
    "receipt_after_incident", "quote_before_incident", "prior_claims_12m", "policy_start_30d"
]
CheckOutcome = Literal["hit", "clear", "not_checked", "not_applicable"]
JudgeKind = Literal["state", "text", "human"]
FactKind = Literal["date", "time", "text", "number", "money", "yes_no", "choice"]
EvidenceKind = Literal[
    "damage_photo",
    "scene_photo",
    "item_photo",
    "repair_quote",
    "purchase_receipt",
    "invoice",
    "police_report",
    "medical_note",
    "policy_document",
    "other_document",
]

STRONG_CHECKS: tuple[str, ...] = ("receipt_after_incident", "quote_before_incident")
WEAK_CHECKS: tuple[str, ...] = ("prior_claims_12m", "policy_start_30d")
ALL_CHECKS: tuple[str, ...] = STRONG_CHECKS + WEAK_CHECKS

# Reason codes a product may give for its triage class. Shared by the standard, the
# reference app's rules and the scorer; a pack may only name codes from this list.
REASON_CODES: tuple[str, ...] = (
    "minor_damage",
    "single_item",
    "vehicle_driveable",
    "vehicle_not_driveable",
    "third_party_involved",
    "third_party_unidentified",
    "injury_reported",
    "theft",
    "police_report",
    "high_value",
    "property_uninhabitable",
    "escape_of_water",
    "storm",
    "fire",
    "emergency_repair",
    "review_required",
    "document_incomplete",
)

_ID = re.compile(PACK_ID_PATTERN)


def _version_field() -> Any:
    return Field(PACK_FORMAT_VERSION, description="Pack format version of this file.")


def review_required_from(checks: dict[str, str]) -> bool:
    """The review rule: at least one strong hit, or at least two weak hits."""
    strong = sum(1 for c in STRONG_CHECKS if checks.get(c) == "hit")
    weak = sum(1 for c in WEAK_CHECKS if checks.get(c) == "hit")
    return strong >= 1 or weak >= 2


def fact_value_problem(kind: str, value: object) -> str | None:
    """Why ``value`` is not the canonical form of a fact of ``kind``, or None.

    date: ``YYYY-MM-DD`` (a real day); time: ``HH:MM``, 24 h; yes_no: ``"yes"`` or ``"no"``;
    number and money: a finite JSON number (money not negative); text and choice: non-empty
    text. Booleans are never a fact value.
    """
    if isinstance(value, bool):
        return "true/false is not a fact value; yes/no facts are written \"yes\" or \"no\""
    if kind in ("number", "money"):
        if not isinstance(value, int | float) or not math.isfinite(value):
            return f"{value!r} is not a number"
        return "money cannot be negative" if kind == "money" and value < 0 else None
    if not isinstance(value, str) or not value.strip():
        return f"{value!r} is not text"
    if kind == "date":
        try:
            ok = re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) and _dt.date.fromisoformat(value)
        except ValueError:
            ok = None
        return None if ok else f"{value!r} is not a calendar date written YYYY-MM-DD"
    if kind == "time":
        m = re.fullmatch(r"(\d{2}):(\d{2})", value)
        ok = m and int(m.group(1)) < 24 and int(m.group(2)) < 60
        return None if ok else f"{value!r} is not a 24-hour time written HH:MM"
    if kind == "yes_no" and value not in ("yes", "no"):
        return f"{value!r} is neither \"yes\" nor \"no\""
    return None


# --------------------------------------------------------------------------- input/


class Persona(Strict):
    """input/persona.json — who the customer is and how they speak (customer-visible)."""

    version: str = _version_field()
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


class Fact(Strict):
    """One thing the customer knows."""

    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="Stable fact key, snake_case.")
    kind: FactKind = Field(description="Value type; decides how answers are normalised.")
    value: str | int | float | bool = Field(
        description="Canonical value: dates YYYY-MM-DD, times HH:MM (24h), money as a number."
    )
    say: str = Field(description="How the customer states this fact when asked, in words.")
    topic: str = Field(
        description="Plain-language subject of the fact ('when it happened', 'the car's "
        "registration'), used to recognise a question about it. Never a system code."
    )

    @model_validator(mode="after")
    def _value_fits_kind(self) -> Fact:
        problem = fact_value_problem(self.kind, self.value)
        if problem:
            raise ValueError(f"fact {self.key!r} ({self.kind}): {problem}")
        return self


class Facts(Strict):
    """input/facts.json — everything the customer knows; anything absent is unknown."""

    version: str = _version_field()
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
    available_after_messages: int = Field(
        ge=1,
        description="The material becomes available once the customer has sent this many "
        "messages; from then it is uploaded when asked.",
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

    version: str = _version_field()
    materials: list[Material] = Field(description="One entry per file in input/materials/.")


# --------------------------------------------------------------------------- oracle/


def known_reason_codes(v: list[str]) -> list[str]:
    """Validator: every code is one of REASON_CODES."""
    unknown = [c for c in v if c not in REASON_CODES]
    if unknown:
        raise ValueError(f"unknown reason codes {unknown}; known: {list(REASON_CODES)}")
    return v


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


class ExpectedDocument(Strict):
    collection: str = Field(description="MongoDB collection.")
    id: str | None = Field(None, description="The document id, for documents seeded by setup.")
    match: dict[str, Any] | None = Field(
        None, description="Selector for documents the journey creates (their id is unknown)."
    )
    change: Literal["added", "changed", "unchanged", "removed"] = Field(
        description="What the journey must have done to this document."
    )
    fields: dict[str, Any] = Field(
        default_factory=dict, description="Expected field values (dotted paths) after the journey."
    )
    vary: list[str] = Field(
        default_factory=list, description="Fields allowed to differ (timestamps, note bodies)."
    )

    @model_validator(mode="after")
    def _id_or_match(self) -> ExpectedDocument:
        if (self.id is None) == (self.match is None):
            raise ValueError("give exactly one of 'id' or 'match'")
        return self


class ExpectedEndState(Strict):
    documents: list[ExpectedDocument] = Field(default_factory=list)
    allow_other_changes_in: list[str] = Field(
        default_factory=list,
        description="Collections where changes not listed above are allowed (messages, audit).",
    )


class Labels(Strict):
    """oracle/labels.json — the answer key. Read only by the checker and the scorer."""

    version: str = _version_field()
    pack_id: str = Field(pattern=PACK_ID_PATTERN)
    line: Line
    scenario: str = Field(description="Scenario kind, e.g. 'rear_end_collision'.")
    message_style: MessageStyle = Field(description="Style of initial_message.txt.")
    triage: TriageLabel
    review: ReviewLabel
    innocent_control: bool = Field(
        description="Looks suspicious but is clear under the rules (measures false positives)."
    )
    expected_facts: dict[str, str | int | float | bool] = Field(
        description="Facts the product must collect and confirm, with their values."
    )
    optional_facts: dict[str, str | int | float | bool] = Field(
        default_factory=dict, description="Facts that must be right if the product asks."
    )
    assertions: list[Assertion] = Field(default_factory=list)
    expected_end_state: ExpectedEndState = Field(default_factory=ExpectedEndState)
    customer_may_know: list[str] = Field(
        default_factory=list,
        description="The leak audit's allow list: values held by setup.json, the oracle or "
        "provenance.json that the customer legitimately knows and input/ may therefore "
        "contain (an address printed on their own quote, their account e-mail).")


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

    version: str = _version_field()
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

    version: str = _version_field()
    collections: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    staff_credentials: Credentials | None = Field(None, description="Default staff sign-in.")
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

    version: str = _version_field()
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

    version: str = _version_field()
    materials: list[MaterialReview]


# --------------------------------------------------------------------------- manifest


class ManifestPack(Strict):
    hash: str = Field(description="sha256 over the pack's files (path + bytes), sorted by path.")
    line: Line
    scenario: str
    message_style: MessageStyle
    claimant_session: ClaimantSession
    review_required: bool
    innocent_control: bool
    has_later_material: bool = False
    has_not_checked: bool = False
    files: dict[str, str] = Field(
        default_factory=dict,
        description="sha256 of each file, keyed by its path in the pack; names what changed.",
    )


class ChangelogEntry(Strict):
    version: str
    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    changes: list[str]


class Manifest(Strict):
    """packs/manifest.json — corpus version, frozen flag, per-pack hashes, changelog."""

    version: str = _version_field()
    corpus_version: str = Field(description="Version of the corpus content, e.g. '0.2.0'.")
    frozen: bool = Field(False, description="A frozen corpus never changes answers or files.")
    hashes_version: str | None = Field(
        None, description="corpus_version at which the pack hashes were last recorded."
    )
    packs: dict[str, ManifestPack] = Field(default_factory=dict)
    changelog: list[ChangelogEntry] = Field(default_factory=list)

    @field_validator("packs")
    @classmethod
    def _pack_ids(cls, v: dict[str, ManifestPack]) -> dict[str, ManifestPack]:
        bad = [k for k in v if not _ID.match(k)]
        if bad:
            raise ValueError(f"bad pack ids: {bad}")
        return v
