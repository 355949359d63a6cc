"""Money as a product shows it, read with Babel (the Unicode CLDR's locale data).

A product writes amounts the way its locale does ("₹1,00,000" in ``en_IN``, "1.234,56 €" in
``de_DE``, "CHF 1'200.50" in ``de_CH``) and names a currency next to the amount by an ISO 4217
code ("7200 GBP", "NZD 2,400"), a symbol ("£", "NZ$", "US$", "₹") or a name ("300 euros",
"2,400 New Zealand dollars"). ``MoneyConventions`` says which locale a product shows and its
home currency, in which an amount naming no currency is. Every currency fact below comes from
Babel; nothing here lists currencies by hand.

- Numbers are read with ``babel.numbers.parse_decimal`` in the product's locale, strictly: a
  number the locale would not write that way ("1.234,56" in ``en_GB``) is not read at all
  rather than misread. One tolerance: digits grouped in twos or threes ending in a group of
  three ("1,00,000" or "100,000") read the same in any locale that groups with that symbol.
- A symbol stands for every current currency some English locale, some locale of the
  product's language or some locale of the product's country writes with it ("$": the US,
  Australian, Canadian, New Zealand... dollar). A symbol that stands for several is the home
  currency when that is one of them, else the one the product's own locale writes with it,
  else any of them (a bare "$" shown by an ``en_GB`` product matches any dollar currency).
  Currency names ("euros", "Indian rupees", and their last word: "pounds", "dollars") are
  read in English and in the product's language, and resolved the same way.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Annotated

from babel import Locale, UnknownLocaleError
from babel.core import get_global
from babel.localedata import locale_identifiers
from babel.numbers import (
    NumberFormatError,
    get_currency_name,
    get_currency_symbol,
    get_decimal_symbol,
    get_group_symbol,
    is_currency,
    list_currencies,
    parse_decimal,
)
from pydantic import AfterValidator, ConfigDict, Field

from ._base import Strict
from .values import HOME_CURRENCY, Money

# The locale an amount is read in when nothing says otherwise: the claim rules' own.
DEFAULT_LOCALE = "en_GB"
# Two amounts are the same when they differ by less than half a penny.
PENNY = Decimal("0.005")
# Characters standing for one another as a group separator ("1 234" for "1\u202f234",
# "1'200" for "1’200").
_SPACES = " \u00a0\u202f\u2009"
# Every currency sign of Unicode (category Sc: $, £, €, ₹, ¥, ₩, …), escaped for a character
# class of a regular expression.
CURRENCY_SIGNS = re.escape("".join(c for c in map(chr, range(0x10000))
                                   if unicodedata.category(c) == "Sc"))
_APOSTROPHES = "'\u2019\u02bc"


def check_locale(value: str) -> str:
    """A locale Babel knows (``en_GB``, ``en-IN``), as Babel writes it (``en_IN``)."""
    try:
        return str(Locale.parse(value.replace("-", "_")))
    except (ValueError, TypeError, UnknownLocaleError) as exc:
        raise ValueError(f"unknown locale {value!r}: give a CLDR locale such as 'en_GB', "
                         "'en_IN' or 'de_DE'") from exc


def check_currency(value: str) -> str:
    """An ISO 4217 currency code Babel knows (``GBP``, ``INR``)."""
    if not is_currency(value):
        raise ValueError(f"unknown currency {value!r}: give an ISO 4217 code such as 'GBP', "
                         "'EUR' or 'INR'")
    return value


LocaleId = Annotated[str, AfterValidator(check_locale)]
CurrencyCode = Annotated[str, AfterValidator(check_currency)]


class MoneyConventions(Strict):
    """How a product shows money: the locale it writes amounts in, and its home currency."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    locale: LocaleId = Field(DEFAULT_LOCALE, description="CLDR locale the product writes "
                             "amounts in: 'en_GB', 'en_IN', 'de_DE', ...")
    currency: CurrencyCode = Field(HOME_CURRENCY, description="ISO 4217 code of the "
                                   "product's home currency: an amount naming none is in it.")


