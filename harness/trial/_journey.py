"""The journey loop: read the screen, let the customer decide, act, wait for the reply.

One place (``_journey_end``) decides how a journey ends; every step is one event in
``journey.jsonl`` (``_record.Journey``) with what the customer saw, what it did and how long
each part took.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from claims_corpus import CustomerView
from claims_records import (
    CustomerAction,
    HarnessError,
    ScreenReading,
    SeedError,
    SimulatorError,
    Timings,
)

from ..browser import UPLOAD_ACKNOWLEDGED, UPLOAD_REFUSED, CustomerPage, Probe, Reading
from ..customers import Customer, CustomerContext, JourneyTracker
from ..reset import Credentials, ResetOutcome
from ._pace import Pace, take_time
from ._record import Journey, JourneyStop, drop_shot, keep_shot

# Whether a screen reaches the journey's goal: one line saying so, or None (see ``resume``).
Goal = Callable[[CustomerPage, ScreenReading], Awaitable["str | None"]]
# A step on the customer's page before the customer says anything (starting a new
# conversation, checking the start page); raises to stop the journey.
StartCheck = Callable[[CustomerPage], Awaitable[None]]


@dataclass
class JourneySettings:
    """How a journey ends besides a visible outcome: limits, and whether screens are shot."""

    turn_limit: int = 40
    stuck_after: int = 3
    screenshots: bool = True
    goal: Goal | None = None
    """Instead of a claim number or a hand-over, the journey ends when this says so."""
    before_start: StartCheck | None = None
    """Runs on the customer's page before the start page is opened (a new conversation)."""
    check_start: StartCheck | None = None
    """Checks the start page once it is ready (a new conversation shows no earlier one)."""
    pace: Pace | None = None
    """The least time each customer action takes (``_pace``); None: machine speed."""


def _describe(action: CustomerAction) -> str:
    if action.kind == "click":
        return f"click-{action.label}"
    if action.kind == "upload":
        return f"upload-{action.file}"
    return action.kind


def _timings(**values: float | None) -> Timings:
    return Timings(**{k: round(v, 3) for k, v in values.items() if v is not None})


@dataclass
class _Walk:
    """A journey's fixed parts, and where it stands between two steps."""

    cp: CustomerPage
    view: CustomerView
    customer: Customer
    creds: Credentials | None
    """The customer's account sign-in, when it has one and may use it."""
    j: Journey
    settings: JourneySettings
    prev: Probe | None = None
    """The reply state before the last action: what the next reply must differ from."""
    last_screen: ScreenReading | None = None
    same: int = 0
    """How many times in a row the same screen was read."""
    turns: int = 0
    """Customer actions so far."""


async def play(cp: CustomerPage, view: CustomerView, reset: ResetOutcome, customer: Customer,
               j: Journey, settings: JourneySettings) -> None:
    """Play one journey from the start page to a visible outcome or a stop."""
    creds = reset.customer_credentials
    if settings.before_start is not None:
        await settings.before_start(cp)
    if reset.claimant_session == "account":
        if not creds:
            raise SeedError("an account session without customer credentials", field="session")
        await cp.sign_in_page(creds["username"], creds["password"])
        j.signed_in = True
    else:
        await cp.open_start()
    reading = await cp.wait_first()
    if settings.check_start is not None:
        await settings.check_start(cp)
    pending = _shoot(cp, settings)
    j.saw(reading.agent_texts)
    shot = await keep_shot(j, pending, "start")
    opening = CustomerAction(kind="say", text=view.initial_message)
    t = time.monotonic()
    await take_time(settings.pace, "", opening, t, opening=True)
    typing_s = time.monotonic() - t if settings.pace is not None else None
    t = time.monotonic()
    walk = _Walk(cp, view, customer, creds, j, settings)
    walk.prev = await cp.say(view.initial_message)
    j.messages_sent += 1
    j.history.append(("customer", view.initial_message))
    j.tracker = tracker = JourneyTracker(view)
    tracker.acted(opening)
    j.event(screen=reading.screen, action=opening,
            timings=_timings(customer_s=typing_s, action_s=time.monotonic() - t),
            screenshot=shot, note="initial message")
    while True:
        j.step += 1
        wait_s, fresh, reading = await cp.wait_reply(walk.prev)
        j.turn_times.append(wait_s)
        # The screen was read as the wait ended; it is photographed while the customer
        # decides, and the shot is named after what happens next.
        pending = _shoot(cp, settings)
        try:
            going = await _step(walk, reading, pending, wait_s, fresh, defer_last=True)
        finally:
            if j.final is None or j.final[0] is not pending:
                await drop_shot(pending)  # a no-op once the shot was kept
        if not going:
            return


