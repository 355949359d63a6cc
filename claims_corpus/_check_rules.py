"""Content rules of the corpus standard that need more than a schema: dates and documents."""

from __future__ import annotations

import io
import logging
import re

from pypdf import PdfReader
from pypdf.errors import PyPdfError

# Words that make a date depend on the day the pack is run. Matched as whole words,
# case-insensitively. Packs state every date absolutely ("12 March 2026").
# Pieces the patterns share: a count, a unit of time, a weekday, a part of a day or week.
_NUM = (r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
        r"twenty|thirty|forty|forty[- ]eight|seventy[- ]two|(?:a\s+)?few|a\s+couple(?:\s+of)?|"
        r"couple(?:\s+of)?|several|some|\d+)")
_UNIT = r"(?:seconds?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|fortnights?|months?|years?)"
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_PART = r"(?:morning|afternoon|evening|night|weekend|week|fortnight|month|year)"
_SEASON = r"(?:spring|summer|autumn|fall|winter|christmas|easter|new\s+year)"
# A weekday is relative unless a date follows ("Saturday 14 March", "Saturday, the 14th").
_NO_DATE = r"(?!,?\s*(?:the\s+)?\d)"
RELATIVE_DATE_PATTERNS: tuple[str, ...] = (
    r"yesterday", r"yest[a-z]{0,3}d[a-z]?y", r"yday",
    r"today", r"2day",
    r"tonight", r"tonite", r"2nite",
    r"tomorrow", r"tmrw", r"2morrow", r"tomoz",
    r"last\s+(?:night|week|month|year|weekend|fortnight)",
    rf"last\s+{_SEASON}",
    r"this\s+(?:morning|afternoon|evening|week|month|weekend|fortnight|year)",
    rf"this\s+(?:past|last|coming)\s+(?:{_WEEKDAY}|{_PART}|few\s+days)",
    rf"(?:the\s+)?past\s+(?:{_PART}|{_NUM}\s+{_UNIT})",
    rf"(?:in|within|over|during)\s+the\s+(?:last|past)\s+(?:{_PART}|{_NUM}\s+{_UNIT})",
    rf"next\s+(?:week|month|year|weekend|fortnight|{_WEEKDAY})",
    r"earlier\s+(?:today|this\s+\w+|on)",
    r"later\s+(?:today|tonight|this\s+\w+)",
    r"the\s+other\s+(?:day|night|week|morning|evening)",
    r"the\s+day\s+before(?:\s+yesterday)?",
    r"the\s+day\s+after\s+tomorrow",
    rf"the\s+{_PART}\s+before\s+last",
    r"(?:over|at|on|during)\s+the\s+weekend",
    r"(?:a|one)\s+week\s+(?:last|on|ago)",
    rf"in\s+{_NUM}\s+{_UNIT}(?:'?\s*time)?",
    rf"{_NUM}\s+{_UNIT}\s+(?:ago|back|since)",
    r"(?:long|ages|years|months|weeks|days|hours|minutes|moments|not\s+long|some\s+time)\s+ago",
    rf"(?:last|this|on|since|past|coming|by)\s+{_WEEKDAY}{_NO_DATE}",
    rf"{_WEEKDAY}\s+(?:just\s+)?gone",
    r"just\s+now",
    r"recently",
    r"a\s+moment\s+ago",
)
_RELATIVE = re.compile(r"\b(?:" + "|".join(RELATIVE_DATE_PATTERNS) + r")\b", re.IGNORECASE)

PAGE_MARK = re.compile(r"Page\s+(\d+)\s+of\s+(\d+)")
IMAGE_SUFFIXES: tuple[str, ...] = (".jpg", ".jpeg", ".png")


def relative_date_words(text: str) -> list[str]:
    """Relative date expressions found in ``text``, as written."""
    return [m.group(0) for m in _RELATIVE.finditer(text)]


def is_image(file: str) -> bool:
    return file.lower().endswith(IMAGE_SUFFIXES)


def pdf_page_problems(data: bytes) -> list[tuple[str, str]]:
    """(field, message) for every page-numbering problem of a PDF.

    Every page must print exactly one ``Page X of N``; N is the same on every page; X is
    within 1..N, unique, and increasing through the file. Pages of 1..N may be absent from
    the file (an incomplete document is a legitimate pack), but not repeated or out of order.
    """
    texts, error = pdf_texts(data)
    if texts is None:
        return [("<file>", f"PDF cannot be read: {error}")]
    if not texts:
        return [("<file>", "PDF has no pages")]
    problems: list[tuple[str, str]] = []
    marks: list[tuple[int, int, int]] = []  # (page index, X, N)
    for i, text in enumerate(texts, start=1):
        found = PAGE_MARK.findall(text)
        if not found:
            problems.append((f"page.{i}", "no 'Page X of N' in the page's text layer"))
            continue
        if len(found) > 1:
            problems.append((f"page.{i}", f"more than one page mark: {found}"))
        x, n = int(found[0][0]), int(found[0][1])
        marks.append((i, x, n))
    totals = {n for _, _, n in marks}
    if len(totals) > 1:
        problems.append(("page", f"pages disagree on N in 'Page X of N': {sorted(totals)}"))
    last = 0
    for i, x, n in marks:
        if not 1 <= x <= n:
            problems.append((f"page.{i}", f"'Page {x} of {n}': X is outside 1..{n}"))
        if x <= last:
            problems.append((f"page.{i}", f"'Page {x} of {n}' repeats or goes back (after {last})"))
        last = max(last, x)
    return problems


def pdf_texts(data: bytes) -> tuple[list[str] | None, str | None]:
    """The text layer of every page, or (None, why the PDF cannot be read).

    A truncated or damaged file makes pypdf fail in many ways (its own errors, but also
    KeyError, TypeError, struct and zlib errors, deep recursion); each of them means the same
    thing here, so every exception is caught and reported, never traced back.
    """
    if data.lstrip()[:5] != b"%PDF-":
        return None, "the file does not start with %PDF-"
    quiet = logging.getLogger("pypdf")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # its repair warnings are not the checker's output
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        return [page.extract_text() or "" for page in reader.pages], None
    except PyPdfError as exc:
        return None, str(exc)
    except Exception as exc:  # an untrusted file may break the parser anywhere
        return None, f"{type(exc).__name__}: {exc}"
    finally:
        quiet.setLevel(level)


def pdf_pages(data: bytes) -> tuple[list[int], int | None]:
    """(the X of every page in the file, N) — for comparing with provenance; ([], None) for a
    PDF that cannot be read (``pdf_page_problems`` reports that)."""
    texts, _ = pdf_texts(data)
    xs: list[int] = []
    total: int | None = None
    for text in texts or []:
        found = PAGE_MARK.findall(text)
        if found:
            xs.append(int(found[0][0]))
            total = int(found[0][1])
    return xs, total