HOME_CONVENTIONS = MoneyConventions()


@dataclass(frozen=True)
class ShownAmount:
    """One amount found in a text: its value, the mark naming its currency as written (a
    code, symbol or name; "" for none), the currencies that mark may stand for (empty:
    the amount names no currency) and where its number stands in the text it was read from
    (``(0, 0)`` for a value not read from a text)."""

    amount: Decimal
    mark: str
    currencies: frozenset[str]
    span: tuple[int, int] = (0, 0)

    def currencies_in(self, conventions: MoneyConventions) -> frozenset[str]:
        """The currencies the amount may be in (the home currency when it names none)."""
        return self.currencies or frozenset({conventions.currency})


# ---------------------------------------------------------------- Babel's currency data
@lru_cache(maxsize=1)
def current_currencies() -> frozenset[str]:
    """Every currency some country uses as legal tender today, by Babel's data."""
    table: Mapping[str, list[tuple[str, object, object, bool]]] = get_global(
        "territory_currencies")
    return frozenset(code for uses in table.values() for code, _start, end, tender in uses
                     if end is None and tender)


@lru_cache(maxsize=1)
def iso_codes() -> frozenset[str]:
    """Every ISO 4217 code Babel knows, current or historic."""
    return frozenset(list_currencies())


def _locales_for(language: str, territory: str | None) -> list[str]:
    """English, the product's language and the product's country: whose symbols are read."""
    out = []
    for ident in locale_identifiers():
        parts = ident.split("_")
        if parts[0] in ("en", language) or (territory is not None and parts[-1] == territory):
            out.append(ident)
    return out


def _symbols(language: str, territory: str | None) -> dict[str, frozenset[str]]:
    """Currency symbol -> the current currencies written with it."""
    current = current_currencies()
    found: dict[str, set[str]] = {}
    for ident in _locales_for(language, territory):
        for code, symbol in Locale.parse(ident).currency_symbols.items():
            if code in current and symbol and symbol != code and not symbol.isdigit():
                found.setdefault(symbol, set()).add(code)
    return {symbol: frozenset(codes) for symbol, codes in found.items()}


def _names(language: str) -> dict[str, frozenset[str]]:
    """A currency's name in lower case, singular and plural, and its last word ("dollars")
    -> the current currencies so called, in English and in ``language``."""
    found: dict[str, set[str]] = {}
    for lang in sorted({"en", language}):
        display = Locale.parse(lang).currencies
        for code in current_currencies():
            names = {display.get(code, "")}
            names |= {get_currency_name(code, count, lang) for count in (1, 2, 5)}
            for name in (n.lower() for n in names if n and n != code):
                for key in {name, name.split()[-1]}:
                    found.setdefault(key, set()).add(code)
    return {name: frozenset(codes) for name, codes in found.items()}


# Scripts written without spaces between words: a name ending in one of their characters
# ("円", "元") is a whole word whatever follows it ("120,000円です").
_UNSPACED = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f]")


