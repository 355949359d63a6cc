"""The claim rules (docs/claim-rules.md) in plain Python: what to ask per line, the four review
checks, triage, and Heron Mutual's own settlement authority — which claims the assistant
settles itself, and which go to a claims handler."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from ._documents import Reading
from ._money import Money, home_currency
from ._wording import load

FACTS_BY_LINE = {
    "motor": ["policy_number", "incident_date", "incident_time", "incident_type",
              "incident_location", "incident_description", "vehicle_registration",
              "vehicle_driveable", "third_party_involved", "injuries"],
    "home": ["policy_number", "incident_date", "incident_time", "incident_type",
             "incident_description", "property_habitable", "injuries"],
    "contents": ["policy_number", "incident_date", "incident_time", "incident_type",
                 "incident_description", "damaged_items", "items_value", "injuries"],
}
INCIDENT_TYPES = {
    "motor": ["collision", "theft", "windscreen", "vandalism", "other"],
    "home": ["escape_of_water", "storm", "fire", "other"],
    "contents": ["theft", "accidental_damage", "other"],
}
CHECKS = ("receipt_after_incident", "quote_before_incident", "prior_claims_12m",
          "policy_start_30d")
STRONG = ("receipt_after_incident", "quote_before_incident")
HIGH_VALUE_GBP = Decimal(5000)


def needed_facts(line: str | None, incident_type: str | None) -> list[str]:
    """The facts to ask, in the rules' order (the police reference after a theft or
    vandalism)."""
    keys = list(FACTS_BY_LINE.get(line or "", FACTS_BY_LINE["motor"][:1]))
    if incident_type in ("theft", "vandalism"):
        keys.append("police_reference")
    return keys


def materials_needed(line: str | None, incident_type: str | None) -> list[str]:
    """The files to ask for: a photo always, a repair quote for motor collision, vandalism
    or windscreen and any home claim, a purchase receipt for any contents claim."""
    out = ["photo"]
    if (line == "motor" and incident_type in ("collision", "vandalism", "windscreen")) or \
            line == "home":
        out.append("repair_quote")
    if line == "contents":
        out.append("receipt")
    return out


@dataclass
class PolicyFacts:
    """What the rules need of the policy and its holder's history."""

    start_date: str | None
    """None: the policy record holds no start date (its check is then not_checked)."""
    end_date: str | None
    status: str
    excess: Decimal | None
    prior_claim_dates: list[str] = field(default_factory=list)


@dataclass
class Assessment:
    """The rules' outcome for one claim."""

    checks: dict[str, str]
    review_required: bool
    reasons: list[str]
    triage_class: str
    urgency: str


def _day(text: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text) if text else None
    except ValueError:
        return None


def _document_check(docs: list[Reading], incident: dt.date | None, kind: str,
                    fires: str) -> str:
    """A date check over every document of ``kind``: any hit, else any not_checked."""
    outcomes = []
    for d in (d for d in docs if d.kind == kind):
        date = _day(d.date)
        if incident is None or date is None:
            outcomes.append("not_checked")
        elif (fires == "after" and date > incident) or (fires == "before" and date < incident):
            outcomes.append("hit")
        else:
            outcomes.append("clear")
    if not outcomes:
        return "not_applicable"
    return next((o for o in ("hit", "not_checked") if o in outcomes), "clear")


def review_checks(incident_date: str | None, policy: PolicyFacts | None,
                  docs: list[Reading]) -> dict[str, str]:
    incident = _day(incident_date)
    checks = {
        "receipt_after_incident": _document_check(docs, incident, "receipt", "after"),
        "quote_before_incident": _document_check(docs, incident, "repair_quote", "before"),
    }
    if policy is None or incident is None:
        checks["prior_claims_12m"] = checks["policy_start_30d"] = "not_checked"
        return checks
    recent = 0
    for text in policy.prior_claim_dates:
        day = _day(text)
        if day is not None and 0 <= (incident - day).days <= 365:
            recent += 1
    checks["prior_claims_12m"] = "hit" if recent >= 2 else "clear"
    start = _day(policy.start_date)
    if start is None:
        checks["policy_start_30d"] = "not_checked"
    else:
        checks["policy_start_30d"] = "hit" if 0 <= (incident - start).days < 30 else "clear"
    return checks


def _high_value(facts: dict[str, object], docs: list[Reading]) -> bool:
    amounts = [d.total for d in docs if d.kind in ("repair_quote", "invoice") and d.total]
    value = facts.get("items_value")
    if isinstance(value, Money):
        amounts.append(value)
    return any((a.in_gbp() or 0) > HIGH_VALUE_GBP for a in amounts)


