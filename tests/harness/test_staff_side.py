"""The staff side reached by a search box on another origin, read in the product's own words
through the vocabulary map; words it cannot map are recorded, not guessed. After a journey it
is read at once, beside closing the customer's context and redacting its network log, and
every exit path waits for the redaction and leaves no task running."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from claims_records import SimulatorError, StaffReading
from harness import _trial
from harness._browser import launch_browser
from harness._journey import Journey
from harness._staff_session import StaffSession
from harness._trial import TrialSettings
from harness.profile import Profile

from .pages import RouteServer

pytestmark = [pytest.mark.asyncio]

SEARCH = """<!doctype html><html><body><form action="/find">
<input name="q" aria-label="Find a claim"><button>Go</button></form></body></html>"""
RESULTS = """<!doctype html><html><body><ul>
<li class="hit"><a href="/c/77">CLM-26-AAAAAA</a></li>
<li class="hit"><a href="/c/42">CLM-26-8F3K2Q</a></li></ul></body></html>"""
CASE = """<!doctype html><html><body><main><h1>CLM-26-8F3K2Q</h1>
<p>Band: <span class="band">Routine</span></p>
<ul><li class="why">Other party involved</li><li class="why">Car off the road</li></ul>
<p class="referral">No referral</p>
<table><tr class="chk"><td class="n">Quote dated before the loss</td><td class="o">Passed</td></tr>
<tr class="chk"><td class="n">Receipt dated after the loss</td><td class="o">Not relevant</td></tr>
</table>
<table><tr class="f"><td class="k">Date of loss</td><td class="v">12 March 2026</td>
<td class="s">Confirmed by customer</td></tr>
<tr class="f"><td class="k">Colour of car</td><td class="v">Blue</td>
<td class="s">Confirmed by customer</td></tr>
</table></main></body></html>"""


def _desk(path: str, headers) -> tuple[int, str, bytes]:
    if headers.get("X-Desk-Key") != "desk-key":
        return 401, "text/plain", b"no"
    pages = {"/": SEARCH, "/find?q=CLM-26-8F3K2Q": RESULTS, "/c/42": CASE}
    page = pages.get(path)
    return (200, "text/html", page.encode()) if page else (404, "text/plain", b"not here")


@pytest.fixture(scope="module")
def desk():
    d = RouteServer(_desk)
    yield d
    d.close()


def _profile(desk_url: str) -> Profile:
    return Profile.model_validate({
        "name": "desk", "base_url": "http://127.0.0.1:1", "staff_base_url": desk_url,
        "capabilities": {"customer_accounts": False, "waiting_list": False},
        "completion": {"busy": ".b"},
        "customer_screen": {"conversation": ".c", "agent_message": ".a",
                            "composer_input": "textarea", "composer_send": "button",
                            "claim_number_pattern": "CLM-\\d{2}-[A-Z0-9]{6}"},
        "staff": {"sign_in": "header", "header": "X-Desk-Key", "scheme": "",
                  "token_env": "DESK_KEY", "find": "search", "queue_path": "/",
                  "search_input": 'role=textbox[name="Find a claim"]',
                  "queue_row": "li.hit"},
        "staff_screen": {"triage_class": ".band", "reason": "li.why",
                         "review_signal": ".referral", "check_row": "tr.chk",
                         "check_id": ".n", "check_outcome": ".o", "fact_row": "tr.f",
                         "fact_key": ".k", "fact_value": ".v", "fact_state": ".s"},
        "staff_vocabulary": {
            "triage_class": {"Routine": "standard"},
            "reasons": {"Other party involved": "third_party_involved"},
            "review_signal": {"No referral": "none", "Refer": "review_required"},
            "check_ids": {"Quote dated before the loss": "quote_before_incident",
                          "Receipt dated after the loss": "receipt_after_incident"},
            "check_outcomes": {"Passed": "clear", "Not relevant": "not_applicable"},
            "fact_keys": {"Date of loss": "incident_date"},
            "fact_states": {"Confirmed by customer": "confirmed"}},
    })


@pytest.mark.browser
async def test_search_box_header_token_and_vocabulary(desk, tmp_path: Path, monkeypatch):
    from playwright.async_api import async_playwright

    monkeypatch.setenv("DESK_KEY", "desk-key")
    profile = _profile(desk.url)
    lane = profile.resolved_lanes()[0]
    assert lane.staff_base_url == desk.url
    async with async_playwright() as pw:
        browser = await launch_browser(pw)
        staff = StaffSession(browser, profile, lane)
        try:
            reading = await staff.read({}, "CLM-26-8F3K2Q", tmp_path)
        finally:
            await staff.close()
            await browser.close()
    assert reading.error is None and reading.found
    assert reading.triage_class == "standard"
    assert reading.reasons == ["third_party_involved"]
    assert reading.review_required is False
    assert {k: v.outcome for k, v in reading.checks.items()} == {
        "quote_before_incident": "clear", "receipt_after_incident": "not_applicable"}
    assert reading.facts["incident_date"].state == "confirmed"
    assert reading.unmapped == {"reasons": ["Car off the road"], "fact_keys": ["Colour of car"]}
    assert "waiting_list" in reading.not_shown and "urgency" in reading.not_shown
    assert (tmp_path / "screens" / "staff-01-claim.png").is_file()


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

    async def __call__(self, profile, j, staff_creds, staff, settings) -> StaffReading:
        self.tab.log.append("staff")
        self.started.set()
        try:
            if self.hold:
                await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        return StaffReading(claim_number=j.claim_number, found=True)


def _after_journey(monkeypatch, tmp_path: Path, tab: _Tab, staff: _Staff,
                   play_error: Exception | None = None):
    """``_journey_and_staff`` with the journey replaced, given 10 s (a test fails rather
    than hangs)."""

    async def play(*_args) -> None:
        if play_error is not None:
            raise play_error

    monkeypatch.setattr(_trial, "play", play)
    monkeypatch.setattr(_trial, "CustomerPage", lambda *_args: object())
    monkeypatch.setattr(_trial, "_staff_side", staff)
    profile = _profile("http://127.0.0.1:9")
    outcome = SimpleNamespace(customer_credentials={}, staff_credentials={})
    j = Journey(folder=tmp_path, claim_number="CLM-26-8F3K2Q")
    return asyncio.wait_for(_trial._journey_and_staff(
        tab, profile, profile.resolved_lanes()[0], None, outcome, None, j, TrialSettings(),
        None), 10)


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