def _words_pattern(words: Iterable[str]) -> re.Pattern[str]:
    """Any of ``words`` (longest first, as whole words, any case) at the start of a text."""
    def alternative(w: str) -> str:
        return re.escape(w) + ("" if _UNSPACED.match(w[-1]) else r"(?![^\W_])")

    alternatives = "|".join(alternative(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?:{alternatives})", re.I)


def _group_family(group: str) -> str:
    for family in (_SPACES, _APOSTROPHES):
        if group in family:
            return family
    return group


@dataclass(frozen=True)
class _Reading:
    """What reading amounts by one product's conventions needs, built once from Babel."""

    locale: Locale
    group: str
    decimal: str
    numbers: re.Pattern[str]
    symbols: dict[str, frozenset[str]]
    longest: int  # the longest symbol's length
    names: dict[str, frozenset[str]]
    name_after: re.Pattern[str]


@lru_cache(maxsize=16)
def _reading(locale_id: str) -> _Reading:
    locale = Locale.parse(locale_id)
    group, decimal = get_group_symbol(locale), get_decimal_symbol(locale)
    seps = "".join(re.escape(s) for s in sorted({",", ".", decimal, *_group_family(group)}))
    symbols, names = _symbols(locale.language, locale.territory), _names(locale.language)
    return _Reading(
        locale=locale, group=group, decimal=decimal,
        # digits with single separators between them
        numbers=re.compile(rf"(?<![\d.,])\d+(?:[{seps}]\d+)*"),
        symbols=symbols, longest=max(map(len, symbols), default=0), names=names,
        name_after=_words_pattern(names))


# ---------------------------------------------------------------- reading amounts
def parse_number(token: str, locale: str) -> Decimal | None:
    """A number as ``locale`` writes it, or None when the locale would not write it so."""
    r = _reading(locale)
    family = _group_family(r.group)
    token = "".join(r.group if ch in family else ch for ch in token)
    try:
        return parse_decimal(token, locale=r.locale, strict=True)
    except NumberFormatError:
        return _regrouped(token, r.group, r.decimal)


def _regrouped(token: str, group: str, decimal: str) -> Decimal | None:
    """Digits grouped in twos or threes, the last group three ("1,00,000", "100,000")."""
    whole, point, fraction = token.partition(decimal)
    parts = whole.split(group)
    if (len(parts) < 2 or not all(p.isdigit() for p in parts) or len(parts[0]) > 3
            or any(len(p) not in (2, 3) for p in parts[1:]) or len(parts[-1]) != 3
            or (point and not fraction.isdigit())):
        return None
    try:
        return Decimal("".join(parts) + (f".{fraction}" if point else ""))
    except InvalidOperation:
        return None


_CODE_BEFORE = re.compile(r"(?<![A-Za-z])([A-Z]{3})\Z")
_CODE_AFTER = re.compile(r"([A-Z]{3})(?![A-Za-z])")


def _symbol_next_to(before: str, after: str, r: _Reading) -> str:
    """The longest symbol ending ``before`` or starting ``after``; a symbol with a letter
    at its outer end must be a whole word there ("R300", not the "R" of "300 Road")."""
    for k in range(min(r.longest, len(before)), 0, -1):
        mark, outside = before[-k:], before[-k - 1:-k]
        if mark in r.symbols and not (mark[0].isalnum() and outside.isalnum()):
            return mark
    for k in range(min(r.longest, len(after)), 0, -1):
        mark, outside = after[:k], after[k:k + 1]
        if mark in r.symbols and not (mark[-1].isalnum() and outside.isalnum()):
            return mark
    return ""


def _mark(before: str, after: str, r: _Reading) -> tuple[str, frozenset[str]]:
    """The code, symbol or name right before or after an amount, and the currencies it may
    stand for; ("", {}) when there is none."""
    for m in (_CODE_BEFORE.search(before[-4:]), _CODE_AFTER.match(after)):
        if m and m[1] in iso_codes():
            return m[1], frozenset({m[1]})
    symbol = _symbol_next_to(before, after, r)
    if symbol:
        return symbol, r.symbols[symbol]
    m = r.name_after.match(after)
    if m:
        return m[0], r.names[m[0].lower()]
    return "", frozenset()


@lru_cache(maxsize=256)
def _resolve(mark: str, codes: frozenset[str], conventions: MoneyConventions
             ) -> frozenset[str]:
    """The currencies a mark standing for ``codes`` means to this product."""
    if len(codes) <= 1:
        return codes
    if conventions.currency in codes:
        return frozenset({conventions.currency})
    own = frozenset(c for c in codes if get_currency_symbol(c, conventions.locale) == mark)
    return own if len(own) == 1 else codes


def find_amounts(text: str, conventions: MoneyConventions = HOME_CONVENTIONS
                 ) -> list[ShownAmount]:
    """Every amount in ``text`` that reads as a number in the product's locale, in order,
    with the currency a code, symbol or name right before or after it names."""
    r = _reading(conventions.locale)
    out: list[ShownAmount] = []
    for m in r.numbers.finditer(text):
        amount = parse_number(m[0], conventions.locale)
        if amount is None:
            continue
        before, after = text[: m.start()].rstrip(_SPACES), text[m.end():].lstrip(_SPACES)
        mark, codes = _mark(before, after, r)
        out.append(ShownAmount(amount, mark, _resolve(mark, codes, conventions), m.span()))
    return out


def read_amount(value: object, conventions: MoneyConventions = HOME_CONVENTIONS
                ) -> ShownAmount | None:
    """The amount a shown value stands for: the first naming a currency, else the first."""
    if isinstance(value, Mapping) and set(value) == {"amount", "currency"}:
        value = _money_or_none(value)  # a pack's money value as JSON: {"amount", "currency"}
        if value is None:
            return None
    if isinstance(value, Money):
        return ShownAmount(Decimal(str(value.amount)), value.currency,
                           frozenset({value.currency}))
    if isinstance(value, int | float) and not isinstance(value, bool):
        return ShownAmount(Decimal(str(value)), "", frozenset())
    amounts = find_amounts(str(value), conventions)
    named = [a for a in amounts if a.currencies]
    first = named or amounts
    return first[0] if first else None


def _money_or_none(value: Mapping[str, object]) -> Money | None:
    try:
        return Money.model_validate(value)
    except ValueError:
        return None


def amount_of(value: object, conventions: MoneyConventions = HOME_CONVENTIONS
              ) -> Decimal | None:
    """The amount of a money value or of the amount a text shows, whatever its currency."""
    shown = read_amount(value, conventions)
    return shown.amount if shown is not None else None


def as_money(value: object) -> Money | None:
    """A pack's money value as ``Money``: read by the claim rules' conventions; an amount
    naming no currency (or several) is in the home currency."""
    shown = read_amount(value, HOME_CONVENTIONS)
    if shown is None:
        return None
    currency = next(iter(shown.currencies)) if len(shown.currencies) == 1 else HOME_CURRENCY
    return Money(amount=float(shown.amount), currency=currency)


def same_amount(a: Decimal, b: Decimal) -> bool:
    """The same amount to the penny."""
    return abs(a - b) < PENNY


def money_matches(expected: object, shown: object,
                  conventions: MoneyConventions = HOME_CONVENTIONS) -> bool:
    """The same amount to the penny, in a currency the shown amount may stand for (the
    product's home currency when it names none)."""
    want, got = as_money(expected), read_amount(shown, conventions)
    if want is None or got is None:
        return False
    return (same_amount(Decimal(str(want.amount)), got.amount)
            and want.currency in got.currencies_in(conventions))


def shows_money(text: str, money: Money, conventions: MoneyConventions = HOME_CONVENTIONS
                ) -> bool:
    """``text`` shows the amount with its currency named (a code, symbol or name)."""
    want = Decimal(str(money.amount))
    return any(money.currency in a.currencies and same_amount(a.amount, want)
               for a in find_amounts(text, conventions))


def format_money(money: Money, locale: str = DEFAULT_LOCALE) -> str:
    """An amount as ``locale`` writes it with its currency; no pence when it is whole, else
    both digits ("£5,000", "£1,234.50", "5.000 £", "₹1,00,000")."""
    where = Locale.parse(locale)
    pattern = copy.copy(where.currency_formats["standard"])
    amount = Decimal(str(money.amount))
    pattern.frac_prec = (0, 0) if amount == amount.to_integral_value() else (2, 2)
    return pattern.apply(amount, where, currency=money.currency, currency_digits=False)


__all__ = [
    "DEFAULT_LOCALE",
    "HOME_CONVENTIONS",
    "PENNY",
    "CurrencyCode",
    "LocaleId",
    "MoneyConventions",
    "ShownAmount",
    "amount_of",
    "as_money",
    "check_currency",
    "check_locale",
    "current_currencies",
    "find_amounts",
    "format_money",
    "iso_codes",
    "money_matches",
    "parse_number",
    "read_amount",
    "same_amount",
    "shows_money",
]
