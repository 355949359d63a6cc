"""Deterministic PDF documents drawn with reportlab (``invariant=1``: same input -> same bytes).

A document has N logical pages; the file holds only ``pages_supplied`` of them, so a missing
page can be made on purpose. Every page prints ``Page X of N``. The first line of page 1 is
the document title.
"""

from __future__ import annotations

import io
import re
from typing import Any

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from .formats.values import CURRENCY_PATTERN

DOCUMENT_GENERATOR = "corpus.document/1"


def make_document(params: dict[str, Any]) -> bytes:
    """Render the document described by ``params``.

    ``params``: ``title``; ``pages``: one entry per logical page, each with ``lines`` (text
    lines), optional ``items`` (``[description, amount]`` rows) and ``totals`` (``[label,
    amount]`` rows); ``pages_supplied``: which pages (1-based) go into the file (default all);
    ``currency``: the ISO 4217 code the amounts are in, printed in the amount column's heading
    (default GBP). Raises ``ValueError`` naming the bad parameter.
    """
    title = params.get("title")
    pages = params.get("pages")
    if not isinstance(title, str) or not title:
        raise ValueError("title: a document needs a title")
    if not isinstance(pages, list) or not pages:
        raise ValueError("pages: a document needs at least one page")
    total = len(pages)
    currency = params.get("currency", "GBP")
    if not isinstance(currency, str) or not re.fullmatch(CURRENCY_PATTERN, currency):
        raise ValueError(f"currency: an ISO 4217 code such as GBP or NZD, not {currency!r}")
    supplied = params.get("pages_supplied") or list(range(1, total + 1))
    if any(not isinstance(p, int) or not 1 <= p <= total for p in supplied) or not supplied:
        raise ValueError(f"pages_supplied: must name pages 1..{total}")
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=1, pageCompression=0)
    c.setTitle(title)
    c.setAuthor("")
    c.setCreator("")
    c.setProducer("")
    w, h = A4
    for number in sorted(supplied):
        page = pages[number - 1]
        y = h - 64
        c.setFont("Helvetica-Bold", 16)
        c.drawString(56, y, title if number == 1 else f"{title} (continued)")
        y -= 30
        c.setFont("Helvetica", 11)
        for line in page.get("lines", []):
            c.drawString(56, y, str(line))
            y -= 17
        items = page.get("items", [])
        if items:
            y -= 8
            c.setFont("Helvetica-Bold", 11)
            c.drawString(56, y, "Description")
            c.drawRightString(w - 56, y, f"Amount ({currency})")
            y -= 4
            c.line(56, y, w - 56, y)
            y -= 15
            c.setFont("Helvetica", 11)
            for desc, amount in items:
                c.drawString(56, y, str(desc))
                c.drawRightString(w - 56, y, str(amount))
                y -= 17
        totals = page.get("totals", [])
        if totals:
            y -= 6
            c.line(w / 2, y + 10, w - 56, y + 10)
            for label, amount in totals:
                c.setFont("Helvetica-Bold" if label.lower().startswith("total") else "Helvetica",
                          11)
                c.drawString(w / 2, y - 4, str(label))
                c.drawRightString(w - 56, y - 4, str(amount))
                y -= 17
        c.setFont("Helvetica", 9)
        c.drawCentredString(w / 2, 36, f"Page {number} of {total}")
        c.showPage()
    c.save()
    return buf.getvalue()