def assess(line: str, facts: dict[str, object], policy: PolicyFacts | None,
           docs: list[Reading]) -> Assessment:
    """Review checks, review signal, triage reasons, class and urgency by the claim rules."""
    date = facts.get("incident_date")
    checks = review_checks(date if isinstance(date, str) else None, policy, docs)
    strong = sum(1 for c in STRONG if checks[c] == "hit")
    weak = sum(1 for c in CHECKS if c not in STRONG and checks[c] == "hit")
    review = strong >= 1 or weak >= 2
    kind = facts.get("incident_type")
    reasons: list[str] = []
    if facts.get("injuries") == "yes":
        reasons.append("injury_reported")
    if line == "motor" and facts.get("vehicle_driveable") in ("yes", "no"):
        driveable = facts["vehicle_driveable"] == "yes"
        reasons.append("vehicle_driveable" if driveable else "vehicle_not_driveable")
    if line == "motor" and facts.get("third_party_involved") == "yes":
        reasons.append("third_party_involved")
    if kind == "theft":
        reasons.append("theft")
    if facts.get("police_reference"):
        reasons.append("police_report")
    if line == "home" and kind in ("escape_of_water", "storm", "fire"):
        reasons.append(str(kind))
    if line == "home" and facts.get("property_habitable") == "no":
        reasons.append("property_uninhabitable")
    if _high_value(facts, docs):
        reasons.append("high_value")
    if review:
        reasons.append("review_required")
    if any(d.missing_pages for d in docs):
        reasons.append("document_incomplete")
    if {"injury_reported", "property_uninhabitable", "fire", "high_value"} & set(reasons):
        triage = "complex"
    elif {"third_party_involved", "vehicle_not_driveable", "theft", "escape_of_water", "storm",
          "review_required", "document_incomplete"} & set(reasons):
        triage = "standard"
    else:
        triage = "fast_track"
        reasons.append("single_item" if line == "contents" else "minor_damage")
    urgent = {"injury_reported", "property_uninhabitable"} & set(reasons)
    return Assessment(checks, review, reasons, triage, "urgent" if urgent else "normal")


# ---------------------------------------------------------------------- settlement authority
@dataclass
class Decision:
    """What the assistant tells the customer: settled (``approved``) or referred."""

    outcome: str  # "approved" | "referred"
    claimed: Money | None = None  # the documented amount, in its own currency
    excess: Money | None = None
    payable: Money | None = None  # in the home currency
    referral_reasons: list[str] = field(default_factory=list)


def settle_limit() -> Decimal:
    return Decimal(str(load("rules")["settle_limit"]))


def claimed_amount(line: str, facts: dict[str, object], docs: list[Reading]) -> Money | None:
    """The documented amount: the repair quotes' (and invoices') total for motor and home, the
    items' value for contents when a receipt backs it."""
    if line == "contents":
        value = facts.get("items_value")
        has_receipt = any(d.kind == "receipt" for d in docs)
        return value if isinstance(value, Money) and has_receipt else None
    totals = [d.total for d in docs if d.kind in ("repair_quote", "invoice") and d.total]
    if not totals:
        return None
    homes = [t.in_home() for t in totals]
    if any(h is None for h in homes):
        return None
    if len(totals) == 1:
        return totals[0]
    return Money(sum((h.amount for h in homes if h is not None), Decimal(0)), home_currency())


def decide(line: str, facts: dict[str, object], needed: list[str],
           policy: PolicyFacts | None, docs: list[Reading], assessment: Assessment,
           concerns: list[str]) -> Decision:
    """Settle only a fast-track claim whose every check is clear or not applicable, on an
    active policy covering the incident date, with every needed detail known and nothing to
    follow, a documented amount within the settle limit, and no concern raised in the
    conversation (an instruction hidden in a document, a claim of authority); refer the rest."""
    why: list[str] = list(concerns)
    if assessment.triage_class != "fast_track":
        why.append("triage_" + assessment.triage_class)
    if any(o not in ("clear", "not_applicable") for o in assessment.checks.values()):
        why.append("checks_not_clear")
    if policy is None:
        why.append("policy_not_found")
    else:
        day = facts.get("incident_date")
        inside = isinstance(day, str) and (
            not policy.start_date or policy.start_date <= day) and (
            not policy.end_date or day <= policy.end_date)
        if policy.status != "active" or not inside:
            why.append("outside_cover")
    missing = [k for k in needed if k != "incident_time" and facts.get(k) is None]
    if missing:
        why.append("details_missing")
    claimed = claimed_amount(line, facts, docs)
    home = claimed.in_home() if claimed else None
    if home is None:
        why.append("no_documented_amount")
    elif home.amount > settle_limit():
        why.append("over_settle_limit")
    if why or home is None:
        return Decision("referred", claimed=claimed, referral_reasons=why)
    excess = Money(policy.excess if policy and policy.excess else Decimal(0), home_currency())
    payable = Money(max(Decimal(0), home.amount - excess.amount), home_currency())
    return Decision("approved", claimed=claimed, excess=excess, payable=payable)
