"""Kestrel's own data model: collection names, field keys and stored codes.

The claim rules (claims_reference_app.rules) speak in the canonical fact keys of
docs/claim-rules.md; Kestrel stores its own keys and codes. This module is the one place
that translates between the two.
"""

from __future__ import annotations

# Collections. Loaded by /ops/fixtures: POLICYHOLDERS, COVER, LOSS_HISTORY.
POLICYHOLDERS = "policyholders"
COVER = "cover"
LOSS_HISTORY = "loss_history"
# Written by the product.
CONVERSATIONS = "conversations"
UPLOADS = "uploads"
CASES = "fnol_cases"
FOLLOWUPS = "followups"
EVENTS = "events"
# Never emptied by a reset: holds the environment marker.
META = "kestrel_meta"
PRODUCT_COLLECTIONS = (
    POLICYHOLDERS, COVER, LOSS_HISTORY, CONVERSATIONS, UPLOADS, CASES, FOLLOWUPS, EVENTS,
)

# Canonical fact key -> Kestrel answer key.
ANSWER_KEYS: dict[str, str] = {
    "policy_number": "policyRef",
    "incident_date": "lossDate",
    "incident_time": "lossTime",
    "incident_type": "lossType",
    "incident_description": "story",
    "incident_location": "lossPlace",
    "injuries": "injured",
    "vehicle_registration": "vehicleReg",
    "vehicle_driveable": "driveable",
    "third_party_involved": "otherParty",
    "property_habitable": "habitable",
    "damaged_items": "items",
    "items_value": "itemsValue",
    "police_reference": "crimeRef",
}
CANONICAL_KEYS = {v: k for k, v in ANSWER_KEYS.items()}

# Answer status: canonical fact state -> stored word.
PROPOSED, CONFIRMED, NOT_KNOWN = "PROPOSED", "CONFIRMED", "NOT_KNOWN"

# Line of business: canonical line -> stored product code (cover.product, fnol_cases.product).
PRODUCT_CODES = {"motor": "MOTOR", "home": "HOUSEHOLD_BUILDINGS", "contents": "HOUSEHOLD_CONTENTS"}
LINES_BY_PRODUCT = {v: k for k, v in PRODUCT_CODES.items()}

# Evidence kind (canonical) -> upload category (stored).
CATEGORIES = {
    "damage_photo": "photo",
    "repair_quote": "quote",
    "purchase_receipt": "receipt",
    "invoice": "invoice",
    "police_report": "police_report",
    "other_document": "other",
}
KINDS_BY_CATEGORY = {v: k for k, v in CATEGORIES.items()}

# Material status (canonical) -> stored word.
FILE_STATUS = {"requested": "asked", "later": "to_follow", "uploaded": "received",
               "not_provided": "not_provided"}

# Review checks: canonical id -> stored key; outcome -> stored result.
CHECK_KEYS = {
    "receipt_after_incident": "receiptAfterLoss",
    "quote_before_incident": "quoteBeforeLoss",
    "prior_claims_12m": "priorLosses12m",
    "policy_start_30d": "recentInception",
}
CHECK_RESULTS = {"hit": "FLAGGED", "clear": "PASSED", "not_checked": "UNCHECKED",
                 "not_applicable": "NOT_RELEVANT"}

# Triage: class -> band; urgency -> callback; reason code -> stored reason.
BANDS = {"fast_track": "fast_lane", "standard": "routine", "complex": "urgent"}
CALLBACK = {"urgent": "SAME_DAY", "normal": "NEXT_WORKING_DAY"}
REASONS = {
    "injury_reported": "INJURY",
    "vehicle_driveable": "VEHICLE_DRIVEABLE",
    "vehicle_not_driveable": "VEHICLE_OFF_ROAD",
    "third_party_involved": "OTHER_PARTY",
    "theft": "THEFT",
    "police_report": "CRIME_REFERENCE",
    "escape_of_water": "WATER",
    "storm": "STORM",
    "fire": "FIRE",
    "property_uninhabitable": "HOME_UNINHABITABLE",
    "high_value": "OVER_5000",
    "review_required": "REFERRED",
    "document_incomplete": "DOCUMENT_PAGES_MISSING",
    "minor_damage": "MINOR_DAMAGE",
    "single_item": "SINGLE_ITEM",
}

# Follow-up type and state; event actor.
FOLLOWUP_TYPES = {"question": "CUSTOMER_QUESTION", "contact_request": "CALLBACK_REQUEST"}
FOLLOWUP_OPEN = "OPEN"
ACTORS = {"agent": "assistant", "staff": "handler", "customer": "customer"}

# Case stage (canonical claim status "submitted").
LODGED = "lodged"
