"""After the journey and the staff reading: staff decide, the customer comes back.

The pack's staff script (setup.json, the environment) says what staff decide. A staff context
(the lane's, kept across trials) opens the claim's staff page as for reading it, reads the
queue the claim is in, chooses the decision through the profile's ``[decision]`` controls,
writes the note (and the amount), and confirms. Then the customer's own session comes back:
a fresh page in a context with the journey's storage state, reading what changed. For
``return_for_info`` the requested 'comes later' item now reaches the customer, who answers
from its facts and files until the product says the claim is back under review.

Everything lands in the trial folder: ``decision.json`` (``DecisionRecord``), staff
screenshots ``screens/staff-03..05-*.png``, the customer's return in
``decision-journey.jsonl`` with ``screens/decision-NNN-*.png``, and the state after it in
``state-after-decision.json`` (the state before is the trial's ``state-after.json``).
A product whose profile has no decision controls records ``not_implemented``, and nothing is
waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page
from playwright.async_api import Error as PlaywrightError

from claims_corpus.formats import StaffScript
from claims_records import (
    DecisionCustomer,
    DecisionRecord,
    HarnessError,
    ProductError,
    ScreenReading,
    SimulatorError,
    write_model_atomic,
)

from ._browser import VIEWPORT, CustomerPage
from ._camera import Camera
from ._journey import Journey, JourneySettings, now, resume
from ._marks import first_match
from ._reset import ResetAdapter
from ._staff import open_claim
from ._staff_session import StaffSession
from ._vocabulary import map_word
from .customers import Customer
from .profile import Lane, Profile

DECISION_FILE = "decision.json"
DECISION_EVENTS = "decision-journey.jsonl"
STATE_AFTER_DECISION = "state-after-decision.json"
_SETTLE_MS = 10_000


def staff_credentials(script: StaffScript, reset: ResetAdapter,
                      default: dict[str, Any]) -> dict[str, Any]:
    """Who signs in to decide: the trial's staff, or the baseline's senior staff."""
    if script.staff != "senior":
        return default
    senior = reset.baseline().senior_staff_credentials
    if senior is None:
        raise HarnessError("the staff script asks for a senior, but the corpus baseline has no "
                           "senior_staff_credentials", field="staff_script.staff")
    return senior.model_dump()


async def _text(page: Page, selectors: list[str]) -> str | None:
    """The visible text of the first match of ``selectors``, None when nothing shows."""
    for selector in selectors:
        loc = page.locator(selector).first
        with contextlib.suppress(PlaywrightError):
            if await loc.count() and await loc.is_visible():
                return " ".join((await loc.inner_text()).split())
    return None


async def _shot(camera: Camera, folder: Path, name: str, into: list[str]) -> None:
    path = folder / "screens" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(await camera.full_page())
    into.append(f"screens/{name}")


async def _decide(staff: StaffSession, profile: Profile, script: StaffScript,
                  claim_number: str, folder: Path, rec: DecisionRecord) -> None:
    """Record the scripted decision through the staff UI (raises on what goes wrong)."""
    dc = profile.decision
    timeout = profile.completion.timeout_s * 1000
    page, camera = await staff.page_for("claim")
    if not await open_claim(page, profile, staff.base, claim_number, staff.goto):
        raise ProductError("the staff side did not open the claim to decide on it",
                           claim=claim_number, url=page.url)
    await page.wait_for_load_state("domcontentloaded")
    rec.queue_text = await _text(page, dc.queue)
    if rec.queue_text is not None:
        rec.queue = map_word(dc.queue_words, rec.queue_text)
    await _shot(camera, folder, "staff-03-decision-open.png", rec.staff_screenshots)
    await (await first_match(page, dc.choice(script.decision), f"{script.decision} control")
           ).click(timeout=timeout)
    await (await first_match(page, dc.note, "decision note field")).fill(script.note,
                                                                        timeout=timeout)
    if script.amount is not None:
        await (await first_match(page, dc.amount, "decision amount field")).fill(
            str(script.amount), timeout=timeout)
    await _shot(camera, folder, "staff-04-decision-filled.png", rec.staff_screenshots)
    await (await first_match(page, dc.confirm, "decision confirm control")).click(
        timeout=timeout)
    await page.wait_for_load_state("domcontentloaded")
    outcome = await _settled(page, dc.recorded, dc.refused)
    await _shot(camera, folder, "staff-05-decision-recorded.png", rec.staff_screenshots)
    if outcome == "refused":
        why = await _text(page, dc.refused) or "no reason shown"
        raise ProductError(f"the product refused the decision: {why}", claim=claim_number)
    if outcome is None:
        raise ProductError("the decision was never shown as recorded", claim=claim_number,
                           url=page.url)


async def _settled(page: Page, recorded: list[str], refused: list[str]) -> str | None:
    """'recorded' or 'refused' once the page shows either; None when neither shows in
    time (without a recorded selector the page after confirm counts as recorded)."""
    deadline = time.monotonic() + _SETTLE_MS / 1000
    while time.monotonic() < deadline:
        if refused and await _text(page, refused) is not None:
            return "refused"
        if not recorded or await _text(page, recorded) is not None:
            return "recorded"
        await page.wait_for_timeout(100)
    return None


async def _as_signed_in(staff: StaffSession, creds: dict[str, Any], default: dict[str, Any],
                        work: Any) -> None:
    """Run ``work`` signed in as ``creds``; another person than the lane's staff signs in
    afresh and is signed out again after (the lane's next trial signs in as itself)."""
    other = creds.get("username") != default.get("username")
    if other and staff.context is not None:
        await staff.context.clear_cookies()
        staff.signed_in = False
    staff.creds = creds
    try:
        await work
    finally:
        if other:
            if staff.context is not None:
                with contextlib.suppress(PlaywrightError):
                    await staff.context.clear_cookies()
            staff.signed_in = False
            staff.creds = default


async def _customer_returns(browser: Browser, profile: Profile, lane: Lane, view: Any,
                            customer: Customer, main: Journey, script: StaffScript,
                            settings: JourneySettings, rec: DecisionRecord) -> None:
    """The customer's own session opens the product again and reads what changed; for
    return_for_info it answers until the product says the claim is back under review."""
    dc = profile.decision
    context = await browser.new_context(
        viewport=VIEWPORT, storage_state=main.storage,
        extra_http_headers=profile.browser.extra_headers() or None)
    back = Journey(folder=main.folder, events_file=DECISION_EVENTS, shot_prefix="decision-",
                   history=list(main.history), uploaded=list(main.uploaded),
                   signed_in=main.signed_in, claim_number=main.claim_number,
                   tracker=main.tracker)
    seen = DecisionCustomer()
    rec.customer = seen
    try:
        page = await context.new_page()
        cp = CustomerPage(page, profile, lane.base_url)
        await cp.open_start()
        reading = await cp.wait_first()
        back.saw(reading.agent_texts)
        seen.replies = [t for t in reading.agent_texts[main.agent_seen:]]
        seen.status_text = await _text(page, dc.customer_status)
        seen.status = (map_word(dc.status_words, seen.status_text)
                       if seen.status_text is not None else None)
        seen.note_text = await _text(page, dc.customer_note)
        name = back.shot_name("back-after-decision")
        (main.folder / name).write_bytes(await cp.shoot())
        seen.screenshots.append(name)
        back.event(screen=reading.screen, screenshot=name,
                   note=f"the customer came back after the staff decision: status "
                   f"{seen.status_text!r}")
        if script.decision != "return_for_info":
            return
        assert script.requested is not None
        if back.tracker is not None:
            back.tracker.arrive(script.requested)

        async def under_review(cp: CustomerPage, screen: ScreenReading) -> str | None:
            shown = await _text(cp.page, dc.customer_status)
            if shown is not None and map_word(dc.status_words, shown) == "under_review":
                return f"the product shows the claim back under review ({shown!r})"
            return None

        goal = JourneySettings(turn_limit=settings.turn_limit, stuck_after=settings.stuck_after,
                               screenshots=settings.screenshots, goal=under_review)
        try:
            await resume(cp, view, customer, back, goal)
        except (SimulatorError, ProductError) as exc:
            back.stop("stuck", str(exc)[:500])
        rec.follow_up, rec.follow_up_detail = back.stop_reason, back.detail
        rec.delivered = _delivered(back, main, script.requested, view)
        final = await _text(page, dc.customer_status)
        seen.status_text = final if final is not None else seen.status_text
        seen.status = (map_word(dc.status_words, seen.status_text)
                       if seen.status_text is not None else None)
        seen.screenshots += [f"screens/{p.name}" for p in sorted(
            (main.folder / "screens").glob(f"{back.shot_prefix}*.png"))
            if f"screens/{p.name}" not in seen.screenshots]
    finally:
        with contextlib.suppress(PlaywrightError):
            await context.close()


def _delivered(back: Journey, main: Journey, requested: str, view: Any) -> list[str]:
    """What the customer gave back after the request: files uploaded, facts said."""
    files = [f for f in back.uploaded if f not in main.uploaded]
    said = " ".join(t for who, t in back.history[len(main.history):] if who == "customer")
    facts = [f.key for f in view.facts if f.key == requested and str(f.value) in said]
    return files + facts


async def decide_and_return(browser: Browser, profile: Profile, lane: Lane,
                            reset: ResetAdapter, script: StaffScript | None, view: Any,
                            customer: Customer | None, main: Journey,
                            staff: StaffSession | None, staff_creds: dict[str, Any],
                            settings: JourneySettings) -> DecisionRecord | None:
    """The staff decision step of one trial (None: the pack has no staff script). Writes
    decision.json and, when the step ran, state-after-decision.json."""
    if script is None:
        return None
    rec = DecisionRecord(decision=script.decision, outcome="not_run", delay_s=script.delay_s,
                         staff_login=script.staff, state_before="state-after.json")
    if not profile.decision.present or not profile.capabilities.staff_side:
        rec.outcome = "not_implemented"
        rec.detail = ("the product profile gives no staff decision controls ([decision])"
                      if profile.capabilities.staff_side else "the product has no staff side")
    elif staff is None or customer is None or not main.claim_number or main.storage is None:
        rec.detail = ("no claim number from the journey" if not main.claim_number else
                      "the journey left no customer session to come back to")
    else:
        rec.started_at = now()
        t0 = time.monotonic()
        try:
            if script.delay_s:
                await asyncio.sleep(script.delay_s)
            creds = staff_credentials(script, reset, staff_creds)
            await _as_signed_in(staff, creds, staff_creds, _decide(
                staff, profile, script, main.claim_number, main.folder, rec))
            await _customer_returns(browser, profile, lane, view, customer, main, script,
                                    settings, rec)
            rec.outcome = "performed"
        except (ProductError, HarnessError, PlaywrightError) as exc:
            rec.outcome = "error"
            rec.detail = str(exc).splitlines()[0][:500]
        rec.duration_s = round(time.monotonic() - t0, 3)
        try:
            after = await asyncio.to_thread(reset.state)
            if after is not None:
                write_model_atomic(main.folder / STATE_AFTER_DECISION, after)
                rec.state_after = STATE_AFTER_DECISION
        except Exception as exc:  # the product may be down: say so, keep the record
            rec.detail = (rec.detail + f"; state after the decision not taken: {exc}")[:1000]
    write_model_atomic(main.folder / DECISION_FILE, rec)
    return rec
