"""Screenshots as evidence: lossless PNG, encoded for speed.

Playwright's ``page.screenshot`` encodes PNG at Chromium's default (best) compression and
makes a few extra round trips per shot (fonts, caret, clip). On Chromium the camera asks for
the same PNG through the DevTools protocol with ``optimizeForSpeed``: the pixels are
identical (PNG is lossless; ``tests/harness/test_camera.py`` compares them), the encoder only
compresses less, so a shot takes about half the time and is about a third larger
(docs/speed.md has the measurements). Other browsers, or a Chromium that refuses the call,
get Playwright's own screenshot. So does a Chromium where a protocol shot did not answer within
``CDP_SHOT_TIMEOUT_S`` (a Chromium reached over CDP was seen to leave a shot beyond the viewport
unanswered for minutes): from then on, for every page of that browser.

A shot returns the bytes; the caller writes them (so a screenshot can be taken while the
customer decides, and named after what the customer then does).
"""

from __future__ import annotations

import asyncio
import base64
import weakref
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page
from playwright.async_api import Error as PlaywrightError

SHOT_TIMEOUT_MS = 15000
# The page may be taller than the viewport by this much at most (a very long staff page is
# cut rather than made into a huge image).
MAX_FULL_PAGE_HEIGHT = 16000
# A protocol shot takes well under a second; one that has not answered by then never will soon.
CDP_SHOT_TIMEOUT_S = 5.0
# Browsers where a protocol shot did not answer in time: Playwright's screenshot from then on.
_UNANSWERED: weakref.WeakSet[Browser] = weakref.WeakSet()


class Camera:
    """Screenshots of one page."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self._cdp: Any = None
        self._cdp_ok = _is_chromium(page)

    async def _session(self) -> Any:
        if self._cdp is None:
            self._cdp = await self.page.context.new_cdp_session(self.page)
        return self._cdp

    async def _capture(self, params: dict[str, Any]) -> bytes | None:
        """A PNG through the DevTools protocol, or None when that is not possible here."""
        if not self._cdp_ok:
            return None
        try:
            session = await self._session()
            answer = await asyncio.wait_for(session.send("Page.captureScreenshot", {
                "format": "png", "optimizeForSpeed": True, **params}), CDP_SHOT_TIMEOUT_S)
        except (PlaywrightError, TimeoutError):
            self._cdp_ok = False  # from now on Playwright's own screenshot
            browser = self.page.context.browser
            if browser is not None:
                _UNANSWERED.add(browser)
            return None
        return base64.b64decode(answer["data"])

    async def viewport(self) -> bytes:
        """The viewport as the customer sees it."""
        data = await self._capture({})
        if data is None:
            data = await self.page.screenshot(type="png", timeout=SHOT_TIMEOUT_MS)
        return data

    async def full_page(self) -> bytes:
        """The whole page, also what lies below the viewport. A page that fits the viewport
        is the viewport (the same picture, without laying the page out again at its full
        size)."""
        data = None
        if self._cdp_ok:
            size = await self.page.evaluate(
                "() => [document.documentElement.scrollWidth, "
                "document.documentElement.scrollHeight, window.innerWidth, window.innerHeight]")
            width, height = int(size[0]), min(int(size[1]), MAX_FULL_PAGE_HEIGHT)
            if width <= int(size[2]) and height <= int(size[3]):
                data = await self._capture({})
            else:
                data = await self._capture({
                    "captureBeyondViewport": True,
                    "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
        if data is None:
            data = await self.page.screenshot(type="png", full_page=True,
                                              timeout=SHOT_TIMEOUT_MS)
        return data


    async def save_full_page(self, folder: Path, name: str) -> str:
        """Photograph the whole page into ``folder/screens/name``; the path under ``folder``."""
        path = folder / "screens" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(await self.full_page())
        return f"screens/{name}"


def _is_chromium(page: Page) -> bool:
    browser = page.context.browser
    return (browser is not None and browser.browser_type.name == "chromium"
            and browser not in _UNANSWERED)
