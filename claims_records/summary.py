"""The run summary, written by the scorer (``scoring``) beside the run record.

    <run-id>/summary.json                     RunSummary

Statistics over a scored run: per pack (PackSummary, KStat), the mean success's interval over
packs (Interval), review counts, slices, the reading list, errors left out of the rates, and
the fidelity audit and reviewer overrides the numbers rest on. ``docs/scoring.md`` explains
every rule behind these numbers.
"""

from __future__ import annotations

from pydantic import Field

from ._base import Strict
from .acceptance import AcceptanceReport
from .sheet import SHEET_FORMAT_VERSION, ScorerInfo, ScoreSource


class KStat(Strict):
    k: int = Field(ge=1)
    pass_at_k: float = Field(description="1 - C(n-c,k)/C(n,k): at least one of k succeeds.")
    pass_hat_k: float = Field(description="C(c,k)/C(n,k): all of k succeed.")


class PackSummary(Strict):
    pack_id: str
    corpus: str | None = Field(None, description="Id prefix of the pack's corpus.")
    line: str
    scenario: str = ""
    message_style: str
    session_mode: str | None = None
    innocent_control: bool
    review_required: bool
    pack_hash: str | None = Field(
        None, description="The pack's hash as its corpus manifest recorded it when the run was "
        "scored, set only when that manifest still held what the run was driven with (its "
        "corpus hash equals run.json's); names the packs two runs' corpora differ in.")
    trials: int = Field(description="Trials recorded, errors included.")
    n: int = Field(description="Scorable trials.")
    c: int = Field(description="Successful scorable trials.")
    success_rate: float | None = Field(None, description="c / n; None when n = 0.")
    errors: dict[str, int] = Field(
        default_factory=dict, description="Trials kept out of the rates, by category: "
        "infrastructure errors and simulator_suspect."
    )
    k_stats: list[KStat] = Field(default_factory=list, description="For k = 1..n.")
    mean_duration_s: float | None = Field(None, description="Mean machine time of a trial, "
                                          "start to end (what running the pack costs).")
    mean_report_modelled_s: float | None = Field(
        None, description="Mean report time as a person would take it (the sheets' "
        "report_modelled_s) over the scorable trials that reached a claim number.")
    mean_cost_usd: float | None = None
    total_cost_usd: float | None = None
    median_turn_s: float | None = None
    failure_modes: dict[str, int] = Field(default_factory=dict)


class Interval(Strict):
    estimate: float | None = Field(description="Mean of per-pack success rates.")
    low: float | None = None
    high: float | None = None
    level: float = 0.95
    method: str = "cluster bootstrap over packs, percentile interval"
    seed: int
    resamples: int
    packs: int = Field(description="Scorable packs the interval rests on.")
    too_thin: bool = Field(description="Too few scorable packs for an interval.")


class ReviewCounts(Strict):
    """Review signal outcomes over scorable trials where the region was shown."""

    trials: int = 0
    true_positive: int = 0
    false_positive: int = 0
    true_negative: int = 0
    false_negative: int = 0
    not_checked_expected: int = Field(
        0, description="Check outcomes the oracle has as not_checked."
    )
    not_checked_read_as_clear: int = 0
    wrong_check_outcomes: int = 0


class SliceStat(Strict):
    packs: int
    trials: int = Field(description="Scorable trials.")
    successes: int
    mean_success: float | None = Field(description="Mean of per-pack success rates.")


class ComponentCounts(Strict):
    passed: int = 0
    failed: int = 0
    not_implemented: int = 0
    not_scored: int = 0
    queued: int = 0
    sources: dict[ScoreSource, int] = Field(
        default_factory=dict, description="Of the passes and failures counted, how many were "
        "read from each source (the sheets' component source): a staff-side component of a "
        "product without a staff screen, graded from its stores, shows here as stores. Empty "
        "in summaries written before sources were recorded.")


class ReadingItem(Strict):
    pack_id: str
    trial: int
    path: str
    explanation: str
    failure_modes: list[str] = Field(default_factory=list)


class InfraError(Strict):
    pack_id: str
    trial: int
    path: str
    status: str
    category: str
    detail: str = ""


class RetriedTrial(Strict):
    """A trial run again after an infrastructure error (``run --retry-infra``)."""

    pack_id: str
    trial: int
    path: str = Field(description="The last attempt's folder (the one scored).")
    attempts: int = Field(ge=2, description="How many attempts it took.")
    earlier: list[str] = Field(description="How each earlier attempt ended, first first.")


class CorpusSummary(Strict):
    """The results of one corpus of a run (a run may hold the public corpus and a held-out
    one: their numbers are never mixed here)."""

    id_prefix: str | None = Field(description="The corpus's id prefix.")
    name: str | None = None
    version: str
    hash: str
    path: str
    packs: int = Field(description="Packs of this corpus in the run.")
    trials: int
    scorable_trials: int
    successes: int
    mean_success: Interval = Field(description="Over this corpus's packs only.")
    review: ReviewCounts = Field(description="Packs that are not innocent controls.")
    innocent_controls: ReviewCounts
    failure_modes: dict[str, int] = Field(default_factory=dict)


class SuspectTrial(Strict):
    pack_id: str
    trial: int
    path: str
    rules: list[str] = Field(description="Fidelity rules broken, each once.")
    first: str = Field(description="The first finding, in one line.")


