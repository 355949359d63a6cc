"""What a trial runs with: the lane's rig, the settings, and the context of a trial under way."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Browser

from claims_corpus import CustomerView
from claims_corpus.formats import Setup

from ..customers import Customer
from ..profile import CustomerSide, Lane, Profile, StaffSide
from ..reset import Credentials, ResetAdapter, ResetOutcome
from ..staff import StaffSession
from ._journey import JourneySettings, StartCheck
from ._pace import Pace
from ._record import Journey

TRACING_MODES = ("on", "off", "retain-on-failure")

CustomerFactory = Callable[[CustomerView, Path], Customer]
"""Makes the simulated customer of one trial from the pack's customer view and folder."""


@dataclass
class TrialSettings:
    """How every trial of a run is played and recorded."""

    turn_limit: int = 40
    stuck_after: int = 3
    tracing: str = "off"
    """One of ``TRACING_MODES``: keep a Playwright trace always, never, or on failure."""
    self_test: bool = False
    labels: list[str] = field(default_factory=list)
    """The run's labels, shown in every transcript."""
    evidence: bool = True
    """False only to measure the harness itself (scripts/bench_harness.py): no screenshots,
    HAR, trace, staff side or state dumps. Runs always keep the evidence."""
    decisions: bool = True
    """False only in the bench, whose bare replay has no staff decision phase to compare it
    with (the bench measures that phase apart). Runs always take the pack's staff decision."""
    pace: Pace | None = None
    """The least time each customer action takes (``--pace``); None: machine speed."""

    def journey(self) -> JourneySettings:
        """The settings of a trial's journey."""
        return JourneySettings(turn_limit=self.turn_limit, stuck_after=self.stuck_after,
                               screenshots=self.evidence, pace=self.pace)


@dataclass
class TrialRig:
    """What a lane gives each of its trials: the browser, the product (profile and lane) and
    its reset, how to make a customer, the lane's staff session and the settings."""

    browser: Browser
    profile: Profile
    lane: Lane
    reset: ResetAdapter
    customers: CustomerFactory
    settings: TrialSettings = field(default_factory=TrialSettings)
    staff: StaffSession | None = None
    """The lane's staff session, kept across trials; None: each trial opens (and closes) its
    own."""


@dataclass
class TrialContext:
    """One trial under way, from the product's reset on: what its phases share.

    The profile enters only as its two sides (``customer_side``, ``staff_side``) and the
    headers every page request carries."""

    browser: Browser
    lane: Lane
    reset: ResetAdapter
    settings: TrialSettings
    setup: Setup
    view: CustomerView
    """The pack as the customer may see it."""
    customer: Customer
    journey: Journey
    """The journey's record (its folder is the trial folder)."""
    outcome: ResetOutcome
    customer_side: CustomerSide
    staff_side: StaffSide
    headers: dict[str, str]
    """Headers sent with every page request (``[browser]`` of the profile)."""
    staff: StaffSession | None
    """The staff session of this trial (the lane's, or the trial's own); None with the
    evidence off."""
    before_start: StartCheck | None = None
    """Starts a new conversation on the journey's page before its start page opens."""
    check_start: StartCheck | None = None
    """Checks the journey's start page (after a new conversation was started)."""

    @property
    def folder(self) -> Path:
        return self.journey.folder

    @property
    def customer_creds(self) -> Credentials:
        return self.outcome.customer_credentials or {}

    @property
    def staff_creds(self) -> Credentials:
        return self.outcome.staff_credentials or {}

    @property
    def decides(self) -> bool:
        """The trial takes the pack's staff decision after the journey."""
        s = self.settings
        return self.setup.staff_script is not None and s.evidence and s.decisions
