"""The journey loop: read the screen, let the customer decide, act, wait for the reply.

One place (``_journey_end``) decides how a journey ends; every step is one event in
``journey.jsonl`` with what the customer saw, what it did and how long each part took.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from claims_records import (
    CustomerAction,
    HarnessError,
    JourneyEvent,
    ScreenReading,
    SeedError,
    SimulatorError,
    Timings,
    TokenUsage,
    TrialStatus,
    append_jsonl,
)

from ._browser import UPLOAD_ACKNOWLEDGED, UPLOAD_REFUSED, CustomerPage, slug
from ._reset import ResetOutcome
from ._screen import Probe
from .customers import Customer, CustomerContext, JourneyTracker

STATUS_FOR_STOP = {
    "claim_number": TrialStatus.COMPLETED,
    "handoff": TrialStatus.COMPLETED,
    "customer_done": TrialStatus.AGENT_STOPPED,
    "turn_limit": TrialStatus.STUCK,
    "stuck": TrialStatus.STUCK,
    "goal": TrialStatus.COMPLETED,
}
# Whether a screen reaches the journey's goal: one line saying so, or None (see ``resume``).
Goal = Callable[[CustomerPage, ScreenReading], Awaitable["str | None"]]


@dataclass
class JourneySettings:
    turn_limit: int = 40
    stuck_after: int = 3
    screenshots: bool = True
    goal: Goal | None = None
    """Instead of a claim number or a hand-over, the journey ends when this says so."""


@dataclass
class Journey:
    """Mutable state of one journey, turned into evidence at the end."""

    folder: Path
    history: list[tuple[str, str]] = field(default_factory=list)
    uploaded: list[str] = field(default_factory=list)
    messages_sent: int = 0
    signed_in: bool = False
    step: int = 0
    agent_seen: int = 0
    turn_times: list[float] = field(default_factory=list)
    claim_number: str | None = None
    stop_reason: str | None = None
    status: TrialStatus = TrialStatus.PENDING
    detail: str = ""
    retries: int = 0
    tokens: TokenUsage = field(default_factory=TokenUsage)
    cost: float | None = None
    shots: int = 0
    product_events: list[str] = field(default_factory=list)
    tracker: JourneyTracker | None = None
    """What decides when later files and facts arrive (set when the journey starts)."""
    events_file: str = "journey.jsonl"
    storage: dict[str, Any] | None = None
    """The customer context's storage state at the end (in memory only, never written), for
    the customer's return after a staff decision."""
    shot_prefix: str = ""
    final: tuple[asyncio.Task[bytes], str, dict[str, Any]] | None = None
    """The last event, waiting for its screenshot (``settle``)."""

    async def settle(self) -> None:
        """Write the journey's last event once its screenshot is taken. A journey that ended
        on a screen returns while that screen is still being photographed, so that what
        comes next (the staff side) need not wait for it; nothing else is written between."""
        final, self.final = self.final, None
        if final is not None:
            pending, what, kw = final
            self.event(screenshot=await _keep(self, pending, what), **kw)

    async def discard_final(self) -> None:
        """Drop a last screenshot nobody will keep (the trial failed after the journey)."""
        final, self.final = self.final, None
        if final is not None:
            await _drop(final[0])

    def record_call(self, call: Any) -> None:
        append_jsonl(self.folder / "customer-model.jsonl", call)
        u = call.usage
        self.tokens = TokenUsage(
            prompt_tokens=self.tokens.prompt_tokens + u.prompt_tokens,
            completion_tokens=self.tokens.completion_tokens + u.completion_tokens,
            total_tokens=self.tokens.total_tokens + u.total_tokens,
        )
        if call.cost_usd is not None:
            self.cost = (self.cost or 0.0) + call.cost_usd

    def event(self, **kw: Any) -> None:
        append_jsonl(self.folder / self.events_file,
                     JourneyEvent(step=self.step, ts=now(), **kw))

    def stop(self, reason: str, detail: str, status: TrialStatus | None = None) -> None:
        self.stop_reason = reason
        self.status = status or STATUS_FOR_STOP[reason]
        self.detail = detail

    def shot_name(self, what: str) -> str:
        self.shots += 1
        return f"screens/{self.shot_prefix}{self.shots:03d}-{slug(what)}.png"

    def saw(self, agent_texts: list[str]) -> None:
        """Add the agent replies not seen before to the history."""
        for text in agent_texts[self.agent_seen:]:
            self.history.append(("agent", text))
        self.agent_seen = max(self.agent_seen, len(agent_texts))


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _describe(action: CustomerAction) -> str:
    if action.kind == "click":
        return f"click-{action.label}"
    if action.kind == "upload":
        return f"upload-{action.file}"
    return action.kind


