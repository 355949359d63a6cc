"""The claim rules: parsing, document reading, every check outcome, review rule, triage."""

from __future__ import annotations

import pytest

from claims_reference_app import rules
from claims_reference_app.rules import DocumentReading, SuppliedDocument

from .conftest import make_pdf


@pytest.mark.parametrize(
    "text,expected",
    [
        ("14 March 2026", "2026-03-14"),
        ("2026-03-14", "2026-03-14"),
        ("14/03/2026", "2026-03-14"),
        ("it was the 3rd of April, 2026", "2026-04-03"),
        ("March 14, 2026", "2026-03-14"),
        ("31/02/2026", None),
        ("last night", None),
    ],
)
def test_parse_date(text: str, expected: str | None) -> None:
    assert rules.parse_date(text) == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("17:40", "17:40"),
        ("5:40 pm", "17:40"),
        ("about 5:40 in the evening", "17:40"),
        ("around 9am", "09:00"),
        ("11.15pm", "23:15"),
        ("12:30 am", "00:30"),
        ("noon", "12:00"),
        ("on 14/03/2026", None),
        ("no idea", None),
    ],
)
def test_parse_time(text: str, expected: str | None) -> None:
    assert rules.parse_time(text) == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Yes", True),
        ("yeah it can", True),
        ("No", False),
        ("Nobody was hurt", False),
        ("It can't be driven", False),
        ("I was hurt a bit", True),
        ("hmm", None),
    ],
)
def test_parse_yes_no(text: str, expected: bool | None) -> None:
    assert rules.parse_yes_no(text) is expected


def test_parse_money_registration_policy_and_choice() -> None:
    assert rules.parse_money("£1,250.50") == {"amount": 1250.5, "currency": "GBP"}
    assert rules.parse_money("about 2k") == {"amount": 2000, "currency": "GBP"}
    assert rules.parse_registration("my car ab12cde") == "AB12 CDE"
    assert rules.parse_registration("on Irish plates, reg 211 lh 4587") == "211-LH-4587"
    assert rules.parse_registration("Irish reg 08-D-12345") == "08-D-12345"
    # a date after a short word is not a plate typed in lower case; a plate beside it is read
    assert rules.parse_registration("It happened on 29 May 2026") is None
    assert rules.parse_registration("on 29 May, reg SF69 TMK") == "SF69 TMK"
    assert rules.parse_registration("AB12 MAY") == "AB12 MAY"
    assert rules.parse_registration("plaque AB-123-CD") == "AB-123-CD"
    assert rules.parse_registration("Kennzeichen M-AB 1234") == "M-AB 1234"
    assert rules.parse_registration("kenteken 12-ABC-3") == "12-ABC-3"
    for text in ("On 20 February 2026 at 08:15", "NWF-POL-100234", "12-03-26", "a 2-in-1",
                 "we were 15 at 10", "Liverpool L3 6AB", "Wi-Fi"):
        assert rules.parse_registration(text) is None, text
    assert rules.parse_fact("vehicle_registration", "It's 7ABC123, a California plate.",
                            "motor") == "7ABC123"
    assert rules.parse_fact("vehicle_registration", "It's 211-LH-4587", "motor") == "211-LH-4587"
    assert rules.parse_fact("vehicle_registration", "I don't know it", "motor") is None
    assert rules.extract_facts("my US car 7ABC123 was hit") == {}
    assert rules.parse_policy_number("it's nwf-pol-100234") == "NWF-POL-100234"
    assert rules.parse_choice("motor", "Collision") == "collision"
    assert rules.parse_choice("home", "a pipe burst upstairs") == "escape_of_water"
    assert rules.parse_choice("contents", "Something else") == "other"
    assert rules.parse_choice("motor", "blue") is None


@pytest.mark.parametrize(("text", "amount", "currency"), [
    ("It cost NZ$2,400 in Auckland.", 2400, "NZD"),
    ("2,400 NZD", 2400, "NZD"),
    ("about 300 euros", 300, "EUR"),
    ("1850", 1850, "GBP"),
])
def test_parse_money_keeps_the_currency(text: str, amount: float, currency: str) -> None:
    assert rules.parse_money(text) == {"amount": amount, "currency": currency}


