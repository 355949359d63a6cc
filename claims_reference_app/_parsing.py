"""Reading fact values out of customer text, by kind (dates, times, yes/no, money, choices)."""

from __future__ import annotations

import re
from datetime import date

MONTHS = {
    name: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for name in names
}
_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th)?"

_DATE_PATTERNS: list[tuple[re.Pattern[str], tuple[str, str, str]]] = [
    (re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b"), ("y", "m", "d")),
    (
        re.compile(
            rf"\b(?P<d>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<m>{_MONTH_RE})\.?,?\s+(?P<y>\d{{4}})\b",
            re.I,
        ),
        ("y", "m", "d"),
    ),
    (
        re.compile(rf"\b(?P<m>{_MONTH_RE})\.?\s+(?P<d>\d{{1,2}}){_ORD},?\s+(?P<y>\d{{4}})\b", re.I),
        ("y", "m", "d"),
    ),
    (re.compile(r"\b(?P<d>\d{1,2})[/.](?P<m>\d{1,2})[/.](?P<y>\d{4})\b"), ("y", "m", "d")),
]


def _to_date(y: str, m: str, d: str) -> date | None:
    month = int(m) if m.isdigit() else MONTHS.get(m.lower().rstrip("."))
    if month is None:
        return None
    try:
        return date(int(y), month, int(d))
    except ValueError:
        return None


def find_dates(text: str) -> list[tuple[int, int, str]]:
    """Every absolute date in ``text`` as (start, end, 'YYYY-MM-DD'), in reading order."""
    found: list[tuple[int, int, str]] = []
    for pattern, _ in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e, _ in found):
                continue
            value = _to_date(m.group("y"), m.group("m"), m.group("d"))
            if value is not None:
                found.append((m.start(), m.end(), value.isoformat()))
    return sorted(found)


def parse_date(text: str) -> str | None:
    """The first absolute date in ``text`` ('14 March 2026', '2026-03-14', '14/03/2026')."""
    dates = find_dates(text)
    return dates[0][2] if dates else None


_TIME_24 = re.compile(
    r"(?<![\d/.:-])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?![\d/:])"
    r"(?:\s*(?P<ap>a\.?m\.?|p\.?m\.?)(?![a-z]))?",
    re.I,
)
_TIME_DOT_AMPM = re.compile(
    r"(?<![\d/.:-])(?P<h>1[0-2]|0?\d)\.(?P<m>[0-5]\d)\s*"
    r"(?P<ap>a\.?m\.?|p\.?m\.?)(?![a-z])",
    re.I,
)
_TIME_HOUR_AMPM = re.compile(
    r"(?<![\d/.:-])(?P<h>1[0-2]|0?\d)\s*(?P<ap>a\.?m\.?|p\.?m\.?)(?![a-z])", re.I
)
_TIME_WORDS = {"noon": "12:00", "midday": "12:00", "midnight": "00:00"}
_LATE = re.compile(r"^\W{0,3}(?:in the )?(evening|afternoon|at night|tonight)\b", re.I)


def _clock(h: int, minute: int, ap: str | None, after: str, written: str = "") -> str:
    """24-hour time; 'in the evening' moves 5:40 to 17:40, 'at night' only from 6 o'clock;
    an hour written with a leading zero ('03:00') is already 24-hour."""
    if ap:
        pm = ap.lower().startswith("p")
        if h == 12:
            h = 0
        if pm:
            h += 12
    elif h < 12 and not written.startswith("0"):
        late = _LATE.match(after)
        if late and (late.group(1).lower() in ("evening", "afternoon") or h >= 6):
            h += 12
    return f"{h:02d}:{minute:02d}"


def find_times(text: str) -> list[tuple[int, int, str]]:
    """Every clock time in ``text`` as (start, end, 'HH:MM' 24 h)."""
    found: list[tuple[int, int, str]] = []
    for pattern in (_TIME_24, _TIME_DOT_AMPM, _TIME_HOUR_AMPM):
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e, _ in found):
                continue
            minute = int(m.groupdict().get("m") or 0)
            found.append(
                (
                    m.start(),
                    m.end(),
                    _clock(int(m.group("h")), minute, m.group("ap"), text[m.end() :], m.group("h")),
                )
            )
    for word, value in _TIME_WORDS.items():
        for m in re.finditer(rf"\b{word}\b", text, re.I):
            if not any(s < m.end() and m.start() < e for s, e, _ in found):
                found.append((m.start(), m.end(), value))
    return sorted(found)


def parse_time(text: str) -> str | None:
    """The first clock time ('17:40', '5:40 pm', 'about 5:40 in the evening')."""
    times = find_times(text)
    return times[0][2] if times else None


