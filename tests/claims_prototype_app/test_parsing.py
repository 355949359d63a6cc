"""Reading details from what customers type, and amounts in euros (en_IE)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from claims_prototype_app import Money
from claims_prototype_app import _parsing as P
from claims_prototype_app._money import find_money


@pytest.mark.parametrize(("said", "value"), [
    ("It happened on 12 March 2026.", "2026-03-12"),
    ("on the 3rd of February 2026", "2026-02-03"),
    ("March 4, 2026", "2026-03-04"),
    ("2026-01-31", "2026-01-31"),
    ("12/03/2026", "2026-03-12"),
    ("31 February 2026", None),
    ("last Tuesday", None),
])
def test_dates(said: str, value: str | None) -> None:
    assert P.parse_date(said) == value


@pytest.mark.parametrize(("said", "value"), [
    ("It was about twenty to six in the evening, 17:40.", "17:40"),
    ("Around 8:45pm.", "20:45"),
    ("id say 12:45am.", "00:45"),
    ("a quarter past eight in the morning", "08:15"),
    ("Between 1am and 6am, I don't know exactly when.", "01:00-06:00"),
    ("Some time between 10:15am and 11:40am, I can't be more exact.", "10:15-11:40"),
    ("Between 9:30am and 12pm", "09:30-12:00"),
    ("I really don't know", None),
    ("It cost £1,850 on 21 February 2026", None),
])
def test_times_and_windows(said: str, value: str | None) -> None:
    assert P.parse_time(said) == value


@pytest.mark.parametrize(("said", "value"), [
    ("Yes, I can still drive it.", "yes"), ("It drives fine, yes.", "yes"),
    ("No, it can't be driven.", "no"), ("Nobody was hurt, no.", "no"),
    ("No, it's been stolen, I haven't got it.", "no"), ("just me", "no"),
    ("Not sure", None),
])
def test_yes_no(said: str, value: str | None) -> None:
    assert P.parse_yes_no(said) == value


@pytest.mark.parametrize(("said", "plate"), [
    ("The registration is LK19 XRD.", "LK19 XRD"),
    ("It's on Irish plates, the reg is 211-LH-4587.", "211-LH-4587"),
    ("French plates: AB-123-CD", "AB-123-CD"),
    ("German car, M-AB 1234", "M-AB 1234"),
    ("Dutch plate 12-ABC-3", "12-ABC-3"),
])
def test_plates_as_their_country_prints_them(said: str, plate: str) -> None:
    assert P.parse_registration(said) == plate


def test_a_loose_plate_is_kept_only_as_a_direct_answer() -> None:
    assert P.parse_registration("it is 7ABC123") is None
    assert P.parse_registration("7ABC123", answer=True) == "7ABC123"


def test_references_and_policy_numbers() -> None:
    said = "My policy is NWF-POL-300142 and the crime reference is MER-26-0221-5581."
    assert P.parse_policy(said) == "NWF-POL-300142"
    assert P.parse_reference(said) == "MER-26-0221-5581"
    assert P.parse_reference("I have no reference yet") is None


@pytest.mark.parametrize(("said", "amount", "currency"), [
    ("About £1,850 for both together.", "1850", "GBP"),
    ("It cost NZ$2,400 when I bought it", "2400", "NZD"),
    ("abuot A$1,850 in total", "1850", "AUD"),
    ("It was worth US$2,400.", "2400", "USD"),
    ("About €1,380 in total.", "1380", "EUR"),
    ("around 900 euros", "900", "EUR"),
    ("1200 GBP", "1200", "GBP"),
])
def test_amounts_keep_the_currency_the_customer_names(said: str, amount: str,
                                                      currency: str) -> None:
    assert find_money(said) == Money(Decimal(amount), currency)


def test_a_bare_number_is_an_amount_only_in_a_direct_answer_and_then_in_euros() -> None:
    assert find_money("It happened on 21 February 2026 at 14:30") is None
    assert find_money("about 640", bare=True) == Money(Decimal(640), "EUR")


def test_amounts_are_shown_in_en_ie() -> None:
    assert Money(Decimal("1250"), "EUR").shown() == "€1,250.00"
    assert Money(Decimal("649"), "GBP").shown() == "£649.00"
    assert Money(Decimal("2400"), "NZD").shown() == "NZ$2,400.00"
    assert Money(Decimal("462"), "GBP").in_home() == Money(Decimal("543.53"), "EUR")
    assert Money(Decimal("100"), "XYZ").in_home() is None
