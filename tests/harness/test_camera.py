"""The camera's fast PNG is the same picture as Playwright's own screenshot, pixel for pixel:
only the compression differs (harness/browser/_camera.py, docs/speed.md)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from harness.browser import VIEWPORT, Camera, launch_browser

pytestmark = [pytest.mark.browser, pytest.mark.asyncio]

PAGE = """<!doctype html><html><body style="font: 15px system-ui; margin: 0">
<header style="background: #1d4ed8; color: white; padding: 12px">Claims workbench</header>
<main style="padding: 16px">{rows}</main></body></html>"""
ROWS = "".join(f"<p>Row {i}: receipt dated 2026-03-{i % 28 + 1:02d}, total £{i * 37}.50</p>"
               for i in range(120))


def _pixels(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def _same(a: bytes, b: bytes) -> None:
    one, two = _pixels(a), _pixels(b)
    assert one.size == two.size
    assert ImageChops.difference(one, two).getbbox() is None  # not one pixel differs


async def test_fast_png_is_pixel_identical_to_playwrights():
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await launch_browser(pw)
        try:
            page = await browser.new_page(viewport=VIEWPORT)
            await page.set_content(PAGE.format(rows=ROWS))
            camera = Camera(page)
            fast = await camera.viewport()
            _same(fast, await page.screenshot(type="png"))
            assert _pixels(fast).size == (VIEWPORT["width"], VIEWPORT["height"])
            whole = await camera.full_page()
            _same(whole, await page.screenshot(type="png", full_page=True))
            assert _pixels(whole).size[1] > VIEWPORT["height"]  # below the fold too
            await page.set_content(PAGE.format(rows=ROWS[:400]))  # fits the viewport
            short = await camera.full_page()
            _same(short, await page.screenshot(type="png", full_page=True))
            assert _pixels(short).size == (VIEWPORT["width"], VIEWPORT["height"])
        finally:
            await browser.close()