_WINDOW_JOIN = re.compile(r"^\s*(?:-|–|—|to|and|until|till)\s*$", re.I)
_DASH_WINDOW = re.compile(
    r"(?<![\d/.:-])([01]?\d|2[0-3]):([0-5]\d)\s*[-–—]\s*([01]?\d|2[0-3]):([0-5]\d)(?![\d:])")
_WINDOW_START = re.compile(r"\b(?:between|from|sometime|some time)\b[^.?!]*$", re.I)


def parse_time_window(text: str) -> str | None:
    """A time window ('between 1pm and 4pm', '13:00-16:00') as 'HH:MM-HH:MM', or None.

    Two clock times joined by 'and', 'to', 'until' or a dash, the first after 'between' or
    'from' (a dash alone is enough), the first earlier than the second.
    """
    dash = _DASH_WINDOW.search(text)
    if dash:
        t1, t2 = (f"{int(h):02d}:{m}" for h, m in (dash.group(1, 2), dash.group(3, 4)))
        return f"{t1}-{t2}" if t1 < t2 else None
    times = find_times(text)
    for (s1, e1, t1), (s2, _, t2) in zip(times, times[1:], strict=False):
        join = text[e1:s2]
        if not _WINDOW_JOIN.match(join) or t1 >= t2:
            continue
        if join.strip() in ("-", "–", "—") or _WINDOW_START.search(text[:s1]):
            return f"{t1}-{t2}"
    return None


_IE_COUNTIES = "C|CE|CN|CW|D|DL|G|KE|KK|KY|L|LD|LH|LK|LM|LS|MH|MN|MO|OY|RN|SO|T|W|WH|WW|WX"
# Registration plates by country, each normalised to how that country prints it; the first
# pattern that matches wins. Formats too loose to tell from ordinary words (US plates) are
# not read.
_REGISTRATIONS: tuple[tuple[re.Pattern[str], str], ...] = (
    # GB: AB12 CDE
    (re.compile(r"\b([A-Z]{2})\s?(\d{2})\s?([A-Z]{3})\b", re.I), "{0}{1} {2}"),
    # IE: year (2 digits, or 3 since 2013), county, number: 211-LH-4587, 08-D-12345
    (re.compile(rf"\b(\d{{2}}[12]?)[-\s]({_IE_COUNTIES})[-\s](\d{{1,6}})\b", re.I),
     "{0}-{1}-{2}"),
    # FR: AB-123-CD
    (re.compile(r"\b([A-Z]{2})-(\d{3})-([A-Z]{2})\b", re.I), "{0}-{1}-{2}"),
    # DE: district, letters, number (E/H suffix): M-AB 1234
    (re.compile(r"\b([A-Z]{1,3})-([A-Z]{1,2})\s?(\d{1,4}[EH]?)(?![\w-])"), "{0}-{1} {2}"),
    # NL: six characters in three groups, letters and digits apart: 12-ABC-3, AB-12-CD
    (re.compile(r"\b(?=(?:[A-Z0-9]-?){6}\b)(?=[\w-]*[A-Z])(?=[\w-]*\d)"
                r"([A-Z]{1,3}|\d{1,3})-([A-Z]{1,3}|\d{1,3})-([A-Z]{1,3}|\d{1,3})\b"),
     "{0}-{1}-{2}"),
)
_POLICY = re.compile(r"\bNWF[-\s]?POL[-\s]?(\d{4,})\b", re.I)


# "on 29 May", "by 12 Mar": a word, a day and a month read like a UK plate typed in lower case
_DATE_LIKE_PLATE = re.compile(rf"^[a-z]{{2}}\s\d{{2}}\s(?:{_MONTH_RE})$", re.I)


def parse_registration(text: str) -> str | None:
    """A registration plate, normalised as its country prints it: UK 'AB12 CDE', Irish
    '211-LH-4587', French 'AB-123-CD', German 'M-AB 1234', Dutch '12-ABC-3'. A date written
    after a short word ("on 29 May") is not a plate."""
    for pattern, shape in _REGISTRATIONS:
        for m in pattern.finditer(text):
            if _DATE_LIKE_PLATE.match(m.group(0)) and not m.group(0).isupper():
                continue
            return shape.format(*m.groups()).upper()
    return None


_PLATE_TOKEN = re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9-]{2,8}"
                          r"[A-Za-z0-9](?![\w-])")


def parse_registration_answer(text: str) -> str | None:
    """The registration in a direct answer to "what is the registration?": a known plate
    format, or else the one token of letters and digits (4-10 characters) given, as is."""
    known = parse_registration(text)
    if known:
        return known
    tokens = {m.group(0).upper() for m in _PLATE_TOKEN.finditer(text)
              if not parse_policy_number(m.group(0))}
    return tokens.pop() if len(tokens) == 1 else None


