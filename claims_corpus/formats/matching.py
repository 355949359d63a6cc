"""Reading a fact value shown by a product and comparing it with a pack's value, by kind.

Kinds follow docs/claim-rules.md. A value that cannot be read as its kind never matches.
The scorer compares the staff side with the oracle this way, and the scripted customer
compares a summary on screen with its own facts the same way: one rule for both.
"""

from __future__ import annotations

import datetime as dt
import re

from .money import HOME_CONVENTIONS, MoneyConventions, amount_of, money_matches, same_amount
from .values import Money, TimeWindow

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


def structured(value: object) -> object:
    """A money or time-window value given as plain JSON (``{"amount", "currency"}``,
    ``{"earliest", "latest"}``) as its model; anything else unchanged."""
    if isinstance(value, dict):
        if set(value) == {"amount", "currency"}:
            return Money.model_validate(value)
        if set(value) == {"earliest", "latest"}:
            return TimeWindow.model_validate(value)
    return value


def kind_of(key: str, expected: object) -> str:
    """How a value of fact ``key`` is compared: by the key's kind, a structured value's own
    kind (money, time window), else by the value's shape."""
    expected = structured(expected)
    if isinstance(expected, TimeWindow):
        return "time_window"
    if isinstance(expected, Money):
        return "money"
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


def has_words(phrase: object, text: object) -> bool:
    """Whether ``phrase`` occurs in ``text`` as whole words, both read by ``norm_text``:
    "no" is in "No, sorry." but not in "Don't know" or "nothing"."""
    want = norm_text(phrase)
    return bool(want) and f" {want} " in f" {norm_text(text)} "


def has_code(code: object, text: object) -> bool:
    """Whether ``code`` is written in ``text`` as a run of whole words, whatever separates
    them: "LK19XRD" is in "reg LK19 XRD.", but "POL-1234" is not in "POL-12345" and "12" is
    not in "1200" or "AB12 CDE"."""
    want = norm_text(code).replace(" ", "")
    words = norm_text(text).split()
    if not want or want not in "".join(words):
        return False
    for start in range(len(words)):
        joined = ""
        for word in words[start:]:
            joined += word
            if joined == want:
                return True
            if not want.startswith(joined):
                break
    return False


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


_TIME = re.compile(r"(?<![\d:.])(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?(?![\d])")


def parse_time(value: object) -> tuple[int, int] | None:
    """The first clock time in the text (24 h), or None."""
    times = find_times(value)
    return times[0] if times else None


def find_times(value: object) -> list[tuple[int, int]]:
    """Every clock time in the text, in order (a bare number is not a time)."""
    text = str(value).strip().lower()
    out = []
    for m in _TIME.finditer(text):
        if m[2] is None and m[3] is None:
            continue
        t = _clock(m, text)
        if t is not None:
            out.append(t)
    return out


def _clock(m: re.Match[str], text: str) -> tuple[int, int] | None:
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


NOT_KNOWN_WORDS: tuple[str, ...] = (
    "not known", "unknown", "don t know", "do not know", "not sure", "to follow", "to be confirmed",
    "pending", "not provided", "not given", "n a", "none given",
)
NOT_KNOWN_STATES: tuple[str, ...] = ("unknown", "not known", "to follow", "not provided")


def as_window(value: object) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """A time window, from a ``TimeWindow`` or a shown text naming two times."""
    if isinstance(value, TimeWindow):
        return parse_time(value.earliest), parse_time(value.latest)  # type: ignore[return-value]
    times = find_times(value)
    return (times[0], times[1]) if len(times) == 2 and times[0] != times[1] else None


def collapses_window(shown: object) -> bool:
    """The shown value is one point in time where a window was expected."""
    times = find_times(shown)
    return len(times) == 1 or (len(times) == 2 and times[0] == times[1])


def is_not_known(value: object, state: object = "") -> bool:
    """Does a shown value (or its state) say the fact is not known, or will follow?"""
    st = norm_text(state)
    if st in NOT_KNOWN_STATES or st.replace(" ", "_") in ("not_known", "to_follow"):
        return True
    text = norm_text(value)
    return bool(text) and any(text == w or text.startswith(w + " ") for w in NOT_KNOWN_WORDS)


def values_match(kind: str, expected: object, shown: object,
                 money: MoneyConventions = HOME_CONVENTIONS) -> bool:
    """Does the value shown stand for the expected value? Amounts shown are read by the
    product's ``money`` conventions (its locale and home currency)."""
    expected = structured(expected)
    if kind == "date":
        e, s = parse_date(expected), parse_date(shown)
        return e is not None and e == s
    if kind == "time":
        et, st = parse_time(expected), parse_time(shown)
        return et is not None and et == st and len(find_times(shown)) == 1
    if kind == "time_window":
        ew, sw = as_window(expected), as_window(shown)
        return ew is not None and ew == sw
    if kind == "yes_no":
        ey, sy = parse_yes_no(expected), parse_yes_no(shown)
        return ey is not None and ey == sy
    if kind == "money":
        return money_matches(expected, shown, money)
    if kind == "number":
        en, sn = amount_of(expected), amount_of(shown, money)
        return en is not None and sn is not None and same_amount(en, sn)
    if kind == "choice":
        return norm_text(expected).replace(" ", "_") == norm_text(shown).replace(" ", "_")
    if kind == "code":
        return norm_text(expected).replace(" ", "") == norm_text(shown).replace(" ", "")
    return text_matches(expected, shown)


def _content_words(text: str) -> set[str]:
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w
            for w in norm_text(text).split() if w not in STOPWORDS}


def text_matches(expected: object, shown: object, *, whole_words: bool = False) -> bool:
    """The expected text is contained in the shown text (as whole words with
    ``whole_words``), or enough of its content words are (``TEXT_RECALL``)."""
    want, got = norm_text(expected), norm_text(shown)
    if not want:
        return False
    if has_words(want, got) if whole_words else want in got:
        return True
    words = _content_words(want)
    if not words:
        return False
    return len(words & _content_words(got)) / len(words) >= TEXT_RECALL
