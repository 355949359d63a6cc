"""Mechanical scoring of run records: sheets, statistics, comparison, gate and report.

Scoring reads a finished run record and the packs' oracles; it never drives a browser, never
calls the seed route and never touches the network. ``docs/scoring.md`` states every rule.
"""

from ._acceptance import AcceptanceGate, acceptance_gate, evaluate_acceptance
from ._blind_agreement import agreement, import_blind_reviews, load_agreement
from ._blind_export import audit_export, export_blind_review, forbidden_values
from ._compare import (
    FidelityGate,
    GateResult,
    PackGate,
    compare,
    fidelity_gate,
    gate,
    load_summary,
    run_label,
    write_junit,
)
from ._defect_matrix import PanelRun, defect_panel, matrix_lines
from ._overrides import apply_overrides, override_counts, record_override
from ._provenance import scorer_info
from ._record import (
    PackContext,
    TrialRecord,
    load_labels,
    load_run_record,
    load_trial,
)
from ._report import write_report
from ._rescore import RESCORED_DIR, plan_rescore, rescored_dir
from ._sheet import score_trial
from ._stats import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    bootstrap_means,
    cluster_bootstrap_ci,
    cohen_kappa,
    detectable_difference,
    fisher_exact,
    holm,
    packs_needed,
    pass_at_k,
    pass_hat_k,
)
from ._summary import keep_previous_summary, load_sheets, score_run, summarise
from ._trend import Trend, pass_hat_k_interval, trend

__all__ = [
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "RESCORED_DIR",
    "AcceptanceGate",
    "FidelityGate",
    "GateResult",
    "PackContext",
    "PackGate",
    "PanelRun",
    "TrialRecord",
    "Trend",
    "acceptance_gate",
    "agreement",
    "apply_overrides",
    "audit_export",
    "bootstrap_means",
    "cluster_bootstrap_ci",
    "cohen_kappa",
    "compare",
    "defect_panel",
    "detectable_difference",
    "evaluate_acceptance",
    "export_blind_review",
    "forbidden_values",
    "fidelity_gate",
    "fisher_exact",
    "gate",
    "holm",
    "keep_previous_summary",
    "import_blind_reviews",
    "load_agreement",
    "load_labels",
    "load_run_record",
    "load_sheets",
    "load_summary",
    "load_trial",
    "matrix_lines",
    "override_counts",
    "packs_needed",
    "pass_at_k",
    "pass_hat_k",
    "pass_hat_k_interval",
    "plan_rescore",
    "record_override",
    "rescored_dir",
    "run_label",
    "score_run",
    "score_trial",
    "scorer_info",
    "summarise",
    "trend",
    "write_junit",
    "write_report",
]
