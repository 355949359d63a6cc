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

import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from ._base import Strict
from ._store import read_model
from .errors import RunRecordError
from .terms import TriageClass, known_reason_codes

BLIND_REVIEW_FORMAT_VERSION = "1"
BLIND_REVIEW_DIR = "blind-review"
KEPT_HANDLERS_DIR = "handlers"  # <run>/blind-review/handlers/<export>/<stem>.json
MAX_HANDLER_FILE_BYTES = 2 * 1024 * 1024
"""The largest handler file ``review import`` reads (100 claims with long notes is ~100 KB)."""
MAX_HANDLER_NAME = 120
_EXPORT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")  # one path segment, never '..'
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
    handler: str = Field(min_length=1, description="Who reviewed (kept as ``handler_name``: "
                         "Unicode NFKC, spaces collapsed).")
    saved_at: str
    decisions: dict[str, HandlerDecision] = Field(description="neutral id -> decision.")

    @field_validator("handler")
    @classmethod
    def _one_name(cls, v: str) -> str:
        return person_name(v, "a handler's name")


def person_name(text: str, what: str = "a name") -> str:
    """A person's name checked and normalised (``handler_name``) for a record: not empty, at
    most ``MAX_HANDLER_NAME`` characters, no control or format character. ``ValueError``
    names ``what`` the name is."""
    name = handler_name(text)
    if not name:
        raise ValueError(f"{what} cannot be empty or only spaces")
    if len(name) > MAX_HANDLER_NAME:
        raise ValueError(f"{what} is at most {MAX_HANDLER_NAME} characters")
    odd = next((c for c in name if unicodedata.category(c)[0] == "C"), None)
    if odd is not None:
        raise ValueError(f"{what} cannot hold the control or format character "
                         f"U+{ord(odd):04X}")
    return name


def handler_name(text: str) -> str:
    """A person's name as recorded: Unicode NFKC (full-width letters, ligatures and
    non-breaking spaces become plain ones), every run of spaces one space, none at the ends."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def handler_key(name: str) -> str:
    """Who a name stands for: names with one key (differing only in case, spacing or
    Unicode form) are one person."""
    return handler_name(name).casefold()


def handler_file_stem(name: str) -> str:
    """The name of a handler's kept file (without ``.json``): ASCII letters and digits of the
    normalised name, lower case, joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", handler_name(name).lower()).strip("-") or "handler"


def check_handler_files(files: Sequence[Path], kept_root: Path | None = None
                        ) -> list[HandlerReview]:
    """Read the handlers' files for an import, refusing before anything is written: a file
    over ``MAX_HANDLER_FILE_BYTES``, two files from one person (``handler_key``), two
    people whose kept files would share a name, and, with ``kept_root``
    (``<run>/blind-review/handlers``), a file that would replace another person's kept
    review of the same export. Errors name the file and the handler."""
    reviews: list[HandlerReview] = []
    by_key: dict[str, Path] = {}
    by_stem: dict[tuple[str, str], tuple[str, Path]] = {}
    for path in map(Path, files):
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise RunRecordError(f"cannot read {path.name}: {exc.strerror}",
                                 file=str(path)) from exc
        if size > MAX_HANDLER_FILE_BYTES:
            raise RunRecordError(f"a handler file is at most {MAX_HANDLER_FILE_BYTES} bytes; "
                                 f"this one has {size}", file=str(path))
        review = read_model(HandlerReview, path)
        if not _EXPORT_ID.fullmatch(review.export_id):
            raise RunRecordError("an export id is letters, digits, '.', '_' and '-' (as "
                                 "'br-1a2b3c4d')", file=str(path), field="export_id",
                                 value=repr(review.export_id[:60]))
        key, stem = handler_key(review.handler), handler_file_stem(review.handler)
        if key in by_key:
            raise RunRecordError("two files from one handler (names that differ only in "
                                 "case, spacing or Unicode form are one person)",
                                 file=str(path), other=str(by_key[key]),
                                 handler=repr(review.handler))
        other = by_stem.get((review.export_id, stem))
        if other is not None:
            raise RunRecordError(f"two handlers whose kept files would both be {stem}.json; "
                                 "tell them apart in the 'handler' field",
                                 file=str(path), other=str(other[1]),
                                 handler=repr(review.handler), other_handler=repr(other[0]))
        if kept_root is not None:
            kept = Path(kept_root) / review.export_id / f"{stem}.json"
            if kept.is_file():
                earlier = read_model(HandlerReview, kept)
                if handler_key(earlier.handler) != key:
                    raise RunRecordError(
                        f"would replace {earlier.handler!r}'s review kept from an earlier "
                        "import; tell them apart in the 'handler' field", file=str(path),
                        kept=str(kept), handler=repr(review.handler))
        by_key[key] = path
        by_stem[(review.export_id, stem)] = (review.handler, path)
        reviews.append(review)
    return reviews


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
