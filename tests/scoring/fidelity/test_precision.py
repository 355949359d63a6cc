"""The fidelity audit reads words, numbers, dates and amounts whole: one table of tricky
phrasings, each row a one-message trial with the verdict it must get (flagged or not)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import pytest

import claims_corpus
from claims_corpus.formats import Fact
from claims_records import CustomerAction, JourneyEvent, ScreenReading
from scoring.fidelity import audit_trial

PACKS = Path(__file__).resolve().parents[3] / "packs"
BASE = claims_corpus.load_customer_view(PACKS / "CTL-M-001")  # its persona; nothing else
OPENING = "Hello, I need to make a claim."
NOTHING_ASKED = "Thanks. Is there anything else you would like to add?"
WHEN_Q = "When did it happen?"
WORTH_Q = "How much was it all worth?"
REG_Q = "What is the registration of your car?"
HURT_Q = "Was anyone hurt?"
DRIVE_Q = "Can you still drive the car?"
POLICY_Q = "What is your policy number?"
POLICE_Q = "Do you have a police reference?"

TOPICS = {
    "injuries": "whether anyone was hurt",
    "third_party_involved": "whether anyone else was involved",
    "vehicle_driveable": "whether the car can be driven",
    "incident_type": "what kind of incident it was",
    "incident_date": "when it happened",
    "incident_time": "what time it happened",
    "items_value": "what the items were worth",
    "items_count": "how many items were taken",
    "vehicle_registration": "the car's registration",
    "policy_number": "the policy number",
    "police_reference": "the police reference",
    "car_year": "the year the car was made",
    "contact_phone": "the customer's phone number",
}


def fact(key: str, kind: str, value: object, say: str) -> Fact:
    return Fact.model_validate({"key": key, "kind": kind, "value": value, "say": say,
                                "topic": TOPICS[key]})


NO_BARE = fact("injuries", "yes_no", "no", "No.")
NOBODY_HURT = fact("injuries", "yes_no", "no", "No, nobody was hurt.")
ALONE = fact("third_party_involved", "yes_no", "no", "No, nobody else was involved.")
NOT_DRIVEABLE = fact("vehicle_driveable", "yes_no", "no", "No, it's not driveable.")
THEFT = fact("incident_type", "choice", "theft", "Theft, it was stolen.")
FIRE = fact("incident_type", "choice", "fire", "It was a fire.")
DATE = fact("incident_date", "date", "2025-03-03", "On 3 March 2025.")
DATE_DEC = fact("incident_date", "date", "2025-12-20", "On 20 December 2025.")
TIME = fact("incident_time", "time", "17:40", "At 5:40 pm.")
WINDOW = fact("incident_time", "time", {"earliest": "19:00", "latest": "23:00"},
              "Between 7pm and 11pm.")
VALUE = fact("items_value", "money", {"amount": 1200, "currency": "GBP"}, "£1,200 in total.")
VALUE_NZD = fact("items_value", "money", {"amount": 2400, "currency": "NZD"},
                 "NZ$2,400 when I bought it.")
COUNT = fact("items_count", "number", 12, "Twelve items.")
REG = fact("vehicle_registration", "text", "LK19 XRD", "The registration is LK19 XRD.")
REG_12 = fact("vehicle_registration", "text", "LK12 XRD", "The registration is LK12 XRD.")
POLICY = fact("policy_number", "text", "NWF-POL-300142", "It's NWF-POL-300142.")
POLICY_LONG = fact("policy_number", "text", "NWF-POL-3001425", "It's NWF-POL-3001425.")
POLICE = fact("police_reference", "text", "MER-26-0221-5581",
              "The crime reference is MER-26-0221-5581.")
YEAR = fact("car_year", "text", "2012", "It's a 2012 model.")
PHONE = fact("contact_phone", "text", "07700 900123", "My number is 07700 900123.")


@dataclass(frozen=True)
class Row:
    """One trial: the customer's facts, the screen it answers, its message, the verdict."""

    facts: tuple[Fact, ...]
    text: str
    must_flag: bool
    why: str
    screen: str = NOTHING_ASKED
    story: str = OPENING


def row(facts: Fact | tuple[Fact, ...], text: str, must_flag: bool, why: str, *,
        screen: str = NOTHING_ASKED, story: str = OPENING) -> Row:
    return Row(facts if isinstance(facts, tuple) else (facts,), text, must_flag, why, screen,
               story)


