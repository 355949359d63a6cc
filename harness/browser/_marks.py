"""Any Playwright selector, usable inside one in-page read.

Plain CSS runs in the page as it is. A selector only Playwright understands (``role=``,
``text=``, ``>>``, ``:has-text()``, ``xpath=``…) is resolved by Playwright and its matches are
marked with an attribute; the in-page reader then uses ``[data-claims-harness-mark~=mN]`` in its
place. Marks are refreshed before every read, so they follow a page that re-renders.
"""

from __future__ import annotations

import contextlib
import re

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Locator, Page

from claims_records import ProductError, ProfileError

MARK_ATTR = "data-claims-harness-mark"
_PLAYWRIGHT_SYNTAX = re.compile(
    r"^(//|\.\.|\(|[\w:-]+=|\"|')|>>|:(has-text|text|text-is|text-matches|visible|nth-match|"
    r"left-of|right-of|above|below|near)\b|\binternal:")
_MARK_JS = """(els, [attr, mark]) => {
  for (const el of document.querySelectorAll(`[${attr}~="${mark}"]`)) {
    const rest = el.getAttribute(attr).split(' ').filter((m) => m && m !== mark);
    if (rest.length) el.setAttribute(attr, rest.join(' ')); else el.removeAttribute(attr);
  }
  for (const el of els) {
    const have = (el.getAttribute(attr) || '').split(' ').filter(Boolean);
    if (!have.includes(mark)) el.setAttribute(attr, [...have, mark].join(' '));
  }
  return els.length;
}"""
_CSS_OK_JS = """(sels) => sels.map((s) => {
  try { document.querySelectorAll(s); return true; } catch (e) { return false; }
})"""


class PageSelectors:
    """The selectors of one profile on one page, turned into CSS the page can run."""

    def __init__(self, page: Page | Frame, selectors: list[str]) -> None:
        self.page = page
        self.selectors = list(dict.fromkeys(s for s in selectors if s))
        self._marks: dict[str, str] | None = None
        # mark selector -> how many elements it marked at the last refresh
        self.counts: dict[str, int] = {}

    async def marks(self) -> dict[str, str]:
        """Selector -> mark, for the selectors plain CSS cannot express (found once)."""
        if self._marks is None:
            candidates = [s for s in self.selectors if not _PLAYWRIGHT_SYNTAX.search(s)]
            ok = await self.page.evaluate(_CSS_OK_JS, candidates) if candidates else []
            css = {s for s, good in zip(candidates, ok, strict=True) if good}
            self._marks = {s: f"m{i}" for i, s in enumerate(self.selectors) if s not in css}
        return self._marks

    async def refresh(self) -> None:
        """Mark the current matches of every Playwright-only selector."""
        for selector, mark in (await self.marks()).items():
            try:
                self.counts[self.mark_css(mark)] = await self.page.locator(
                    selector).evaluate_all(_MARK_JS, [MARK_ATTR, mark])
            except PlaywrightError as exc:
                text = str(exc).lower()
                if "selector" in text and ("parse" in text or "unknown engine" in text):
                    raise ProfileError("not a valid Playwright selector", selector=repr(selector),
                                       error=str(exc).splitlines()[0]) from exc
                raise

    def css(self, alternatives: list[str]) -> list[str]:
        """The alternatives as the page can run them (after ``refresh``)."""
        marks = self._marks or {}
        return [self.mark_css(marks[s]) if s in marks else s for s in alternatives]

    @staticmethod
    def mark_css(mark: str) -> str:
        return f'[{MARK_ATTR}~="{mark}"]'

    @property
    def all_css(self) -> bool:
        """True when no selector needs marks (reads can be watched inside the page)."""
        return not self._marks


async def first_match(page: Page | Frame, alternatives: list[str], what: str) -> Locator:
    """The first alternative with a match on the page (the last one when none matches yet, so
    a caller's own wait applies to it)."""
    if not alternatives:
        raise ProductError(f"the profile gives no selector for the {what}", url=page.url)
    if len(alternatives) == 1:  # nothing to choose between: no look-up
        return page.locator(alternatives[0]).first
    for selector in alternatives:
        loc = page.locator(selector)
        try:
            if await loc.count():
                return loc.first
        except PlaywrightError as exc:
            raise ProfileError(f"the {what} selector cannot be used", selector=repr(selector),
                               error=str(exc).splitlines()[0]) from exc
    return page.locator(alternatives[-1]).first


async def visible_text(page: Page | Frame, alternatives: list[str]) -> str | None:
    """The visible text (whitespace collapsed) of the first alternative whose first match
    shows; None when nothing shows."""
    for selector in alternatives:
        loc = page.locator(selector).first
        with contextlib.suppress(PlaywrightError):
            if await loc.count() and await loc.is_visible():
                return " ".join((await loc.inner_text()).split())
    return None
