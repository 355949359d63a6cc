"""Getting to a claim on the staff side: opening the claim's page at a URL, behind a search
box or behind a queue row."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from ..browser import first_match
from ..profile import StaffSide, url

SETTLE_S = 10.0
"""The longest wait for a staff page to show what is looked for."""
Goto = Callable[[Page, str], Awaitable["int | None"]]
"""Opens a staff URL on a page, signed in; returns the HTTP status (None when unknown)."""


async def _click_and_follow(page: Page, target: Locator, timeout: float) -> None:
    """Click, then wait for the page it opens (a row that expands in place keeps the URL)."""
    before = page.url
    await target.click(timeout=timeout)
    with contextlib.suppress(PlaywrightError):
        await page.wait_for_url(lambda u: u != before, timeout=SETTLE_S * 1000)
    await page.wait_for_load_state("domcontentloaded")


async def open_claim(page: Page, side: StaffSide, base: str, claim_number: str,
                     goto: Goto) -> bool:
    """Open the claim's page (``goto`` opens a staff URL signed in, and returns the HTTP
    status); False when the product does not show it."""
    access, ss = side.access, side.screen
    timeout = side.timeout_ms
    if access.find == "url":
        status = await goto(page, url(base, ss.claim_path.format(claim_number=claim_number)))
        return status is not None and status < 400
    await goto(page, url(base, access.queue_path or "/"))
    if access.find == "search":
        box = await first_match(page, access.search_input, "staff search box")
        await box.fill(claim_number, timeout=timeout)
        if access.search_submit:
            await (await first_match(page, access.search_submit, "staff search control")
                   ).click(timeout=timeout)
        else:
            await box.press("Enter")
    for selector in access.queue_row:
        row = page.locator(selector).filter(has_text=claim_number).first
        try:
            await row.wait_for(state="visible", timeout=SETTLE_S * 1000)
        except PlaywrightError:
            continue
        link = row.locator("a, button").filter(has_text=claim_number)
        target = link.first if await link.count() else row
        await _click_and_follow(page, target, timeout)
        return True
    return False
