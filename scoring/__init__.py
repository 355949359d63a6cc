"""Mechanical scoring of run records: sheets, statistics, comparison, gate and report.

Scoring reads a finished run record and the packs' oracles; it never drives a browser, never
calls the seed route and never touches the network. ``docs/scoring.md`` states every rule.
"""

from ._compare import GateResult, PackGate, compare, gate, load_summary, write_junit
from ._provenance import scorer_info
from ._record import TrialRecord, load_labels, load_run_record, load_trial
from ._report import write_report
from ._sheet import score_trial
from ._stats import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    bootstrap_means,
    cluster_bootstrap_ci,
    pass_at_k,
    pass_hat_k,
)
from ._summary import keep_previous_summary, load_sheets, score_run, summarise
from ._trend import Trend, trend

__all__ = [
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "GateResult",
    "PackGate",
    "TrialRecord",
    "Trend",
    "bootstrap_means",
    "cluster_bootstrap_ci",
    "compare",
    "gate",
    "keep_previous_summary",
    "load_labels",
    "load_run_record",
    "load_sheets",
    "load_summary",
    "load_trial",
    "pass_at_k",
    "pass_hat_k",
    "score_run",
    "score_trial",
    "scorer_info",
    "summarise",
    "trend",
    "write_junit",
    "write_report",
]
