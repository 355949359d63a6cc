"""What a stopped run tells its user: why it stopped, in one line, and the command that
finishes it. ``--resume`` reads the run's configuration from its run.json, so the command
is short and works as printed."""

from __future__ import annotations

import errno
import shlex
from collections import Counter
from pathlib import Path
from typing import Any

from claims_records import (
    ExitCode,
    RunConfig,
    RunRecord,
    RunRecordError,
    find_run_record,
)

# Why a folder cannot be written, in words, and what the user can do about it.
_STORAGE = {
    errno.ENOSPC: ("no space left on the device", "free some space"),
    errno.EDQUOT: ("the disk quota is exhausted", "free some space"),
    errno.EROFS: ("the file system is read-only", "make the runs folder writable"),
    errno.EACCES: ("permission denied", "make the runs folder writable"),
    errno.EPERM: ("operation not permitted", "make the runs folder writable"),
    errno.EIO: ("an input/output error", "check the disk"),
}


class RunStorageError(RunRecordError):
    """The run record could not be written (full disk, read-only or forbidden folder)."""

    def __init__(self, message: str, fix: str = "", **context: Any) -> None:
        self.fix = fix
        super().__init__(message, **context)


def storage_error(exc: OSError, run_dir: Path | None = None) -> RunStorageError:
    """A clear error for an ``OSError`` that stopped a run."""
    what, fix = _STORAGE.get(exc.errno or 0, (exc.strerror or type(exc).__name__,
                                              "fix the cause"))
    return RunStorageError(f"the run stopped: {what}", fix=fix,
                           file=exc.filename or (str(run_dir) if run_dir else None))


def resume_command(runs_dir: Path | str, run_id: str) -> str:
    """The command that finishes run ``run_id`` from any directory."""
    folder = Path(runs_dir).expanduser().resolve()
    return (f"claims-harness run --resume {shlex.quote(run_id)} "
            f"--runs-dir {shlex.quote(str(folder))}")


def recorded_config(run_dir: Path) -> RunConfig | None:
    """The configuration a run was started with (what ``--resume`` starts from; options
    given with it are applied over it). None when run.json is missing or unreadable: the
    resume itself reports that."""
    record = find_run_record(Path(run_dir))
    return None if record is None else record.options


def unfinished(run_dir: Path) -> bool:
    """The run at ``run_dir`` has a run.json with trials still to run."""
    record = find_run_record(Path(run_dir))
    if record is None:
        return False
    return any(t.status == "pending" for t in record.trials)


def stop_line(exc: Exception, code: int, runs_dir: Path | str, run_id: str | None,
              started: bool) -> str:
    """One line for a run that stopped on ``exc``: the reason, the exit code and, when this
    process had started recording the run and it can go on, the exact command that
    finishes it."""
    fix = getattr(exc, "fix", "")
    text = f"error: {exc}; exit code {code}"
    if started and run_id and unfinished(Path(runs_dir) / run_id):
        text += (f"; finished trials are kept — {fix + ', then ' if fix else ''}finish it "
                 f"with: {resume_command(runs_dir, run_id)}")
    elif fix:
        text += f"; {fix} and run again"
    return text


def no_result_line(record: RunRecord, runs_dir: Path | str, code: ExitCode) -> str:
    """One line for a run that ended without a result to judge (``run_exit_code``): it
    stopped early on infrastructure errors in a row (why, and the command that runs the
    trials left), or no trial reached an outcome of the agent's (how they ended)."""
    if record.stopped is not None:
        return (f"{record.stopped.reason}; exit code {code.value}; fix the cause, then run "
                f"them with: {resume_command(runs_dir, record.run_id)}")
    counts = Counter(t.status.value for t in record.trials)
    how = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    return (f"no trial reached an outcome of the product's agent ({how}): nothing to score; "
            f"exit code {code.value}")
