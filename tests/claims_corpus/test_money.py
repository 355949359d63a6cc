"""Money as products show it, read with Babel: amounts in several locales and currencies, and
``money_matches`` both ways (same amount and currency; never a wrong currency or an amount a
misread grouping or decimal symbol would give)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pydantic import ValidationError

from claims_corpus.formats import HOME_CONVENTIONS, Money, MoneyConventions
from claims_corpus.formats.matching import values_match
from claims_corpus.formats.money import (
    as_money,
    find_amounts,
    format_money,
    money_matches,
    read_amount,
    shows_money,
)

GB = HOME_CONVENTIONS
IN = MoneyConventions(locale="en_IN", currency="INR")
DE = MoneyConventions(locale="de_DE", currency="EUR")
CH = MoneyConventions(locale="de_CH", currency="CHF")
FR = MoneyConventions(locale="fr_FR", currency="EUR")
NZ = MoneyConventions(locale="en_NZ", currency="NZD")
US = MoneyConventions(locale="en_US", currency="USD")
DOLLARS = {"USD", "AUD", "CAD", "NZD", "SGD"}


@pytest.mark.parametrize(("shown", "conventions", "amount", "currencies"), [
    ("₹1,00,000", IN, "100000", {"INR"}),
    ("₹12,34,567.50", IN, "1234567.50", {"INR"}),
    ("INR 1,00,000", IN, "100000", {"INR"}),
    ("1,00,000", IN, "100000", set()),  # names none: the home currency
    ("100,000 rupees", IN, "100000", {"INR"}),
    ("₹1,00,000", GB, "100000", {"INR"}),  # the symbol says INR whatever the locale
    ("1.234,56 €", DE, "1234.56", {"EUR"}),
    ("1.234,56 EUR", DE, "1234.56", {"EUR"}),
    ("50 Euro", DE, "50", {"EUR"}),
    ("CHF 1'200.50", CH, "1200.50", {"CHF"}),
    ("CHF 1’200.50", CH, "1200.50", {"CHF"}),
    ("1 234,56 €", FR, "1234.56", {"EUR"}),
    ("1\u202f234,56 €", FR, "1234.56", {"EUR"}),
    ("NZ$2,400", GB, "2400", {"NZD"}),
    ("NZD 2,400", GB, "2400", {"NZD"}),
    ("2,400 New Zealand dollars", GB, "2400", {"NZD"}),
    ("£7,200", GB, "7200", {"GBP"}),
    ("£1,250.00", GB, "1250.00", {"GBP"}),
    ("7200 GBP", GB, "7200", {"GBP"}),
    ("300 euros", GB, "300", {"EUR"}),
    ("300 pounds", GB, "300", {"GBP"}),
    ("US$45", GB, "45", {"USD"}),
    ("€1,299.50", GB, "1299.50", {"EUR"}),
    ("$45", US, "45", {"USD"}),  # the locale says which dollar
    ("$45", NZ, "45", {"NZD"}),
    ("$45", IN, "45", {"USD"}),  # en_IN writes the US dollar as "$"
    ("about 2 items, £300 in all", GB, "300", {"GBP"}),  # the amount naming a currency
])
def test_shown_amounts_are_read_in_the_products_locale(shown: str,
                                                       conventions: MoneyConventions,
                                                       amount: str,
                                                       currencies: set[str]) -> None:
    got = read_amount(shown, conventions)
    assert got is not None
    assert (got.amount, set(got.currencies)) == (Decimal(amount), currencies)


def test_a_bare_dollar_is_any_dollar_unless_the_locale_says_which() -> None:
    got = read_amount("$2,400", GB)
    assert got is not None and got.currencies >= DOLLARS
    assert "GBP" not in got.currencies and "EUR" not in got.currencies


@pytest.mark.parametrize(("shown", "conventions"), [
    ("1.234,56 €", GB),  # a German amount in an English locale: not read, not misread
    ("1,234.56 €", DE),
    ("12,34", GB),  # a decimal comma where the locale groups with it
    ("7,2000", GB),
    ("12.03.2026", GB),
    ("no amount here", GB),
])
def test_a_number_the_locale_would_not_write_is_not_read(shown: str,
                                                         conventions: MoneyConventions) -> None:
    assert read_amount(shown, conventions) is None


def test_a_mark_is_read_only_next_to_the_amount() -> None:
    za = MoneyConventions(locale="en_ZA", currency="ZAR")
    assert find_amounts("R300", za)[0].currencies == {"ZAR"}
    assert find_amounts("300 Road", za)[0].currencies == frozenset()  # "R" starts a word
    assert find_amounts("300 VAT", GB)[0].currencies == frozenset()  # not an ISO code
    assert find_amounts("paid 300 then", GB)[0].mark == ""


def test_each_amount_found_says_where_its_number_stands() -> None:
    text = "GBP 1,400 claimed, £150.50 excess, 1,250 payable"
    found = find_amounts(text, GB)
    assert [text[slice(*a.span)] for a in found] == ["1,400", "150.50", "1,250"]
    assert [a.amount for a in found] == [Decimal(1400), Decimal("150.50"), Decimal(1250)]
    assert read_amount(Money(amount=5, currency="EUR")).span == (0, 0)  # not read from a text


@pytest.mark.parametrize(("expected", "shown", "conventions"), [
    (Money(amount=100000, currency="INR"), "₹1,00,000", IN),
    (Money(amount=100000, currency="INR"), "1,00,000", IN),  # home currency
    (Money(amount=100000, currency="INR"), "₹1,00,000", GB),
    (Money(amount=1234.56, currency="EUR"), "1.234,56 €", DE),
    (Money(amount=1234.56, currency="EUR"), "1.234,56", DE),
    (Money(amount=1200.5, currency="CHF"), "CHF 1'200.50", CH),
    (Money(amount=2400, currency="NZD"), "NZ$2,400", GB),
    (Money(amount=2400, currency="NZD"), "$2,400", GB),  # any dollar currency
    (Money(amount=2400, currency="NZD"), "$2,400", NZ),
    (Money(amount=7200, currency="GBP"), "£7,200", GB),
    (Money(amount=7200, currency="GBP"), "7200 GBP", GB),
    (Money(amount=7200, currency="GBP"), "£7,200", IN),  # en_IN writes GBP as "£"
    (Money(amount=300, currency="EUR"), "300 euros", GB),
    (Money(amount=45, currency="USD"), "US$45", GB),
    (1850, "1850", GB),  # a pack's bare number is in pounds, as is a bare shown amount
    ("£250", "250 pounds", GB),
])
def test_money_matches(expected: object, shown: str, conventions: MoneyConventions) -> None:
    assert money_matches(expected, shown, conventions)
    assert values_match("money", expected, shown, conventions)


@pytest.mark.parametrize(("expected", "shown", "conventions"), [
    (Money(amount=100000, currency="INR"), "₹1,000", IN),  # 100x off
    (Money(amount=1000, currency="INR"), "₹1,00,000", IN),
    (Money(amount=100000, currency="INR"), "£1,00,000", IN),  # wrong currency
    (Money(amount=100000, currency="INR"), "1,00,000", GB),  # home currency is GBP
    (Money(amount=100000, currency="INR"), "$1,00,000", IN),  # "$" is USD in en_IN
    (Money(amount=123456, currency="EUR"), "1.234,56 €", DE),  # decimals read as groups
    (Money(amount=1.23456, currency="EUR"), "1.234,56 €", GB),  # groups read as decimals
    (Money(amount=1234.56, currency="EUR"), "1.234,56 €", GB),  # not this locale's number
    (Money(amount=1234, currency="GBP"), "12,34", GB),
    (Money(amount=1234, currency="EUR"), "1,234 €", DE),  # in de_DE that is 1.234
    (Money(amount=2400, currency="NZD"), "£2,400", GB),
    (Money(amount=2400, currency="NZD"), "2400", GB),  # names none: pounds
    (Money(amount=2400, currency="NZD"), "$2,400", US),  # en_US's "$" is USD
    (Money(amount=2400, currency="EUR"), "$2,400", GB),
    (Money(amount=7200, currency="GBP"), "£720", GB),
    (Money(amount=7200, currency="GBP"), "7200 EUR", GB),
    (Money(amount=300, currency="GBP"), "300 euros", GB),
    (Money(amount=300, currency="EUR"), "300 pounds", GB),
    (Money(amount=1200.5, currency="CHF"), "1'200.50", GB),  # not an en_GB number
])
def test_money_does_not_match(expected: object, shown: str,
                              conventions: MoneyConventions) -> None:
    assert not money_matches(expected, shown, conventions)
    assert not values_match("money", expected, shown, conventions)


def test_a_note_shows_an_amount_only_with_its_currency() -> None:
    money = Money(amount=100000, currency="INR")
    assert shows_money("We will pay ₹1,00,000 towards it.", money, IN)
    assert shows_money("Settled at INR 1,00,000.", money, IN)
    assert not shows_money("We will pay 1,00,000 towards it.", money, IN)
    assert not shows_money("We will pay ₹10,000 towards it.", money, IN)


def test_a_packs_amount_and_formatting() -> None:
    assert as_money("€250") == Money(amount=250, currency="EUR")
    assert as_money(1850) == Money(amount=1850, currency="GBP")
    # a pack's money value as its JSON holds it keeps its currency
    assert as_money({"amount": 2400, "currency": "NZD"}) == Money(amount=2400, currency="NZD")
    assert as_money({"amount": 2400, "currency": "nzd"}) is None  # not an ISO 4217 code
    assert money_matches({"amount": 1250, "currency": "EUR"}, "€1,250.00",
                         MoneyConventions(locale="en_IE", currency="EUR"))
    assert not money_matches({"amount": 1250, "currency": "EUR"}, "£1,250.00")
    assert format_money(Money(amount=5000, currency="GBP")) == "£5,000"
    assert format_money(Money(amount=100000, currency="INR"), "en_IN") == "₹1,00,000"
    assert format_money(Money(amount=1234.5, currency="EUR"), "de_DE") == "1.234,50\xa0€"
    assert format_money(Money(amount=1234.5, currency="GBP")) == "£1,234.50"
    assert format_money(Money(amount=0.5, currency="GBP")) == "£0.50"


def test_conventions_take_only_what_babel_knows() -> None:
    assert MoneyConventions(locale="en-IN", currency="INR").locale == "en_IN"
    with pytest.raises(ValidationError, match="unknown locale"):
        MoneyConventions(locale="xx_QQ")
    with pytest.raises(ValidationError, match="unknown currency"):
        MoneyConventions(currency="QQQ")
