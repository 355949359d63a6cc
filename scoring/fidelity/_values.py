"""Specific values in free text — dates, months, times, amounts, registrations, identifiers,
phone numbers, e-mail addresses, plain numbers, names and places — and whether one text
supports another's.

Amounts are read by the products' own money reader (``claims_corpus.formats.money``, Babel)
in the product's locale and home currency, so "€1.234,50" (de_DE), "120,000円" (ja_JP) and
"INR 1,00,000" (en_IN) are one amount each. Everything else is deliberately plain:
regular expressions over the visible text, each kind
taking its spans before the next looks, so "12.03.2026" is one date and not a time and a
number, and "2024" in "3 March 2024" is part of the date. A number is whole: "12" is never
read inside "1200", "AB12 CDE" or an amount such as "1,200". A month on its own is a month
only when written with a capital ("March", not "march"); "May" only next to a year. Names
and places are capitalised words inside a sentence (a word that opens a sentence is
ambiguous and left alone); a word that is a place type ("Road", "Street") is never a
finding on its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache

from claims_corpus.formats.matching import MONTHS, has_code, norm_text
from claims_corpus.formats.money import (
    CURRENCY_SIGNS,
    HOME_CONVENTIONS,
    MoneyConventions,
    find_amounts,
)

_MONTH = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_ORD = r"(?:st|nd|rd|th)?"
_AMPM = r"(a\.?m\.?|p\.?m\.?)"
_MONTH_ALONE = ("(January|February|March|April|June|July|August|September|October|November"
                "|December)")
# A number standing on its own: not touching a letter, a currency or percent sign or another
# number.
_NUMBER = (rf"(?<![\w.,/:{CURRENCY_SIGNS}-])(\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?)"
           rf"(?![\w{CURRENCY_SIGNS}%/:-]|[.,]\d)")

_PATTERNS: tuple[tuple[str, re.Pattern[str] | None], ...] = (
    ("email", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    ("date", re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")),
    ("date", re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})\b")),
    ("date", re.compile(rf"\b(\d{{1,2}}){_ORD}(?:\s+of)?\s+({_MONTH})(?:,?\s+(\d{{4}}))?\b",
                        re.I)),
    ("date", re.compile(rf"\b({_MONTH})\s+(\d{{1,2}}){_ORD}(?:,?\s+(\d{{4}}))?\b", re.I)),
    ("month", re.compile(rf"\b({_MONTH}),?\s+(\d{{4}})\b", re.I)),
    ("month", re.compile(rf"\b{_MONTH_ALONE}\b")),
    ("money", None),  # amounts: the products' own reader, in the product's locale (_amounts)
    ("time", re.compile(rf"\b(\d{{1,2}})[:.](\d{{2}})\s*{_AMPM}?(?!\w|\.\w)", re.I)),
    ("time", re.compile(rf"\b(\d{{1,2}})\s*{_AMPM}(?!\w)", re.I)),
    ("time", re.compile(r"\b(noon|midday|midnight)\b", re.I)),
    ("registration", re.compile(r"\b[A-Z]{2}\d{2}\s?[A-Z]{3}\b", re.I)),
    # any other plate-like code in capitals ("LK19 XRDA", "B 1234 XY" parts): letters,
    # digits, a space, letters
    ("registration", re.compile(r"\b[A-Z]{1,3}\d{1,4}\s?[A-Z]{1,4}\b")),
    ("identifier", re.compile(r"\b(?=[\w/-]*\d)(?=[\w/-]*[A-Za-z])[A-Za-z0-9][\w/-]{3,}\w\b")),
    ("phone", re.compile(r"(?<![\w-])\+?\d[\d ()-]{7,}\d\b")),
    ("identifier", re.compile(r"\b\d{5,}\b")),
    ("number", re.compile(_NUMBER)),
)
_NAME = re.compile(r"\b[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)*\b")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*|[\"“(]\s*)$")
# Capitalised words that are not names or places.
_NOT_NAMES = frozenset({
    "i", "i'm", "i've", "i'll", "i'd", "mr", "mrs", "ms", "dr", "ok", "okay", "hi", "hello",
    "thanks", "thank", "please", "sorry", "yes", "no", "monday", "tuesday", "wednesday",
    "thursday", "friday", "saturday", "sunday", "god", "christmas", "easter", *MONTHS,
    # function words, capitalised after a sentence the writer did not end
    "a", "an", "the", "it", "it's", "its", "you", "your", "we", "our", "my", "he", "she",
    "they", "their", "this", "that", "there", "these", "those", "and", "but", "or", "so",
    "also", "then", "what", "when", "where", "which", "who", "why", "how", "is", "was",
    "are", "were", "can", "could", "would", "will", "should", "did", "do", "does", "not",
    "nobody", "someone", "everyone", "just", "only", "about", "around", "at", "on", "in",
    # a message's reply and forward prefixes ("Re: ..."; the embedded model wrote one)
    "re", "fwd",
    # pronouns with their contractions, capitalised after a sentence the writer did not end
    "you've", "you're", "you'll", "you'd", "we've", "we're", "we'll", "they've", "they're",
    "that's", "there's", "he's", "she's",
})
# Month number -> the words that name it.
MONTH_NAMES: dict[int, frozenset[str]] = {
    n: frozenset(w for w, i in MONTHS.items() if i == n) for n in set(MONTHS.values())}
# Words that name a kind of place; never a finding on their own.
PLACE_WORDS = frozenset({
    "road", "street", "lane", "avenue", "drive", "close", "way", "place", "square", "court",
    "crescent", "terrace", "hill", "park", "gardens", "grove", "row", "walk", "junction",
    "roundabout", "motorway", "bridge", "station", "centre", "center", "high", "north",
    "south", "east", "west", "upper", "lower", "new", "old", "st", "car",
})


# A comparable key: (day, month, year or None) of a date, (None, month, year or None) of a
# month, minutes past midnight of a time, (pence, currency) of an amount, hundredths of a
# number, the lower-cased or alphanumeric text of anything else.
Key = tuple[int | str | frozenset[str] | None, ...]


@dataclass(frozen=True)
class Value:
    """One specific value found in a text: its kind, the text as written, a comparable key."""

    kind: str
    text: str
    key: Key


def _year(raw: str | None) -> int | None:
    if not raw:
        return None
    y = int(raw)
    return y + 2000 if y < 100 else y


def _date_key(kind_index: int, m: re.Match[str]) -> Key | None:
    g = m.groups()
    y: int | None
    if kind_index == 1:
        y, mo, d = int(g[0]), int(g[1]), int(g[2])
    elif kind_index == 2:
        d, mo, y = int(g[0]), int(g[1]), _year(g[2])
    elif kind_index == 3:
        d, mo, y = int(g[0]), MONTHS[g[1].lower().rstrip(".")], _year(g[2])
    else:
        mo, d, y = MONTHS[g[0].lower().rstrip(".")], int(g[1]), _year(g[2])
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return None
    return (d, mo, y)


def _month_key(m: re.Match[str]) -> Key:
    year = m.group(2) if m.re.groups >= 2 else None
    return (None, MONTHS[m.group(1).lower().rstrip(".")], _year(year))


def _time_key(m: re.Match[str]) -> Key | None:
    g = m.groups()
    if g[0].lower() in ("noon", "midday"):
        return (12 * 60,)
    if g[0].lower() == "midnight":
        return (0,)
    hour = int(g[0])
    minute = int(g[1]) if len(g) == 3 and g[1] is not None else 0
    ampm = (g[-1] or "").lower().replace(".", "")
    if hour > 23 or minute > 59 or (ampm and not 1 <= hour <= 12):
        return None
    if ampm:
        hour = hour % 12 + (12 if ampm == "pm" else 0)
        return (hour * 60 + minute,)
    if hour <= 12 and not g[0].startswith("0"):  # "5:40" may be morning or evening
        return tuple(sorted({hour * 60 + minute, (hour % 12 + 12) * 60 + minute}))
    return (hour * 60 + minute,)


_SPACES = " \u00a0\u202f\u2009"
_THOUSANDS = re.compile(r"[kK](?![\w])")


def _amounts(text: str, conventions: MoneyConventions
             ) -> Iterator[tuple[int, int, Key]]:
    """(start, end, key) of every amount naming its currency, read as the products'
    decisions read money (``find_amounts``, in the product's locale): the span covers the
    number and its code, symbol or name ("€1.234,50", "120,000円", "INR 1,00,000"); "€5k"
    is 5,000."""
    for a in find_amounts(text, conventions):
        if not a.currencies:
            continue  # a bare number: the number patterns read it
        start, end = a.span
        amount = a.amount
        before = text[:start].rstrip(_SPACES)
        after = text[end:].lstrip(_SPACES)
        if a.mark and before.endswith(a.mark):
            start = len(before) - len(a.mark)
            k = _THOUSANDS.match(text, end)
            if k:
                amount, end = amount * 1000, k.end()
        elif a.mark and after.lower().startswith(a.mark.lower()):
            end = len(text) - len(after) + len(a.mark)
        yield start, end, (round(amount * 100), a.currencies)


def _hundredths(number: str) -> int:
    return round(float(number.replace(",", "")) * 100)


def alnum(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


@lru_cache(maxsize=8192)
def extract(text: str, conventions: MoneyConventions = HOME_CONVENTIONS) -> tuple[Value, ...]:
    """Every specific value in ``text``, in order of kind; amounts as the product writes
    them (``conventions``: its locale and home currency)."""
    taken = [False] * len(text)
    out: list[Value] = []
    date_index = 0
    for kind, pattern in _PATTERNS:
        if kind == "date":
            date_index += 1
        if pattern is None:
            for start, end, amount_key in _amounts(text, conventions):
                if not any(taken[start:end]):
                    taken[start:end] = [True] * (end - start)
                    out.append(Value("money", text[start:end], amount_key))
            continue
        for m in pattern.finditer(text):
            if any(taken[m.start():m.end()]):
                continue
            key: Key | None
            if kind == "date":
                key = _date_key(date_index, m)
            elif kind == "time":
                key = _time_key(m)
            elif kind == "month":
                key = _month_key(m)
            elif kind == "number":
                key = (_hundredths(m.group(0)),)
            elif kind == "email":
                key = (m.group(0).lower(),)
            else:
                key = (alnum(m.group(0)),)
            if key is None:
                continue
            taken[m.start():m.end()] = [True] * (m.end() - m.start())
            out.append(Value(kind, m.group(0), key))
    for m in _NAME.finditer(text):
        word = m.group(0)
        if any(taken[m.start():m.end()]) or word.lower() in _NOT_NAMES:
            continue
        if _SENTENCE_START.search(text[:m.start()]):
            continue
        out.append(Value("name", word, (word.lower(),)))
    return tuple(out)


def same_currency(a: object, b: object) -> bool:
    """Whether two amounts may be in the same currency: each is a code or the set of codes
    its mark may stand for (a bare "$" stands for every dollar currency)."""
    def codes(x: object) -> frozenset[object]:
        return x if isinstance(x, frozenset) else frozenset({x})

    return bool(codes(a) & codes(b))


def same(a: Value, b: Value) -> bool:
    """Whether two values of the same kind say the same thing. A date and a month agree
    when the month (and any year both name) agree."""
    if {a.kind, b.kind} <= {"date", "month"}:
        (d1, m1, y1), (d2, m2, y2) = a.key, b.key
        return (m1 == m2 and (y1 is None or y2 is None or y1 == y2)
                and (a.kind != b.kind or d1 == d2))
    if a.kind != b.kind and {a.kind, b.kind} - {"identifier", "phone", "registration"}:
        return False
    if a.kind == "time":
        return bool(set(a.key) & set(b.key))
    if a.kind == "money":
        return a.key[0] == b.key[0] and same_currency(a.key[1], b.key[1])
    return a.key == b.key


@dataclass(frozen=True)
class Sources:
    """Everything a customer may say values from, with its values extracted once."""

    texts: tuple[str, ...]
    conventions: MoneyConventions = HOME_CONVENTIONS

    @cached_property
    def values(self) -> tuple[Value, ...]:
        return tuple(v for t in self.texts for v in extract(t, self.conventions))

    @cached_property
    def words(self) -> frozenset[str]:
        return frozenset(w for t in self.texts for w in re.findall(r"[a-z0-9']+", t.lower()))

    @cached_property
    def compact(self) -> tuple[str, ...]:
        return tuple(norm_text(t).replace(" ", "") for t in self.texts)

    @cached_property
    def numbers(self) -> frozenset[int]:
        """Hundredths of every number the sources write: a grouped amount whole and in
        whole units ("1,200.50": 1200.50 and 1200, never 200), anything else whole and in
        its parts ("12.03.2026": 12, 3 and 2026)."""
        out: set[int] = set()
        for t in self.texts:
            for m in re.finditer(r"\d+(?:[.,]\d+)*", t):
                token = m.group(0)
                if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", token):
                    out |= {_hundredths(token), _hundredths(token.split(".")[0])}
                    continue
                if re.fullmatch(r"\d+(?:\.\d+)?", token):
                    out.add(_hundredths(token))
                out |= {int(part) * 100 for part in re.split(r"[.,]", token)}
        return frozenset(out)

    def supports(self, value: Value) -> bool:
        """Whether the sources hold ``value`` (by meaning for dates, months, times, amounts
        and numbers; as whole words for codes)."""
        if value.kind == "name":
            return value.key[0] in self.words
        month = value.key[1] if value.kind == "month" else None
        if isinstance(month, int) and MONTH_NAMES[month] & self.words:
            return True
        if value.kind == "number":
            return value.key[0] in self.numbers or any(
                v.kind == "money" and v.key[0] == value.key[0] for v in self.values)
        if value.kind in ("identifier", "phone", "registration", "email"):
            want = norm_text(value.text).replace(" ", "")
            if any(want in c and has_code(want, t) for c, t in zip(self.compact, self.texts,
                                                                     strict=True)):
                return True
        return any(same(value, v) for v in self.values)
