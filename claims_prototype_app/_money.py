"""Amounts of money: read from what customers and documents write, shown in Heron Mutual's
locale (en_IE, amounts like "€1,250.00") with Babel, converted at the claim rules' fixed
reference rates."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from babel.numbers import format_currency

from ._wording import load

CENT = Decimal("0.01")


def home_currency() -> str:
    code: str = load("money")["home_currency"]
    return code


def locale() -> str:
    name: str = load("money")["locale"]
    return name


@dataclass(frozen=True)
class Money:
    """An amount in one ISO 4217 currency."""

    amount: Decimal
    currency: str

    def shown(self) -> str:
        """As the screen shows it: ``€1,250.00``, ``£649.00``, ``NZ$2,400.00``."""
        return format_currency(self.amount, self.currency, locale=locale())

    def in_gbp(self) -> Decimal | None:
        """The amount in pounds at the reference rates; None for a currency not listed."""
        rate = load("money")["gbp_per_unit"].get(self.currency)
        return None if rate is None else self.amount * Decimal(str(rate))

    def in_home(self) -> Money | None:
        """The amount in the home currency at the reference rates (to the cent)."""
        gbp = self.in_gbp()
        home = load("money")["gbp_per_unit"][home_currency()]
        if gbp is None:
            return None
        amount = (gbp / Decimal(str(home))).quantize(CENT, rounding=ROUND_HALF_UP)
        return Money(amount, home_currency())

    def stored(self) -> str:
        """Plain text for the database: ``1850.00 GBP``."""
        return f"{self.amount.quantize(CENT)} {self.currency}"

    @staticmethod
    def from_stored(text: str) -> Money:
        amount, currency = text.split()
        return Money(Decimal(amount), currency)


_NUMBER = r"(\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)"


def _currency_words() -> list[tuple[str, str]]:
    """(written form, code), longest first: symbols, codes and names."""
    data = load("money")
    pairs = [(sym, code) for sym, code in data["symbols"].items()]
    pairs += [(name, code) for code, names in data["names"].items() for name in names]
    return sorted(pairs, key=lambda p: len(p[0]), reverse=True)


def _currency_at(text: str, before: bool) -> str | None:
    """The currency written right before (``before``) or right after an amount."""
    text = text.strip().lower()
    for written, code in _currency_words():
        w = written.lower()
        if before and text.endswith(w):
            head = text[: -len(w)]
            if not w[0].isalpha() or not head or not head[-1].isalpha():
                return code
        if not before and text.startswith(w):
            tail = text[len(w):]
            if not w[-1].isalpha() or not tail or not tail[0].isalpha():
                return code
    return None


def find_money(text: str, bare: bool = False) -> Money | None:
    """The first amount in ``text`` written with its currency (``£1,850``, ``NZ$2,400``,
    ``1380 euros``); with ``bare`` (a direct answer about a value), a plain number is an
    amount in the home currency. Numbers inside dates, times and codes are never amounts."""
    for m in re.finditer(_NUMBER, text):
        start, end = m.span()
        if (start and (text[start - 1].isalnum() or text[start - 1] in "-/:.")) or (
                end < len(text) and (text[end].isalnum() or text[end] in "-/:")):
            continue
        currency = (_currency_at(text[max(0, start - 20):start], before=True)
                    or _currency_at(text[end:end + 20], before=False))
        if currency is None and not bare:
            continue
        try:
            amount = Decimal(m.group(1).replace(",", ""))
        except InvalidOperation:
            continue
        return Money(amount, currency or home_currency())
    return None
