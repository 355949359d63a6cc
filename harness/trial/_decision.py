"""After the journey and the staff reading: staff decide, the customer comes back.

The pack's staff script (setup.json, the environment) says what staff decide; the lane's
staff session records it (``harness.staff.record_decision``). Then the customer's own
session comes back: a fresh page in a context with the journey's storage state, reading what
changed. For ``return_for_info`` the requested 'comes later' item now reaches the customer,
who answers from its facts and files until the product says the claim is back under review.

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

from playwright.async_api import Error as PlaywrightError

from claims_corpus import CustomerView
from claims_corpus.formats import StaffScript
from claims_records import (
    DECISION_JOURNEY_FILE,
    DecisionCustomer,
    DecisionRecord,
    HarnessError,
    ProductError,
    ScreenReading,
    SimulatorError,
    write_model_atomic,
)

from ..browser import VIEWPORT, CustomerPage, visible_text
from ..profile import DecisionControls
from ..reset import Credentials, ResetAdapter
from ..staff import map_word, record_decision
from ._after import write_state
from ._context import TrialContext
from ._journey import JourneySettings, resume
from ._record import Journey, now

DECISION_FILE = "decision.json"
DECISION_EVENTS = DECISION_JOURNEY_FILE
STATE_AFTER_DECISION = "state-after-decision.json"


def staff_credentials(script: StaffScript, reset: ResetAdapter,
                      default: Credentials) -> Credentials:
    """Who signs in to decide: the trial's staff, or the baseline's senior staff."""
    if script.staff != "senior":
        return default
    senior = reset.baseline().senior_staff_credentials
    if senior is None:
        raise HarnessError("the staff script asks for a senior, but the corpus baseline has no "
                           "senior_staff_credentials", field="staff_script.staff")
    return senior.model_dump()


async def decide_and_return(ctx: TrialContext) -> DecisionRecord | None:
    """The staff decision step of one trial (None: the pack has no staff script). Writes
    decision.json and, when the step ran, state-after-decision.json."""
    script, main, staff = ctx.setup.staff_script, ctx.journey, ctx.staff
    if script is None:
        return None
    rec = DecisionRecord(decision=script.decision, outcome="not_run", delay_s=script.delay_s,
                         staff_login=script.staff, state_before="state-after.json")
    side = ctx.staff_side
    if not side.decision.present or not side.present:
        rec.outcome = "not_implemented"
        rec.detail = ("the product profile gives no staff decision controls ([decision])"
                      if side.present else "the product has no staff side")
    elif staff is None or not main.claim_number or main.storage is None:
        rec.detail = ("no claim number from the journey" if not main.claim_number else
                      "the journey left no customer session to come back to")
    else:
        rec.started_at = now()
        t0 = time.monotonic()
        try:
            if script.delay_s:
                await asyncio.sleep(script.delay_s)
            creds = staff_credentials(script, ctx.reset, ctx.staff_creds)
            async with staff.signed_in_as(creds):
                await record_decision(staff, script, main.claim_number, main.folder, rec)
            await _customer_returns(ctx, script, rec)
            rec.outcome = "performed"
        except (ProductError, HarnessError, PlaywrightError) as exc:
            rec.outcome = "error"
            rec.detail = str(exc).splitlines()[0][:500]
        rec.duration_s = round(time.monotonic() - t0, 3)
        try:
            if await write_state(ctx.reset, main.folder / STATE_AFTER_DECISION):
                rec.state_after = STATE_AFTER_DECISION
        except Exception as exc:  # the product may be down: say so, keep the record
            rec.detail = (rec.detail + f"; state after the decision not taken: {exc}")[:1000]
    write_model_atomic(main.folder / DECISION_FILE, rec)
    return rec


async def _customer_returns(ctx: TrialContext, script: StaffScript,
                            rec: DecisionRecord) -> None:
    """The customer's own session opens the product again and reads what changed; for
    return_for_info it answers until the product says the claim is back under review."""
    dc, main = ctx.staff_side.decision, ctx.journey
    context = await ctx.browser.new_context(
        viewport=VIEWPORT, storage_state=main.storage,
        extra_http_headers=ctx.headers or None)
    back = Journey(folder=main.folder, events_file=DECISION_EVENTS, shot_prefix="decision-",
                   history=list(main.history), uploaded=list(main.uploaded),
                   signed_in=main.signed_in, claim_number=main.claim_number,
                   tracker=main.tracker)
    seen = DecisionCustomer()
    rec.customer = seen
    try:
        page = await context.new_page()
        cp = CustomerPage(page, ctx.customer_side, ctx.lane.base_url)
        await cp.open_start()
        reading = await cp.wait_first()
        back.saw(reading.agent_texts)
        seen.replies = [t for t in reading.agent_texts[main.agent_seen:]]
        await _read_status(cp, dc, seen)
        seen.note_text = await visible_text(await cp.chat(), dc.customer_note)
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
            shown = await visible_text(await cp.chat(), dc.customer_status)
            if shown is not None and map_word(dc.status_words, shown) == "under_review":
                return f"the product shows the claim back under review ({shown!r})"
            return None

        settings = ctx.settings.journey()
        goal = JourneySettings(turn_limit=settings.turn_limit, stuck_after=settings.stuck_after,
                               screenshots=settings.screenshots, goal=under_review,
                               pace=settings.pace)
        try:
            await resume(cp, ctx.view, ctx.customer, back, goal)
        except (SimulatorError, ProductError) as exc:
            back.stop("stuck", str(exc)[:500])
        rec.follow_up, rec.follow_up_detail = back.stop_reason, back.detail
        rec.delivered = _delivered(back, main, script.requested, ctx.view)
        await _read_status(cp, dc, seen, keep_shown=True)
        seen.screenshots += [f"screens/{p.name}" for p in sorted(
            (main.folder / "screens").glob(f"{back.shot_prefix}*.png"))
            if f"screens/{p.name}" not in seen.screenshots]
    finally:
        with contextlib.suppress(PlaywrightError):
            await context.close()


async def _read_status(cp: CustomerPage, dc: DecisionControls, seen: DecisionCustomer,
                       keep_shown: bool = False) -> None:
    """Read the claim's status off the customer's screen into ``seen`` (``keep_shown``: a
    status no longer shown keeps the one read before)."""
    shown = await visible_text(await cp.chat(), dc.customer_status)
    if shown is not None or not keep_shown:
        seen.status_text = shown
    seen.status = (map_word(dc.status_words, seen.status_text)
                   if seen.status_text is not None else None)


def _delivered(back: Journey, main: Journey, requested: str, view: CustomerView) -> list[str]:
    """What the customer gave back after the request: files uploaded, facts said."""
    files = [f for f in back.uploaded if f not in main.uploaded]
    said = " ".join(t for who, t in back.history[len(main.history):] if who == "customer")
    facts = [f.key for f in view.facts if f.key == requested and str(f.value) in said]
    return files + facts
