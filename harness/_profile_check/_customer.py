"""The customer side of ``profile check``: the profile's selectors parse, the start page
opens and becomes ready, and every region is read off it."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from playwright.async_api import Error as PlaywrightError

from claims_records import HarnessError

from ..browser import VIEWPORT, CustomerPage
from ..profile import READ_REGIONS, Lane, Profile
from ..profile._selectors import selector_fields
from ._new_conversation import new_conversation_lines
from ._report import CheckReport, Line, read_regions, rows, shorten

# Regions a journey cannot do without.
REQUIRED = ("conversation", "composer_input", "composer_send")
# Without a ready selector the start page is read again until what matches stands still
# this long (at most _SETTLE_MAX_S), every _POLL_S: long enough for a greeting a product
# shows after a typing indicator of a second or two.
_SETTLE_S = 2.5
_SETTLE_MAX_S = 10.0
_POLL_S = 0.25


async def selector_lines(browser: Any, profile: Profile) -> list[Line]:
    """A FAIL line for every selector of the profile that Playwright cannot parse (tried on a
    blank page, so nothing else can fail), naming its key and the selector."""
    page = await browser.new_page()
    lines = []
    try:
        for key, selector in selector_fields(profile):
            try:
                await page.locator(selector).count()
            except PlaywrightError as exc:
                why = str(exc).splitlines()[0].removeprefix("Locator.count: ")
                lines.append(Line("selector", False, f"{key} = {selector!r} is not a valid "
                                  f"selector: {shorten(why, 160)}"))
    finally:
        await page.close()
    return lines


async def customer_side(browser: Any, profile: Profile, lane: Lane, report: CheckReport
                        ) -> None:
    """Open the start page as a customer would, wait until it is ready, read every region,
    and try the new-conversation step; lines and the region table into ``report``."""
    context = await browser.new_context(viewport=VIEWPORT,
                                        extra_http_headers=profile.browser.extra_headers() or None)
    try:
        cp = CustomerPage(await context.new_page(), profile.customer_side(), lane.base_url)
        try:
            await cp.open_start()
        except HarnessError as exc:
            report.lines.append(Line("start page", False, str(exc)))
            return
        ready = await _wait_ready(cp, profile, report)
        regions = {n: list(getattr(profile.customer_screen, n)) for n in READ_REGIONS}
        absent = set(profile.capabilities.absent_regions())
        found = await read_regions(await cp.chat(), regions)
        if not profile.completion.ready:
            found, late = await _settled(cp, regions, found)
            scripted = await _scripted(browser, profile, lane, regions, absent, found)
            if scripted:
                report.lines.append(_client_rendered(scripted, late))
        report.customer = rows(found, regions, absent)
        for name in REQUIRED:
            if found.get(name) is None:
                report.lines.append(Line("start page", False, f"required region {name} has no "
                                         "match on the start page"))
        if ready:
            report.lines += await new_conversation_lines(cp, lane, profile.conversation.new)
    finally:
        await context.close()


async def _wait_ready(cp: CustomerPage, profile: Profile, report: CheckReport) -> bool:
    """Wait as a run's first read does (``completion.ready`` first, when set); a line on it.
    Whether the page became ready."""
    started = time.monotonic()
    c = profile.completion
    try:
        await cp.wait_first()
    except HarnessError as exc:
        detail = str(exc)
        if c.ready and not await _matches(cp, c.ready):
            detail = (f"completion.ready = {' | '.join(c.ready)!r} never matched on the start "
                      f"page in {c.timeout_s:g} s: {detail}")
        report.lines.append(Line("start page", False, detail))
        return False
    took = time.monotonic() - started
    report.lines.append(Line("start page", True, f"{profile.customer_screen.start_path} ready "
                             f"and complete after {took:.1f} s"))
    return True


async def _matches(cp: CustomerPage, alternatives: list[str]) -> bool:
    view = await cp.chat()
    for selector in alternatives:
        try:
            if await view.locator(selector).count():
                return True
        except PlaywrightError:
            continue
    return False


def _shape(found: dict[str, Any]) -> dict[str, tuple[int, int] | None]:
    """What a reading matched (alternative and count per region), its texts aside."""
    return {n: (f["alternative"], f["count"]) if f else None for n, f in found.items()}


async def _settled(cp: CustomerPage, regions: dict[str, list[str]], first: dict[str, Any]
                   ) -> tuple[dict[str, Any], dict[str, float]]:
    """With no ready selector: read the page again until what matches has stood still for
    ``_SETTLE_S`` (at most ``_SETTLE_MAX_S``); the last reading, and each region that came
    only after the first reading with how long after."""
    started = time.monotonic()
    found, since, late = first, started, {}
    while time.monotonic() - since < _SETTLE_S and time.monotonic() - started < _SETTLE_MAX_S:
        await asyncio.sleep(_POLL_S)
        now = await read_regions(await cp.chat(), regions)
        if _shape(now) != _shape(found):
            since = time.monotonic()
            for name, f in now.items():
                if f and not first.get(name) and name not in late:
                    late[name] = since - started
        found = now
    return found, late


async def _scripted(browser: Any, profile: Profile, lane: Lane, regions: dict[str, list[str]],
                    absent: set[str], found: dict[str, Any]) -> list[str]:
    """The regions that match on the page but not in its HTML as served (read with the
    page's scripts off): what the page renders client-side."""
    context = await browser.new_context(
        viewport=VIEWPORT, java_script_enabled=False,
        extra_http_headers=profile.browser.extra_headers() or None)
    try:
        bare = CustomerPage(await context.new_page(), profile.customer_side(), lane.base_url)
        await bare.open_start()
        served = await read_regions(await bare.chat(), regions)
    except (HarnessError, PlaywrightError):
        return []  # the page cannot be read without its scripts: nothing to compare
    finally:
        await context.close()
    return [n for n in regions if n not in absent and found.get(n) and not served.get(n)]


def _client_rendered(scripted: list[str], late: dict[str, float]) -> Line:
    came = "; ".join(f"{n} appeared {s:.1f} s after the first read" for n, s in late.items())
    return Line("start page", None, "completion.ready is not set and the start page is "
                f"rendered client-side: {', '.join(scripted)} not in its HTML, shown only once "
                "its scripts run" + (f" ({came})" if came else "") + "; a run may read the "
                "page before they show: set completion.ready to a selector of what shows once "
                "the page is ready (e.g. the greeting)", warn=True)
