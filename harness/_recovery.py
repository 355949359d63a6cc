"""What a stopped run tells its user: why it stopped, in one line, and the command that
finishes it. ``--resume`` reads the options a run needs from its run.json, so the command
is short and works as printed."""

from __future__ import annotations

import errno
import shlex
from pathlib import Path
from typing import Any

from claims_records import RunRecordError, find_run_record

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


# run.json option keys that become ``run`` option defaults on --resume (never secrets).
RESUMABLE_OPTIONS = ("profile", "packs", "lanes", "dev", "customer", "tracing", "turn_limit",
                     "stuck_after", "headed", "runtime", "no_reset", "allow_unreported_runtime",
                     "self_test", "llm_base_url", "llm_model", "llm_temperature", "llm_seed",
                     "llm_max_tokens", "llm_timeout", "llm_max_retries",
                     "llm_malformed_retries", "llm_response_format", "prompt_view",
                     "browser_executable", "browser_channel")


def resume_defaults(run_dir: Path) -> dict[str, Any]:
    """The options a run was started with, as defaults for resuming it (an option given on
    the command line still wins). Empty when run.json is missing or unreadable: the resume
    itself reports that."""
    record = find_run_record(Path(run_dir))
    if record is None:
        return {}
    out = {k: v for k, v in record.options.items() if k in RESUMABLE_OPTIONS and v is not None}
    if isinstance(out.get("packs"), str):  # one corpus folder, recorded as text
        out["packs"] = [out["packs"]]
    out["self_test"] = record.self_test
    if record.options.get("faults"):  # recorded as "faults", given as --fault
        out["fault"] = list(record.options["faults"])
    return out


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


def sanitized_url(url: str | None) -> str | None:
    """A URL without user name, password, query or fragment (what may be recorded)."""
    if not url:
        return url
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def recorded_options(*, profile: str, packs: list[Path], pack: list[str], trials: int,
                     lanes: int, dev: bool, customer: str, tracing: str, turn_limit: int,
                     stuck_after: int, headed: bool, runtime: str | None, no_reset: bool,
                     allow_unreported_runtime: bool, self_test: bool,
                     browser_executable: str | None, browser_channel: str | None,
                     shard: str | None, llm: Any = None, **extra: Any) -> dict[str, Any]:
    """The options a run records in run.json (no secrets): what ``--resume`` reads back.
    Files are recorded by absolute path, so the resume command works from anywhere."""
    path = Path(profile)
    return {
        "profile": str(path.resolve()) if path.suffix == ".toml" or path.is_file() else profile,
        "packs": [str(Path(p).resolve()) for p in packs], "pack": list(pack),
        "trials": trials,
        "lanes": lanes, "dev": dev, "customer": customer, "tracing": tracing,
        "turn_limit": turn_limit, "stuck_after": stuck_after, "headed": headed,
        "runtime": runtime if dev else None, "no_reset": no_reset,
        "allow_unreported_runtime": allow_unreported_runtime, "self_test": self_test,
        "browser_executable": browser_executable, "browser_channel": browser_channel,
        "shard": shard,
        **({"llm_base_url": sanitized_url(llm.base_url), "llm_model": llm.model,
            "llm_temperature": llm.temperature, "llm_seed": llm.seed,
            "llm_max_tokens": llm.max_tokens, "llm_timeout": llm.timeout_s,
            "llm_max_retries": llm.max_retries, "llm_malformed_retries": llm.malformed_retries,
            "llm_response_format": llm.response_format, "prompt_view": llm.prompt_view}
           if llm else {}),
        **extra,
    }