TABLE: tuple[Row, ...] = (
    # yes/no facts, and "no" inside other words
    row(NO_BARE, "Don't know, sorry.", False, '"no" is not a word of "know"'),
    row(NO_BARE, "Not that I can think of.", False, '"no" is not a word of "not"'),
    row(NO_BARE, "Nothing else, thanks.", False, '"no" is not a word of "nothing"'),
    row(NO_BARE, "No, that's everything.", False, "a bare yes or no names no fact"),
    row(NOBODY_HURT, "No, nobody was hurt.", True, "the whole wording, before it was asked"),
    row(NOBODY_HURT, "Nobody was hurt, no.", True, "the wording without its leading no"),
    row(NOBODY_HURT, "NOBODY WAS HURT!!", True, "case and punctuation do not hide a wording"),
    row(NOBODY_HURT, "No worries nobody was hurt.", True,
        "the no is about the worries, not the wording"),
    row(NOBODY_HURT, "No worries, nobody was hurt.", True, "the same with a comma"),
    row(NOBODY_HURT, "Nobody was hurt.", False, "asked, so it may be given", screen=HURT_Q),
    row(NOBODY_HURT, "I don't know if anybody in the van was hurt.", False,
        "wondering about the topic gives no value"),
    row(ALONE, "I know nobody else was involved.", True, '"know" is not a negation'),
    row(ALONE, "I don't know whether anybody else was involved.", False,
        "not knowing gives no value"),
    row(NOT_DRIVEABLE, "It's not driveable.", True,
        "a negation that is part of the wording gives the fact"),
    row(NOT_DRIVEABLE, "It's not driveable.", False, "asked, so it may be given",
        screen=DRIVE_Q),
    # negations of a choice, and a choice inside another word
    row(THEFT, "I don't think it counts as theft, the door was left open.", False,
        "a negated clause does not give the choice"),
    row(THEFT, "No, I think it was theft.", True, "the no belongs to another clause"),
    row(THEFT, "It was theft, not vandalism.", True, "a negation after the value does not undo it"),
    row(THEFT, "THEFT.", True, "case and punctuation"),
    row(FIRE, "The damage is all next to the fireplace.", False, '"fire" inside "fireplace"'),
    # numbers inside other numbers and codes
    row((COUNT, VALUE), "It cost £1,200.", False, "12 is not in 1,200", screen=WORTH_Q),
    row(COUNT, "We bought them in 2012.", False, "12 is not in 2012",
        story="I bought all of them in 2012."),
    row(COUNT, "There were 12 of them.", True, "the count itself, before it was asked"),
    row((COUNT, REG_12), "It's LK12 XRD.", False, "the 12 of a registration is not a count",
        screen=REG_Q),
    row((YEAR, DATE_DEC), "It was on 20/12/2025.", False,
        "2012 runs across the digits of a date but is not in it", screen=WHEN_Q),
    row(YEAR, "It's a 2012 model.", True, "the year itself, before it was asked"),
    row(VALUE, "It's been 12 years since I bought them.", False,
        "12 is neither the amount nor a value worth a finding"),
    row(POLICY, "My old policy was NWF-POL-3001425.", True,
        "an identifier that only starts like the story's", screen=POLICY_Q),
    row(POLICY_LONG, "It's NWF-POL-300142.", True,
        "an identifier that is only the start of the story's", screen=POLICY_Q),
    row(PHONE, "The letter says reference 90012.", True,
        "a number that is only part of the story's phone number"),
    row(POLICE, "It's 26-0221-5581.", False, "the story's reference without its prefix",
        screen=POLICE_Q),
    # currency and amounts
    row(VALUE, "1200 pounds.", False, "the same amount in words", screen=WORTH_Q),
    row(VALUE, "About 1,200.", False, "a bare number for the amount", screen=WORTH_Q),
    row(VALUE, "£1.2k or so.", False, "the same amount, shortened", screen=WORTH_Q),
    row(VALUE, "£12,000.", True, "the story's digits, another amount", screen=WORTH_Q),
    row(VALUE, "£120.", True, "the story's first digits, another amount", screen=WORTH_Q),
    row(VALUE, "About 200.", True, "the story's last digits, another amount", screen=WORTH_Q),
    row(VALUE, "€1,200.", True, "the same number in another currency", screen=WORTH_Q),
    row(VALUE, "Around 1500, I'd guess.", True, "a bare amount the story does not give",
        screen=WORTH_Q),
    row(VALUE, "It was 1200 pounds all in.", True, "the amount, before it was asked"),
    row(VALUE_NZD, "2,400 dollars.", False, "dollars may be the story's NZ dollars",
        screen=WORTH_Q),
    row(VALUE_NZD, "£2,400.", True, "pounds are not NZ dollars", screen=WORTH_Q),
    # partial dates
    row(DATE, "It was in March.", False, "a month alone does not give the date"),
    row(DATE, "Earlier in 2025.", False, "the story's year", screen=WHEN_Q),
    row(DATE, "March 2025.", False, "the story's month and year", screen=WHEN_Q),
    row(DATE, "It happened on 3 March.", True, "day and month give the date, unasked"),
    row(DATE, "3/3/25.", False, "the story's date in another format", screen=WHEN_Q),
    row(DATE, "It was 4 March 2025.", True, "another day", screen=WHEN_Q),
    row(DATE, "It was 3 March 2024.", True, "the story's day in another year", screen=WHEN_Q),
    row(DATE, "Sometime in April.", True, "a month the story does not give", screen=WHEN_Q),
    row(DATE, "Back in 2024.", True, "a year the story does not give", screen=WHEN_Q),
    # times
    row(TIME, "5:40 in the evening.", False, "the story's time, 12-hour", screen=WHEN_Q),
    row(TIME, "17:40.", False, "the story's time, 24-hour", screen=WHEN_Q),
    row(TIME, "About 5:45 pm.", True, "another time", screen=WHEN_Q),
    row(TIME, "About 5.", False, "a bare hour is no time"),
    row(TIME, "It was 5:40.", True, "the time, before it was asked"),
    row(WINDOW, "Some time from 7pm to 11pm.", True, "both ends of the window, unasked"),
    row(WINDOW, "It was after 7pm.", False, "one end does not give the window"),
    row(WINDOW, "That's wrong: between 7pm and 11pm.", False,
        "correcting a window shown as one of its ends",
        screen="Please check: Time of the incident 19:00. Is this correct?"),
    row(WINDOW, "Around 9pm.", True, "a time inside the window the story does not give",
        screen=WHEN_Q),
    # registrations and other codes: case, spacing and punctuation
    row(REG, "lk19xrd", False, "case and spacing", screen=REG_Q),
    row(REG, "LK19-XRD.", False, "a hyphen for the space", screen=REG_Q),
    row(REG, "LK19 XRE", True, "another registration", screen=REG_Q),
    row(REG, "LK19 XRDA", True, "the registration with a letter more", screen=REG_Q),
    row(REG, "It's LK19 XRD, LK19 XRD.", False, "the registration twice", screen=REG_Q),
    row(REG, "The car is LK19XRD.", True, "the registration, unasked, without its space"),
    row(POLICY, "Policy nwf pol 300142", False, "case and spaces", screen=POLICY_Q),
    row(POLICY, "My policy is NWF-POL-300142!", True, "the policy number, unasked"),
)


def _audit(r: Row) -> list[str]:
    view = dataclasses.replace(BASE, initial_message=r.story, facts=r.facts, materials=())
    events = [
        JourneyEvent(step=0, ts="t", screen=ScreenReading(), note="initial message",
                     action=CustomerAction(kind="say", text=r.story)),
        JourneyEvent(step=1, ts="t", screen=ScreenReading(latest_reply=r.screen),
                     action=CustomerAction(kind="say", text=r.text)),
    ]
    return [f"{f.rule}: {f.evidence}" for f in audit_trial(events, view).findings]


@pytest.mark.parametrize("r", TABLE, ids=[f"{r.text[:40]} ({r.why})" for r in TABLE])
def test_the_audit_flags_exactly_what_it_must(r: Row) -> None:
    findings = _audit(r)
    assert bool(findings) is r.must_flag, (r.why, findings)


def test_the_table_covers_both_directions() -> None:
    assert sum(r.must_flag for r in TABLE) >= 20
    assert sum(not r.must_flag for r in TABLE) >= 20
