"""One trial: reset, a fresh browser context, the journey, the staff side, evidence."""

from __future__ import annotations

import asyncio
import contextlib
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser

import claims_corpus
from claims_records import (
    HarnessError,
    ProductError,
    ResetInfo,
    SeedError,
    SimulatorError,
    StaffReading,
    TrialResult,
    TrialStatus,
    write_model_atomic,
    write_text_atomic,
    write_trial_result,
)

from ._browser import CustomerPage
from ._customer_tab import CustomerTab
from ._decision import decide_and_return
from ._journey import Journey, JourneySettings, now, play
from ._launch import BROWSER_CRASH
from ._reset import ResetAdapter, ResetOutcome, setup_and_files
from ._staff import no_staff_side, staff_headers
from ._staff_session import StaffSession
from ._transcript import render_transcript
from .customers import Customer
from .profile import Lane, Profile

TRACING_MODES = ("on", "off", "retain-on-failure")


@dataclass
class TrialSettings:
    turn_limit: int = 40
    stuck_after: int = 3
    tracing: str = "off"
    self_test: bool = False
    labels: list[str] = field(default_factory=list)
    # False only to measure the harness itself (scripts/bench_harness.py): no screenshots,
    # HAR, trace, staff side or state dumps. Runs always keep the evidence.
    evidence: bool = True
    # False only in the bench, whose bare replay has no staff decision phase to compare it
    # with (the bench measures that phase apart). Runs always take the pack's staff decision.
    decisions: bool = True

    def journey(self) -> JourneySettings:
        return JourneySettings(turn_limit=self.turn_limit, stuck_after=self.stuck_after,
                               screenshots=self.evidence)


def _needs_missing_capability(profile: Profile, session: str) -> str | None:
    if session == "account" and not profile.capabilities.customer_accounts:
        return ("the pack's session mode 'account' needs customer accounts, which this product "
                "does not have (profile capabilities.customer_accounts = false)")
    return None


async def run_trial(
    browser: Browser,
    profile: Profile,
    lane: Lane,
    reset: ResetAdapter,
    pack_dir: Path,
    trial: int,
    folder: Path,
    customer_factory: Any,
    settings: TrialSettings,
    staff: StaffSession | None = None,
) -> TrialResult:
    """Run one trial of the pack at ``pack_dir`` on ``lane`` and write its evidence to ``folder``.

    ``staff`` is the lane's staff session, kept across trials; without one the trial opens
    (and closes) its own. Never raises for product, simulator or reset failures: they become
    the trial's status.
    """
    started, t0 = now(), time.monotonic()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "screens").mkdir(exist_ok=True)
    (folder / "customer-model.jsonl").touch()  # present (maybe empty) for every customer
    j = Journey(folder=folder)
    pack_id = pack_dir.name
    staff_reading = StaffReading(error="not read")
    customer: Customer | None = None
    outcome: ResetOutcome | None = None
    after_taken = False
    try:
        view = claims_corpus.load_customer_view(pack_dir)
        setup, files = setup_and_files(pack_dir)
        missing = _needs_missing_capability(profile, setup.claimant_session)
        if missing:
            j.stop("not_implemented", missing, TrialStatus.NOT_IMPLEMENTED)
            staff_reading = StaffReading(error="not read: the trial was not run")
        else:
            tab = CustomerTab(browser, profile.browser.extra_headers(), settings.evidence,
                              settings.tracing)
            try:
                tab.open()  # while the product is reset
                outcome = await asyncio.to_thread(reset.reset, setup, files)
                before = await asyncio.to_thread(reset.state) if settings.evidence else None
                if before is not None:
                    write_model_atomic(folder / "state-before.json", before)
                unread = ("; state not dumped (evidence off)" if not settings.evidence else
                          "; this product's state is not readable")
                j.event(note=outcome.describe() + ("" if before is not None else unread))
                customer = customer_factory(view, pack_dir)
                own_staff = staff is None and settings.evidence
                if own_staff:
                    staff = StaffSession(browser, profile, lane, profile.browser.extra_headers())
                if staff is not None and settings.evidence and profile.capabilities.staff_side:
                    staff.prepare(outcome.staff_credentials or {})  # signs in meanwhile if needed
                decides = (setup.staff_script is not None and settings.evidence
                           and settings.decisions)
                try:
                    staff_reading = await _journey_and_staff(tab, profile, lane, view, outcome,
                                                             customer, j, settings, staff,
                                                             decides)
                    if decides:
                        after_taken = await _state_after(reset, folder, j)
                        await decide_and_return(
                            browser, profile, lane, reset, setup.staff_script, view, customer,
                            j, staff, outcome.staff_credentials or {}, settings.journey())
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
    except ProductError as exc:
        j.stop("product_error", str(exc), TrialStatus.PRODUCT_ERROR)
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
    if not browser.is_connected():  # the browser ended under the trial: not the product's doing
        was = f" (the trial had stopped as {j.stop_reason}: {j.detail})" if j.stop_reason else ""
        j.stop("harness_error", f"{BROWSER_CRASH}: the browser ended during the trial{was}"[:2000],
               TrialStatus.HARNESS_ERROR)
        if not staff_reading.error:
            staff_reading = staff_reading.model_copy(update={"error": f"not read: {BROWSER_CRASH}"})
    write_model_atomic(folder / "staff.json", staff_reading)
    if outcome is not None and settings.evidence and not after_taken:
        await _state_after(reset, folder, j)
    write_text_atomic(folder / "transcript.md", render_transcript(
        pack_id, trial, j.history, j.stop_reason, j.detail, settings.labels, j.claim_number))
    if customer is not None:
        j.retries += getattr(customer, "retries", 0)
    result = TrialResult(
        pack_id=pack_id, trial=trial, lane=lane.name, status=j.status,
        stop_reason=j.stop_reason, detail=j.detail[:2000], self_test=settings.self_test,
        claim_number=j.claim_number, customer_messages=j.messages_sent, steps=j.step,
        started_at=started, ended_at=now(), duration_s=round(time.monotonic() - t0, 3),
        turn_times_s=[round(t, 3) for t in j.turn_times], retries=j.retries,
        cost_usd=j.cost, tokens=j.tokens, product_events=j.product_events,
        reset=ResetInfo(adapter=outcome.adapter, took_ms=outcome.took_ms,
                        verified=outcome.verified) if outcome is not None else None,
    )
    write_trial_result(folder, result)
    return result


