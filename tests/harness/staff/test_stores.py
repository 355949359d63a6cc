"""The staff side read from the stores: the journey's claim in the canonical state dump, its
regions where [staff_stores] says, stored words through the vocabulary, fact values as a staff
screen shows them, and the waiting list of this claim only."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from claims_records import StaffCheck, StaffFact, StaffWaitingItem, StateDump
from harness.profile import StaffStores, Vocabulary
from harness.staff import read_stores
from harness.staff._stores import text

NUMBER = "HM-2026-000002"
CLAIM: dict[str, Any] = {
    "_id": NUMBER, "status": "submitted", "policy_number": "NWF-POL-300142",
    "triage": {"class": "standard", "urgency": "normal",
               "reasons": ["theft", "police_report", "review_required"]},
    "review": {"review_required": True,
               "checks": {"receipt_after_incident": {"outcome": "hit",
                                                     "rests_on": "receipt 2026-02-23"},
                          "quote_before_incident": "not_applicable"}},
    "facts": {"incident_date": {"value": "2026-02-21", "state": "confirmed"},
              "incident_time": {"value": {"earliest": "14:00", "latest": "17:00"},
                                "state": "confirmed"},
              "items_value": {"value": {"amount": 1850.0, "currency": "GBP"},
                              "state": "confirmed"},
              "injuries": {"value": False, "state": "confirmed"},
              "police_reference": {"value": None, "state": "to_follow"},
              "vehicle_registration": {"value": "", "state": "unknown"}},
}
OTHER = {"_id": "NWF-2025-048213", "triage": {"class": "complex", "reasons": ["fire"]},
         "review": {"review_required": False, "checks": {}}, "facts": {}}
WAITING = {
    "1": {"_id": "1", "kind": "question", "text": "Will you send someone round?",
          "claim_number": NUMBER},
    "2": {"_id": "2", "kind": "contact_request", "text": "Please call me", "claim_number": NUMBER},
    "3": {"_id": "3", "kind": "question", "text": "Another customer's question",
          "claim_number": "NWF-2025-048213"},
    "4": {"_id": "4", "kind": "question", "text": "Asked before any claim", "claim_number": None},
}


def _state(claims: dict[str, Any] | None = None,
           waiting: dict[str, Any] | None = None) -> StateDump:
    collections: dict[str, Any] = {"claims": claims if claims is not None else {
        NUMBER: copy.deepcopy(CLAIM), OTHER["_id"]: copy.deepcopy(OTHER)}}
    if waiting is not None:
        collections["waiting_list"] = waiting
    return StateDump(taken_at="2026-03-01T10:00:00.000Z", database="heron_dev_lane1",
                     bucket="", collections=collections, objects={})


def test_the_claim_is_read_in_canonical_terms_with_values_as_a_staff_screen_shows_them():
    reading = read_stores(_state(waiting=WAITING), NUMBER, StaffStores())
    assert (reading.source, reading.found, reading.claim_number, reading.error) == (
        "stores", True, NUMBER, None)
    assert (reading.triage_class, reading.urgency, reading.review_required) == (
        "standard", "normal", True)
    assert reading.reasons == ["theft", "police_report", "review_required"]
    assert reading.checks == {
        "receipt_after_incident": StaffCheck(outcome="hit", rests_on="receipt 2026-02-23"),
        "quote_before_incident": StaffCheck(outcome="not_applicable", rests_on="")}
    assert reading.facts == {
        "incident_date": StaffFact(value="2026-02-21", state="confirmed"),
        "incident_time": StaffFact(value="14:00-17:00", state="confirmed"),
        "items_value": StaffFact(value="1850 GBP", state="confirmed"),
        "injuries": StaffFact(value="no", state="confirmed"),
        "police_reference": StaffFact(value="to follow", state="to_follow"),
        "vehicle_registration": StaffFact(value="not known", state="unknown")}
    assert (reading.not_shown, reading.unmapped, reading.available) == ([], {}, True)


@pytest.mark.parametrize(("claim_number", "items"), [
    (NUMBER, [("question", "Will you send someone round?"),
              ("contact_request", "Please call me")]),
    ("NWF-2025-048213", [("question", "Another customer's question")]),
    (None, [("question", "Asked before any claim")]),  # no claim: the items naming none
], ids=["this-claim", "another-claim", "no-claim"])
def test_the_waiting_list_holds_the_items_of_this_claim_only(claim_number, items):
    reading = read_stores(_state(waiting=WAITING), claim_number, StaffStores())
    assert [(i.kind, i.text) for i in reading.waiting_list] == items


def test_items_naming_no_claim_are_all_read_when_the_stores_link_none():
    where = StaffStores(waiting_claim="")
    reading = read_stores(_state(waiting=WAITING), NUMBER, where)
    assert len(reading.waiting_list) == 4


@pytest.mark.parametrize(("claim_number", "claims", "error"), [
    ("HM-2026-000099", None, "claim HM-2026-000099 is not in the stores: no document of "
     "'claims' has _id = 'HM-2026-000099' (2 document(s) there)"),
    (NUMBER, {}, "(0 document(s) there)"),
    (None, None, "no claim number: the journey saw none"),
], ids=["unknown-number", "no-claims", "no-number"])
def test_a_claim_not_in_the_stores_is_not_found_and_says_what_was_looked_for(
        claim_number, claims, error):
    reading = read_stores(_state(claims=claims, waiting=WAITING), claim_number, StaffStores())
    assert not reading.found and reading.error is not None and error in reading.error
    assert (reading.triage_class, reading.reasons, reading.review_required, reading.checks,
            reading.facts) == (None, [], None, {}, {})
    assert ("claim" in reading.not_shown) == (claim_number is None)


def test_the_claim_number_is_looked_for_in_the_field_the_profile_names():
    claims = {"c-1": {**copy.deepcopy(CLAIM), "_id": "c-1", "number": NUMBER}}
    assert read_stores(_state(claims=claims), NUMBER, StaffStores(claim_number="number")).found
    assert not read_stores(_state(claims=claims), NUMBER, StaffStores()).found
    where = StaffStores(claims="cases")
    reading = read_stores(_state(), NUMBER, where)
    assert not reading.found and "'cases'" in (reading.error or "")


REGIONS = [  # [staff_stores] key left empty -> the region it holds, and the reading's field
    ("triage_class", "triage_class", lambda r: r.triage_class, None),
    ("reasons", "reasons", lambda r: r.reasons, []),
    ("urgency", "urgency", lambda r: r.urgency, None),
    ("review_required", "review_signal", lambda r: r.review_required, None),
    ("checks", "checks", lambda r: r.checks, {}),
    ("facts", "facts", lambda r: r.facts, {}),
    ("waiting_list", "waiting_list", lambda r: r.waiting_list, []),
]


@pytest.mark.parametrize(("key", "region", "field", "empty"), REGIONS,
                         ids=[r[0] for r in REGIONS])
def test_a_region_the_stores_do_not_hold_is_not_shown_and_never_read(key, region, field,
                                                                     empty):
    held = read_stores(_state(waiting=WAITING), NUMBER, StaffStores())
    assert field(held) != empty and region not in held.not_shown
    reading = read_stores(_state(waiting=WAITING), NUMBER, StaffStores(**{key: ""}))
    assert reading.found and reading.not_shown == [region] and field(reading) == empty


def test_a_region_held_but_empty_for_this_claim_reads_as_nothing_shown():
    claim = {"_id": NUMBER, "facts": {}}  # no triage, no review stored
    reading = read_stores(_state(claims={NUMBER: claim}), NUMBER, StaffStores())
    assert reading.found and reading.not_shown == []
    assert (reading.triage_class, reading.reasons, reading.review_required, reading.checks) \
        == (None, [], None, {})


def test_the_regions_can_sit_anywhere_in_the_claim():
    claim = {"_id": NUMBER, "band": "Routine", "why": "Other party",
             "referral": {"flag": "Refer"},
             "outcomes": {"Receipt after loss": {"result": "Failed", "basis": "receipt"}},
             "details": {"Date of loss": {"v": "2026-02-21", "st": "Confirmed by customer"}}}
    where = StaffStores(triage_class="band", reasons="why", urgency="",
                        review_required="referral.flag", checks="outcomes",
                        check_outcome="result", check_rests_on="basis", facts="details",
                        fact_value="v", fact_state="st", waiting_list="")
    words = Vocabulary(
        triage_class={"Routine": "standard"}, reasons={"Other party": "third_party_involved"},
        review_signal={"Refer": "review_required"},
        check_ids={"Receipt after loss": "receipt_after_incident"},
        check_outcomes={"Failed": "hit"}, fact_keys={"Date of loss": "incident_date"},
        fact_states={"Confirmed by customer": "confirmed"})
    reading = read_stores(_state(claims={NUMBER: claim}), NUMBER, where, words)
    assert (reading.triage_class, reading.reasons, reading.review_required) == (
        "standard", ["third_party_involved"], True)
    assert reading.checks == {"receipt_after_incident": StaffCheck(outcome="hit",
                                                                   rests_on="receipt")}
    assert reading.facts == {"incident_date": StaffFact(value="2026-02-21", state="confirmed")}
    assert reading.unmapped == {} and reading.not_shown == ["urgency", "waiting_list"]


def test_stored_words_map_through_the_vocabulary_and_the_rest_is_unmapped():
    claim = copy.deepcopy(CLAIM)
    claim["triage"] = {"class": "Routine", "reasons": ["theft", "Break-in", "Odd thing"]}
    claim["review"] = {"review_required": "Maybe",
                       "checks": {"receipt_after_incident": "Failed", "Mystery check": "hit"}}
    claim["facts"] = {"incident_date": {"value": "2026-02-21", "state": "Checked"},
                      "Date of loss": {"value": "2026-02-21", "state": "confirmed"}}
    waiting = {"1": {"kind": "second_incident", "text": "A bike too", "claim_number": NUMBER},
               "2": {"kind": "callback", "text": "Ring me", "claim_number": NUMBER}}
    words = Vocabulary(triage_class={"Routine": "standard"}, reasons={"Break-in": "theft"},
                       waiting_kinds={"second_incident": "contact_request"})
    reading = read_stores(_state(claims={NUMBER: claim}, waiting=waiting), NUMBER,
                          StaffStores(), words)
    assert reading.triage_class == "standard"  # mapped
    assert reading.reasons == ["theft", "theft"]  # canonical as it is, and mapped
    assert reading.review_required is None  # an unmapped signal is not read as either
    assert reading.checks == {"receipt_after_incident": StaffCheck(outcome="Failed")}
    assert reading.facts == {"incident_date": StaffFact(value="2026-02-21", state="Checked")}
    assert reading.waiting_list == [StaffWaitingItem(kind="contact_request", text="A bike too"),
                                    StaffWaitingItem(kind="callback", text="Ring me")]
    assert reading.unmapped == {
        "reasons": ["Odd thing"], "review_signal": ["Maybe"], "check_ids": ["Mystery check"],
        "check_outcomes": ["Failed"], "fact_keys": ["Date of loss"],
        "fact_states": ["Checked"], "waiting_kinds": ["callback"]}


@pytest.mark.parametrize(("value", "shown"), [
    (None, ""), (True, "yes"), (False, "no"), (2400.0, "2400"), (12.5, "12.5"), (3, "3"),
    ({"amount": 2400, "currency": "NZD"}, "2400 NZD"),
    ({"amount": "1850.00", "currency": "GBP"}, "1850.00 GBP"),
    ({"earliest": "14:00", "latest": "16:30"}, "14:00-16:30"),
    (["a laptop", "a console"], "a laptop, a console"), ("2026-02-21", "2026-02-21"),
    ({"b": 1, "a": 2}, '{"a": 2, "b": 1}'),
])
def test_stored_values_become_the_text_a_staff_screen_shows(value, shown):
    assert text(value) == shown


@pytest.mark.parametrize(("changes", "message"), [
    ({"claims": ""}, "claims may not be empty"),
    ({"claim_number": ""}, "claim_number may not be empty"),
    ({"fact_value": ""}, "fact_value may not be empty"),
    ({"triage_class": "triage class"}, "not a dotted field path"),
    ({"facts": "facts..x"}, "not a dotted field path"),
    ({"claims": "data.claims"}, "name collections"),
    ({"colour": "x"}, "Extra inputs are not permitted"),
])
def test_the_section_refuses_what_cannot_be_read(changes, message):
    with pytest.raises(ValueError, match=message):
        StaffStores.model_validate(changes)


def test_the_section_accepts_the_canonical_layout_and_paths_of_its_own():
    assert StaffStores.model_validate({}).not_held() == []
    where = StaffStores.model_validate({"urgency": "", "checks": "", "triage_class": "x.y_2"})
    assert where.not_held() == ["urgency", "checks"]
    assert "not held: urgency, checks" in where.describe()
