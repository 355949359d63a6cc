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
from ._checks import (
    QUOTE_KINDS,
    RECEIPT_KINDS,
    STRONG,
    TOTAL_KINDS,
    WEAK,
    CheckResult,
    SuppliedDocument,
    check_policy_start_30d,
    check_prior_claims_12m,
    check_quote_before_incident,
    check_receipt_after_incident,
    review_required,
)
from ._facts import (
    COMMON_FACTS,
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
from ._triage import HIGH_VALUE_GBP, REFERENCE_RATES, Triage, in_pounds, triage

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
    # public here before the split as well (module constants and the parsing helpers used)
    "COMMON_FACTS",
    "HIGH_VALUE_GBP",
    "HOME_CURRENCY",
    "QUOTE_KINDS",
    "RECEIPT_KINDS",
    "STRONG",
    "TOTAL_KINDS",
    "WEAK",
    "find_dates",
    "find_times",
]
