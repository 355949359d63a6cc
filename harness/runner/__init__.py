"""Running a corpus: the run's context and progress, the lanes working off its trials, the
trials' entries and attempts in run.json, and what the record says about the run as a whole."""

from ._attempts import infrastructure_error, keep_attempt, move_aside, prepare_resume
from ._context import RunContext, TrialProgress
from ._execute import execute, quiet_interrupts, run
from ._record import new_run_id, product_info, run_labels, summary_line

__all__ = [
    "RunContext",
    "TrialProgress",
    "execute",
    "infrastructure_error",
    "keep_attempt",
    "move_aside",
    "new_run_id",
    "prepare_resume",
    "product_info",
    "quiet_interrupts",
    "run",
    "run_labels",
    "summary_line",
]
