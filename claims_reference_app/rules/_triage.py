"""Triage: class, every applying reason code, and urgency."""

from __future__ import annotations

from dataclasses import dataclass, field

from .._parsing import HOME_CURRENCY
from ._checks import TOTAL_KINDS, SuppliedDocument


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
