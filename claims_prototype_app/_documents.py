"""Reading an uploaded PDF: its title (which decides its kind), its printed date, its pages
(``Page X of N``: a page absent from the file means the document is incomplete) and its
total, in the currency it names. Text that tries to instruct the assistant is noticed and
never followed: a document is read for its title, date, pages and total only."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from ._money import Money, home_currency
from ._parsing import parse_date
from ._wording import hears

# Title words -> kind, in this order ("TOW INVOICE" is an invoice).
KINDS = (("POLICE REPORT", "police_report"), ("QUOTE", "repair_quote"),
         ("RECEIPT", "receipt"), ("INVOICE", "invoice"))
_DATE = re.compile(r"^\s*[A-Za-z ]*\bdate:\s*(.+)$", re.I | re.M)
_PAGE = re.compile(r"Page\s+(\d+)\s+of\s+(\d+)", re.I)
_CURRENCY = re.compile(r"\b(?:Amount|Total|Price)[^()\n]*\(([A-Z]{3})\)")
_AMOUNT = re.compile(r"^\s*(?:[£€$]\s*)?(\d{1,3}(?:,\d{3})+(?:\.\d{2})?|\d+(?:\.\d{2})?)\s*$")


@dataclass
class Reading:
    """What was read from one document."""

    title: str = ""
    kind: str = "other_document"
    readable: bool = False
    date: str | None = None  # YYYY-MM-DD
    pages_total: int | None = None
    pages_present: list[int] = field(default_factory=list)
    total: Money | None = None
    instructions: bool = False  # text addressed to the assistant (never followed)

    @property
    def missing_pages(self) -> list[int]:
        if not self.pages_total:
            return []
        return [p for p in range(1, self.pages_total + 1) if p not in self.pages_present]


def kind_of_title(title: str) -> str:
    upper = title.upper()
    return next((kind for word, kind in KINDS if word in upper), "other_document")


def read_pdf(data: bytes) -> Reading:
    """Read a PDF's text layer; a file that does not open is an unreadable document."""
    try:
        pages = [page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages]
    except (PyPdfError, ValueError, OSError):
        return Reading()
    text = "\n".join(pages)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return Reading()
    reading = Reading(title=lines[0], kind=kind_of_title(lines[0]), readable=True,
                      instructions=hears("instructions", text))
    if m := _DATE.search(text):
        reading.date = parse_date(m.group(1))
    marks = [(int(a), int(b)) for a, b in _PAGE.findall(text)]
    if marks:
        reading.pages_total = max(total for _, total in marks)
        reading.pages_present = sorted({page for page, _ in marks})
    reading.total = _total(lines, text)
    return reading


def _total(lines: list[str], text: str) -> Money | None:
    """The last 'Total…' figure, in the currency the document names (else the home one)."""
    m = _CURRENCY.search(text)
    currency = m.group(1) if m else home_currency()
    found: Decimal | None = None
    for i, line in enumerate(lines):
        if not line.lower().startswith("total"):
            continue
        same = re.search(r"(\d[\d,]*\.\d{2})\s*$", line)
        candidates = [same.group(1)] if same else []
        if not same and i + 1 < len(lines) and (n := _AMOUNT.match(lines[i + 1])):
            candidates.append(n.group(1))
        for c in candidates:
            try:
                found = Decimal(c.replace(",", ""))
            except InvalidOperation:
                continue
    return Money(found, currency) if found is not None else None