@pytest.mark.parametrize(("text", "window"), [
    ("Some time between 1pm and 4pm, I was at the shops.", "13:00-16:00"),
    ("from 13:00 to 16:00", "13:00-16:00"),
    ("13:00-16:00", "13:00-16:00"),
    ("at 17:40, then again at 18:00", None),  # two times, not a window
    ("between 4pm and 1pm", None),  # not in order
])
def test_parse_time_window(text: str, window: str | None) -> None:
    assert rules.parse_time_window(text) == window
    assert rules.parse_fact("incident_time", text) == (window or rules.parse_time(text))


def test_a_date_is_not_a_police_reference() -> None:
    assert rules.parse_police_reference("They'll send it by 20 March 2026.") is None
    assert rules.parse_police_reference("It's MER-26-0221-5581.") == "MER-26-0221-5581"


def test_extract_facts_only_when_unambiguous() -> None:
    got = rules.extract_facts("On 14 March 2026 at 17:40 my car AB12 CDE was hit. NWF-POL-100234")
    assert got == {
        "incident_date": "2026-03-14",
        "incident_time": "17:40",
        "vehicle_registration": "AB12 CDE",
        "policy_number": "NWF-POL-100234",
    }
    assert "incident_date" not in rules.extract_facts("between 1 March 2026 and 3 March 2026")


def test_needed_facts_and_materials_follow_the_rules() -> None:
    assert rules.needed_facts("home") == [
        "policy_number",
        "incident_date",
        "incident_time",
        "incident_type",
        "incident_description",
        "property_habitable",
        "injuries",
    ]
    assert rules.needed_facts("motor", "theft")[-1] == "police_reference"
    assert rules.materials_needed("motor", "collision") == ["damage_photo", "repair_quote"]
    assert rules.materials_needed("motor", "theft") == ["damage_photo"]
    assert rules.materials_needed("contents", "theft") == ["damage_photo", "purchase_receipt"]


# --------------------------------------------------------------------------- documents


def test_read_document_complete() -> None:
    r = rules.read_document(make_pdf("REPAIR QUOTE", "Quote date", "18 March 2026"))
    assert (r.kind, r.date, r.pages_total, r.pages_supplied) == (
        "repair_quote",
        "2026-03-18",
        2,
        [1, 2],
    )
    assert r.total == 840.0 and not r.incomplete and r.date_status == "read"


def test_read_document_date_on_missing_page() -> None:
    pdf = make_pdf(
        "REPAIR QUOTE", "Quote date", "10 March 2026", pages_total=2, supplied=(2,), date_page=1
    )
    r = rules.read_document(pdf)
    assert r.missing_pages == [1] and r.date is None and r.date_status == "missing_page"


def test_read_document_garbage_is_unreadable() -> None:
    r = rules.read_document(b"%PDF-1.4 not really a pdf")
    assert not r.readable and r.date_status == "unreadable"


# --------------------------------------------------------------------------- checks


def _doc(kind: str, date: str | None, total: int = 2, supplied: tuple[int, ...] = (1, 2)):
    return SuppliedDocument(
        f"{kind}.pdf",
        DocumentReading(
            readable=True,
            kind=kind,
            date=date,
            date_label="Document date",
            pages_total=total,
            pages_supplied=list(supplied),
        ),
    )


@pytest.mark.parametrize(
    "docs,incident,outcome",
    [
        ([], "2026-03-14", "not_applicable"),
        ([_doc("purchase_receipt", "2026-03-20")], "2026-03-14", "hit"),
        ([_doc("purchase_receipt", "2026-03-14")], "2026-03-14", "clear"),  # same day is clear
        ([_doc("purchase_receipt", "2025-12-01")], "2026-03-14", "clear"),
        ([_doc("purchase_receipt", None, supplied=(2,))], "2026-03-14", "not_checked"),
        ([_doc("purchase_receipt", None)], "2026-03-14", "not_checked"),
        ([_doc("purchase_receipt", "2026-03-20")], None, "not_checked"),
    ],
)
def test_receipt_after_incident(docs, incident, outcome) -> None:
    assert rules.check_receipt_after_incident(docs, incident).outcome == outcome


def test_an_invoice_is_not_a_receipt_and_its_total_counts_for_high_value() -> None:
    invoice = SuppliedDocument("tow.pdf", DocumentReading(
        readable=True, kind="invoice", date="2026-03-20", pages_total=1, pages_supplied=[1],
        total=7200.0, currency="GBP"))
    assert rules.check_receipt_after_incident([invoice], "2026-03-14").outcome == "not_applicable"
    assert rules.check_quote_before_incident([invoice], "2026-03-14").outcome == "not_applicable"
    assert "high_value" in rules.triage("motor", {}, [invoice], False).reasons


