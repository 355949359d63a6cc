"""Comparing a shown fact value with the oracle's, after normalisation by kind.

Kinds follow docs/claim-rules.md. A value that cannot be read as its kind never matches.
"""

from __future__ import annotations

import datetime as dt
import re

# Fact key -> kind (docs/claim-rules.md "Fact keys"). Unknown keys fall back to the
# value's own shape (see ``kind_of``).
FACT_KINDS: dict[str, str] = {
    "policy_number": "text",
    "incident_date": "date",
    "incident_time": "time",
    "incident_type": "choice",
    "incident_description": "text",
    "incident_location": "text",
    "injuries": "yes_no",
    "vehicle_registration": "code",
    "vehicle_driveable": "yes_no",
    "third_party_involved": "yes_no",
    "property_habitable": "yes_no",
    "damaged_items": "text",
    "items_value": "money",
    "police_reference": "code",
}

MONTHS = {
    m: i
    for i, names in enumerate(
        [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
         ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
         ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
         ("dec", "december")],
        start=1,
    )
    for m in names
}
# Free text matches when the expected text is contained in the shown text, or when at least
# TEXT_RECALL of the expected text's content words (not in STOPWORDS; a trailing "s" ignored)
# appear among the shown text's words.
TEXT_RECALL = 0.6
STOPWORDS: frozenset[str] = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "did", "do", "for", "from",
    "had", "has", "have", "he", "her", "his", "i", "in", "into", "is", "it", "its", "me",
    "mine", "my", "of", "on", "or", "our", "she", "so", "that", "the", "their", "them", "then",
    "there", "they", "this", "to", "was", "we", "were", "when", "where", "which", "while",
    "who", "with", "you", "your",
})
_YES = {"yes", "y", "true", "yeah", "yep"}
_NO = {"no", "n", "false", "nope"}


def kind_of(key: str, expected: object) -> str:
    if key in FACT_KINDS:
        return FACT_KINDS[key]
    if isinstance(expected, bool):
        return "yes_no"
    if isinstance(expected, int | float):
        return "money"
    text = str(expected)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return "date"
    if re.fullmatch(r"\d{1,2}:\d{2}", text):
        return "time"
    return "text"


def norm_text(value: object) -> str:
    """Lower case, every run of non-alphanumerics one space."""
    return " ".join(re.findall(r"[a-z0-9]+", str(value).lower()))


def parse_date(value: object) -> dt.date | None:
    text = str(value).strip().lower()
    m = re.search(r"(\d{4})-(\d{1,2})-(\d{1,2})", text)
    try:
        if m:
            return dt.date(int(m[1]), int(m[2]), int(m[3]))
        m = re.search(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
        if m:  # day first (UK)
            return dt.date(int(m[3]), int(m[2]), int(m[1]))
        m = re.search(r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]+),?\s+(\d{4})", text)
        if m and m[2] in MONTHS:
            return dt.date(int(m[3]), MONTHS[m[2]], int(m[1]))
        m = re.search(r"([a-z]+)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", text)
        if m and m[1] in MONTHS:
            return dt.date(int(m[3]), MONTHS[m[1]], int(m[2]))
    except ValueError:
        return None
    return None


def parse_time(value: object) -> tuple[int, int] | None:
    text = str(value).strip().lower()
    m = re.search(r"(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?", text)
    if not m or (m[2] is None and m[3] is None):
        return None
    hour, minute = int(m[1]), int(m[2] or 0)
    suffix = (m[3] or "").replace(".", "")
    if suffix == "pm" and hour < 12:
        hour += 12
    elif suffix == "am" and hour == 12:
        hour = 0
    elif not suffix and hour < 12 and not m[1].startswith("0") and (
            re.search(r"\b(evening|afternoon)\b", text)
            or (re.search(r"\bnight\b", text) and hour >= 6)):
        # "5:40 in the evening" is 17:40; "11:10 at night" is 23:10; "3:00 at night" is 03:00
        hour += 12
    if hour > 23 or minute > 59:
        return None
    return hour, minute


def parse_yes_no(value: object) -> bool | None:
    if isinstance(value, bool):
        return value
    words = norm_text(value).split()
    if not words:
        return None
    if words[0] in _YES:
        return True
    if words[0] in _NO:
        return False
    return None


def parse_money(value: object) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    m = re.search(r"\d[\d,]*(?:\.\d+)?", str(value))
    return float(m[0].replace(",", "")) if m else None


def values_match(kind: str, expected: object, shown: object) -> bool:
    """Does the value shown stand for the expected value?"""
    if kind == "date":
        e, s = parse_date(expected), parse_date(shown)
        return e is not None and e == s
    if kind == "time":
        e, s = parse_time(expected), parse_time(shown)
        return e is not None and e == s
    if kind == "yes_no":
        e, s = parse_yes_no(expected), parse_yes_no(shown)
        return e is not None and e == s
    if kind in ("money", "number"):
        e, s = parse_money(expected), parse_money(shown)
        return e is not None and s is not None and abs(e - s) < 0.005
    if kind == "choice":
        return norm_text(expected).replace(" ", "_") == norm_text(shown).replace(" ", "_")
    if kind == "code":
        return norm_text(expected).replace(" ", "") == norm_text(shown).replace(" ", "")
    return text_matches(expected, shown)


def _content_words(text: str) -> set[str]:
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w
            for w in norm_text(text).split() if w not in STOPWORDS}


def text_matches(expected: object, shown: object) -> bool:
    want, got = norm_text(expected), norm_text(shown)
    if not want:
        return False
    if want in got:
        return True
    words = _content_words(want)
    if not words:
        return False
    return len(words & _content_words(got)) / len(words) >= TEXT_RECALL
