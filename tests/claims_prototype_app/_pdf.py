"""Small PDFs with a text layer, printed the way the corpus's documents are."""

from __future__ import annotations

import io

from reportlab.pdfgen import canvas


def pdf(pages: list[list[str]], supplied: list[int] | None = None) -> bytes:
    """A PDF of ``pages`` (lines each), 'Page X of N' on every page; only the pages in
    ``supplied`` (1-based) are in the file."""
    out = io.BytesIO()
    c = canvas.Canvas(out)
    total = len(pages)
    for number, lines in enumerate(pages, start=1):
        if supplied is not None and number not in supplied:
            continue
        y = 800
        for line in [*lines, f"Page {number} of {total}"]:
            c.drawString(50, y, line)
            y -= 18
        c.showPage()
    c.save()
    return out.getvalue()


def quote(date: str = "16 March 2026", total: str = "640.00", currency: str = "EUR",
          extra: tuple[str, ...] = ()) -> bytes:
    return pdf([["REPAIR QUOTE", "Sheffield Body Repairs", f"Quote date: {date}", *extra,
                 "Description", f"Amount ({currency})", "Rear bumper", total, "Total", total]])
