"""After a journey the staff side is read at once, beside closing the customer's context and
redacting its network log, and every exit path waits for the redaction and leaves no task
running."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from claims_records import (
    SimulatorError,
    StaffReading,
)
from harness.profile import load_profile
from harness.trial import TrialContext, TrialSettings, _after
from harness.trial._record import Journey

pytestmark = [pytest.mark.asyncio]

class _Tab:
    """A customer tab that logs what happens to it; ``close_waits_for`` holds the close until
    the event is set (or 5 s pass), ``redact_error`` makes redaction fail after 0.2 s."""

    def __init__(self, close_waits_for: asyncio.Event | None = None,
                 redact_error: Exception | None = None) -> None:
        self.log: list[str] = []
        self.close_waits_for = close_waits_for
        self.redact_error = redact_error
        self.redact_thread: threading.Thread | None = None

    async def page(self) -> object:
        return object()

    async def close(self, keep_trace: bool) -> None:
        self.log.append("close")
        if self.close_waits_for is not None:
            await asyncio.wait_for(self.close_waits_for.wait(), 5)
        self.log.append("closed")

    def redact(self, folder: Path, secrets: list[str]) -> None:
        self.redact_thread = threading.current_thread()
        time.sleep(0.2)
        if self.redact_error is not None:
            raise self.redact_error
        self.log.append("redacted")


class _Staff:
    """The staff read of a trial: ``hold`` keeps it running until cancelled."""

    def __init__(self, tab: _Tab, hold: bool = False) -> None:
        self.tab, self.hold = tab, hold
        self.started = asyncio.Event()
        self.cancelled = False

    async def __call__(self, ctx: TrialContext) -> StaffReading:
        self.tab.log.append("staff")
        self.started.set()
        try:
            if self.hold:
                await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        return StaffReading(claim_number=ctx.journey.claim_number, found=True)


def _after_journey(monkeypatch, tmp_path: Path, tab: _Tab, staff: _Staff,
                   play_error: Exception | None = None):
    """``_journey_and_staff`` with the journey replaced, given 10 s (a test fails rather
    than hangs)."""

    async def play(*_args) -> None:
        if play_error is not None:
            raise play_error

    monkeypatch.setattr(_after, "play", play)
    monkeypatch.setattr(_after, "CustomerPage", lambda *_args: object())
    monkeypatch.setattr(_after, "_staff_side", staff)
    profile = load_profile("kestrel")
    outcome = SimpleNamespace(customer_credentials={}, staff_credentials={})
    ctx = TrialContext(
        browser=None, lane=profile.resolved_lanes()[0], reset=None,  # type: ignore[arg-type]
        settings=TrialSettings(), setup=SimpleNamespace(staff_script=None),  # type: ignore[arg-type]
        view=None, customer=None, outcome=outcome,  # type: ignore[arg-type]
        journey=Journey(folder=tmp_path, claim_number="CLM-26-8F3K2Q"),
        customer_side=profile.customer_side(), staff_side=profile.staff_side(), headers={},
        staff=None)
    return asyncio.wait_for(_after.journey_and_staff(ctx, tab), 10)  # type: ignore[arg-type]


def _others() -> list[asyncio.Task]:
    return [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]


async def test_the_staff_read_starts_while_the_customer_context_closes(monkeypatch, tmp_path):
    staff_started = asyncio.Event()
    tab = _Tab(close_waits_for=staff_started)  # the close ends only once the staff read began
    staff = _Staff(tab)
    staff.started = staff_started
    reading = await _after_journey(monkeypatch, tmp_path, tab, staff)
    assert reading.found and reading.claim_number == "CLM-26-8F3K2Q"
    assert tab.log.index("staff") < tab.log.index("closed") < tab.log.index("redacted")
    assert not _others()


async def test_a_failed_journey_closes_and_redacts_without_a_staff_read(monkeypatch, tmp_path):
    tab = _Tab()
    staff = _Staff(tab)
    with pytest.raises(SimulatorError):
        await _after_journey(monkeypatch, tmp_path, tab, staff,
                             play_error=SimulatorError("the customer model failed"))
    assert tab.log == ["close", "closed", "redacted"]
    assert not _others()


async def test_a_failed_redaction_stops_the_staff_read_and_is_raised(monkeypatch, tmp_path):
    tab = _Tab(redact_error=OSError("disk full"))
    staff = _Staff(tab, hold=True)
    started = time.monotonic()
    with pytest.raises(OSError, match="disk full"):
        await _after_journey(monkeypatch, tmp_path, tab, staff)
    assert staff.cancelled and time.monotonic() - started < 5  # not left to run on
    assert not _others()


async def test_a_cancelled_trial_waits_for_the_redaction_and_stops_the_staff_read(
        monkeypatch, tmp_path):
    tab = _Tab()
    staff = _Staff(tab, hold=True)
    trial = asyncio.ensure_future(_after_journey(monkeypatch, tmp_path, tab, staff))
    await staff.started.wait()
    while tab.redact_thread is None:  # the redaction is under way in its thread
        await asyncio.sleep(0.01)
    trial.cancel()
    with pytest.raises(asyncio.CancelledError):
        await trial
    assert "redacted" in tab.log  # finished before the trial ended (the raw files go next)
    assert staff.cancelled
    assert not _others()
