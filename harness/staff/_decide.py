"""Recording a staff decision through the staff UI.

The claim's staff page is opened as for reading it; the queue the claim is in is read, the
decision chosen through the profile's ``[decision]`` controls, the note (and the amount)
written, and the decision confirmed. Screenshots ``screens/staff-03..05-*.png`` go into the
trial folder.
"""

from __future__ import annotations

import time
from pathlib import Path

from playwright.async_api import Page

from claims_corpus.formats import StaffScript
from claims_records import (
    DecisionRecord,
    ProductError,
)

from ..browser import first_match, visible_text
from ._find import open_claim
from ._session import StaffSession
from ._vocabulary import map_word

_SETTLE_MS = 10_000


async def record_decision(staff: StaffSession, script: StaffScript, claim_number: str,
                          folder: Path, rec: DecisionRecord) -> None:
    """Record the scripted decision on the claim through the staff UI, filling ``rec`` with
    the queue and the screenshots (raises on what goes wrong)."""
    dc = staff.side.decision
    timeout = staff.side.timeout_ms
    page, camera = await staff.page_for("claim")
    if not await open_claim(page, staff.side, staff.base, claim_number, staff.goto):
        raise ProductError("the staff side did not open the claim to decide on it",
                           claim=claim_number, url=page.url)
    await page.wait_for_load_state("domcontentloaded")
    rec.queue_text = await visible_text(page, dc.queue)
    if rec.queue_text is not None:
        rec.queue = map_word(dc.queue_words, rec.queue_text)
    rec.staff_screenshots.append(await camera.save_full_page(folder,
                                                             "staff-03-decision-open.png"))
    await (await first_match(page, dc.choice(script.decision), f"{script.decision} control")
           ).click(timeout=timeout)
    await (await first_match(page, dc.note, "decision note field")).fill(script.note,
                                                                        timeout=timeout)
    if script.amount is not None:
        await (await first_match(page, dc.amount, "decision amount field")).fill(
            str(script.amount), timeout=timeout)
    rec.staff_screenshots.append(await camera.save_full_page(folder,
                                                             "staff-04-decision-filled.png"))
    await (await first_match(page, dc.confirm, "decision confirm control")).click(
        timeout=timeout)
    await page.wait_for_load_state("domcontentloaded")
    outcome = await _settled(page, dc.recorded, dc.refused)
    rec.staff_screenshots.append(await camera.save_full_page(folder,
                                                             "staff-05-decision-recorded.png"))
    if outcome == "refused":
        why = await visible_text(page, dc.refused) or "no reason shown"
        raise ProductError(f"the product refused the decision: {why}", claim=claim_number)
    if outcome is None:
        raise ProductError("the decision was never shown as recorded", claim=claim_number,
                           url=page.url)


async def _settled(page: Page, recorded: list[str], refused: list[str]) -> str | None:
    """'recorded' or 'refused' once the page shows either; None when neither shows in
    time (without a recorded selector the page after confirm counts as recorded)."""
    deadline = time.monotonic() + _SETTLE_MS / 1000
    while time.monotonic() < deadline:
        if refused and await visible_text(page, refused) is not None:
            return "refused"
        if not recorded or await visible_text(page, recorded) is not None:
            return "recorded"
        await page.wait_for_timeout(100)
    return None