async def _state_after(reset: ResetAdapter, folder: Path, j: Journey) -> bool:
    """Dump the state after the journey into state-after.json; False when it was not taken."""
    try:
        after = await asyncio.to_thread(reset.state)
        if after is not None:
            write_model_atomic(folder / "state-after.json", after)
    except Exception as exc:  # the product may be down: say so, keep going
        j.event(note=f"state after the journey not taken: {exc}")
        return False
    return True


async def _journey_and_staff(
    tab: CustomerTab, profile: Profile, lane: Lane, view: Any, outcome: ResetOutcome,
    customer: Customer, j: Journey, settings: TrialSettings, staff: StaffSession | None,
    keep_session: bool = False,
) -> StaffReading:
    creds = outcome.customer_credentials or {}
    staff_creds = outcome.staff_credentials or {}
    secrets = [v for v in creds.values() if isinstance(v, str)]
    secrets += [v for k, v in staff_creds.items() if k == "password" and isinstance(v, str)]
    secrets += list(profile.browser.extra_headers().values())
    secrets += list(staff_headers(profile).values())

    def keep_trace() -> bool:
        return settings.tracing == "on" or j.status != TrialStatus.COMPLETED

    try:
        cp = CustomerPage(await tab.page(), profile, lane.base_url)
        await play(cp, view, outcome, customer, j, settings.journey())
        if keep_session:  # the customer comes back after the staff decision
            j.storage = await tab.storage_state()
    except BaseException:
        await j.discard_final()
        await _close_and_redact(tab, keep_trace(), j.folder, secrets)
        raise
    # The staff side is read at once, while the customer's last screen is photographed and
    # its context closes (which writes the network log and trace) and they are redacted: the
    # two contexts share nothing.
    reading = asyncio.ensure_future(_staff_side(profile, j, staff_creds, staff, settings))
    closing = asyncio.ensure_future(_settle_close_and_redact(j, tab, keep_trace, secrets))
    try:
        await asyncio.shield(closing)  # a cancelled trial still waits for the redaction
        return await reading
    finally:
        reading.cancel()  # still running only when closing failed or the trial was cancelled
        await asyncio.wait([reading, closing])
        for task in (reading, closing):  # errors retrieved: the first one raised propagates
            if task.done() and not task.cancelled():
                task.exception()


async def _settle_close_and_redact(j: Journey, tab: CustomerTab, keep_trace: Any,
                                   secrets: list[str]) -> None:
    """Write the journey's last event with its screenshot, then close and redact (also when
    the screenshot failed; ``keep_trace`` is asked after, as the failure may change it)."""
    try:
        await j.settle()
    finally:
        await _close_and_redact(tab, keep_trace(), j.folder, secrets)


async def _close_and_redact(tab: CustomerTab, keep_trace: bool, folder: Path,
                            secrets: list[str]) -> None:
    """Close the customer's context (writing its network log and trace) and redact them
    into the trial folder."""
    await tab.close(keep_trace)
    await asyncio.to_thread(tab.redact, folder, secrets)


async def _staff_side(profile: Profile, j: Journey, staff_creds: dict[str, Any],
                      staff: StaffSession | None, settings: TrialSettings) -> StaffReading:
    if not settings.evidence or staff is None:
        return StaffReading(claim_number=j.claim_number, error="not read: evidence off")
    if j.status == TrialStatus.PRODUCT_ERROR:
        return StaffReading(claim_number=j.claim_number, error="not read: product error")
    if not profile.capabilities.staff_side:
        return no_staff_side(j.claim_number)
    if profile.staff.sign_in == "form" and not staff_creds.get("username"):
        return StaffReading(claim_number=j.claim_number, error="no staff credentials from the "
                            "reset (setup or baseline)")
    return await staff.read(staff_creds, j.claim_number, j.folder)
