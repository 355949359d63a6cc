"""Claims staff's blind review of triage: are the rules right?

    <out>/claims.json, <out>/claims.js          BlindReviewPack   what handlers see: no
                                                                  triage, no review signal,
                                                                  no oracle
    <run-id>/blind-review/key-<export>.json     BlindReviewKey    neutral id -> trial; never
                                                                  part of the export
    a handler's saved file                      HandlerReview     one handler's decisions
    <run-id>/blind-review/agreement.json        BlindReviewAgreement  kappa, intervals and
                                                                  confusion matrices

``docs/scoring.md`` ("Blind review") describes the round trip.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from ._base import Strict
from .terms import TriageClass, known_reason_codes

BLIND_REVIEW_FORMAT_VERSION = "1"
AgreementTarget = Literal["triage_class", "review_required"]


class ConversationTurn(Strict):
    who: Literal["agent", "customer"]
    text: str


class ReviewFact(Strict):
    label: str = Field(description="The fact in plain words.")
    value: str
    state: str = Field("", description="As the product recorded it (confirmed, …).")


class ReviewMaterial(Strict):
    name: str = Field(description="File name as the customer uploaded it.")
    href: str = Field(description="Path of the copy, relative to the export folder.")
    kind: Literal["photo", "document"]


class ReviewClaim(Strict):
    """One claim as a handler would see it, under a neutral id."""

    id: str = Field(description="Neutral id; says nothing about the pack or trial.")
    line: str = Field(description="Line of business (motor / home / contents).")
    conversation: list[ConversationTurn]
    facts: list[ReviewFact] = Field(description="The facts the product collected.")
    records: list[ReviewFact] = Field(
        default_factory=list, description="What the claims system holds: policy dates, prior "
        "claims.")
    materials: list[ReviewMaterial]


class BlindReviewPack(Strict):
    """claims.json of an export: the claims in shuffled order."""

    version: str = Field(BLIND_REVIEW_FORMAT_VERSION)
    export_id: str
    created_at: str
    claims: list[ReviewClaim]


class BlindReviewKeyItem(Strict):
    pack_id: str
    trial: int = Field(ge=1)
    path: str = Field(description="Trial folder relative to the run folder.")


class BlindReviewKey(Strict):
    """key-<export>.json: which trial each neutral id stands for. Kept in the run folder."""

    version: str = Field(BLIND_REVIEW_FORMAT_VERSION)
    export_id: str
    run_id: str
    created_at: str
    seed: int = Field(description="Seed of the shuffle.")
    out: str = Field(description="Where the export was written.")
    items: dict[str, BlindReviewKeyItem]


class HandlerDecision(Strict):
    triage_class: TriageClass | None = Field(None, description="None: not decided.")
    reasons: list[str] = Field(default_factory=list, description="Reason codes chosen.")
    review_required: bool | None = Field(None, description="None: not decided.")
    note: str = ""

    @field_validator("reasons")
    @classmethod
    def _known(cls, v: list[str]) -> list[str]:
        return known_reason_codes(v)


class HandlerReview(Strict):
    """One handler's saved review of an export."""

    version: str = Field(BLIND_REVIEW_FORMAT_VERSION)
    export_id: str
    handler: str = Field(min_length=1, description="Who reviewed.")
    saved_at: str
    decisions: dict[str, HandlerDecision] = Field(description="neutral id -> decision.")


class ConfusionMatrix(Strict):
    labels: list[str]
    rows: list[list[int]] = Field(description="rows[i][j]: rater A said labels[i], rater B "
                                  "said labels[j].")


class AgreementStat(Strict):
    rater_a: str = Field(description="'handler:<name>'.")
    rater_b: str = Field(description="'product', 'oracle' or 'handler:<name>'.")
    target: AgreementTarget
    n: int = Field(description="Claims both raters decided.")
    packs: int = Field(description="Distinct packs among them (the bootstrap's clusters).")
    observed_agreement: float | None
    kappa: float | None = Field(description="Cohen's kappa; None when undefined (one label "
                                "only on both sides).")
    low: float | None = None
    high: float | None = None
    too_thin: bool
    confusion: ConfusionMatrix


class BlindReviewAgreement(Strict):
    """agreement.json — handler vs product, handler vs oracle, handler vs handler."""

    version: str = Field(BLIND_REVIEW_FORMAT_VERSION)
    export_id: str
    run_id: str
    handlers: list[str]
    claims: int
    level: float = 0.95
    seed: int
    resamples: int
    method: str = "Cohen's kappa; cluster bootstrap over packs, percentile interval"
    comparisons: list[AgreementStat]
    notes: list[str] = Field(default_factory=list)
