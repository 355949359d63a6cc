"""The audit reads money as the products' decisions do (``claims_corpus.formats.money``,
Babel), in the product's locale and home currency: a table over currencies and locales, both
ways — an amount the agent showed or the story gives is read whole and is no finding; an
amount nobody gave is flagged as invented."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from claims_corpus.formats import MoneyConventions
from claims_records import CustomerAction, JourneyEvent, ScreenReading
from scoring.fidelity import audit_trial, extract

from .test_precision import BASE, OPENING

# (text, locale, home currency, the one amount read: (amount, currency))
READS = [
    ("€1.234,50", "de_DE", "EUR", ("1234.50", "EUR")),
    ("1.234,50 €", "de_DE", "EUR", ("1234.50", "EUR")),
    ("Es sind 1.234,50 EUR.", "de_DE", "EUR", ("1234.50", "EUR")),
    ("120,000円", "ja_JP", "JPY", ("120000", "JPY")),
    ("見積もりは120,000円です。", "ja_JP", "JPY", ("120000", "JPY")),
    ("￥120,000", "ja_JP", "JPY", ("120000", "JPY")),
    ("INR 1,00,000", "en_IN", "INR", ("100000", "INR")),
    ("₹1,00,000", "en_IN", "INR", ("100000", "INR")),
    ("1.200 pounds", "en_GB", "GBP", ("1.20", "GBP")),  # Babel's en_GB reading: not 200
    ("£1,200.50", "en_GB", "GBP", ("1200.50", "GBP")),
    ("£5k", "en_GB", "GBP", ("5000", "GBP")),
    ("CHF 1'200.50", "de_CH", "CHF", ("1200.50", "CHF")),
    ("NZ$2,400", "en_NZ", "NZD", ("2400", "NZD")),
    ("$2,400", "en_NZ", "NZD", ("2400", "NZD")),
]


@pytest.mark.parametrize(("text", "locale", "currency", "want"), READS,
                         ids=[f"{r[0]} {r[1]}" for r in READS])
def test_amounts_are_read_whole_in_the_products_locale(text: str, locale: str, currency: str,
                                                       want: tuple[str, str]) -> None:
    money = [v for v in extract(text, MoneyConventions(locale=locale, currency=currency))
             if v.kind == "money"]
    assert len(money) == 1, money
    amount, currencies = money[0].key
    assert amount == round(Decimal(want[0]) * 100)
    assert want[1] in currencies  # type: ignore[operator]


# (the agent's text, the customer's answer, locale, currency, must it be flagged)
ANSWERS = [
    ("Der Kostenvoranschlag beträgt 1.234,50 €. Stimmt das?", "Ja, 1.234,50 € stimmt.",
     "de_DE", "EUR", False),
    ("Der Kostenvoranschlag beträgt 1.234,50 €. Stimmt das?", "Nein, es waren 9.999,00 €.",
     "de_DE", "EUR", True),
    ("Der Kostenvoranschlag beträgt €1.234,50. Stimmt das?", "Ja, €1.234,50.",
     "de_DE", "EUR", False),
    ("Der Kostenvoranschlag beträgt 1.234,50 €. Stimmt das?", "Ja, 1.234,50 $.",
     "de_DE", "EUR", True),
    ("見積もりは120,000円です。よろしいですか？", "はい、120,000円です。", "ja_JP", "JPY", False),
    ("見積もりは120,000円です。よろしいですか？", "いいえ、150,000円です。", "ja_JP", "JPY", True),
    ("The estimate is INR 1,00,000. Is that right?", "Yes, ₹1,00,000.", "en_IN", "INR",
     False),
    ("The estimate is INR 1,00,000. Is that right?", "No, it was ₹1,50,000.", "en_IN", "INR",
     True),
    ("The estimate is £1,200. Is that right?", "Yes, 1,200 pounds.", "en_GB", "GBP", False),
    ("The estimate is £1,200. Is that right?", "No, £1,500.", "en_GB", "GBP", True),
]


@pytest.mark.parametrize(("agent", "text", "locale", "currency", "must_flag"), ANSWERS,
                         ids=[f"{a[1]} {a[2]}" for a in ANSWERS])
def test_an_amount_is_invented_only_when_nobody_gave_it(agent: str, text: str, locale: str,
                                                        currency: str,
                                                        must_flag: bool) -> None:
    view = dataclasses.replace(BASE, initial_message=OPENING, facts=(), materials=())
    events = [
        JourneyEvent(step=0, ts="t", screen=ScreenReading(), note="initial message",
                     action=CustomerAction(kind="say", text=OPENING)),
        JourneyEvent(step=1, ts="t", screen=ScreenReading(latest_reply=agent),
                     action=CustomerAction(kind="say", text=text)),
    ]
    audit = audit_trial(events, view, MoneyConventions(locale=locale, currency=currency))
    invented = [f for f in audit.findings if f.rule == "invented"]
    assert bool(invented) is must_flag, [f.evidence for f in audit.findings]