async def resume(cp: CustomerPage, view: CustomerView, customer: Customer, j: Journey,
                 settings: JourneySettings) -> None:
    """Go on with a journey on a page that shows the product again (the customer came back
    to it): step until ``settings.goal`` says the journey is done, or a limit."""
    walk = _Walk(cp, view, customer, None, j, settings)
    while True:
        j.step += 1
        first = walk.prev is None
        wait_s, fresh, reading = await cp.wait_reply(walk.prev)
        pending = _shoot(cp, settings)
        try:
            going = await _step(walk, reading, pending, wait_s, fresh or first)
        finally:
            await drop_shot(pending)
        if not going:
            return


async def _step(walk: _Walk, reading: Reading, pending: asyncio.Task[bytes] | None,
                wait_s: float, fresh: bool, defer_last: bool = False) -> bool:
    """One step after a reply: end the journey, or let the customer act. False when the
    journey has ended; else ``walk`` holds the reply state to wait past, the screen, the
    same-screen count and the customer's actions so far. ``defer_last``: a journey that ends
    here leaves its last event to ``Journey.settle`` while its screenshot is still being
    taken."""
    cp, j, settings = walk.cp, walk.j, walk.settings
    screen = reading.screen
    j.tracker = tracker = j.tracker or JourneyTracker(walk.view)
    tracker.agent_replied(reading.agent_texts[j.agent_seen:], screen.todo, j.uploaded)
    j.saw(reading.agent_texts)
    if reading.problem:
        await cp.check_alive()
    walk.same = walk.same + 1 if screen == walk.last_screen else 1
    note = "" if fresh else "no new reply after the action"
    if reading.acted_while_busy:
        note = "; ".join(n for n in (note, "the customer acted while the product was still "
                                     "busy") if n)
    end = _journey_end(cp, screen, walk.same, walk.turns, settings,
                       await _goal(cp, screen, settings))
    if end is not None:
        what, reason, detail = end
        if reason in ("stuck", "turn_limit"):
            await cp.check_alive()  # a dead product is a product error, not a stuck agent
        if screen.claim_number:
            j.claim_number = screen.claim_number
        waited = reason in ("claim_number", "handoff")
        last = {"screen": screen, "note": note,
                "timings": _timings(reply_wait_s=wait_s if waited else None)}
        j.stop(reason, detail)
        if defer_last and pending is not None:
            j.final = (pending, what, last)
        else:
            j.event(screenshot=await keep_shot(j, pending, what), **last)
        return False
    available, later = tracker.materials()
    ctx = CustomerContext(
        step=j.step, messages_sent=j.messages_sent, history=list(j.history),
        available_files=available, later_files=later, uploaded=list(j.uploaded),
        signed_in=j.signed_in, record_call=j.record_call,
        actions_taken=tracker.actions, learned_facts=tracker.learned_facts(),
        can_attach=bool(cp.sc.attach_input), returned=settings.goal is not None,
    )
    t = time.monotonic()
    try:
        action = await walk.customer.next_action(screen, ctx)
        _fits_screen(action, screen, j)
        await take_time(settings.pace, screen.latest_reply if fresh else "", action, t)
    except SimulatorError as exc:
        shot = await keep_shot(j, pending, "simulator-error")
        j.event(screen=screen, screenshot=shot,
                timings=_timings(reply_wait_s=wait_s, customer_s=time.monotonic() - t),
                note=f"the customer could not decide: {exc}"[:1000])
        raise
    customer_s = time.monotonic() - t
    shot = await keep_shot(j, pending, _describe(action))
    t = time.monotonic()
    prev, extra, event = await _perform(walk, action, screen)
    tracker.acted(action)
    walk.turns += 1
    j.event(screen=screen, action=action, screenshot=shot, product_event=event,
            timings=_timings(reply_wait_s=wait_s, customer_s=customer_s,
                             action_s=time.monotonic() - t),
            note="; ".join(n for n in (note, extra) if n))
    if action.kind == "done":
        if action.text:
            j.step += 1
            wait_s, _, final = await cp.wait_reply(prev)
            j.turn_times.append(wait_s)
            last_shot = _shoot(cp, settings)
            j.saw(final.agent_texts)
            shot = await keep_shot(j, last_shot, "after-last-words")
            j.event(screen=final.screen, screenshot=shot, timings=_timings(
                reply_wait_s=wait_s))
        await cp.check_alive()
        j.stop("customer_done", f"the customer ended: {action.reason or 'no reason given'}")
        return False
    walk.prev, walk.last_screen = prev, screen
    return True


