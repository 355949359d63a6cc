"""Reading the claim's details from what a customer types: dates, times and time windows,
yes or no, policy numbers, registrations, crime references, incident types, amounts.

Everything here reads plain text and returns a canonical value (``YYYY-MM-DD``, ``HH:MM``,
``HH:MM-HH:MM``, ``yes``/``no``, a code) or None when it cannot read one reliably.
"""

from __future__ import annotations

import datetime as dt
import re

from ._wording import hears, load, plain

MONTHS = {name: number for number, names in enumerate(
    [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
     ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
     ("oct", "october"), ("nov", "november"), ("dec", "december")], start=1)
    for name in names}
_WORDS_HOURS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}

POLICY = re.compile(r"\b[A-Z]{2,5}-POL-\d{4,8}\b", re.I)
# UK "AB12 CDE", Irish "211-LH-4587", French "AB-123-CD", German "M-AB 1234", Dutch "12-ABC-3".
PLATES = (
    re.compile(r"\b[A-Z]{2}\d{2}\s?[A-Z]{3}\b"),
    re.compile(r"\b\d{2,3}-[A-Z]{1,2}-\d{1,6}\b"),
    re.compile(r"\b[A-Z]{2}-\d{3}-[A-Z]{2}\b"),
    re.compile(r"\b[A-Z]{1,3}-[A-Z]{1,2}\s\d{1,4}\b"),
    re.compile(r"\b(?:\d{1,3}-[A-Z]{2,3}-\d{1,2}|[A-Z]{1,3}-\d{2,3}-[A-Z]{1,2})\b"),
)
_REFERENCE = re.compile(r"\b[A-Z]{1,6}[-/]?\d[A-Z0-9/-]{3,}\b|\b\d{2,}[-/]\d[A-Z0-9/-]{2,}\b",
                        re.I)


def says_dont_know(said: str) -> bool:
    return hears("dont_know", said)


def says_later(said: str) -> bool:
    return hears("later", said)


