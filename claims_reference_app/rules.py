"""The claim rules of docs/claim-rules.md as pure functions.

Which facts each line needs and in what order, which materials are asked for, the four
review checks with what each outcome rests on, the review rule, and triage (class, reasons,
urgency). Parsing customer text lives in ``_parsing``; reading documents in ``_documents``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from ._documents import DocumentReading, read_document, read_pages
from ._parsing import (
    HOME_CURRENCY,
    find_dates,
    find_times,
    parse_date,
    parse_money,
    parse_police_reference,
    parse_policy_number,
    parse_registration,
    parse_registration_answer,
    parse_time,
    parse_time_window,
    parse_yes_no,
    says_dont_know,
    without_dont_know,
)

FACT_KINDS: dict[str, str] = {
    "policy_number": "text",
    "incident_date": "date",
    "incident_time": "time",
    "incident_type": "choice",
    "incident_description": "text",
    "incident_location": "text",
    "injuries": "yes_no",
    "vehicle_registration": "text",
    "vehicle_driveable": "yes_no",
    "third_party_involved": "yes_no",
    "property_habitable": "yes_no",
    "damaged_items": "text",
    "items_value": "money",
    "police_reference": "text",
}

LINES = ("motor", "home", "contents")

NEEDED_FACTS: dict[str, tuple[str, ...]] = {
    "motor": (
        "policy_number",
        "incident_date",
        "incident_time",
        "incident_type",
        "incident_location",
        "incident_description",
        "vehicle_registration",
        "vehicle_driveable",
        "third_party_involved",
        "injuries",
    ),
    "home": (
        "policy_number",
        "incident_date",
        "incident_time",
        "incident_type",
        "incident_description",
        "property_habitable",
        "injuries",
    ),
    "contents": (
        "policy_number",
        "incident_date",
        "incident_time",
        "incident_type",
        "incident_description",
        "damaged_items",
        "items_value",
        "injuries",
    ),
}
COMMON_FACTS = (
    "policy_number",
    "incident_date",
    "incident_time",
    "incident_type",
    "incident_description",
)

INCIDENT_TYPES: dict[str, tuple[str, ...]] = {
    "motor": ("collision", "theft", "windscreen", "vandalism", "other"),
    "home": ("escape_of_water", "storm", "fire", "other"),
    "contents": ("theft", "accidental_damage", "other"),
}
_TYPE_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "motor": {
        "collision": (
            "collision",
            "crash",
            "collided",
            "hit",
            "bump",
            "ran into",
            "drove into",
            "accident",
            "rear-end",
            "rear end",
            "reversed into",
        ),
        "theft": ("theft", "stolen", "stole", "nicked"),
        "windscreen": ("windscreen", "windshield", "glass"),
        "vandalism": ("vandal", "keyed", "deliberately", "smashed"),
    },
    "home": {
        "escape_of_water": ("escape of water", "water", "leak", "pipe", "flood", "burst"),
        "storm": ("storm", "wind", "gale", "hail", "tiles"),
        "fire": ("fire", "smoke", "burn", "flames"),
    },
    "contents": {
        "theft": ("theft", "stolen", "stole", "burgl", "nicked"),
        "accidental_damage": (
            "accidental",
            "accident",
            "dropped",
            "broke",
            "broken",
            "spilled",
            "cracked",
            "damage",
        ),
    },
}
_OTHER_WORDS = ("something else", "other", "none of these")


def needed_facts(line: str | None, incident_type: str | None = None) -> list[str]:
    """The facts to ask for, in order; ``police_reference`` for theft or vandalism."""
    keys = list(NEEDED_FACTS[line]) if line in NEEDED_FACTS else list(COMMON_FACTS)
    if incident_type in ("theft", "vandalism"):
        keys.append("police_reference")
    return keys


def materials_needed(line: str | None, incident_type: str | None) -> list[str]:
    """Evidence kinds to ask for: always a photo; a quote or a receipt by line and type.
    (A customer may hand over other documents unasked; they are read all the same.)"""
    kinds = ["damage_photo"]
    if (
        line == "motor" and incident_type in ("collision", "vandalism", "windscreen")
    ) or line == "home":
        kinds.append("repair_quote")
    if line == "contents":
        kinds.append("purchase_receipt")
    return kinds


def parse_choice(line: str | None, text: str, labels: dict[str, str] | None = None) -> str | None:
    """An incident type of ``line`` named in ``text`` (by chip label first, then by words)."""
    options = INCIDENT_TYPES.get(line or "", ())
    low = text.strip().lower()
    for code in options:
        if labels and labels.get(code, "").lower() == low:
            return code
        if code.replace("_", " ") == low or code == low:
            return code
    for code, words in _TYPE_WORDS.get(line or "", {}).items():
        if any(w in low for w in words):
            return code
    if any(w in low for w in _OTHER_WORDS) and "other" in options:
        return "other"
    return None


def parse_fact(
    key: str, text: str, line: str | None = None, labels: dict[str, str] | None = None
) -> str | int | float | bool | dict[str, int | float | str] | None:
    """The value of fact ``key`` in a direct answer, by the fact's kind (money as
    ``{"amount", "currency"}``); None if unreadable."""
    kind = FACT_KINDS.get(key, "text")
    if key == "policy_number":
        return parse_policy_number(text)
    if key == "police_reference":
        return parse_police_reference(text)
    if key == "vehicle_registration":
        return parse_registration_answer(text)
    if kind == "date":
        return parse_date(text)
    if kind == "time":
        return parse_time_window(text) or parse_time(text)
    if kind == "yes_no":
        return parse_yes_no(text)
    if kind == "money":
        return parse_money(text)
    if kind == "choice":
        return parse_choice(line, text, labels)
    cleaned = text.strip()
    return cleaned[:500] if len(cleaned) >= 2 else None


def extract_facts(text: str) -> dict[str, str]:
    """Facts that can be read reliably from free text: one absolute date, one time, a
    registration plate and a policy number (only when exactly one of each is present)."""
    out: dict[str, str] = {}
    dates = {v for _, _, v in find_dates(text)}
    if len(dates) == 1:
        out["incident_date"] = dates.pop()
    window = parse_time_window(text)
    times = {v for _, _, v in find_times(text)}
    if window:
        out["incident_time"] = window
    elif len(times) == 1:
        out["incident_time"] = times.pop()
    reg = parse_registration(text)
    if reg:
        out["vehicle_registration"] = reg
    policy = parse_policy_number(text)
    if policy:
        out["policy_number"] = policy
    return out


# --------------------------------------------------------------------------- review checks


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


# --------------------------------------------------------------------------- triage


@dataclass
class Triage:
    triage_class: str
    reasons: list[str] = field(default_factory=list)
    urgency: str = "normal"


_COMPLEX = ("injury_reported", "property_uninhabitable", "fire", "high_value")
HIGH_VALUE_GBP = 5000
# Fixed reference rates (GBP per unit) for comparing other currencies with HIGH_VALUE_GBP.
REFERENCE_RATES: dict[str, float] = {
    "GBP": 1.0, "EUR": 0.85, "USD": 0.79, "NZD": 0.47, "AUD": 0.52, "CAD": 0.58, "CHF": 0.89,
}


def in_pounds(amount: object, currency: str | None) -> float | None:
    """An amount in GBP at the reference rates; None when it cannot be converted."""
    if not isinstance(amount, int | float) or isinstance(amount, bool):
        return None
    rate = REFERENCE_RATES.get(currency or HOME_CURRENCY)
    return None if rate is None else float(amount) * rate


def _high_value(value: object, docs: list[SuppliedDocument]) -> bool:
    amounts = []
    if isinstance(value, dict):
        amounts.append(in_pounds(value.get("amount"), value.get("currency")))
    else:
        amounts.append(in_pounds(value, HOME_CURRENCY))
    amounts += [in_pounds(d.reading.total, d.reading.currency) for d in docs
                if d.reading.kind in TOTAL_KINDS]
    return any(a is not None and a > HIGH_VALUE_GBP for a in amounts)
_STANDARD = (
    "third_party_involved",
    "vehicle_not_driveable",
    "theft",
    "escape_of_water",
    "storm",
    "review_required",
    "document_incomplete",
)


def triage(
    line: str | None, facts: dict[str, object], docs: list[SuppliedDocument], review: bool
) -> Triage:
    """Severity class, every applying reason code, and urgency."""
    reasons: list[str] = []
    incident_type = facts.get("incident_type")
    if facts.get("injuries") is True:
        reasons.append("injury_reported")
    if line == "motor" and isinstance(facts.get("vehicle_driveable"), bool):
        reasons.append(
            "vehicle_driveable" if facts["vehicle_driveable"] else "vehicle_not_driveable"
        )
    if line == "motor" and facts.get("third_party_involved") is True:
        reasons.append("third_party_involved")
    if incident_type == "theft":
        reasons.append("theft")
    if facts.get("police_reference"):
        reasons.append("police_report")
    if line == "home" and incident_type in ("escape_of_water", "storm", "fire"):
        reasons.append(str(incident_type))
    if line == "home" and facts.get("property_habitable") is False:
        reasons.append("property_uninhabitable")
    if _high_value(facts.get("items_value"), docs):
        reasons.append("high_value")
    if review:
        reasons.append("review_required")
    if any(d.reading.incomplete for d in docs):
        reasons.append("document_incomplete")
    if any(r in reasons for r in _COMPLEX):
        cls = "complex"
    elif any(r in reasons for r in _STANDARD):
        cls = "standard"
    else:
        cls = "fast_track"
    if cls == "fast_track":
        if line in ("motor", "home"):
            reasons.append("minor_damage")
        elif line == "contents":
            reasons.append("single_item")
    urgent = "injury_reported" in reasons or "property_uninhabitable" in reasons
    return Triage(cls, reasons, "urgent" if urgent else "normal")


__all__ = [
    "FACT_KINDS",
    "REFERENCE_RATES",
    "INCIDENT_TYPES",
    "LINES",
    "NEEDED_FACTS",
    "CheckResult",
    "DocumentReading",
    "SuppliedDocument",
    "Triage",
    "check_policy_start_30d",
    "check_prior_claims_12m",
    "check_quote_before_incident",
    "check_receipt_after_incident",
    "extract_facts",
    "in_pounds",
    "materials_needed",
    "needed_facts",
    "parse_choice",
    "parse_date",
    "parse_fact",
    "parse_money",
    "parse_police_reference",
    "parse_policy_number",
    "parse_registration",
    "parse_registration_answer",
    "parse_time",
    "parse_time_window",
    "parse_yes_no",
    "read_document",
    "read_pages",
    "review_required",
    "says_dont_know",
    "without_dont_know",
    "triage",
]
