"""The camera's fast PNG is the same picture as Playwright's own screenshot, pixel for pixel:
only the compression differs (harness/_camera.py, docs/speed.md). A full page is the picture
Playwright's ``page.screenshot(full_page=True)`` takes at the context's viewport, also on a page
whose viewport the camera made taller for an earlier, taller page."""

from __future__ import annotations

import io

import pytest
import pytest_asyncio
from PIL import Image, ImageChops

from harness import _camera
from harness._browser import VIEWPORT
from harness._camera import Camera

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

PAGE = """<!doctype html><html><body style="font: 15px system-ui; margin: 0">
<header style="background: #1d4ed8; color: white; padding: 12px">Claims workbench</header>
<main style="padding: 16px">{rows}</main></body></html>"""
ROWS = "".join(f"<p>Row {i}: receipt dated 2026-03-{i % 28 + 1:02d}, total £{i * 37}.50</p>"
               for i in range(120))


def _rows(height: int) -> str:
    """Numbered text rows and coloured bands exactly ``height`` px tall in all."""
    out, i = [], 0
    while height > 0:
        h = min(40, height)
        out.append(f'<div style="height:{h}px; background:hsl({i * 37 % 360} 60% 85%)">'
                   f"Row {i}: fact {i * 7} confirmed by the customer</div>")
        height -= h
        i += 1
    return "".join(out)


# Three ways a staff page gets its height. ``flat``: the content's own. ``fill``: the reference
# app's (the body at least as tall as the viewport, its main part stretched, a footer at the
# bottom). ``wrapper``: a wrapper inside the body at least as tall as the viewport, which the
# camera cannot tell from content as tall as the viewport.
LAYOUTS = {
    "flat": """<!doctype html><html><body style="margin:0; font:15px system-ui">
<header style="height:40px; background:#1f5f8b; color:#fff">Queue · Waiting list</header>
{rows}<footer style="height:40px; background:#333; color:#fff">version 1</footer>
</body></html>""",
    "fill": """<!doctype html><html><body style="margin:0; font:15px system-ui; min-height:100vh;
display:flex; flex-direction:column; background:#f5f7fa">
<header style="height:40px; background:#1f5f8b; color:#fff">Queue · Waiting list</header>
<main style="flex:1">{rows}</main>
<footer style="height:40px; background:#333; color:#fff">version 1</footer></body></html>""",
    "wrapper": """<!doctype html><html><body style="margin:0; font:15px system-ui">
<div style="min-height:100vh; display:flex; flex-direction:column; background:#f5f7fa">
<header style="height:40px; background:#1f5f8b; color:#fff">Queue · Waiting list</header>
<main style="flex:1">{rows}</main>
<footer style="height:40px; background:#333; color:#fff">version 1</footer></div></body></html>""",
}


def _page(layout: str, height: int) -> str:
    """A page of ``layout`` whose content is ``height`` px tall (header and footer included)."""
    return LAYOUTS[layout].format(rows=_rows(height - 80))



def _pixels(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def _same(a: bytes | Image.Image, b: bytes | Image.Image) -> None:
    one = a if isinstance(a, Image.Image) else _pixels(a)
    two = b if isinstance(b, Image.Image) else _pixels(b)
    assert one.size == two.size
    assert ImageChops.difference(one, two).getbbox() is None  # not one pixel differs


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def playwrights(browser):
    """Playwright's full-page screenshot of some HTML on a page of its own at the context's
    viewport: the picture a camera's full page must be."""
    page = await browser.new_page(viewport=VIEWPORT)

    async def shoot(html: str) -> bytes:
        await page.set_content(html)
        assert page.viewport_size == VIEWPORT
        return await page.screenshot(type="png", full_page=True)

    yield shoot
    await page.close()


async def test_fast_png_is_pixel_identical_to_playwrights(browser, playwrights):
    page = await browser.new_page(viewport=VIEWPORT)
    try:
        await page.set_content(PAGE.format(rows=ROWS))
        camera = Camera(page)
        fast = await camera.viewport()
        _same(fast, await page.screenshot(type="png"))
        assert _pixels(fast).size == (VIEWPORT["width"], VIEWPORT["height"])
        whole = await camera.full_page()
        _same(whole, await playwrights(PAGE.format(rows=ROWS)))
        assert _pixels(whole).size[1] > VIEWPORT["height"]  # below the fold too
        assert page.viewport_size == {"width": VIEWPORT["width"],
                                      "height": _pixels(whole).size[1]}  # kept for next time
        await page.set_content(PAGE.format(rows=ROWS[:400]))  # fits the viewport
        short = await camera.full_page()
        _same(short, await playwrights(PAGE.format(rows=ROWS[:400])))
        assert _pixels(short).size == (VIEWPORT["width"], VIEWPORT["height"])
        assert page.viewport_size == VIEWPORT
    finally:
        await page.close()


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
async def test_full_page_after_taller_and_shorter_pages(browser, playwrights,
                                                        layout: str):
    """One page shot again and again, as a staff page kept from trial to trial: each picture
    is Playwright's, exactly as tall as the content or the viewport, without a band left from
    a taller page; a page as tall as last time needs no resize when the camera can tell."""
    page = await browser.new_page(viewport=VIEWPORT)
    camera = Camera(page)
    try:
        last = None
        for height in (2400, 1300, 1300, 1200, 600):
            html = _page(layout, height)
            await page.set_content(html)
            resizes = camera.resizes
            shot = _pixels(await camera.full_page())
            _same(shot, await playwrights(html))
            assert shot.size == (VIEWPORT["width"], max(height, VIEWPORT["height"])), height
            if height == last and layout != "wrapper":
                assert camera.resizes == resizes  # as tall as last time: no resize
            last = height
    finally:
        await page.close()


async def test_full_page_cut_at_the_maximum_height(browser, playwrights, monkeypatch):
    monkeypatch.setattr(_camera, "MAX_FULL_PAGE_HEIGHT", 2000)
    html = _page("fill", 2600)
    page = await browser.new_page(viewport=VIEWPORT)
    try:
        await page.set_content(html)
        shot = _pixels(await Camera(page).full_page())
    finally:
        await page.close()
    whole = _pixels(await playwrights(html))
    assert whole.size[1] == 2600 and shot.size == (VIEWPORT["width"], 2000)
    _same(shot, whole.crop((0, 0, VIEWPORT["width"], 2000)))
