"""One trial: reset, a fresh browser context, the journey loop, the staff side, evidence."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

import corpus
from corpus.errors import HarnessError, ProductError, SeedError, SimulatorError
from corpus.formats import CustomerAction, JourneyEvent, ScreenReading, TrialResult, TrialStatus
from corpus.formats.run import StaffReading, Timings, TokenUsage

from ._browser import VIEWPORT, CustomerPage, slug
from ._files import append_jsonl, write_model_atomic, write_text_atomic
from ._profile import Lane, Profile
from ._redact import redact_har_file, redact_trace_file
from ._transcript import render_transcript
from .customers import Customer, CustomerContext, JourneyTracker, material_availability

TRACING_MODES = ("on", "off", "retain-on-failure")
STATUS_FOR_STOP = {
    "claim_number": TrialStatus.COMPLETED,
    "handoff": TrialStatus.COMPLETED,
    "customer_done": TrialStatus.AGENT_STOPPED,
    "turn_limit": TrialStatus.STUCK,
    "stuck": TrialStatus.STUCK,
}


@dataclass
class TrialSettings:
    turn_limit: int = 40
    stuck_after: int = 3
    tracing: str = "off"
    self_test: bool = False


@dataclass
class _Journey:
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
        append_jsonl(self.folder / "journey.jsonl",
                     JourneyEvent(step=self.step, ts=_now(), **kw))

    def stop(self, reason: str, detail: str, status: TrialStatus | None = None) -> None:
        self.stop_reason = reason
        self.status = status or STATUS_FOR_STOP[reason]
        self.detail = detail


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _shot_name(j: _Journey, what: str) -> str:
    j.shots += 1
    return f"screens/{j.shots:03d}-{slug(what)}.png"


def _describe(action: CustomerAction) -> str:
    if action.kind == "click":
        return f"click-{action.label}"
    if action.kind == "upload":
        return f"upload-{action.file}"
    return action.kind


async def run_trial(
    browser: Browser,
    profile: Profile,
    lane: Lane,
    seed_client: Any,
    pack_dir: Path,
    trial: int,
    folder: Path,
    customer_factory: Any,
    settings: TrialSettings,
) -> TrialResult:
    """Run one trial of the pack at ``pack_dir`` on ``lane`` and write its evidence to ``folder``.

    Never raises for product, simulator or seed failures: they become the trial's status.
    """
    started, t0 = _now(), time.monotonic()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "screens").mkdir(exist_ok=True)
    (folder / "customer-model.jsonl").touch()  # present (maybe empty) for every customer
    j = _Journey(folder=folder)
    pack_id = pack_dir.name
    staff = StaffReading(error="not read")
    customer: Customer | None = None
    reset: dict[str, Any] = {}
    try:
        view = corpus.load_customer_view(pack_dir)
        setup = corpus.load_setup(pack_dir)
        files = corpus.setup_files(pack_dir, setup)
        reset = await asyncio.to_thread(seed_client.reset, setup.model_dump(mode="json"), files)
        before = await asyncio.to_thread(seed_client.state)
        write_model_atomic(folder / "state-before.json", before)
        j.event(note=f"reset took {reset.get('took_ms')} ms, verified={reset.get('verified')}, "
                     f"session={reset.get('claimant_session')}")
        customer = customer_factory(view, pack_dir)
        staff = await _journey_and_staff(browser, profile, lane, view, reset, customer, j,
                                         settings)
    except SimulatorError as exc:
        j.stop("simulator_error", str(exc), TrialStatus.SIMULATOR_ERROR)
    except ProductError as exc:
        j.stop("product_error", str(exc), TrialStatus.PRODUCT_ERROR)
    except SeedError as exc:
        j.stop("harness_error", f"seed route: {exc}", TrialStatus.HARNESS_ERROR)
    except HarnessError as exc:
        j.stop("harness_error", str(exc), TrialStatus.HARNESS_ERROR)
    except Exception as exc:  # a bug in the harness: keep the evidence, record the trace
        tb = traceback.format_exc(limit=6).strip().splitlines()
        j.stop("harness_error", f"{type(exc).__name__}: {exc} | {' / '.join(tb[-3:])}",
               TrialStatus.HARNESS_ERROR)
    finally:
        if customer is not None:
            with contextlib.suppress(Exception):
                await customer.aclose()
    write_model_atomic(folder / "staff.json", staff)
    if reset:
        try:
            after = await asyncio.to_thread(seed_client.state)
            write_model_atomic(folder / "state-after.json", after)
        except Exception as exc:  # the product may be down: say so, keep going
            j.event(note=f"state after the journey not taken: {exc}")
    write_text_atomic(folder / "transcript.md", render_transcript(
        pack_id, trial, j.history, j.stop_reason, j.detail, settings.self_test, j.claim_number))
    if customer is not None:
        j.retries += getattr(customer, "retries", 0)
    result = TrialResult(
        pack_id=pack_id, trial=trial, lane=lane.name, status=j.status,
        stop_reason=j.stop_reason, detail=j.detail[:2000], self_test=settings.self_test,
        claim_number=j.claim_number, customer_messages=j.messages_sent, steps=j.step,
        started_at=started, ended_at=_now(), duration_s=round(time.monotonic() - t0, 3),
        turn_times_s=[round(t, 3) for t in j.turn_times], retries=j.retries,
        cost_usd=j.cost, tokens=j.tokens,
    )
    write_model_atomic(folder / "trial.json", result)
    return result


async def _journey_and_staff(
    browser: Browser, profile: Profile, lane: Lane, view: Any, reset: dict[str, Any],
    customer: Customer, j: _Journey, settings: TrialSettings,
) -> StaffReading:
    tmp = Path(tempfile.mkdtemp(prefix="claims-har-"))
    raw_har = tmp / "network.har"
    creds = reset.get("customer_credentials") or None
    secrets = [v for v in (creds or {}).values() if isinstance(v, str)]
    staff_creds = reset.get("staff_credentials") or {}
    secrets += [v for k, v in staff_creds.items() if k == "password" and isinstance(v, str)]
    headers = profile.browser.extra_headers()
    secrets += list(headers.values())
    context = await browser.new_context(record_har_path=str(raw_har), record_har_content="embed",
                                        viewport=VIEWPORT, extra_http_headers=headers or None)
    tracing = settings.tracing != "off"
    if tracing:
        await context.tracing.start(screenshots=True, snapshots=True)
    try:
        page = await context.new_page()
        cp = CustomerPage(page, profile, lane.base_url)
        await _journey(cp, view, reset, customer, j, settings)
    finally:
        if tracing:
            keep = settings.tracing == "on" or j.status != TrialStatus.COMPLETED
            with contextlib.suppress(PlaywrightError):
                await context.tracing.stop(path=str(tmp / "trace.zip") if keep else None)
        with contextlib.suppress(PlaywrightError):
            await context.close()
        if raw_har.exists():
            redact_har_file(raw_har, j.folder / "network.har", extra_secrets=secrets)
        if (tmp / "trace.zip").exists():
            redact_trace_file(tmp / "trace.zip", j.folder / "trace.zip", extra_secrets=secrets)
        shutil.rmtree(tmp, ignore_errors=True)
    if j.status == TrialStatus.PRODUCT_ERROR:
        return StaffReading(claim_number=j.claim_number, error="not read: product error")
    staff_context = await browser.new_context(viewport=VIEWPORT,
                                              extra_http_headers=headers or None)
    try:
        staff = await _staff(staff_context, profile, lane, staff_creds, j)
    finally:
        with contextlib.suppress(PlaywrightError):
            await staff_context.close()
    return staff


async def _staff(context: Any, profile: Profile, lane: Lane, creds: dict[str, Any],
                 j: _Journey) -> StaffReading:
    from ._staff import read_staff_side

    if not creds.get("username"):
        return StaffReading(claim_number=j.claim_number, error="no staff credentials from seed")
    return await read_staff_side(context, profile, lane.base_url, creds["username"],
                                 creds.get("password", ""), j.claim_number, j.folder)


async def _journey(cp: CustomerPage, view: Any, reset: dict[str, Any], customer: Customer,
                   j: _Journey, settings: TrialSettings) -> None:
    session = reset.get("claimant_session", "anonymous")
    creds = reset.get("customer_credentials") or None
    if session == "account":
        if not creds:
            raise SeedError("an account session without customer credentials", field="session")
        await cp.sign_in_page(creds["username"], creds["password"])
        j.signed_in = True
    else:
        await cp.goto(cp.sc.start_path)
    reading = await cp.read()
    j.agent_seen = reading.agent_count
    shot = _shot_name(j, "start")
    await cp.screenshot(j.folder / shot)
    t = time.monotonic()
    await cp.say(view.initial_message)
    j.messages_sent += 1
    j.history.append(("customer", view.initial_message))
    opening = CustomerAction(kind="say", text=view.initial_message)
    tracker = JourneyTracker(view)
    tracker.acted(opening)
    j.event(screen=reading.screen, action=opening,
            timings=Timings(action_s=round(time.monotonic() - t, 3)), screenshot=shot,
            note="initial message")
    prev_count: int | None = reading.agent_count
    last_screen: ScreenReading | None = None
    same = 0
    turns = 0
    while True:
        j.step += 1
        wait_s, fresh = await cp.wait_reply(prev_count)
        j.turn_times.append(wait_s)
        reading = await cp.read()
        screen = reading.screen
        for text in reading.agent_texts[j.agent_seen:]:
            j.history.append(("agent", text))
        tracker.agent_replied(reading.agent_texts[j.agent_seen:], screen.todo, j.uploaded)
        j.agent_seen = max(j.agent_seen, len(reading.agent_texts))
        if reading.problem:
            await cp.check_alive()
        same = same + 1 if screen == last_screen else 1
        last_screen = screen
        note = "" if fresh else "no new reply after the action"
        end = _journey_end(cp, screen, same, turns, settings)
        if end is not None:
            what, reason, detail = end
            if reason in ("stuck", "turn_limit"):
                await cp.check_alive()  # a dead product is a product error, not a stuck agent
            if screen.claim_number:
                j.claim_number = screen.claim_number
            shot = _shot_name(j, what)
            await cp.screenshot(j.folder / shot)
            waited = reason in ("claim_number", "handoff")
            j.event(screen=screen, screenshot=shot, note=note,
                    timings=Timings(reply_wait_s=round(wait_s, 3)) if waited else Timings())
            j.stop(reason, detail)
            return
        available, later = material_availability(view, tracker.progress)
        ctx = CustomerContext(
            step=j.step, messages_sent=j.messages_sent, history=list(j.history),
            available_files=available, later_files=later, uploaded=list(j.uploaded),
            signed_in=j.signed_in, record_call=j.record_call,
            actions_taken=tracker.actions, learned_facts=tracker.learned_facts(),
        )
        t = time.monotonic()
        try:
            action = await customer.next_action(screen, ctx)
        except SimulatorError as exc:
            shot = _shot_name(j, "simulator-error")
            await cp.screenshot(j.folder / shot)
            j.event(screen=screen, screenshot=shot,
                    timings=Timings(reply_wait_s=round(wait_s, 3),
                                    customer_s=round(time.monotonic() - t, 3)),
                    note=f"the customer could not decide: {exc}"[:1000])
            raise
        customer_s = time.monotonic() - t
        shot = _shot_name(j, _describe(action))
        await cp.screenshot(j.folder / shot)
        t = time.monotonic()
        prev_count, extra = await _perform(cp, view, action, creds, j)
        tracker.acted(action)
        action_s = time.monotonic() - t
        turns += 1
        j.event(screen=screen, action=action, screenshot=shot,
                timings=Timings(reply_wait_s=round(wait_s, 3), customer_s=round(customer_s, 3),
                                action_s=round(action_s, 3)),
                note="; ".join(n for n in (note, extra) if n))
        if action.kind == "done":
            if action.text:
                j.step += 1
                wait_s, _ = await cp.wait_reply(prev_count)
                j.turn_times.append(wait_s)
                final = await cp.read()
                for text in final.agent_texts[j.agent_seen:]:
                    j.history.append(("agent", text))
                shot = _shot_name(j, "after-last-words")
                await cp.screenshot(j.folder / shot)
                j.event(screen=final.screen, screenshot=shot,
                        timings=Timings(reply_wait_s=round(wait_s, 3)))
            await cp.check_alive()
            j.stop("customer_done", f"the customer ended: {action.reason or 'no reason given'}")
            return


def _journey_end(cp: CustomerPage, screen: ScreenReading, same: int, turns: int,
                 settings: TrialSettings) -> tuple[str, str, str] | None:
    """Whether the screen ends the journey: (screenshot name, stop reason, detail) or None."""
    if screen.claim_number:
        return "claim-number", "claim_number", f"claim number {screen.claim_number} shown"
    if cp.handoff(screen):
        return "handoff", "handoff", "the product handed the claim to a person"
    if same >= settings.stuck_after:
        return "stuck", "stuck", f"the same screen {same} times in a row"
    if turns >= settings.turn_limit:
        return ("turn-limit", "turn_limit",
                f"turn limit of {settings.turn_limit} customer actions reached")
    return None


async def _perform(cp: CustomerPage, view: Any, action: CustomerAction,
                   creds: dict[str, Any] | None, j: _Journey) -> tuple[int | None, str]:
    """Do the action in the browser. Returns (agent reply count to wait past, note)."""
    before = (await cp.read()).agent_count
    if action.kind in ("say", "done"):
        if action.kind == "done" and not action.text:
            return None, ""
        await cp.say(action.text or "")
        j.messages_sent += 1
        j.history.append(("customer", action.text or ""))
        return before, ""
    if action.kind == "click":
        if not await cp.click(action.label or ""):
            return None, f"no visible control labelled {action.label!r}"
        j.history.append(("customer", f"[clicked: {action.label}]"))
        return before, ""
    if action.kind == "upload":
        try:
            material = view.material(action.file)
        except HarnessError:
            return None, f"no material named {action.file!r}"
        await cp.upload(Path(material.path))
        j.uploaded.append(material.file)
        j.history.append(("customer", f"[uploaded: {material.file}]"))
        return before, ""
    if action.kind == "sign_in":
        if not creds:
            return None, "sign-in asked but this customer has no account"
        await cp.sign_in_prompt(creds["username"], creds["password"])
        j.signed_in = True
        j.history.append(("customer", "[signed in]"))
        return None, ""
    return None, f"unknown action {action.kind}"