class FidelitySummary(Strict):
    """The fidelity audit over a run: how far the simulated customer can be trusted."""

    strict: bool = Field(False, description="Scored with strict fidelity: any finding makes "
                         "the run invalid.")
    valid: bool = Field(True, description="False only under strict fidelity with a finding.")
    audited_trials: int = 0
    not_audited_trials: int = 0
    suspect_trials: int = Field(0, description="Trials with a finding (not in the rates).")
    findings_by_rule: dict[str, int] = Field(default_factory=dict)
    suspects: list[SuspectTrial] = Field(default_factory=list)
    explanation: str = ""


class OverrideCounts(Strict):
    """The reviewer overrides a summary's numbers include (overrides.json)."""

    applied: int = Field(0, description="Criteria whose status is a reviewer's.")
    changed: int = Field(0, description="Of those, criteria whose reviewer value differs "
                         "from the mechanical one.")
    trials_changed: int = Field(0, description="Trials whose success the overrides changed.")
    unmatched: list[str] = Field(
        default_factory=list, description="Overrides naming a criterion the sheets do not "
        "score (pack/trial/criterion): recorded, not applied.")


class RescoredPack(Strict):
    """A pack whose files differ between the run's corpus and the packs re-scored against."""

    pack_id: str
    run_hash: str = Field(description="The pack's hash as the run's corpus manifest records "
                          "it (what the trials were driven with).")
    hash: str = Field(description="The pack's hash now, from its files in the packs folder.")
    changed_files: list[str] = Field(description="Files that differ (oracle or metadata only; "
                                     "an input change is refused).")


class RescoreInfo(Strict):
    """Which oracle a re-scored summary was scored against, and how it differs from the
    run's own (``score RUN --packs DIR``)."""

    oracle_hash: str = Field(description="sha256 over the scored packs' ids and hashes as they "
                             "are in the packs folder(s); names the scoring folder.")
    packs_dirs: list[str] = Field(description="The packs folder(s) re-scored against.")
    versions: dict[str, str] = Field(
        default_factory=dict, description="corpus_version of each packs folder's manifest, by "
        "id prefix ('' when the corpus has none).")
    run_corpora: dict[str, str] = Field(
        description="The run's own corpus hash (run.json) by id prefix ('' when none).")
    changed: list[RescoredPack] = Field(
        default_factory=list, description="Packs whose oracle (or metadata) differs from the "
        "run's.")
    unchanged_packs: int = Field(description="Packs identical to the run's.")


class RunSummary(Strict):
    """summary.json — statistics over a scored run."""

    version: str = Field(SHEET_FORMAT_VERSION)
    run_id: str
    self_test: bool
    labels: list[str] = Field(default_factory=list, description="Run labels (self-test, no "
                              "reset, runtime not reported, runtime declared, not reported), "
                              "shown with every number.")
    corpus_version: str
    corpus_hash: str
    product_runtime: str = Field(description="The runtime as run.json records it; a declared "
                                 "one ends in '(declared, not reported)'.")
    faults: list[str] = Field(
        default_factory=list, description="Fault switches the product reported as on: a "
        "defect run, never a clean one.")
    customer: str = Field(description="Customer kind and model, e.g. 'llm gpt-x' or 'scripted'; "
                          "a wide prompt view is named in it.")
    trials: int
    scorable_trials: int
    successes: int
    infrastructure_errors: list[InfraError] = Field(
        default_factory=list, description="Product, simulator and harness errors (not rated).")
    unscorable: list[InfraError] = Field(
        default_factory=list,
        description="Trials whose record is damaged, with what is wrong (not rated).")
    errors_by_category: dict[str, int] = Field(
        default_factory=dict, description="Trials left out of the rates for an error or a "
        "damaged record, by category (including 'unscorable').")
    retried: list[RetriedTrial] = Field(
        default_factory=list, description="Trials run again after an infrastructure error "
        "(run --retry-infra): only their last attempt is scored; the earlier ones are kept "
        "in their own folders and counted here.")
    not_implemented_trials: list[InfraError] = Field(
        default_factory=list, description="Trials of packs needing a capability the product "
        "lacks (shown, never counted).")
    mean_success: Interval
    packs: list[PackSummary]
    corpora: list[CorpusSummary] = Field(
        default_factory=list, description="The same statistics per corpus, main corpus first.")
    review: ReviewCounts = Field(description="Packs that are not innocent controls.")
    innocent_controls: ReviewCounts = Field(description="Innocent controls, on their own.")
    slices: dict[str, dict[str, SliceStat]] = Field(
        default_factory=dict, description="dimension -> value -> statistics."
    )
    components: dict[str, ComponentCounts] = Field(default_factory=dict)
    failure_modes: dict[str, int] = Field(default_factory=dict)
    reading_list: list[ReadingItem] = Field(default_factory=list)
    total_duration_s: float | None = None
    total_cost_usd: float | None = None
    scorer: ScorerInfo | None = Field(None, description="The scorer that wrote this summary; "
                                      "absent in summaries written before it was recorded.")
    scored_at: str | None = Field(None, description="When it was scored (UTC).")
    acceptance: AcceptanceReport | None = Field(
        None, description="The business's acceptance criteria (acceptance.toml) against this "
        "run.")
    fidelity: FidelitySummary = Field(default_factory=FidelitySummary)
    overrides: OverrideCounts = Field(
        default_factory=OverrideCounts, description="Reviewer overrides these numbers "
        "include.")
    rescored: RescoreInfo | None = Field(
        None, description="Set when scored against packs other than the run's own (`score "
        "--packs`): which oracle, and what differs from the run's.")
