"""The staff side of a profile: where it is, how to get in, how to find the claim, what to read,
and the vocabulary map from the product's words to the canonical codes of the claim rules."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Literal, get_args

from pydantic import Field, field_validator, model_validator

from claims_corpus.formats._base import Strict
from claims_records import ALL_CHECKS, REASON_CODES, CheckOutcome, TriageClass

from ._customer import SignIn
from ._decision import DecisionControls
from ._selectors import Selector
from ._staff_stores import StaffStores

REVIEW_SIGNALS: tuple[str, ...] = ("review_required", "none")
FACT_STATES: tuple[str, ...] = ("needed", "suggested", "confirmed", "unknown", "to_follow")
WAITING_KINDS: tuple[str, ...] = ("question", "contact_request")
FACT_KEY = re.compile(r"^[a-z][a-z0-9_]*$")

# Vocabulary section -> the canonical codes its words may map to (None: any fact-key shape).
CANONICAL: dict[str, tuple[str, ...] | None] = {
    "triage_class": get_args(TriageClass),
    "reasons": REASON_CODES,
    "review_signal": REVIEW_SIGNALS,
    "check_ids": ALL_CHECKS,
    "check_outcomes": get_args(CheckOutcome),
    "fact_keys": None,
    "fact_states": FACT_STATES,
    "waiting_kinds": WAITING_KINDS,
}


class StaffAccess(Strict):
    """Where the staff side is and how the harness gets in and finds the claim."""

    base_url: str = Field("", description="Staff side base URL when it is on another origin; "
                          "default: the lane's staff_base_url, else the lane's base_url.")
    sign_in: Literal["form", "header", "none"] = Field(
        "form", description="form: the [staff_sign_in] form with the seeded staff "
        "credentials; header: a token from the environment sent as an HTTP header on every "
        "staff request; none: no sign-in.")
    header: str = Field("Authorization", description="header sign-in: the header name.")
    scheme: str = Field("Bearer", description="header sign-in: prefix before the token "
                        "('' for none).")
    token_env: str = Field("", description="header sign-in: environment variable holding "
                           "the token (never stored in any record).")
    find: Literal["url", "search", "queue"] = Field(
        "url", description="url: open staff_screen.claim_path; search: type the claim number "
        "into a search box and open the result; queue: open the queue and click the row that "
        "shows the claim number.")
    queue_path: str = Field("", description="queue/search: the page to start from.")
    queue_row: Selector = Field(default_factory=list,
                                description="queue/search: each row or result (clicked).")
    search_input: Selector = Field(default_factory=list, description="search: the search box.")
    search_submit: Selector = Field(default_factory=list,
                                    description="search: the search control ('' = Enter).")
    ready: Selector = Field(default_factory=list,
                            description="Shows once a staff page has rendered (for staff "
                            "pages rendered client-side); read waits for it up to 10 s.")

    def headers(self) -> dict[str, str]:
        """The staff token header (header sign-in) from the environment; {} otherwise."""
        if self.sign_in != "header":
            return {}
        token = os.environ.get(self.token_env, "")
        return {self.header: f"{self.scheme} {token}".strip()} if token else {}

    @model_validator(mode="after")
    def _complete(self) -> StaffAccess:
        if self.sign_in == "header" and not self.token_env:
            raise ValueError("header sign-in needs token_env")
        if self.find in ("queue", "search") and not self.queue_row:
            raise ValueError(f"find = '{self.find}' needs queue_row")
        if self.find == "search" and not self.search_input:
            raise ValueError("find = 'search' needs search_input")
        return self


class StaffScreen(Strict):
    """Staff workbench regions; a region the product lacks is recorded under not_shown."""

    claim_path: str = Field("", description="Claim detail path with '{claim_number}' "
                            "(find = 'url').")
    waiting_path: str = Field("", description="The waiting list page ('' = on the claim page "
                              "or not shown).")
    triage_class: Selector = Field(
        default_factory=list, description="The triage class shown for the claim.")
    reason: Selector = Field(default_factory=list, description="Each triage reason shown.")
    urgency: Selector = Field(
        default_factory=list, description="The urgency shown (recorded, not scored).")
    review_signal: Selector = Field(
        default_factory=list, description="The review (referral) signal.")
    review_required_values: list[str] = Field(
        default_factory=lambda: ["review_required"],
        description="Shown review-signal texts meaning review required (without a vocabulary).")
    check_row: Selector = Field(
        default_factory=list, description="Each review-check row; id and outcome are read inside.")
    check_id: Selector = Field(default_factory=list, description="Inside a check row: which check.")
    check_outcome: Selector = Field(
        default_factory=list, description="Inside a check row: its outcome.")
    check_rests_on: Selector = Field(
        default_factory=list, description="Inside a check row: what the outcome rests on.")
    fact_row: Selector = Field(
        default_factory=list, description="Each fact row; key, value and state are read inside.")
    fact_key: Selector = Field(default_factory=list, description="Inside a fact row: which fact.")
    fact_value: Selector = Field(default_factory=list, description="Inside a fact row: its value.")
    fact_state: Selector = Field(
        default_factory=list, description="Inside a fact row: its state (suggested, confirmed...).")
    waiting_item: Selector = Field(
        default_factory=list, description="Each waiting-list row; kind and text are read inside.")
    waiting_kind: Selector = Field(
        default_factory=list, description="Inside a waiting-list row: question or contact request.")
    waiting_text: Selector = Field(
        default_factory=list, description="Inside a waiting-list row: the customer's words.")

    @field_validator("claim_path")
    @classmethod
    def _placeholder(cls, v: str) -> str:
        if v and "{claim_number}" not in v:
            raise ValueError("claim_path must contain '{claim_number}'")
        return v


class Vocabulary(Strict):
    """The product's words -> canonical codes, per kind. An empty table means the product shows
    the canonical codes themselves (a shown text is read by its leading code)."""

    triage_class: dict[str, str] = Field(
        default_factory=dict, description="Product words for fast_track / standard / complex.")
    reasons: dict[str, str] = Field(
        default_factory=dict, description="Product words for the reason codes.")
    review_signal: dict[str, str] = Field(
        default_factory=dict, description="Product words for review_required / none.")
    check_ids: dict[str, str] = Field(
        default_factory=dict, description="Product names of the four review checks.")
    check_outcomes: dict[str, str] = Field(
        default_factory=dict, description="Product words for the four check outcomes.")
    fact_keys: dict[str, str] = Field(
        default_factory=dict, description="Product labels of the fact keys.")
    fact_states: dict[str, str] = Field(
        default_factory=dict, description="Product words for the fact states.")
    waiting_kinds: dict[str, str] = Field(
        default_factory=dict, description="Product words for question / contact_request.")

    @model_validator(mode="after")
    def _canonical(self) -> Vocabulary:
        for section, allowed in CANONICAL.items():
            for word, code in getattr(self, section).items():
                ok = code in allowed if allowed is not None else bool(FACT_KEY.match(code))
                if not ok:
                    raise ValueError(f"{section}: {word!r} maps to {code!r}, which is not a "
                                     "canonical code of docs/claim-rules.md")
        return self


@dataclass(frozen=True)
class StaffSide:
    """The staff side of a profile in one piece: how to get in, find, read and decide on a
    claim (``Profile.staff_side``)."""

    present: bool
    """The product has a staff side (``capabilities.staff_side``)."""
    access: StaffAccess
    sign_in: SignIn | None
    screen: StaffScreen
    vocabulary: Vocabulary
    decision: DecisionControls
    waiting_list: bool
    """The staff side lists customer questions and contact requests."""
    timeout_s: float
    """The longest wait for a staff page or control (the profile's completion timeout)."""
    stores: StaffStores | None = None
    """Where the stores keep the staff-side fields (``[staff_stores]``), for a product without
    a staff screen; its waiting list is '' when the product has none."""

    @property
    def reads_stores(self) -> bool:
        """No staff screen, and the staff side is read from the stores after the journey."""
        return not self.present and self.stores is not None

    @property
    def uses_form(self) -> bool:
        """Staff sign in through a form (and the profile gives one)."""
        return self.access.sign_in == "form" and self.sign_in is not None

    @property
    def timeout_ms(self) -> float:
        return self.timeout_s * 1000