def test_a_receipt_whoever_asked_for_it() -> None:
    pdf = make_pdf("RECEIPT", "Receipt date", "20 March 2026")
    doc = SuppliedDocument("r.pdf", rules.read_document(pdf))
    assert rules.check_receipt_after_incident([doc], "2026-03-14").outcome == "hit"


@pytest.mark.parametrize(("value", "high"), [
    ({"amount": 9000, "currency": "NZD"}, False),  # 4230 GBP at the reference rate
    ({"amount": 12000, "currency": "NZD"}, True),
    ({"amount": 6000, "currency": "XYZ"}, False),  # no rate: never high value
    (5001, True),
])
def test_high_value_in_pounds_at_the_reference_rates(value: object, high: bool) -> None:
    reasons = rules.triage("contents", {"items_value": value}, [], False).reasons
    assert ("high_value" in reasons) is high


@pytest.mark.parametrize(
    "docs,incident,outcome",
    [
        ([_doc("purchase_receipt", "2026-03-01")], "2026-03-14", "not_applicable"),
        ([_doc("repair_quote", "2026-03-10")], "2026-03-14", "hit"),
        ([_doc("repair_quote", "2026-03-14")], "2026-03-14", "clear"),
        ([_doc("repair_quote", "2026-03-18")], "2026-03-14", "clear"),
        ([_doc("repair_quote", None, supplied=(2,))], "2026-03-14", "not_checked"),
    ],
)
def test_quote_before_incident(docs, incident, outcome) -> None:
    assert rules.check_quote_before_incident(docs, incident).outcome == outcome


def test_quote_date_on_missing_page_is_not_checked_and_says_why() -> None:
    pdf = make_pdf("REPAIR QUOTE", "Quote date", "10 March 2026", supplied=(1,), date_page=2)
    result = rules.check_quote_before_incident(
        [SuppliedDocument("quote.pdf", rules.read_document(pdf))], "2026-03-14"
    )
    assert result.outcome == "not_checked"
    assert "missing page" in result.rests_on


@pytest.mark.parametrize(
    "found,dates,outcome",
    [
        (False, [], "not_checked"),
        (True, [], "clear"),
        (True, ["2025-09-01"], "clear"),
        (True, ["2025-09-01", "2026-01-10"], "hit"),
        (True, ["2024-01-01", "2026-01-10"], "clear"),  # one is older than 365 days
        (True, ["2025-03-14", "2026-03-14"], "hit"),  # both ends of the window count
        (True, ["2025-03-13", "2026-03-14"], "clear"),  # 366 days before does not
        (True, ["2026-03-15", "2026-03-20"], "clear"),  # after the incident never counts
    ],
)
def test_prior_claims_12m(found, dates, outcome) -> None:
    assert rules.check_prior_claims_12m(found, dates, "2026-03-14").outcome == outcome


@pytest.mark.parametrize(
    "start,outcome",
    [
        (None, "not_checked"),
        ("2026-03-01", "hit"),
        ("2026-03-14", "hit"),
        ("2026-02-12", "clear"),  # exactly 30 days: clear
        ("2026-02-13", "hit"),
        ("2026-03-20", "clear"),  # incident before the start: clear
    ],
)
def test_policy_start_30d(start, outcome) -> None:
    assert rules.check_policy_start_30d(start, "2026-03-14").outcome == outcome


@pytest.mark.parametrize(("found", "rests_on"), [
    (True, "the policy record holds no start date"),  # data the system does not hold
    (False, "policy not found"), (None, "policy not found")])
def test_policy_start_30d_says_why_it_cannot_be_made(found, rests_on) -> None:
    result = rules.check_policy_start_30d(None, "2026-03-14", found)
    assert (result.outcome, result.rests_on) == ("not_checked", rests_on)
    result = rules.check_policy_start_30d("2026-01-01", None, found)
    assert (result.outcome, result.rests_on) == ("not_checked", "incident date not known")


def test_guess_unchecked_shows_only_uncheckable_checks_as_clear() -> None:
    from claims_reference_app import _faults

    results = [rules.CheckResult("quote_before_incident", "not_checked", "no date"),
               rules.CheckResult("receipt_after_incident", "hit", "after"),
               rules.CheckResult("policy_start_30d", "clear", "long ago")]
    assert _faults.checks([], results) == results
    guessed = _faults.checks(["guess_unchecked"], results)
    assert [r.outcome for r in guessed] == ["clear", "hit", "clear"]


