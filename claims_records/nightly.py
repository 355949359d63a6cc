"""The nightly job's formats.

    nightly.toml (anywhere)            NightlyConfig   what one scheduled job runs and gates
    <runs-dir>/history.json            HistoryIndex    one entry per night, every configuration

``docs/nightly.md`` explains each key and the history index.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from ._base import Strict
from .comparison import ComparisonVerdict
from .config import BrowserConfig, RunSettings, Tracing
from .run import CorpusInfo
from .sheet import ScorerInfo
from .summary import Interval

NightOutcome = Literal["ok", "regression", "gate_failed", "infrastructure"]

NIGHTLY_FORMAT_VERSION = "1"
CONFIG_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"


class NightlyBrowser(BrowserConfig):
    """How to get the browser; at most one key. Endpoints holding a token belong in
    CLAIMS_HARNESS_BROWSER_CDP_URL / CLAIMS_HARNESS_BROWSER_WS_ENDPOINT instead."""

    cdp_url: str | None = Field(None, description="A Chromium running elsewhere, through the "
                                "Chrome DevTools Protocol (never recorded).")
    ws_endpoint: str | None = Field(None, description="A Playwright browser server (never "
                                    "recorded).")


class NightlyGate(Strict):
    """When a night fails (exit 1) and when it cannot be judged (exit 3)."""

    min_pass_hat_k: float = Field(0.8, ge=0, le=1, description="Floor for the run's pass^k.")
    k: int = Field(1, ge=1, description="k of pass^k; at most the trials per pack.")
    fail_on_worse: bool = Field(True, description="Exit 1 when the paired comparison with the "
                                "baseline says 'worse' (its whole interval below zero).")
    pack_drop: float = Field(0.5, gt=0, le=1, description="A pack whose success rate fell by "
                             "at least this much since the baseline is named a regression.")
    fail_on_pack_regression: bool = Field(False, description="Exit 1 on any named pack "
                                          "regression, not only on a 'worse' comparison.")
    acceptance: bool = Field(False, description="Also require every acceptance criterion "
                             "(the corpus's acceptance.toml) to be met: exit 1 otherwise.")
    max_infrastructure_share: float = Field(
        0.2, ge=0, le=1, description="Above this share of trials ending in product, simulator "
        "or harness errors the night cannot be judged: exit 3.")


class NightlyCompare(Strict):
    seed: int | None = Field(None, description="Bootstrap seed (default: the scorer's).")
    resamples: int | None = Field(None, ge=100)


class NightlyConfig(RunSettings):
    """nightly.toml — one scheduled job: run, score, report, compare, gate, history.

    Its run keys are ``RunSettings`` (the ``run`` options of the same names; ``corpora`` and
    ``profile`` are relative to this file); a night records them in run.json as its
    ``RunConfig``. Two defaults differ from ``run``'s: tracing keeps traces of failed trials
    and a night has at least one lane.
    """

    version: str = Field(NIGHTLY_FORMAT_VERSION)
    name: str = Field(pattern=CONFIG_NAME_PATTERN, description="The configuration's name: "
                      "baselines come from earlier nights of the same name.")
    runs_dir: str = Field("runs", description="Where runs and the history index live "
                          "(relative to this file).")
    shards: int = Field(1, ge=1, description="Machines the run is split over (nightly --shard "
                        "i/n on each, then nightly --merge-shards).")
    lanes: Annotated[int, Field(ge=1)] | Literal["auto"] = Field(
        1, description="Lanes on this machine (with [dev]: started; 'auto': as many as the "
        "machine sustains for the customer's think time, docs/throughput.md).")
    tracing: Tracing = Field("retain-on-failure", description="Playwright tracing: on | off | "
                             "retain-on-failure.")
    browser: NightlyBrowser = Field(default_factory=NightlyBrowser,
                                    description="How to get the browser (one key at most).")
    gate: NightlyGate = Field(default_factory=NightlyGate)
    compare: NightlyCompare = Field(default_factory=NightlyCompare)

    @model_validator(mode="after")
    def _consistent(self) -> NightlyConfig:
        if self.gate.k > self.trials:
            raise ValueError(f"gate.k = {self.gate.k} needs at least {self.gate.k} trials per "
                             f"pack; trials = {self.trials}")
        browser = [k for k, v in self.browser.model_dump().items() if v]
        if len(browser) > 1:
            raise ValueError(f"[browser] takes one way to get the browser, not {browser}")
        if self.customer == "llm" and self.llm is None:
            raise ValueError("customer = 'llm' needs an [llm] table (at least the model)")
        return self


class GateOutcome(Strict):
    passed: bool
    k: int
    floor: float
    value: float | None = Field(None, description="The run's pass^k.")
    interval: Interval | None = Field(None, description="pass^k's interval over packs.")
    message: str


class AcceptanceOutcome(Strict):
    passed: bool = Field(description="Every acceptance criterion met.")
    gating: bool = Field(description="The configuration gates on it ([gate] acceptance).")
    message: str


class PackChange(Strict):
    """A pack whose success rate moved by at least the configured drop since the baseline."""

    pack_id: str
    baseline_rate: float
    run_rate: float


class ComparisonOutcome(Strict):
    verdict: ComparisonVerdict
    mean_difference: float | None = None
    low: float | None = None
    high: float | None = None
    explanation: str


class NightEntry(Strict):
    """One night of one configuration."""

    config: str = Field(description="The configuration's name.")
    config_digest: str = Field(description="sha256 of the configuration's settings.")
    run_id: str
    run_path: str = Field(description="The run folder, relative to the runs folder.")
    started_at: str
    finished_at: str
    outcome: NightOutcome
    exit_code: int = Field(description="The exit code (ExitCode): 0 ok, 1 regression or gate "
                           "failure, 3 the night could not be judged (nights recorded "
                           "before 3 was used say 2).")
    reasons: list[str] = Field(default_factory=list, description="Why it is not ok, one line "
                               "each.")
    labels: list[str] = Field(default_factory=list)
    corpora: list[CorpusInfo] = Field(default_factory=list)
    scorer: ScorerInfo | None = None
    trials: int = 0
    scorable_trials: int = 0
    successes: int = 0
    mean_success: Interval | None = None
    gate: GateOutcome | None = None
    acceptance: AcceptanceOutcome | None = None
    baseline_run_id: str | None = None
    baseline_note: str = Field("", description="Why there is no baseline, or how it was "
                               "made comparable.")
    comparison: ComparisonOutcome | None = None
    regressions: list[PackChange] = Field(default_factory=list)
    improvements: list[PackChange] = Field(default_factory=list)
    failure_modes: dict[str, int] = Field(default_factory=dict)
    errors_by_category: dict[str, int] = Field(default_factory=dict)
    pack_durations: dict[str, float] = Field(default_factory=dict,
                                             description="Mean trial seconds per pack.")
    report: str | None = Field(None, description="The report, relative to the runs folder.")
    archive: str | None = Field(None, description="The run's archive once archived, relative "
                                "to the runs folder.")


class HistoryIndex(Strict):
    """history.json — every night of every configuration in a runs folder, oldest first."""

    version: str = Field(NIGHTLY_FORMAT_VERSION)
    nights: list[NightEntry] = Field(default_factory=list)
