"""Content rules of the corpus standard that need more than a schema: dates and documents."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader
from pypdf.errors import PyPdfError

# Words that make a date depend on the day the pack is run. Matched as whole words,
# case-insensitively. Packs state every date absolutely ("12 March 2026").
RELATIVE_DATE_PATTERNS: tuple[str, ...] = (
    r"yesterday",
    r"today",
    r"tonight",
    r"tomorrow",
    r"last\s+(?:night|week|month|year|weekend)",
    r"this\s+(?:morning|afternoon|evening|week|month|weekend)",
    r"next\s+(?:week|month|year)",
    r"earlier\s+(?:today|this\s+week)",
    r"the\s+other\s+day",
    r"the\s+day\s+before",
    r"(?:a\s+few|a\s+couple\s+of|several|\d+|one|two|three|four|five|six|seven|ten)"
    r"\s+(?:days?|weeks?|months?|years?)\s+ago",
    r"last\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)",
    r"just\s+now",
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
    try:
        texts = pdf_texts(data)
    except (PyPdfError, ValueError, KeyError, OSError) as exc:
        return [("<file>", f"PDF cannot be read: {exc}")]
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


def pdf_texts(data: bytes) -> list[str]:
    """The text layer of every page in the file, in file order."""
    reader = PdfReader(io.BytesIO(data))
    return [page.extract_text() or "" for page in reader.pages]


def pdf_pages(data: bytes) -> tuple[list[int], int | None]:
    """(the X of every page in the file, N) — for comparing with provenance."""
    xs: list[int] = []
    total: int | None = None
    for text in pdf_texts(data):
        found = PAGE_MARK.findall(text)
        if found:
            xs.append(int(found[0][0]))
            total = int(found[0][1])
    return xs, total