def parse_date(said: str) -> str | None:
    """A calendar date ("12 March 2026", "March 12, 2026", "2026-03-12", "12/03/2026")."""
    text = plain(said).lower()
    found: dt.date | None = None
    try:
        if m := re.search(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", text):
            found = dt.date(int(m[1]), int(m[2]), int(m[3]))
        elif (m := re.search(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]+)\.?,?\s+(\d{4})",
                             text)) and m[2] in MONTHS:
            found = dt.date(int(m[3]), MONTHS[m[2]], int(m[1]))
        if found is None and (m := re.search(
                r"\b([a-z]+)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", text)) and m[1] in MONTHS:
            found = dt.date(int(m[3]), MONTHS[m[1]], int(m[2]))
        if found is None and (m := re.search(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b", text)):
            found = dt.date(int(m[3]), int(m[2]), int(m[1]))  # day first
    except ValueError:
        return None
    return found.isoformat() if found else None


_CLOCK = re.compile(r"(?<![\d:.£€$])(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?(?![\d%])")


def _times(text: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for m in _CLOCK.finditer(text):
        if m[2] is None and m[3] is None:
            continue
        hour, minute = int(m[1]), int(m[2] or 0)
        suffix = (m[3] or "").replace(".", "")
        if suffix == "pm" and hour < 12:
            hour += 12
        elif suffix == "am" and hour == 12:
            hour = 0
        elif not suffix and hour < 12 and not m[1].startswith("0") and re.search(
                r"\b(evening|afternoon|tonight)\b", text):
            hour += 12
        if hour <= 23 and minute <= 59:
            out.append((hour, minute))
    return out


def _spoken_time(text: str) -> tuple[int, int] | None:
    """"twenty to six in the evening", "quarter past eight", "half past nine"."""
    m = re.search(r"\b(quarter|half|ten|twenty|twenty-five|five)\s+(past|to)\s+([a-z]+)", text)
    if not m or m[3] not in _WORDS_HOURS:
        return None
    minutes = {"quarter": 15, "half": 30, "ten": 10, "twenty": 20, "twenty-five": 25,
               "five": 5}[m[1]]
    hour = _WORDS_HOURS[m[3]]
    if m[2] == "to":
        hour, minutes = hour - 1, 60 - minutes
    if re.search(r"\b(evening|afternoon|pm|night)\b", text) and hour < 12:
        hour += 12
    return hour % 24, minutes


def parse_time(said: str) -> str | None:
    """A clock time ``HH:MM`` or a window ``HH:MM-HH:MM`` ("between 1pm and 4pm")."""
    text = plain(said).lower()
    text = re.sub(r"\b(\d{1,2}(?:st|nd|rd|th)?\s+[a-z]+\s+\d{4})\b", " ", text)  # dates
    times = _times(text)
    window = re.search(r"\bbetween\b|\bfrom\b.*\b(?:to|until|till)\b|\d\s*(?:-|to)\s*\d", text)
    if window and len(times) >= 2:
        (h1, m1), (h2, m2) = times[0], times[1]
        if (h1, m1) != (h2, m2):
            return f"{h1:02d}:{m1:02d}-{h2:02d}:{m2:02d}"
    if times:
        hour, minute = times[0]
        return f"{hour:02d}:{minute:02d}"
    spoken = _spoken_time(text)
    if spoken:
        return f"{spoken[0]:02d}:{spoken[1]:02d}"
    if m := re.search(r"\b(noon|midday|midnight)\b", text):
        return "00:00" if m[1] == "midnight" else "12:00"
    return None


def parse_yes_no(said: str) -> str | None:
    """``yes`` or ``no`` from the answer's first words, else from what it says."""
    text = plain(said).lower().strip()
    words = re.findall(r"[a-z']+", text)
    if not words:
        return None
    first = words[0]
    if first in ("yes", "yeah", "yep", "yup", "y"):
        return "yes"
    if first in ("no", "nope", "n", "nobody", "noone", "nothing", "none"):
        return "no"
    if says_dont_know(text):
        return None
    if hears("no", text):
        return "no"
    if hears("yes", text):
        return "yes"
    return None


def parse_policy(said: str) -> str | None:
    m = POLICY.search(plain(said))
    return m.group(0).upper() if m else None


def parse_registration(said: str, answer: bool = False) -> str | None:
    """A number plate written as its country prints it; in a direct answer, else the one
    token of 4 to 10 letters and digits the customer gives, kept as written."""
    text = plain(said)
    upper = text.upper()
    for pattern in PLATES:
        for m in pattern.finditer(upper):
            token = m.group(0)
            if any(c.isdigit() for c in token) and any(c.isalpha() for c in token) and \
                    not POLICY.search(upper[max(0, m.start() - 8):m.end() + 8]):
                return re.sub(r"\s+", " ", token)
    if answer:
        tokens = [t for t in re.findall(r"[A-Za-z0-9-]{4,10}", text)
                  if any(c.isdigit() for c in t) and any(c.isalpha() for c in t)]
        if len(tokens) == 1:
            return str(tokens[0]).upper()
    return None


def parse_reference(said: str, answer: bool = False) -> str | None:
    """A crime reference: right after words like 'crime reference', or, in a direct answer,
    the one reference-shaped code in it."""
    text = plain(said)
    lower = text.lower()
    for lead in load("listen")["police_lead"]:
        at = lower.find(lead)
        if at < 0:
            continue
        tail = re.sub(r"^\W*(?:number|no\.?)?\W*(?:is|was|:)?\s*", "", text[at + len(lead):],
                      flags=re.I)
        m = _REFERENCE.match(tail)
        if m and any(c.isdigit() for c in m.group(0)):
            return m.group(0).upper().rstrip(".-/")
    if answer:
        codes = [m.group(0) for m in _REFERENCE.finditer(text) if not POLICY.match(m.group(0))]
        if len(codes) == 1:
            return codes[0].upper().rstrip(".-/")
    return None


def parse_incident_type(said: str, line: str | None) -> str | None:
    """The incident type of ``line`` the words name (the rules' codes); None when unclear."""
    if line is None:
        return None
    for code in load("listen")["incident_types"][line]:
        if code != "other" and hears(f"incident_types.{line}.{code}", said):
            return str(code)
    if hears(f"incident_types.{line}.other", said):
        return "other"
    return None


def guess_line(said: str) -> str | None:
    """The line of business the words point to, when exactly one scores best."""
    scores = {line: len(re.findall(r"\w+", said)) and sum(
        1 for w in load("listen")["lines"][line] if hears_word(w, said))
        for line in ("motor", "home", "contents")}
    best = max(scores.values())
    winners = [line for line, score in scores.items() if score == best]
    return winners[0] if best and len(winners) == 1 else None


def hears_word(word: str, said: str) -> bool:
    stem = word.endswith("*")
    body = r"\s+".join(re.escape(p) for p in word.rstrip("*").split())
    return bool(re.search(r"(?<!\w)" + body + (r"\w*" if stem else r"\b"), plain(said), re.I))