_POLICE_REF = re.compile(r"\b[A-Z]{1,6}[-/ ]?\d[\w/-]{3,}\b|\b\d{2,}[-/]\d[\w/-]{2,}\b", re.I)
_NOT_A_REFERENCE = re.compile(rf"^(?:{_MONTH_RE}|on|by|at|in|from|since|before|after)\b", re.I)


def parse_police_reference(text: str) -> str | None:
    """A crime or incident reference ('MER-26-0221-5581', 'CR/2026/0456'), upper case; a
    date such as 'March 2026' is not one."""
    for m in _POLICE_REF.finditer(text):
        if not _NOT_A_REFERENCE.match(m.group(0)):
            return m.group(0).upper()
    return None


def parse_policy_number(text: str) -> str | None:
    """A policy number like 'NWF-POL-100234', normalised to upper case with hyphens."""
    m = _POLICY.search(text)
    return f"NWF-POL-{m.group(1)}" if m else None


_NEG = r"\b(?:no|nope|nah|nobody|no one|none|not|never|neither)\b|n't\b|\bcannot\b"
_POS = (
    r"\b(?:yes|yeah|yep|yup|yea|sure|correct|absolutely|definitely|affirmative|"
    r"it can(?!'t|not)|it is|it was|they were|i was|was hurt|were hurt|injured|hurt|"
    r"driveable|drivable)\b"
)


def parse_yes_no(text: str) -> bool | None:
    """Yes or no, by the earliest clear marker; None when neither is found."""
    neg = re.search(_NEG, text, re.I)
    pos = re.search(_POS, text, re.I)
    if neg and (not pos or neg.start() <= pos.start()):
        return False
    if pos:
        return True
    return None


# Currency marks before or after an amount, and the ISO 4217 code they stand for. A bare "$" or
# "dollars" is read as US dollars; an amount with no mark is in pounds.
CURRENCY_MARKS: dict[str, str] = {
    "nz$": "NZD", "au$": "AUD", "a$": "AUD", "us$": "USD", "c$": "CAD", "ca$": "CAD", "£": "GBP",
    "€": "EUR", "$": "USD", "gbp": "GBP", "eur": "EUR", "nzd": "NZD", "usd": "USD",
    "aud": "AUD", "cad": "CAD", "chf": "CHF", "pound": "GBP", "pounds": "GBP", "euro": "EUR",
    "euros": "EUR", "dollar": "USD", "dollars": "USD", "nz dollars": "NZD",
    "new zealand dollars": "NZD", "australian dollars": "AUD", "canadian dollars": "CAD",
}
HOME_CURRENCY = "GBP"
_MARK = "|".join(re.escape(m) for m in sorted(CURRENCY_MARKS, key=len, reverse=True))
_MONEY = re.compile(
    rf"(?:(?P<pre>{_MARK})\s*)?(?P<n>\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.(?P<d>\d{{1,2}}))?"
    rf"\s*(?P<k>k\b|thousand\b)?(?:\s*(?P<post>{_MARK})(?![a-z]))?",
    re.I,
)


def parse_money(text: str) -> dict[str, int | float | str] | None:
    """An amount and its currency ('£1,250', 'NZ$2,400', '300 euros', '2k'), as
    ``{"amount": 1250, "currency": "GBP"}``; pounds when no currency is named."""
    for m in _MONEY.finditer(text):
        whole = int(m.group("n").replace(",", ""))
        value: float = whole + (int(m.group("d").ljust(2, "0")) / 100 if m.group("d") else 0)
        if m.group("k"):
            value *= 1000
        mark = (m.group("pre") or m.group("post") or "").lower()
        amount = int(value) if float(value).is_integer() else round(value, 2)
        return {"amount": amount, "currency": CURRENCY_MARKS.get(mark, HOME_CURRENCY)}
    return None


_DONT_KNOW = re.compile(
    r"\b(?:don'?t|do not|dont|doesn'?t) (?:know|remember|recall)\b|\bnot sure\b|\bno idea\b|"
    r"\bunsure\b|\bcan'?t (?:remember|recall|say)\b|\bcannot (?:remember|recall|say)\b|"
    r"\bno clue\b|\bhave no way of knowing\b|\bnot certain\b",
    re.I,
)


def says_dont_know(text: str) -> bool:
    """True when the customer says they do not know or cannot remember."""
    return bool(_DONT_KNOW.search(text))


def without_dont_know(text: str) -> str:
    """``text`` with every 'I don't know'-like phrase removed."""
    return _DONT_KNOW.sub(" ", text)