def _timings(**values: float | None) -> Timings:
    return Timings(**{k: round(v, 3) for k, v in values.items() if v is not None})


async def play(cp: CustomerPage, view: Any, reset: ResetOutcome, customer: Customer,
               j: Journey, settings: JourneySettings) -> None:
    """Play one journey from the start page to a visible outcome or a stop."""
    creds = reset.customer_credentials
    if reset.claimant_session == "account":
        if not creds:
            raise SeedError("an account session without customer credentials", field="session")
        await cp.sign_in_page(creds["username"], creds["password"])
        j.signed_in = True
    else:
        await cp.open_start()
    reading = await cp.wait_first()
    pending = _shoot(cp, settings)
    j.saw(reading.agent_texts)
    shot = await _keep(j, pending, "start")
    t = time.monotonic()
    prev: Probe | None = await cp.say(view.initial_message)
    j.messages_sent += 1
    j.history.append(("customer", view.initial_message))
    opening = CustomerAction(kind="say", text=view.initial_message)
    j.tracker = tracker = JourneyTracker(view)
    tracker.acted(opening)
    j.event(screen=reading.screen, action=opening,
            timings=_timings(action_s=time.monotonic() - t), screenshot=shot,
            note="initial message")
    last_screen: ScreenReading | None = None
    same = turns = 0
    while True:
        j.step += 1
        wait_s, fresh, reading = await cp.wait_reply(prev)
        j.turn_times.append(wait_s)
        # The screen was read as the wait ended; it is photographed while the customer
        # decides, and the shot is named after what happens next.
        pending = _shoot(cp, settings)
        try:
            outcome = await _step(cp, view, customer, creds, j, settings, reading, pending,
                                  wait_s, fresh, last_screen, same, turns, defer_last=True)
        finally:
            if j.final is None or j.final[0] is not pending:
                await _drop(pending)  # a no-op once the shot was kept
        if outcome is None:
            return
        prev, last_screen, same, turns = outcome


async def resume(cp: CustomerPage, view: Any, customer: Customer, j: Journey,
                 settings: JourneySettings) -> None:
    """Go on with a journey on a page that shows the product again (the customer came back
    to it): step until ``settings.goal`` says the journey is done, or a limit."""
    prev: Probe | None = None
    last_screen: ScreenReading | None = None
    same = turns = 0
    while True:
        j.step += 1
        wait_s, fresh, reading = await cp.wait_reply(prev)
        pending = _shoot(cp, settings)
        try:
            outcome = await _step(cp, view, customer, None, j, settings, reading, pending,
                                  wait_s, fresh or prev is None, last_screen, same, turns)
        finally:
            await _drop(pending)
        if outcome is None:
            return
        prev, last_screen, same, turns = outcome