def _shoot(cp: CustomerPage, settings: JourneySettings) -> asyncio.Task[bytes] | None:
    """Start a screenshot of the screen just read (the wait that read it left the page
    still), which goes on while the journey decides; None when screenshots are off."""
    return asyncio.ensure_future(cp.shoot()) if settings.screenshots else None


async def _goal(cp: CustomerPage, screen: ScreenReading, settings: JourneySettings
                ) -> str | None:
    """What the journey's goal (if any) says of this screen."""
    return await settings.goal(cp, screen) if settings.goal is not None else None


def _journey_end(cp: CustomerPage, screen: ScreenReading, same: int, turns: int,
                 settings: JourneySettings, goal: str | None = None
                 ) -> tuple[str, JourneyStop, str] | None:
    """Whether the screen ends the journey: (screenshot name, stop reason, detail) or None.
    With a goal (``settings.goal``) only the goal and the limits end it."""
    if goal:
        return "goal", "goal", goal
    own_end = settings.goal is None
    if own_end and screen.claim_number:
        return "claim-number", "claim_number", f"claim number {screen.claim_number} shown"
    if own_end and cp.handoff(screen):
        return "handoff", "handoff", "the product handed the claim to a person"
    if same >= settings.stuck_after:
        return "stuck", "stuck", f"the same screen {same} times in a row"
    if turns >= settings.turn_limit:
        return ("turn-limit", "turn_limit",
                f"turn limit of {settings.turn_limit} customer actions reached")
    return None


def _fits_screen(action: CustomerAction, screen: ScreenReading, j: Journey) -> None:
    """Refuse an action the screen does not allow: that is the simulator's error."""
    if action.kind == "sign_in" and (j.signed_in or not screen.sign_in_prompt):
        why = "it is already signed in" if j.signed_in else "no sign-in prompt is shown"
        raise SimulatorError(f"the customer tried to sign in, but {why}", step=j.step)


async def _perform(walk: _Walk, action: CustomerAction, screen: ScreenReading | None = None
                   ) -> tuple[Probe | None, str, str | None]:
    """Do the action in the browser.

    Returns (the reply state a new reply must differ from, or None when the action changed
    nothing; a note; a product-side event seen while acting, or None).
    """
    cp, j, creds = walk.cp, walk.j, walk.creds
    if action.kind in ("say", "done"):
        if action.kind == "done" and not action.text:
            return None, "", None
        base = await cp.say(action.text or "")
        j.messages_sent += 1
        j.history.append(("customer", action.text or ""))
        return base, "", None
    if action.kind == "click":
        click = await cp.click(action.label or "", screen)
        if click is None:
            return None, f"no visible control labelled {action.label!r}", None
        j.history.append(("customer", f"[clicked: {action.label}]"))
        return click, "", None
    if action.kind == "upload":
        try:
            material = walk.view.material(action.file or "")
        except HarnessError:
            return None, f"no material named {action.file!r}", None
        outcome, base = await cp.upload(Path(material.path))
        if outcome == UPLOAD_ACKNOWLEDGED:
            j.uploaded.append(material.file)
            j.history.append(("customer", f"[uploaded: {material.file}]"))
            return base, "", None
        if outcome == UPLOAD_REFUSED:
            j.history.append(("customer", f"[upload refused: {material.file}]"))
            return base, f"the product refused the upload of {material.file}", None
        j.product_events.append(outcome)
        j.history.append(("customer", f"[attached, not acknowledged: {material.file}]"))
        return base, (f"{material.file} attached twice; the product never showed it nor an "
                      "upload error"), outcome
    if action.kind == "sign_in":
        if not creds:
            return None, "sign-in asked but this customer has no account", None
        await cp.sign_in_prompt(creds["username"], creds["password"])
        j.signed_in = True
        j.history.append(("customer", "[signed in]"))
        return None, "", None
    return None, f"unknown action {action.kind}", None
