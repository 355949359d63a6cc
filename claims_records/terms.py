"""The claim rules' canonical terms (docs/claim-rules.md): lines of business, triage classes,
review checks and their outcomes, reason codes. Packs, products' vocabulary maps, run records
and sheets all speak these words and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

Line = Literal["motor", "home", "contents"]
TriageClass = Literal["fast_track", "standard", "complex"]
CheckId = Literal[
    "receipt_after_incident", "quote_before_incident", "prior_claims_12m", "policy_start_30d"
]
CheckOutcome = Literal["hit", "clear", "not_checked", "not_applicable"]

STRONG_CHECKS: tuple[CheckId, ...] = ("receipt_after_incident", "quote_before_incident")
WEAK_CHECKS: tuple[CheckId, ...] = ("prior_claims_12m", "policy_start_30d")
ALL_CHECKS: tuple[CheckId, ...] = STRONG_CHECKS + WEAK_CHECKS

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


def review_required_from(checks: Mapping[str, str] | Mapping[CheckId, str]) -> bool:
    """The review rule: at least one strong hit, or at least two weak hits."""
    strong = sum(1 for c in STRONG_CHECKS if checks.get(c) == "hit")
    weak = sum(1 for c in WEAK_CHECKS if checks.get(c) == "hit")
    return strong >= 1 or weak >= 2


def known_reason_codes(v: list[str]) -> list[str]:
    """Validator: every code is one of REASON_CODES."""
    unknown = [c for c in v if c not in REASON_CODES]
    if unknown:
        raise ValueError(f"unknown reason codes {unknown}; known: {list(REASON_CODES)}")
    return v