async def _step(cp: CustomerPage, view: Any, customer: Customer, creds: dict[str, Any] | None,
                j: Journey, settings: JourneySettings, reading: Any,
                pending: asyncio.Task[bytes] | None, wait_s: float, fresh: bool,
                last_screen: ScreenReading | None, same: int, turns: int,
                defer_last: bool = False
                ) -> tuple[Probe | None, ScreenReading, int, int] | None:
    """One step after a reply: end the journey, or let the customer act. None when the
    journey has ended; else (the reply state to wait past, the screen, same-screen count,
    customer actions so far). ``defer_last``: a journey that ends here leaves its last event
    to ``Journey.settle`` while its screenshot is still being taken."""
    screen = reading.screen
    j.tracker = tracker = j.tracker or JourneyTracker(view)
    tracker.agent_replied(reading.agent_texts[j.agent_seen:], screen.todo, j.uploaded)
    j.saw(reading.agent_texts)
    if reading.problem:
        await cp.check_alive()
    same = same + 1 if screen == last_screen else 1
    note = "" if fresh else "no new reply after the action"
    if reading.acted_while_busy:
        note = "; ".join(n for n in (note, "the customer acted while the product was still "
                                     "busy") if n)
    end = _journey_end(cp, screen, same, turns, settings, await _goal(cp, screen, settings))
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
            j.event(screenshot=await _keep(j, pending, what), **last)
        return None
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
        action = await customer.next_action(screen, ctx)
        _fits_screen(action, screen, j)
    except SimulatorError as exc:
        shot = await _keep(j, pending, "simulator-error")
        j.event(screen=screen, screenshot=shot,
                timings=_timings(reply_wait_s=wait_s, customer_s=time.monotonic() - t),
                note=f"the customer could not decide: {exc}"[:1000])
        raise
    customer_s = time.monotonic() - t
    shot = await _keep(j, pending, _describe(action))
    t = time.monotonic()
    prev, extra, event = await _perform(cp, view, action, creds, j, screen)
    tracker.acted(action)
    turns += 1
    j.event(screen=screen, action=action, screenshot=shot, product_event=event,
            timings=_timings(reply_wait_s=wait_s, customer_s=customer_s,
                             action_s=time.monotonic() - t),
            note="; ".join(n for n in (note, extra) if n))
    if action.kind == "done":
        if action.text:
            j.step += 1
            wait_s, _, final = await cp.wait_reply(prev)
            j.turn_times.append(wait_s)
            last = _shoot(cp, settings)
            j.saw(final.agent_texts)
            shot = await _keep(j, last, "after-last-words")
            j.event(screen=final.screen, screenshot=shot, timings=_timings(
                reply_wait_s=wait_s))
        await cp.check_alive()
        j.stop("customer_done", f"the customer ended: {action.reason or 'no reason given'}")
        return None
    return prev, screen, same, turns


def _shoot(cp: CustomerPage, settings: JourneySettings) -> asyncio.Task[bytes] | None:
    """Start a screenshot of the screen just read (the wait that read it left the page
    still), which goes on while the journey decides; None when screenshots are off."""
    return asyncio.ensure_future(cp.shoot()) if settings.screenshots else None


async def _keep(j: Journey, pending: asyncio.Task[bytes] | None, what: str) -> str | None:
    """Wait for a screenshot and write it as the journey's next screen; its path or None."""
    if pending is None:
        return None
    data = await pending
    name = j.shot_name(what)
    path = j.folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return name


async def _drop(pending: asyncio.Task[bytes] | None) -> None:
    """Cancel a screenshot nobody kept (the step failed before it was written)."""
    if pending is not None and not pending.done():
        pending.cancel()
        with contextlib.suppress(BaseException):
            await pending


async def _goal(cp: CustomerPage, screen: ScreenReading, settings: JourneySettings
                ) -> str | None:
    return await settings.goal(cp, screen) if settings.goal is not None else None


def _journey_end(cp: CustomerPage, screen: ScreenReading, same: int, turns: int,
                 settings: JourneySettings, goal: str | None = None
                 ) -> tuple[str, str, str] | None:
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


async def _perform(cp: CustomerPage, view: Any, action: CustomerAction,
                   creds: dict[str, Any] | None, j: Journey, screen: ScreenReading | None = None
                   ) -> tuple[Probe | None, str, str | None]:
    """Do the action in the browser.

    Returns (the reply state a new reply must differ from, or None when the action changed
    nothing; a note; a product-side event seen while acting, or None).
    """
    if action.kind in ("say", "done"):
        if action.kind == "done" and not action.text:
            return None, "", None
        base = await cp.say(action.text or "")
        j.messages_sent += 1
        j.history.append(("customer", action.text or ""))
        return base, "", None
    if action.kind == "click":
        base = await cp.click(action.label or "", screen)
        if base is None:
            return None, f"no visible control labelled {action.label!r}", None
        j.history.append(("customer", f"[clicked: {action.label}]"))
        return base, "", None
    if action.kind == "upload":
        try:
            material = view.material(action.file)
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
