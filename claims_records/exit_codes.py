"""The exit codes of ``run``, ``score``, ``gate``, ``compare`` and ``nightly``, in one place:
the command line, ``scripts/nightly.sh`` and the scheduler recipes all answer with these, so
a scheduler can tell a good night from a failed one and from a dead one (docs/running.md,
"Exit codes").

The rules that turn a record into a code read only the formats (a run record, a summary, a
comparison); the commands print what happened and then exit with the code given here.
"""

from __future__ import annotations

from enum import IntEnum

from .comparison import Comparison
from .run import STATUS_CATEGORY, ErrorCategory, RunRecord, TrialStatus
from .summary import RunSummary


class ExitCode(IntEnum):
    """What a command's exit code tells a scheduler."""

    OK = 0
    """The command did its job: the run ran and reached outcomes, the scoring scored, the gate
    passed, the comparison found the run better or found no difference."""
    FAILED = 1
    """The product fell short: a gate (pass^k, acceptance, strict fidelity) failed, a
    comparison found the run worse than its baseline, a night regressed."""
    USAGE = 2
    """The command was refused before it did anything: a usage error, a bad option, a
    configuration, profile, corpus or pack the harness refuses, a product the run cannot reset
    or reach before it starts. Nothing was recorded, or nothing was changed."""
    NO_RESULT = 3
    """There is nothing to judge: no trial reached an outcome of the product's agent (every
    one ended in product_error, reset_failed, harness_error, simulator_error or
    not_implemented), a run stopped early on consecutive infrastructure errors or could not
    finish, a comparison too thin for a verdict, a night that could not be judged."""
    INTERRUPTED = 130
    """Stopped by Ctrl-C or SIGTERM; finished trials are kept and ``--resume`` goes on."""

    @property
    def meaning(self) -> str:
        """One line saying what the code means (the first line of its description)."""
        return _MEANING[self]


_MEANING = {
    ExitCode.OK: "ok",
    ExitCode.FAILED: "a gate failed, the run is worse than its baseline or the night regressed",
    ExitCode.USAGE: "refused before anything ran: usage, configuration or input",
    ExitCode.NO_RESULT: "nothing to judge: no trial reached an outcome (infrastructure "
                        "errors), the run stopped early, or the comparison is too thin",
    ExitCode.INTERRUPTED: "interrupted; finished trials are kept",
}

_AGENT_OUTCOMES = (ErrorCategory.NONE, ErrorCategory.AGENT)


def reached_outcome(status: TrialStatus) -> bool:
    """The trial ended in an outcome of the product's agent (completed, agent_stopped,
    stuck): something the scorer can judge."""
    return STATUS_CATEGORY[status] in _AGENT_OUTCOMES and status != TrialStatus.PENDING


def infrastructure_ending(status: TrialStatus) -> bool:
    """The trial ended in an error kept out of the rates: the product's (product_error,
    reset_failed), the customer model's (simulator_error) or the harness's (harness_error).
    A run stops early after enough of these in a row (``RunSettings.stop_after_errors``)."""
    return STATUS_CATEGORY[status] in (ErrorCategory.PRODUCT, ErrorCategory.SIMULATOR,
                                       ErrorCategory.HARNESS) and status != TrialStatus.PENDING


def run_exit_code(record: RunRecord) -> ExitCode:
    """``run``: NO_RESULT when the run stopped early or no trial reached an outcome of the
    agent's; else OK (how well the agent did is the gate's question)."""
    if record.stopped is not None or not any(reached_outcome(t.status)
                                             for t in record.trials):
        return ExitCode.NO_RESULT
    return ExitCode.OK


def score_exit_code(summary: RunSummary, fidelity_valid: bool = True) -> ExitCode:
    """``score``: NO_RESULT when no trial could be scored; FAILED when the fidelity audit
    made the run invalid (``--strict-fidelity``); else OK."""
    if summary.scorable_trials == 0:
        return ExitCode.NO_RESULT
    return ExitCode.OK if fidelity_valid else ExitCode.FAILED


def gate_exit_code(summary: RunSummary, passed: bool) -> ExitCode:
    """``gate``: NO_RESULT when no trial could be scored (there is nothing to gate); else OK
    or FAILED."""
    if summary.scorable_trials == 0:
        return ExitCode.NO_RESULT
    return ExitCode.OK if passed else ExitCode.FAILED


def compare_exit_code(result: Comparison) -> ExitCode:
    """``compare``: FAILED when the run is worse than its baseline; NO_RESULT when the
    comparison is too thin for a verdict or no pack was scored in both runs; else OK (better,
    or an interval that includes zero: no difference found)."""
    if result.verdict == "worse":
        return ExitCode.FAILED
    if result.too_thin or not result.packs:
        return ExitCode.NO_RESULT
    return ExitCode.OK
