"""Screenshots as evidence: lossless PNG, encoded for speed.

Playwright's ``page.screenshot`` encodes PNG at Chromium's default (best) compression and
makes a few extra round trips per shot (fonts, caret, clip). On Chromium the camera asks for
the same PNG through the DevTools protocol with ``optimizeForSpeed``: the pixels are
identical (PNG is lossless; ``tests/harness/test_camera.py`` compares them), the encoder only
compresses less, so a shot takes about half the time and is about a third larger
(docs/speed.md has the measurements). Other browsers, or a Chromium that refuses the call,
get Playwright's own screenshot.

A whole page taller than the viewport is photographed as the viewport, after the page's
viewport is made as tall as the page (width unchanged): a viewport shot costs about two thirds
of DevTools' ``captureBeyondViewport``, and a staff page kept from trial to trial mostly has the
same height as last time, so its viewport is resized once, not for every shot. The picture is
the one Playwright's ``page.screenshot(full_page=True)`` takes at the context's viewport (the
test compares them pixel for pixel, also for a page that became shorter than the one before
it). A page whose layout follows the viewport's height in ways the camera cannot measure at a
taller viewport is measured again at the context's viewport, and one that still does not fit
is taken as before, with ``captureBeyondViewport``.

A shot returns the bytes; the caller writes them (so a screenshot can be taken while the
customer decides, and named after what the customer then does).
"""

from __future__ import annotations

import base64
from typing import Any, NamedTuple

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

SHOT_TIMEOUT_MS = 15000
# The page may be taller than the viewport by this much at most (a very long staff page is
# cut rather than made into a huge image).
MAX_FULL_PAGE_HEIGHT = 16000
# The page's size for a full-page shot: [scroll width, height, viewport width, viewport height,
# whether the height is certain]. scrollHeight is never less than the viewport, so when the
# viewport was made taller for an earlier, taller page and the page does not overflow it, the
# page's own height is measured with the root and the body released from heights that fill the
# viewport (a constructed style sheet, added and removed within this call: nothing is drawn in
# between and the DOM does not change). It is uncertain when another element is as tall as the
# viewport (it may be sized by the viewport), or in quirks mode.
_MEASURE = """(normal) => {
  const de = document.documentElement, body = document.body, vh = window.innerHeight;
  const size = (h, sure) => [de.scrollWidth, Math.ceil(h), window.innerWidth, vh, sure];
  if (de.scrollHeight > vh || vh <= normal) return size(de.scrollHeight, true);
  if (!body || document.compatMode !== "CSS1Compat") return size(de.scrollHeight, false);
  const sheet = new CSSStyleSheet();
  sheet.replaceSync("html, body { min-height: 0 !important; height: auto !important }");
  const before = [...document.adoptedStyleSheets];  // a copy: the property is a live array
  document.adoptedStyleSheets = [...before, sheet];
  try {
    const own = Math.max(de.offsetHeight, body.offsetHeight, body.scrollHeight);
    const tall = Array.from(body.querySelectorAll("*"))
      .some((el) => el.getBoundingClientRect().height >= vh - 1);
    return size(own, !tall);
  } finally {
    document.adoptedStyleSheets = before;
  }
}"""


class _Size(NamedTuple):
    width: int
    height: int
    view_width: int
    view_height: int
    sure: bool


class Camera:
    """Screenshots of one page."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self._cdp: Any = None
        self._cdp_ok = _is_chromium(page)
        self._normal = page.viewport_size  # the context's viewport (None: the window's)
        self.resizes = 0
        """Viewport changes made for full-page shots (a page as tall as last time: none)."""

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
            answer = await session.send("Page.captureScreenshot", {
                "format": "png", "optimizeForSpeed": True, **params})
        except PlaywrightError:
            self._cdp_ok = False  # from now on Playwright's own screenshot
            return None
        return base64.b64decode(answer["data"])

    async def viewport(self) -> bytes:
        """The viewport as the customer sees it."""
        data = await self._capture({})
        if data is None:
            data = await self.page.screenshot(type="png", timeout=SHOT_TIMEOUT_MS)
        return data

    async def full_page(self) -> bytes:
        """The whole page, also what lies below the viewport, at most MAX_FULL_PAGE_HEIGHT
        tall. On Chromium the page's viewport is left as tall as the page (at least the
        context's viewport): the next shot of a page as tall needs no resize."""
        data = await self._full_page_chromium() if self._cdp_ok else None
        if data is None:
            if self._normal is not None and self.page.viewport_size != self._normal:
                await self._resize(self._normal["height"])  # DevTools refused the shot
            data = await self.page.screenshot(type="png", full_page=True,
                                              timeout=SHOT_TIMEOUT_MS)
        return data

    async def _full_page_chromium(self) -> bytes | None:
        if self._normal is None:  # no fixed viewport to size
            return await self._beyond(await self._measure())
        normal = self._normal["height"]
        size = await self._measure()
        if not size.sure:  # measured again at the context's viewport, where it is certain
            await self._resize(normal)
            size = await self._measure()
        if size.width > size.view_width:
            return await self._beyond(size)
        target = min(max(normal, size.height), MAX_FULL_PAGE_HEIGHT)
        if target != size.view_height:
            await self._resize(target)
            size = await self._measure()  # the layout may depend on the viewport
            if not _fits(size, target):
                return await self._beyond(size)
        return await self._capture({})

    async def _measure(self) -> _Size:
        normal = self._normal["height"] if self._normal else MAX_FULL_PAGE_HEIGHT
        return _Size(*await self.page.evaluate(_MEASURE, normal))

    async def _resize(self, height: int) -> None:
        assert self._normal is not None
        await self.page.set_viewport_size({"width": self._normal["width"], "height": height})
        self.resizes += 1

    async def _beyond(self, size: _Size) -> bytes | None:
        """The page at the context's viewport, captured beyond it (DevTools lays the page
        out at the clip's size for the shot), as Playwright's full-page screenshot does."""
        if self._normal is not None and size.view_height != self._normal["height"]:
            await self._resize(self._normal["height"])
            size = await self._measure()
        height = min(size.height, MAX_FULL_PAGE_HEIGHT)
        if size.width <= size.view_width and height <= size.view_height:
            return await self._capture({})
        return await self._capture({
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size.width, "height": height, "scale": 1}})


def _fits(size: _Size, target: int) -> bool:
    """Whether the page, measured with a viewport ``target`` tall, is exactly that tall (or
    taller, when cut at MAX_FULL_PAGE_HEIGHT)."""
    if not size.sure or size.width > size.view_width or size.view_height != target:
        return False
    return size.height == target or size.height > target == MAX_FULL_PAGE_HEIGHT


def _is_chromium(page: Page) -> bool:
    browser = page.context.browser
    return browser is not None and browser.browser_type.name == "chromium"
