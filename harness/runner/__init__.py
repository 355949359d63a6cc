"""Running a corpus: the run's context and progress, the lanes working off its trials, the
trials' entries and attempts in run.json, what the record says about the run as a whole, and
what surrounds runs: the folder lock, shards and merging them, and a stop's or full disk's
recovery advice."""

from ._attempts import (
    Backoff,
    ErrorPolicy,
    infrastructure_error,
    keep_attempt,
    move_aside,
    prepare_resume,
)
from ._context import RunContext, TrialProgress
from ._execute import execute, quiet_interrupts, run
from ._lock import FolderLock, RunLockedError, wait_for_lock
from ._merge import merge_runs
from ._record import new_run_id, product_info, run_labels, summary_line
from ._recovery import (
    RunStorageError,
    no_result_line,
    recorded_config,
    resume_command,
    stop_line,
)
from ._shard import MAX_SHARDS, Shard, apply_shard, load_durations

__all__ = [
    "MAX_SHARDS",
    "Backoff",
    "ErrorPolicy",
    "FolderLock",
    "RunContext",
    "RunLockedError",
    "RunStorageError",
    "Shard",
    "TrialProgress",
    "apply_shard",
    "execute",
    "infrastructure_error",
    "keep_attempt",
    "load_durations",
    "merge_runs",
    "move_aside",
    "new_run_id",
    "no_result_line",
    "prepare_resume",
    "product_info",
    "quiet_interrupts",
    "recorded_config",
    "resume_command",
    "run",
    "run_labels",
    "stop_line",
    "summary_line",
    "wait_for_lock",
]
