"""The claim rules of docs/claim-rules.md as pure functions.

Which facts each line needs and in what order, which materials are asked for, the four
review checks with what each outcome rests on, the review rule, and triage (class, reasons,
urgency). Parsing customer text lives in ``_parsing``; reading documents in ``_documents``.
"""

# The parts: ``_facts`` (the facts per line, materials, reading facts from answers and free
# text), ``_checks`` (the review checks and the review rule), ``_triage`` (class, reasons,
# urgency).

from __future__ import annotations

from .._documents import DocumentReading, read_document, read_pages
from .._parsing import (
    HOME_CURRENCY,
    find_dates,
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
from ._checks import (
    CheckResult,
    SuppliedDocument,
    check_policy_start_30d,
    check_prior_claims_12m,
    check_quote_before_incident,
    check_receipt_after_incident,
    review_required,
)
from ._facts import (
    FACT_KINDS,
    INCIDENT_TYPES,
    LINES,
    NEEDED_FACTS,
    extract_facts,
    materials_needed,
    needed_facts,
    parse_choice,
    parse_fact,
)
from ._triage import REFERENCE_RATES, Triage, in_pounds, triage

__all__ = [
    "FACT_KINDS",
    "HOME_CURRENCY",
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
    "find_dates",
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
