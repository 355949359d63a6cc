"""A trial's entry in run.json and its attempts: pending, finished, moved aside on resume,
kept when run again after an infrastructure error (evidence is never deleted)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from claims_records import (
    RETRIED_SIMULATOR_ERRORS,
    EarlierAttempt,
    EarlyStop,
    RunRecord,
    RunRecordError,
    TrialEntry,
    TrialResult,
    TrialStatus,
    infrastructure_ending,
    is_finished_trial,
    is_run_folder,
    read_run_record,
    read_trial_result,
    run_record_path,
)

from ._record import utc_now


def move_aside(folder: Path) -> Path:
    """Move an unfinished trial folder to trial-<n>.interrupted-<k> (never deleted)."""
    k = 1
    while (target := folder.with_name(f"{folder.name}.interrupted-{k}")).exists():
        k += 1
    folder.rename(target)
    return target


def prepare_resume(run_dir: Path) -> RunRecord:
    """Load run.json, keep finished trials (trial.json exists), move unfinished ones aside;
    the earlier attempts of a trial run again (``--retry-infra``) stay listed."""
    if not is_run_folder(run_dir):
        raise RunRecordError("no run to resume", file=str(run_record_path(run_dir)))
    record = read_run_record(run_dir)
    for i, entry in enumerate(record.trials):
        folder = run_dir / entry.path
        if is_finished_trial(folder):
            result = read_trial_result(folder)
            record.trials[i] = entry_from(result, entry.path, entry.earlier_attempts)
            continue
        if folder.exists():
            move_aside(folder)
        record.trials[i] = pending_entry(entry.pack_id, entry.trial, entry.path,
                                    entry.earlier_attempts)
    record.finished_at = None
    record.stopped = None  # the trials an early stop left pending are run now
    return record


def pending_entry(pack_id: str, trial: int, path: str,
             earlier: list[EarlierAttempt] | None = None) -> TrialEntry:
    earlier = list(earlier or [])
    return TrialEntry(pack_id=pack_id, trial=trial, path=path, attempts=len(earlier) + 1,
                      earlier_attempts=earlier)


def first_line(detail: str) -> str:
    return detail.splitlines()[0][:300] if detail else ""


def entry_from(result: TrialResult, path: str,
                earlier: list[EarlierAttempt] | None = None) -> TrialEntry:
    earlier = list(earlier or [])
    return TrialEntry(
        pack_id=result.pack_id, trial=result.trial, lane=result.lane, status=result.status,
        stop_reason=result.stop_reason, detail=first_line(result.detail),
        started_at=result.started_at, ended_at=result.ended_at,
        duration_s=result.duration_s, path=path, tokens=result.tokens, cost_usd=result.cost_usd,
        attempts=len(earlier) + 1, earlier_attempts=earlier,
    )


def infrastructure_error(result: TrialResult) -> bool:
    """The trial ended in an error ``--retry-infra`` runs again: ``harness_error`` (the
    harness, its browser, its seed route or stores), or ``simulator_error`` of a transient kind
    (timeout, connection, server, rate_limit). Never the product's own failures
    (``product_error``, ``reset_failed``) nor an agent outcome: running those again until
    they pass would hide them."""
    if result.status == TrialStatus.HARNESS_ERROR:
        return True
    return (result.status == TrialStatus.SIMULATOR_ERROR
            and result.simulator_error_kind in RETRIED_SIMULATOR_ERRORS)


@dataclass(frozen=True)
class Backoff:
    """How long a lane waits before it runs a trial again after an infrastructure error
    (``--retry-infra``): ``first_s`` before the second attempt, ``factor`` times longer before
    each one after, never more than ``most_s`` (a server that is restarting, a rate limit
    that resets, get time to come back)."""

    first_s: float = 2.0
    factor: float = 2.0
    most_s: float = 60.0

    def delay(self, retry: int) -> float:
        """Seconds to wait before retry number ``retry`` (1: the second attempt)."""
        return min(self.most_s, self.first_s * self.factor ** max(0, retry - 1))


@dataclass(frozen=True)
class ErrorPolicy:
    """What a run does about infrastructure errors: run a trial again up to ``retry_infra``
    times, waiting as ``backoff`` says (through ``sleep``), and stop taking trials once
    ``stop_after`` trials in a row ended in one (0: never)."""

    retry_infra: int = 0
    stop_after: int = 0
    backoff: Backoff = Backoff()
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep


class ErrorStreak:
    """Trials in a row, in the order they finish on any lane, that ended in an
    infrastructure error; ``stop`` is set once the policy's limit is reached."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        self.stop: EarlyStop | None = None
        self._last: TrialResult | None = None

    def add(self, result: TrialResult) -> None:
        """Count a finished trial (its last attempt)."""
        if not infrastructure_ending(result.status):
            self.count = 0
            return
        self.count += 1
        self._last = result
        if self.limit and self.count >= self.limit and self.stop is None:
            self.stop = EarlyStop(
                reason="", errors_in_a_row=self.count, limit=self.limit,
                last_status=result.status, last_detail=first_line(result.detail),
                not_run=0, stopped_at=utc_now())

    def settled(self, record: RunRecord) -> EarlyStop | None:
        """The early stop as the record keeps it, once the lanes have ended: how many trials
        were left pending and one line saying why."""
        if self.stop is None:
            return None
        left = sum(1 for t in record.trials if t.status == TrialStatus.PENDING)
        s = self.stop
        detail = f": {s.last_detail}" if s.last_detail else ""
        reason = (f"stopped early: {s.errors_in_a_row} trials in a row ended in an "
                  f"infrastructure error (the limit, stop_after_errors, is {s.limit}), the "
                  f"last {s.last_status.value}{detail}; {left} trial(s) not run, left pending "
                  "in run.json")
        return s.model_copy(update={"reason": reason, "not_run": left})


def keep_attempt(folder: Path, attempt: int) -> Path:
    """Move a finished attempt's folder to <folder>.attempt-<k> (never deleted or
    overwritten: a name taken already gets a suffix)."""
    target = folder.with_name(f"{folder.name}.attempt-{attempt}")
    k = 1
    while target.exists():
        k += 1
        target = folder.with_name(f"{folder.name}.attempt-{attempt}-{k}")
    folder.rename(target)
    return target


def earlier_attempt(result: TrialResult, path: str) -> EarlierAttempt:
    return EarlierAttempt(
        attempt=result.attempt, status=result.status, stop_reason=result.stop_reason,
        simulator_error_kind=result.simulator_error_kind, detail=first_line(result.detail),
        started_at=result.started_at, ended_at=result.ended_at, duration_s=result.duration_s,
        path=path)
