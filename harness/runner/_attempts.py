"""A trial's entry in run.json and its attempts: pending, finished, moved aside on resume,
kept when run again after an infrastructure error (evidence is never deleted)."""

from __future__ import annotations

from pathlib import Path

from claims_records import (
    RETRIED_SIMULATOR_ERRORS,
    EarlierAttempt,
    RunRecord,
    RunRecordError,
    TrialEntry,
    TrialResult,
    TrialStatus,
    is_finished_trial,
    is_run_folder,
    read_run_record,
    read_trial_result,
    run_record_path,
)


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
