"""The staff side after a journey: sign in to the workbench and read the claim off the screen."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from corpus.formats import StaffReading
from corpus.formats.run import StaffCheck, StaffFact, StaffWaitingItem

from ._profile import Profile, url

_CODE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*")
_LOOK_MS = 3000


async def _texts(page: Page, selector: str) -> list[str] | None:
    """Visible texts of every match, or None when the region is absent."""
    if not selector:
        return None
    loc = page.locator(selector)
    n = await loc.count()
    if n == 0:
        return None
    out = []
    for i in range(n):
        item = loc.nth(i)
        if await item.is_visible():
            out.append((await item.inner_text(timeout=_LOOK_MS)).strip())
    return out


async def _row_text(row, selector: str) -> str | None:
    if not selector:
        return None
    loc = row.locator(selector)
    if await loc.count() == 0:
        return None
    return (await loc.first.inner_text(timeout=_LOOK_MS)).strip()


async def _shot(page: Page, folder: Path, name: str, reading: StaffReading) -> None:
    path = folder / "screens" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(path), full_page=True, timeout=15000)
    reading.screenshots.append(f"screens/{name}")


async def read_staff_side(
    context: BrowserContext,
    profile: Profile,
    base_url: str,
    username: str,
    password: str,
    claim_number: str | None,
    folder: Path,
) -> StaffReading:
    """Sign in as staff, open the claim and the waiting list, and read what they show."""
    reading = StaffReading(claim_number=claim_number)
    ss, si = profile.staff_screen, profile.staff_sign_in
    timeout = profile.completion.timeout_s * 1000
    page = await context.new_page()
    try:
        await page.goto(url(base_url, si.path), wait_until="domcontentloaded", timeout=timeout)
        await page.locator(si.username).first.fill(username, timeout=timeout)
        await page.locator(si.password).first.fill(password, timeout=timeout)
        await page.locator(si.submit).first.click(timeout=timeout)
        await page.wait_for_url(lambda u: si.path not in u, timeout=timeout)
        if claim_number:
            target = url(base_url, ss.claim_path.format(claim_number=claim_number))
            resp = await page.goto(target, wait_until="domcontentloaded", timeout=timeout)
            reading.found = resp is not None and resp.status < 400
            if reading.found:
                await _read_claim(page, profile, reading)
            await _shot(page, folder, "staff-01-claim.png", reading)
        else:
            reading.not_shown.append("claim")
        if ss.waiting_path:
            await page.goto(url(base_url, ss.waiting_path), wait_until="domcontentloaded",
                            timeout=timeout)
            await _read_waiting(page, profile, reading)
            await _shot(page, folder, "staff-02-waiting.png", reading)
        else:
            reading.not_shown.append("waiting_list")
    except PlaywrightError as exc:
        reading.error = str(exc).splitlines()[0][:500]
    finally:
        await page.close()
    return reading


async def _read_claim(page: Page, profile: Profile, reading: StaffReading) -> None:
    ss = profile.staff_screen
    triage = await _texts(page, ss.triage_class)
    if triage:
        reading.triage_class = triage[0]
    else:
        reading.not_shown.append("triage_class")
    reasons = await _texts(page, ss.reason)
    if reasons is None:
        reading.not_shown.append("reasons")
    else:
        reading.reasons = [m.group(0) if (m := _CODE.match(r)) else r for r in reasons if r]
    urgency = await _texts(page, ss.urgency)
    if urgency:
        reading.urgency = urgency[0]
    else:
        reading.not_shown.append("urgency")
    signal = await _texts(page, ss.review_signal)
    if signal:
        reading.review_required = signal[0].strip() in ss.review_required_values
    else:
        reading.not_shown.append("review_signal")

    rows = page.locator(ss.check_row) if ss.check_row else None
    if rows is None or await rows.count() == 0:
        reading.not_shown.append("checks")
    else:
        for i in range(await rows.count()):
            row = rows.nth(i)
            cid = await _row_text(row, ss.check_id)
            outcome = await _row_text(row, ss.check_outcome)
            if cid and outcome is not None:
                rests = await _row_text(row, ss.check_rests_on) or ""
                reading.checks[cid] = StaffCheck(outcome=outcome, rests_on=rests)

    rows = page.locator(ss.fact_row) if ss.fact_row else None
    if rows is None or await rows.count() == 0:
        reading.not_shown.append("facts")
    else:
        for i in range(await rows.count()):
            row = rows.nth(i)
            key = await _row_text(row, ss.fact_key)
            if key:
                reading.facts[key] = StaffFact(
                    value=await _row_text(row, ss.fact_value) or "",
                    state=await _row_text(row, ss.fact_state) or "",
                )


async def _read_waiting(page: Page, profile: Profile, reading: StaffReading) -> None:
    ss = profile.staff_screen
    rows = page.locator(ss.waiting_item) if ss.waiting_item else None
    if rows is None:
        reading.not_shown.append("waiting_list")
        return
    for i in range(await rows.count()):
        row = rows.nth(i)
        # every lane is reset before a trial, so everything waiting belongs to this journey
        text = await _row_text(row, ss.waiting_text) or (await row.inner_text()).strip()
        reading.waiting_list.append(
            StaffWaitingItem(kind=await _row_text(row, ss.waiting_kind) or "", text=text)
        )
