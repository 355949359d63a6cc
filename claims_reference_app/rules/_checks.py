"""The four review checks, each with what its outcome rests on, and the review rule."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from .._documents import DocumentReading


@dataclass(frozen=True)
class CheckResult:
    """One review check's outcome and what it rests on."""

    check_id: str
    outcome: str  # hit | clear | not_checked | not_applicable
    rests_on: str


@dataclass
class SuppliedDocument:
    """A document the customer supplied, with its file name and what was read from it."""

    file: str
    reading: DocumentReading


STRONG = ("receipt_after_incident", "quote_before_incident")
# A document is what its title says, whoever asked for it (docs/claim-rules.md).
RECEIPT_KINDS = ("purchase_receipt", "receipt")
QUOTE_KINDS = ("repair_quote",)
# Documents whose total counts for high_value.
TOTAL_KINDS = ("repair_quote", "invoice")
WEAK = ("prior_claims_12m", "policy_start_30d")


def _document_check(
    check_id: str,
    kinds: tuple[str, ...],
    noun: str,
    docs: list[SuppliedDocument],
    incident_date: str | None,
    is_hit,
) -> CheckResult:
    relevant = [d for d in docs if d.reading.kind in kinds]
    if not relevant:
        return CheckResult(check_id, "not_applicable", f"no {noun} supplied")
    notes: list[str] = []
    outcomes: list[str] = []
    for d in relevant:
        r = d.reading
        if r.date_status == "missing_page":
            outcomes.append("not_checked")
            notes.append(
                f"{d.file}: no {noun} date on the supplied pages "
                f"{r.pages_supplied} of {r.pages_total}; the date sits on a missing page"
            )
        elif r.date_status == "unreadable" or not incident_date or r.date is None:
            outcomes.append("not_checked")
            why = "the document date could not be read" if not r.date else "incident date not known"
            notes.append(f"{d.file}: {why}")
        else:
            hit = is_hit(date.fromisoformat(r.date), date.fromisoformat(incident_date))
            outcomes.append("hit" if hit else "clear")
            notes.append(
                f"{d.file}: {r.date_label or 'date'} {r.date} vs incident date {incident_date}"
            )
    outcome = (
        "hit" if "hit" in outcomes else "not_checked" if "not_checked" in outcomes else "clear"
    )
    return CheckResult(check_id, outcome, "; ".join(notes))


def check_receipt_after_incident(
    docs: list[SuppliedDocument], incident_date: str | None
) -> CheckResult:
    """Strong: a receipt (any, asked for or not) dated after the incident is a hit (same day
    is clear)."""
    return _document_check(
        "receipt_after_incident",
        RECEIPT_KINDS,
        "receipt",
        docs,
        incident_date,
        lambda doc, inc: doc > inc,
    )


def check_quote_before_incident(
    docs: list[SuppliedDocument], incident_date: str | None
) -> CheckResult:
    """Strong: a repair quote dated before the incident is a hit (same day or later is clear)."""
    return _document_check(
        "quote_before_incident",
        QUOTE_KINDS,
        "repair quote",
        docs,
        incident_date,
        lambda doc, inc: doc < inc,
    )


def check_prior_claims_12m(
    policy_found: bool, prior_claim_dates: list[str], incident_date: str | None
) -> CheckResult:
    """Weak: two or more prior claims in the 365 days before the incident."""
    if not policy_found:
        return CheckResult("prior_claims_12m", "not_checked", "policy not found")
    if not incident_date:
        return CheckResult("prior_claims_12m", "not_checked", "incident date not known")
    inc = date.fromisoformat(incident_date)
    within = sorted(
        d for d in prior_claim_dates if 0 <= (inc - date.fromisoformat(d[:10])).days <= 365
    )
    outcome = "hit" if len(within) >= 2 else "clear"
    listed = ", ".join(within) if within else "none"
    return CheckResult(
        "prior_claims_12m",
        outcome,
        f"{len(within)} prior claim(s) in the 365 days before {incident_date}: {listed}",
    )


def check_policy_start_30d(policy_start: str | None, incident_date: str | None,
                           policy_found: bool | None = None) -> CheckResult:
    """Weak: incident within 30 days of the policy starting (0 <= days < 30). A policy found
    without a start date (``policy_found`` true) is data the system does not hold."""
    if not policy_start:
        why = ("the policy record holds no start date" if policy_found
               else "policy not found")
        return CheckResult("policy_start_30d", "not_checked", why)
    if not incident_date:
        return CheckResult("policy_start_30d", "not_checked", "incident date not known")
    days = (date.fromisoformat(incident_date) - date.fromisoformat(policy_start[:10])).days
    outcome = "hit" if 0 <= days < 30 else "clear"
    return CheckResult(
        "policy_start_30d",
        outcome,
        f"policy started {policy_start[:10]}, {days} day(s) before the incident",
    )


def review_required(checks: dict[str, str]) -> bool:
    """At least one strong hit or at least two weak hits; not_checked never counts."""
    strong = sum(1 for c in STRONG if checks.get(c) == "hit")
    weak = sum(1 for c in WEAK if checks.get(c) == "hit")
    return strong >= 1 or weak >= 2
