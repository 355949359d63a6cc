"""The scheduled job: one command runs a configuration's night end to end — run, score,
report, compare with the last good night, gate, history index — and answers with one exit
code; old runs are packed into archives that reports can still open.

Builds on ``harness`` (running, shards, merging) and ``scoring`` (sheets, statistics, trend);
``docs/nightly.md`` describes the configuration, the history index and the schedulers.
"""

from ._archive import (
    Archived,
    archive_runs,
    archived_summary,
    open_archive,
    parse_age,
    run_id_of,
)
from ._config import Night, load_config, run_config, run_context, run_setup
from ._history import add_night, load_history, mark_archived, render_index
from ._night import (
    EXIT_FAILED,
    EXIT_INFRASTRUCTURE,
    EXIT_OK,
    NightResult,
    judge,
    new_night_id,
    run_night,
    shard_run_id,
)

__all__ = [
    "EXIT_FAILED",
    "EXIT_INFRASTRUCTURE",
    "EXIT_OK",
    "Archived",
    "Night",
    "NightResult",
    "add_night",
    "archive_runs",
    "archived_summary",
    "judge",
    "load_config",
    "load_history",
    "mark_archived",
    "new_night_id",
    "open_archive",
    "parse_age",
    "render_index",
    "run_id_of",
    "run_night",
    "run_config",
    "run_context",
    "run_setup",
    "shard_run_id",
]
