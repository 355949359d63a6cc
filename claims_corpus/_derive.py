"""Expected review-check outcomes, derived from the claim rules and a pack's own data.

The one source of truth for what a pack's ``oracle/labels.json`` must say about the review:
the corpus checker compares the labels with it, and the corpus tests use it too. It reads the
facts (incident date, policy number), the seeded policy and prior claims, the persona's
hand-overs, and the text layer of each document the customer will supply — never the labels.

The rules (docs/claim-rules.md, "Review checks"):

- ``receipt_after_incident`` (strong): every supplied receipt (a purchase receipt or any other
  receipt, asked for or handed over unasked); hit when a receipt is dated after the incident.
- ``quote_before_incident`` (strong): every supplied repair quote; hit when dated before it.
  Invoices feed neither check.
- ``prior_claims_12m`` (weak): hit when two or more prior claims of the policy's customer are
  dated 0..365 days before the incident (the incident day counts; 366 days before does not).
- ``policy_start_30d`` (weak): hit when 0 <= incident date - policy start < 30 days.

No document of the kind: ``not_applicable``. A date on a missing page, an unreadable date, an
incident date the customer does not know, or a policy that is not found: ``not_checked``.
Several documents of a kind: any hit is a hit, else any ``not_checked``, else ``clear``.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from claims_records import CheckId, review_required_from

from . import _io
from ._check_rules import PAGE_MARK, pdf_texts
from ._loading import Pack

PHOTO_KINDS: tuple[str, ...] = ("damage_photo", "scene_photo", "item_photo")
RECEIPT_KINDS: tuple[str, ...] = ("purchase_receipt", "receipt")
QUOTE_KINDS: tuple[str, ...] = ("repair_quote",)
# Motor incident types for which the product asks for a repair quote (any home claim does).
QUOTE_TYPES: dict[str, tuple[str, ...]] = {"motor": ("collision", "vandalism", "windscreen")}
PRIOR_CLAIMS_DAYS = 365
PRIOR_CLAIMS_HITS = 2
POLICY_START_DAYS = 30

MONTHS: tuple[str, ...] = tuple(calendar.month_name)[1:]
# "<Something> date: <value>" on a document page; the standard spells the value D Month YYYY.
DATE_LINE = re.compile(r"\b([A-Za-z][A-Za-z ]{0,30}?) date:\s*([^\n]+)")
STANDARD_DATE = re.compile(r"^(\d{1,2}) (" + "|".join(MONTHS) + r") (\d{4})\b")


def requested_kinds(line: str, incident_type: object) -> dict[str, tuple[str, ...]]:
    """What the product asks for on this line and incident type, and which evidence kinds
    answer each request (docs/claim-rules.md, "Materials the product asks for")."""
    asked = {"photo": PHOTO_KINDS}
    if line == "home" or incident_type in QUOTE_TYPES.get(line, ()):
        asked["repair quote"] = QUOTE_KINDS
    if line == "contents":
        asked["receipt"] = RECEIPT_KINDS
    return asked


@dataclass(frozen=True)
class DocumentDate:
    """What the rules read from one supplied document."""

    file: str
    kind: str
    date: dt.date | None
    status: str  # read | missing_page | unreadable
    pages_total: int
    pages_present: tuple[int, ...]
    spelled: str | None = None  # the printed date when not spelled D Month YYYY

    @property
    def incomplete(self) -> bool:
        return set(self.pages_present) != set(range(1, self.pages_total + 1))


def read_document_date(file: str, kind: str, data: bytes) -> DocumentDate:
    """The printed date of a document (the first ``<X> date:`` on the pages in the file)."""
    texts = pdf_texts(data)[0] or []  # an unreadable PDF: no page, no date
    present: list[int] = []
    total = len(texts)
    date: dt.date | None = None
    spelled: str | None = None
    for text in texts:
        mark = PAGE_MARK.search(text)
        if mark:
            present.append(int(mark.group(1)))
            total = int(mark.group(2))
        found = DATE_LINE.search(text)
        if found and date is None and spelled is None:
            value = found.group(2).strip()
            m = STANDARD_DATE.match(value)
            if m is None:
                spelled = value
                continue
            try:
                date = dt.date(int(m[3]), MONTHS.index(m[2]) + 1, int(m[1]))
            except ValueError:
                spelled = value
    pages = tuple(present) if present else tuple(range(1, total + 1))
    complete = set(pages) == set(range(1, total + 1))
    status = "read" if date else ("missing_page" if not complete and spelled is None
                                  else "unreadable")
    return DocumentDate(file, kind, date, status, total, pages, spelled)


# --------------------------------------------------------------------------- the four checks


def document_outcome(docs: Iterable[DocumentDate], incident: dt.date | None,
                     is_hit: str) -> str:
    """One document check over the supplied documents of its kind.

    ``is_hit`` is ``"after"`` (receipt dated after the incident) or ``"before"`` (quote dated
    before it); the same day is never a hit.
    """
    outcomes = []
    for d in docs:
        if d.date is None or incident is None:
            outcomes.append("not_checked")
        elif (d.date > incident) if is_hit == "after" else (d.date < incident):
            outcomes.append("hit")
        else:
            outcomes.append("clear")
    if not outcomes:
        return "not_applicable"
    return "hit" if "hit" in outcomes else "not_checked" if "not_checked" in outcomes else "clear"


def prior_claims_outcome(incident: dt.date | None, policy_found: bool,
                         claim_dates: Iterable[dt.date]) -> str:
    """Two or more prior claims dated 0..365 days before the incident (counted in days)."""
    if not policy_found or incident is None:
        return "not_checked"
    recent = [d for d in claim_dates if 0 <= (incident - d).days <= PRIOR_CLAIMS_DAYS]
    return "hit" if len(recent) >= PRIOR_CLAIMS_HITS else "clear"


def policy_start_outcome(incident: dt.date | None, start: dt.date | None) -> str:
    """The incident lies 0..29 days after the policy started."""
    if start is None or incident is None:
        return "not_checked"
    return "hit" if 0 <= (incident - start).days < POLICY_START_DAYS else "clear"


# --------------------------------------------------------------------------- a whole pack


@dataclass(frozen=True)
class ExpectedReview:
    """The review outcomes a pack's labels must state, and what they rest on."""

    checks: dict[CheckId, str]
    review_required: bool
    document_incomplete: bool
    documents: tuple[DocumentDate, ...] = ()
    supplied: tuple[str, ...] = ()
    notes: dict[str, str] = field(default_factory=dict)


