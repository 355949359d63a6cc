"""What a run carries besides its recorded configuration, and the progress events it sends."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..browser import BrowserChoice
from ..customers import LlmSettings
from ..profile import Profile
from ._attempts import Backoff


@dataclass(frozen=True)
class TrialProgress:
    """A trial starting (``status`` None) or finishing, for progress displays."""

    lane: str
    pack_id: str
    trial: int
    done: int
    total: int
    status: str | None = None
    stop_reason: str | None = None
    seconds: float | None = None
    attempt: int = 1
    """Which attempt of the trial (more than 1: run again after an infrastructure error)."""
    previous: str | None = None
    """How the attempt before this one ended (a start event of a later attempt)."""

    def __str__(self) -> str:
        head = f"[{self.lane}] {self.pack_id} trial {self.trial}"
        if self.status is None:
            again = (f" attempt {self.attempt} (attempt {self.attempt - 1} ended "
                     f"{self.previous})" if self.attempt > 1 else "")
            return f"{head} ...{again}"
        return (f"{head}: {self.status} ({self.stop_reason}) in {self.seconds:.1f}s  "
                f"[{self.done}/{self.total}]")


@dataclass
class RunContext:
    """What one run needs besides its configuration (``RunConfig``, recorded in run.json):
    where it goes, what lives only while it runs, and what is never recorded.

    ``profile`` is the loaded profile (pointed at a dev environment's lanes; default: loaded
    from the configuration); ``seed_token`` overrides the profile's environment variable;
    ``llm`` holds the customer model's key (default: built from the configuration and the
    environment); ``browser`` may reach a browser elsewhere (default: the configuration's).
    """

    profile: Profile | None = None
    runs_dir: Path = Path("runs")
    run_id: str | None = None
    resume: str | None = None
    seed_token: str | None = None
    llm: LlmSettings | None = None
    browser: BrowserChoice | None = None
    shard_durations: dict[str, float] | None = None
    """Pack durations for the shard plan; None: ``<runs-dir>/history.json`` if present."""
    progress: Callable[[TrialProgress], None] = lambda event: None
    corpus_fails_check: bool = False
    """The caller found that a corpus of the run fails ``corpus check`` and runs it anyway
    (``--allow-unchecked-corpus``): the run is labelled 'corpus fails check'. The harness
    never runs the check itself (the checker reads what only the scorer may)."""
    backoff: Backoff = field(default_factory=Backoff)
    """How long to wait before running a trial again after an infrastructure error."""
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    """How the run waits for that (tests give one that only records the delays)."""
    started: bool = False
    """Set once this process holds the run's lock and has written its run.json: from then
    on a stop leaves a run that ``--resume`` can finish."""
