"""Selectors in a profile: any Playwright selector, or a list of alternatives.

A region's selector may be one string or a list; the first alternative that matches on the
page is used. An empty string or list means the product has no such region. Plain CSS is read
inside the page in one call; other Playwright selectors (``role=``, ``text=``, ``>>``,
``:has-text()``, ``xpath=``) are resolved by Playwright first (see ``harness/_screen.py``).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator


def _to_alternatives(value: Any) -> Any:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [v for v in value if not (isinstance(v, str) and not v.strip())]
    return value


Selector = Annotated[list[str], BeforeValidator(_to_alternatives)]
"""One Playwright selector or a list of alternatives (first that matches wins)."""
