"""The claim rules as Heron Mutual implements them, and its settlement authority."""

from __future__ import annotations

from decimal import Decimal

import pytest

from claims_prototype_app import Money
from claims_prototype_app._documents import Reading
from claims_prototype_app._rules import (
    PolicyFacts,
    assess,
    decide,
    materials_needed,
    needed_facts,
    review_checks,
)

POLICY = PolicyFacts(start_date="2025-06-01", end_date="2026-05-31", status="active",
                     excess=Decimal(250))


def doc(kind: str, date: str | None = "2026-03-16", total: str | None = "400",
        currency: str = "EUR", missing: bool = False) -> Reading:
    return Reading(title=kind.upper(), kind=kind, readable=True, date=date,
                   pages_total=2 if missing else 1, pages_present=[1],
                   total=Money(Decimal(total), currency) if total else None)


def test_what_is_asked_per_line() -> None:
    assert needed_facts("motor", "theft")[-1] == "police_reference"
    assert "police_reference" not in needed_facts("home", "storm")
    assert needed_facts("contents", None)[5:7] == ["damaged_items", "items_value"]
    assert materials_needed("motor", "theft") == ["photo"]
    assert materials_needed("motor", "windscreen") == ["photo", "repair_quote"]
    assert materials_needed("home", "fire") == ["photo", "repair_quote"]
    assert materials_needed("contents", "theft") == ["photo", "receipt"]


@pytest.mark.parametrize(("priors", "outcome"), [
    (["2026-03-12", "2025-03-12"], "hit"),  # the incident day (0) and exactly 365 days
    (["2026-03-12", "2025-03-11"], "clear"),  # 366 days before does not count
    (["2026-03-13", "2026-01-01"], "clear"),  # a claim after the incident never counts
])
def test_prior_claims_in_whole_calendar_days(priors: list[str], outcome: str) -> None:
    policy = PolicyFacts("2020-01-01", None, "active", None, priors)
    assert review_checks("2026-03-12", policy, [])["prior_claims_12m"] == outcome


def test_29_february_makes_366_days() -> None:
    policy = PolicyFacts("2020-01-01", None, "active", None, ["2027-03-01", "2028-02-01"])
    assert review_checks("2028-03-01", policy, [])["prior_claims_12m"] == "clear"


def test_document_checks() -> None:
    same_day = review_checks("2026-03-12", POLICY, [doc("receipt", "2026-03-12")])
    assert same_day["receipt_after_incident"] == "clear"
    late = review_checks("2026-03-12", POLICY, [doc("receipt", "2026-03-13")])
    assert late["receipt_after_incident"] == "hit"
    early = review_checks("2026-03-12", POLICY, [doc("repair_quote", "2026-03-11")])
    assert early["quote_before_incident"] == "hit"
    undated = review_checks("2026-03-12", POLICY, [doc("repair_quote", None)])
    assert undated["quote_before_incident"] == "not_checked"
    invoice = review_checks("2026-03-12", POLICY, [doc("invoice", "2026-03-20")])
    assert invoice["receipt_after_incident"] == invoice["quote_before_incident"] == \
        "not_applicable"
    unknown_date = review_checks(None, POLICY, [doc("receipt")])
    assert unknown_date == {"receipt_after_incident": "not_checked",
                            "quote_before_incident": "not_applicable",
                            "prior_claims_12m": "not_checked", "policy_start_30d": "not_checked"}
    assert review_checks("2026-06-20", POLICY, [])["policy_start_30d"] == "clear"
    assert review_checks("2025-06-30", POLICY, [])["policy_start_30d"] == "hit"


def _motor(**facts: object) -> dict[str, object]:
    base: dict[str, object] = {
        "policy_number": "NWF-POL-1", "incident_date": "2026-03-12", "incident_time": "17:40",
        "incident_type": "windscreen", "incident_location": "M4",
        "incident_description": "A stone cracked it", "vehicle_registration": "LK19 XRD",
        "vehicle_driveable": "yes", "third_party_involved": "no", "injuries": "no"}
    base.update(facts)
    return base


def test_triage() -> None:
    fast = assess("motor", _motor(), POLICY, [doc("repair_quote")])
    assert (fast.triage_class, fast.reasons) == ("fast_track", ["vehicle_driveable",
                                                               "minor_damage"])
    hurt = assess("motor", _motor(injuries="yes"), POLICY, [])
    assert (hurt.triage_class, hurt.urgency) == ("complex", "urgent")
    big = assess("motor", _motor(), POLICY, [doc("repair_quote", total="6000", currency="EUR")])
    assert big.triage_class == "complex" and "high_value" in big.reasons  # 5100 GBP
    under = assess("motor", _motor(), POLICY, [doc("repair_quote", total="5800")])
    assert "high_value" not in under.reasons  # 4930 GBP
    pages = assess("motor", _motor(), POLICY, [doc("repair_quote", missing=True)])
    assert pages.triage_class == "standard" and "document_incomplete" in pages.reasons
    contents = assess("contents", {"incident_type": "accidental_damage",
                                   "items_value": Money(Decimal(300), "GBP")}, POLICY, [])
    assert contents.reasons == ["single_item"]


def _decide(facts: dict[str, object], docs: list[Reading],
            concerns: list[str] | None = None) -> tuple[str, str | None, list[str]]:
    needed = needed_facts("motor", str(facts["incident_type"]))
    d = decide("motor", facts, needed, POLICY, docs, assess("motor", facts, POLICY, docs),
               concerns or [])
    return d.outcome, d.payable.shown() if d.payable else None, d.referral_reasons


def test_small_fast_track_claims_are_settled_less_the_excess() -> None:
    assert _decide(_motor(), [doc("repair_quote", total="640")]) == ("approved", "€390.00", [])
    gbp = _decide(_motor(), [doc("repair_quote", total="462", currency="GBP")])
    assert gbp == ("approved", "€293.53", [])  # £462.00 = €543.53 at the reference rate
    assert _decide(_motor(), [doc("repair_quote", total="200")])[1] == "€0.00"


@pytest.mark.parametrize(("facts", "docs", "concerns", "why"), [
    (_motor(), [doc("repair_quote", total="2600")], [], "over_settle_limit"),
    (_motor(), [], [], "no_documented_amount"),
    (_motor(third_party_involved="yes"), [doc("repair_quote")], [], "triage_standard"),
    (_motor(), [doc("repair_quote", date="2026-03-01")], [], "checks_not_clear"),
    (_motor(), [doc("repair_quote", date=None)], [], "checks_not_clear"),
    (_motor(incident_date="2026-07-01"), [doc("repair_quote")], [], "outside_cover"),
    (_motor(incident_location=None), [doc("repair_quote")], [], "details_missing"),
    (_motor(), [doc("repair_quote")], ["authority_claimed"], "authority_claimed"),
    (_motor(), [doc("repair_quote")], ["instructions_in_document"],
     "instructions_in_document"),
    (_motor(), [doc("repair_quote", total="400", currency="JPY")], [],
     "no_documented_amount"),
])
def test_everything_else_goes_to_a_claims_handler(facts: dict[str, object],
                                                  docs: list[Reading], concerns: list[str],
                                                  why: str) -> None:
    outcome, payable, reasons = _decide(facts, docs, concerns)
    assert (outcome, payable) == ("referred", None)
    assert why in reasons
