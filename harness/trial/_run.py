"""One trial: reset, a fresh browser context, the journey, the staff side, evidence."""

from __future__ import annotations

import asyncio
import contextlib
import time
import traceback
from pathlib import Path
from typing import cast, get_args

import claims_corpus
from claims_records import (
    MODEL_CALLS_FILE,
    HarnessError,
    ProductError,
    ResetInfo,
    SeedError,
    SimulatorError,
    SimulatorErrorKind,
    StaffReading,
    TrialResult,
    TrialStatus,
    write_model_atomic,
    write_text_atomic,
    write_trial_result,
)

from ..browser import BROWSER_CRASH, CustomerTab
from ..customers import Customer
from ..profile import Capabilities
from ..reset import ProductResetError, ResetAdapter, ResetOutcome, setup_and_files
from ..staff import StaffSession
from ._after import journey_and_staff, state_after, write_state
from ._agent_decision import read_agent_decision
from ._context import TrialContext, TrialRig
from ._conversation import new_conversation
from ._decision import decide_and_return
from ._record import Journey, now
from ._transcript import render_transcript


def _needs_missing_capability(caps: Capabilities, session: str) -> str | None:
    """Why the pack cannot run on this product (a capability it lacks), or None."""
    if session == "account" and not caps.customer_accounts:
        return ("the pack's session mode 'account' needs customer accounts, which this product "
                "does not have (profile capabilities.customer_accounts = false)")
    return None