@pytest.mark.parametrize(
    "checks,expected",
    [
        ({"quote_before_incident": "hit"}, True),
        ({"receipt_after_incident": "hit"}, True),
        ({"prior_claims_12m": "hit"}, False),
        ({"prior_claims_12m": "hit", "policy_start_30d": "hit"}, True),
        ({"prior_claims_12m": "hit", "policy_start_30d": "not_checked"}, False),
        ({"quote_before_incident": "not_checked", "receipt_after_incident": "not_checked"}, False),
        ({}, False),
    ],
)
def test_review_required_rule(checks, expected) -> None:
    assert rules.review_required(checks) is expected


def test_innocent_explanation_does_not_clear_a_hit() -> None:
    # The customer explains the quote predates the loss because they asked the garage for a
    # price on an earlier scratch: the story changes nothing, the printed date decides.
    docs = [_doc("repair_quote", "2026-03-01")]
    facts = {"incident_description": "The garage quoted earlier for an old scratch, honestly."}
    result = rules.check_quote_before_incident(docs, "2026-03-14")
    assert result.outcome == "hit"
    assert rules.review_required({result.check_id: result.outcome}) is True
    assert "review_required" in rules.triage("motor", facts, docs, True).reasons


def test_innocent_control_looks_suspicious_but_is_clear() -> None:
    # New policy 45 days old, one prior claim, receipt dated the day of the incident: all clear.
    docs = [_doc("purchase_receipt", "2026-03-14")]
    outcomes = {
        "receipt_after_incident": rules.check_receipt_after_incident(docs, "2026-03-14").outcome,
        "quote_before_incident": rules.check_quote_before_incident(docs, "2026-03-14").outcome,
        "prior_claims_12m": rules.check_prior_claims_12m(
            True, ["2025-11-02"], "2026-03-14"
        ).outcome,
        "policy_start_30d": rules.check_policy_start_30d("2026-01-28", "2026-03-14").outcome,
    }
    assert outcomes == {
        "receipt_after_incident": "clear",
        "quote_before_incident": "not_applicable",
        "prior_claims_12m": "clear",
        "policy_start_30d": "clear",
    }
    assert rules.review_required(outcomes) is False


# --------------------------------------------------------------------------- triage


def test_triage_classes_reasons_and_urgency() -> None:
    t = rules.triage(
        "motor",
        {"vehicle_driveable": True, "third_party_involved": False, "injuries": False},
        [],
        False,
    )
    assert (t.triage_class, t.reasons, t.urgency) == (
        "fast_track",
        ["vehicle_driveable", "minor_damage"],
        "normal",
    )
    t = rules.triage(
        "motor",
        {"vehicle_driveable": False, "third_party_involved": True, "injuries": True},
        [],
        False,
    )
    assert t.triage_class == "complex" and t.urgency == "urgent"
    assert t.reasons == ["injury_reported", "vehicle_not_driveable", "third_party_involved"]
    t = rules.triage(
        "home", {"incident_type": "escape_of_water", "property_habitable": False}, [], False
    )
    assert t.triage_class == "complex" and t.urgency == "urgent"
    assert t.reasons == ["escape_of_water", "property_uninhabitable"]
    t = rules.triage(
        "contents",
        {"incident_type": "theft", "items_value": 6200, "police_reference": "CR-2026-0456"},
        [],
        False,
    )
    assert t.triage_class == "complex"
    assert t.reasons == ["theft", "police_report", "high_value"]
    t = rules.triage(
        "contents", {"incident_type": "accidental_damage", "items_value": 300}, [], False
    )
    assert (t.triage_class, t.reasons) == ("fast_track", ["single_item"])
    incomplete = [_doc("repair_quote", None, supplied=(2,))]
    t = rules.triage("motor", {"vehicle_driveable": True}, incomplete, False)
    assert t.triage_class == "standard" and "document_incomplete" in t.reasons
    big_quote = [
        SuppliedDocument(
            "q.pdf",
            DocumentReading(
                readable=True,
                kind="repair_quote",
                date="2026-03-20",
                pages_total=1,
                pages_supplied=[1],
                total=7200.0,
            ),
        )
    ]
    assert (
        "high_value" in rules.triage("home", {"incident_type": "storm"}, big_quote, False).reasons
    )