def _day(value: object) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def supplied_materials(pack: Pack) -> list[str]:
    """Files the customer will supply: for each request the product makes (by the rules), the
    first listed material that answers it, plus every file the persona hands over unasked;
    a later material counts only if it arrives during the journey."""
    facts = pack.facts.as_dict()
    incident_type = facts["incident_type"].value if "incident_type" in facts else None
    arrives = {m.file: m.availability == "at_start" or (m.later is not None
                                                        and m.later.arrives is not None)
               for m in pack.materials.materials}
    out: list[str] = []
    for kinds in requested_kinds(pack.labels.line, incident_type).values():
        first = next((m for m in pack.materials.materials if m.evidence_kind in kinds), None)
        if first is not None and arrives[first.file]:
            out.append(first.file)
    for h in pack.persona.hands_over:
        if arrives.get(h.file) and h.file not in out:
            out.append(h.file)
    return out


def derive_review(pack: Pack) -> ExpectedReview:
    """The four check outcomes, ``review_required`` and ``document_incomplete`` of a pack."""
    facts = pack.facts.as_dict()

    def known(key: str) -> object | None:
        f = facts.get(key)
        if f is None or (f.later is not None and f.later.arrives is None):
            return None
        return f.value

    incident = _day(known("incident_date")) if known("incident_date") else None
    kinds = {m.file: m.evidence_kind for m in pack.materials.materials}
    supplied = supplied_materials(pack)
    documents = tuple(
        read_document_date(f, kinds[f], (Path(pack.path) / _io.MATERIALS_DIR / f).read_bytes())
        for f in supplied if f.lower().endswith(".pdf"))
    policy_number = known("policy_number")
    policy = next((p for p in pack.setup.collections.get("policies", [])
                   if policy_number is not None and p.get("policy_number") == policy_number),
                  None)
    claim_dates = [] if policy is None else [
        d for c in pack.setup.collections.get("prior_claims", [])
        if c.get("customer_id") == policy.get("customer_id")
        and (d := _day(c.get("claim_date"))) is not None]
    checks: dict[CheckId, str] = {
        "receipt_after_incident": document_outcome(
            [d for d in documents if d.kind in RECEIPT_KINDS], incident, "after"),
        "quote_before_incident": document_outcome(
            [d for d in documents if d.kind in QUOTE_KINDS], incident, "before"),
        "prior_claims_12m": prior_claims_outcome(incident, policy is not None, claim_dates),
        "policy_start_30d": policy_start_outcome(
            incident, _day(policy.get("start_date")) if policy else None),
    }
    notes = {
        "incident_date": str(incident) if incident else "not known",
        "policy": str(policy.get("_id")) if policy else "not found",
        "prior_claims": ", ".join(str(d) for d in sorted(claim_dates)) or "none",
        "documents": "; ".join(f"{d.file}: {d.kind} {d.date or d.status}" for d in documents)
        or "none",
    }
    return ExpectedReview(checks=checks, review_required=review_required_from(checks),
                          document_incomplete=any(d.incomplete for d in documents),
                          documents=documents, supplied=tuple(supplied), notes=notes)