async def run_trial(rig: TrialRig, pack_dir: Path, trial: int, folder: Path,
                    attempt: int = 1) -> TrialResult:
    """Run trial number ``trial`` of the pack at ``pack_dir`` on the rig's lane and write its
    evidence to ``folder`` (``attempt``: which attempt of the trial this is, recorded).

    Without a staff session of the lane's (``rig.staff``) the trial opens (and closes) its
    own. Never raises for product, simulator or reset failures: they become the trial's
    status.
    """
    started, t0 = now(), time.monotonic()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "screens").mkdir(exist_ok=True)
    (folder / MODEL_CALLS_FILE).touch()  # present (maybe empty) for every customer
    j = Journey(folder=folder)
    settings, reset = rig.settings, rig.reset
    staff_reading = StaffReading(error="not read")
    customer: Customer | None = None
    outcome: ResetOutcome | None = None
    simulator_kind: SimulatorErrorKind | None = None
    try:
        view = claims_corpus.load_customer_view(pack_dir)
        setup, files = setup_and_files(pack_dir)
        missing = _needs_missing_capability(rig.profile.capabilities, setup.claimant_session)
        if missing:
            j.stop("not_implemented", missing, TrialStatus.NOT_IMPLEMENTED)
            staff_reading = StaffReading(error="not read: the trial was not run")
        else:
            headers = rig.profile.browser.extra_headers()
            tab = CustomerTab(rig.browser, headers, settings.evidence, settings.tracing)
            try:
                tab.open()  # while the product is reset
                outcome = await asyncio.to_thread(reset.reset, setup, files)
                readable = (await write_state(reset, folder / "state-before.json")
                            if settings.evidence else None)
                unread = ("; state not dumped (evidence off)" if not settings.evidence else
                          "; this product's state is not readable")
                j.event(note=outcome.describe() + ("" if readable else unread))
                step = rig.profile.conversation.new
                before_start, check_start = (new_conversation(j, rig.lane, step)
                                             if step is not None else (None, None))
                customer = rig.customers(view, pack_dir)
                staff_side = rig.profile.staff_side()
                staff = rig.staff
                own_staff = staff is None and settings.evidence
                if own_staff:
                    staff = StaffSession(rig.browser, staff_side, rig.lane, headers)
                ctx = TrialContext(
                    browser=rig.browser, lane=rig.lane, reset=reset, settings=settings,
                    setup=setup, view=view, customer=customer, journey=j, outcome=outcome,
                    customer_side=rig.profile.customer_side(),
                    staff_side=staff_side, headers=headers, staff=staff,
                    before_start=before_start, check_start=check_start)
                if staff is not None and settings.evidence and ctx.staff_side.present:
                    staff.prepare(ctx.staff_creds)  # signs in meanwhile if needed
                try:
                    staff_reading = await journey_and_staff(ctx, tab)
                    if ctx.decides:
                        if not j.state_after:  # the staff side may have read it already
                            await _state_after(reset, j)
                        await decide_and_return(ctx)
                finally:
                    if own_staff and staff is not None:
                        await staff.close()
            finally:
                try:
                    await tab.close(keep_trace=False)  # a no-op once the journey closed it
                finally:
                    tab.discard()  # the raw files go even when closing fails or is cancelled
    except SimulatorError as exc:
        j.stop("simulator_error", str(exc), TrialStatus.SIMULATOR_ERROR)
        kind = exc.kind
        if kind in get_args(SimulatorErrorKind):
            simulator_kind = cast(SimulatorErrorKind, kind)
    except ProductError as exc:
        j.stop("product_error", str(exc), TrialStatus.PRODUCT_ERROR)
    except ProductResetError as exc:  # the product's own reset failed: its error, labelled
        j.stop("reset_failed", f"reset ({reset.name}): {exc}", TrialStatus.RESET_FAILED)
    except SeedError as exc:
        j.stop("harness_error", f"reset ({reset.name}): {exc}", TrialStatus.HARNESS_ERROR)
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
    if not rig.browser.is_connected():  # the browser ended under the trial: not the product's
        was = f" (the trial had stopped as {j.stop_reason}: {j.detail})" if j.stop_reason else ""
        j.stop("harness_error", f"{BROWSER_CRASH}: the browser ended during the trial{was}"[:2000],
               TrialStatus.HARNESS_ERROR)
        if not staff_reading.error:
            staff_reading = staff_reading.model_copy(update={"error": f"not read: {BROWSER_CRASH}"})
    write_model_atomic(folder / "staff.json", staff_reading)
    if outcome is not None and settings.evidence and not j.state_after:
        await _state_after(reset, j)
    write_text_atomic(folder / "transcript.md", render_transcript(
        pack_dir.name, trial, j.history, j.stop_reason, j.detail, settings.labels,
        j.claim_number))
    if customer is not None:
        j.retries += getattr(customer, "retries", 0)  # an LLM customer's retried calls
    words = rig.profile.agent_decision
    agent_decision = (read_agent_decision(j.history, words, rig.profile.money())
                      if words is not None and j.status != TrialStatus.NOT_IMPLEMENTED
                      else None)
    result = TrialResult(
        pack_id=pack_dir.name, trial=trial, lane=rig.lane.name, status=j.status,
        stop_reason=j.trial_stop, detail=j.detail[:2000], self_test=settings.self_test,
        attempt=attempt, simulator_error_kind=(simulator_kind if j.status ==
                                               TrialStatus.SIMULATOR_ERROR else None),
        claim_number=j.claim_number, customer_messages=j.messages_sent, steps=j.step,
        started_at=started, ended_at=now(), duration_s=round(time.monotonic() - t0, 3),
        turn_times_s=[round(t, 3) for t in j.turn_times], retries=j.retries,
        cost_usd=j.cost, tokens=j.tokens, product_events=j.product_events,
        new_conversation=j.new_conversation, agent_decision=agent_decision,
        reset=ResetInfo(adapter=outcome.adapter, took_ms=outcome.took_ms,
                        verified=outcome.verified) if outcome is not None else None,
    )
    write_trial_result(folder, result)
    return result


async def _state_after(reset: ResetAdapter, j: Journey) -> None:
    """Dump the state after the journey into state-after.json (``j.state_after`` once done)."""
    try:
        await state_after(reset, j)
    except Exception as exc:  # the product may be down: say so, keep going
        j.event(note=f"state after the journey not taken: {exc}")
