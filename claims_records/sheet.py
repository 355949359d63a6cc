"""Scoring formats, written by the scorer (``scoring``) beside the run record.

    <run-id>/<pack-id>/trial-<n>/sheet.json   Sheet          one per trial
    <run-id>/<pack-id>/trial-<n>/human.json   HumanVerdicts  a reviewer's verdicts (optional)
    <run-id>/summary.json                     RunSummary
    comparison.json (wherever asked)          Comparison

``docs/scoring.md`` explains every rule behind these numbers.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field, field_validator

from ._base import Strict
from ._json import JsonField
from .acceptance import AcceptanceReport, CustomerWork

SHEET_FORMAT_VERSION = "1"

# error_category of a trial whose record is damaged (a file missing, empty, cut short or
# unreadable): not scorable, kept out of the rates like an infrastructure error, and listed.
UNSCORABLE = "unscorable"

ComponentStatus = Literal["pass", "fail", "not_implemented", "not_scored", "queued"]
ComparisonVerdict = Literal["better", "worse", "inconclusive"]

# Component names, in the order a sheet lists them.
COMPONENTS: tuple[str, ...] = (
    "triage",
    "review",
    "explanation",
    "facts",
    "incident_datetime",
    "journey",
    "waiting_list",
    "privacy",
    "state",
    "assertions_state",
    "assertions_text",
    "assertions_human",
    "agent_decision",
    "routing",
    "target",
    "decision_state",
    "note",
    "follow_through",
    "audit",
)
# The components of the staff decision, in the grader record's order (its "state" is the
# decision_state component).
DECISION_COMPONENTS: tuple[str, ...] = (
    "routing", "target", "decision_state", "note", "follow_through", "audit")

# Every failure-mode label a sheet may carry (docs/scoring.md defines each).
FAILURE_MODES: tuple[str, ...] = (
    "claim_not_found",
    "wrong_triage",
    "missing_reason",
    "extra_reason",
    "false_flag",
    "missed_flag",
    "innocent_flagged",
    "wrong_check_outcome",
    "false_check_hit",
    "not_checked_as_clear",
    "explanation_not_passed_on",
    "missing_fact",
    "wrong_fact",
    "unconfirmed_fact",
    "invented_fact",
    "window_collapsed",
    "window_as_unknown",
    "wrong_optional_fact",
    "no_claim_number",
    "repeated_question",
    "dead_end_reply",
    "stuck",
    "agent_stopped",
    "correction_ignored",
    "upload_not_acknowledged",
    "unrequested_handoff",
    "waiting_list_missing",
    "unasked_item",
    "data_leak",
    "state_mismatch",
    "unexpected_change",
    "assertion_failed",
    "human_rejected",
    "unmapped_term",
    "wrong_route",
    "wrong_authority",
    "missing_note",
    "no_follow_through",
    "audit_out_of_order",
    "audit_mutated",
)


# Every rule of the fidelity audit of the simulated customer (docs/scoring.md, "Fidelity").
FidelityRule = Literal[
    "invented",            # a specific value in no source the customer has
    "volunteered",         # a fact given before the agent asked for it
    "unrequested_upload",  # a file nobody asked for
    "hinting",             # steering or correcting the agent
    "out_of_character",    # talking about being a model, prompts, tests, JSON
    "premature_give_up",   # ending while the screen asked something it could answer
]
FIDELITY_RULES: tuple[str, ...] = get_args(FidelityRule)


def _known_modes(v: list[str]) -> list[str]:
    unknown = [m for m in v if m not in FAILURE_MODES]
    if unknown:
        raise ValueError(f"unknown failure modes {unknown}; known: {list(FAILURE_MODES)}")
    return v


class AppliedOverride(Strict):
    """A reviewer's override in effect on one criterion (from the run's overrides.json)."""

    mechanical: ComponentStatus = Field(description="The mechanical scorer's status, kept "
                                        "beside the reviewer's.")
    by: str = Field(description="Who overrode it.")
    at: str = Field(description="When the override was recorded (UTC).")
    why: str = Field(description="The reviewer's reason.")


class ComponentResult(Strict):
    """One scored criterion of one trial."""

    name: str = Field(description="Component name, one of COMPONENTS.")
    status: ComponentStatus = Field(
        description="pass / fail; not_implemented (the product does not show this region: "
        "shown, never counted); not_scored (infrastructure, product or simulator error); "
        "queued (waiting for a reviewer's verdict)."
    )
    explanation: str = Field(description="One line naming what differed (or what was checked).")
    failure_modes: list[str] = Field(default_factory=list, description="Failure-mode labels.")
    details: dict[str, JsonField] = Field(
        default_factory=dict, description="Machine-readable evidence behind the status."
    )
    override: AppliedOverride | None = Field(
        None, description="Set when a reviewer overrode this criterion: status is then the "
        "reviewer's value and override.mechanical the scorer's.")

    @field_validator("name")
    @classmethod
    def _known_component(cls, v: str) -> str:
        if v not in COMPONENTS:
            raise ValueError(f"unknown component {v!r}; known: {list(COMPONENTS)}")
        return v

    @field_validator("failure_modes")
    @classmethod
    def _modes(cls, v: list[str]) -> list[str]:
        return _known_modes(v)


class ScorerInfo(Strict):
    """Which scorer wrote a sheet or summary. Results of different scorers are not compared
    unless asked (``compare --allow-different-scorer``)."""

    version: str = Field(description="The harness distribution's version.")
    source_hash: str = Field(description="sha256 over the scoring package's rule sources; "
                             "any change to a rule changes it.")

    def label(self) -> str:
        return f"{self.version}+{self.source_hash[:12]}"


class TrialFacts(Strict):
    """Descriptive numbers of one trial (never decide success on their own)."""

    claim_number: str | None = None
    customer_messages: int = 0
    steps: int = 0
    repeated_questions: int = 0
    dead_end_replies: int = 0
    retries: int = 0
    duration_s: float | None = None
    median_turn_s: float | None = None
    longest_turn_s: float | None = None
    cost_usd: float | None = None
    total_tokens: int = 0
    agent_questions: int = Field(
        0, description="Question sentences in the agent's new replies (acceptance: fewer "
        "than the limit).")
    report_duration_s: float | None = Field(
        None, description="First customer message to the claim number on screen, from the "
        "journey timestamps (machine time: the simulated customer's own speed included); "
        "None when no claim number was shown.")
    product_time_s: float | None = Field(
        None, description="The product's share of that span: the waits for its replies; "
        "None when no claim number was shown.")
    customer_work: CustomerWork | None = Field(
        None, description="What the customer's side of that span asks of a person (words "
        "read, characters typed, clicks, uploads), for the acceptance criteria's model of "
        "the customer's time; None when no claim number was shown.")
    further_contact: list[str] | None = Field(
        None, description="Why the claim needs further contact (unasked_item: a waiting-list "
        "item the customer never asked for; contact_request, handoff, no_claim_number, "
        "return_for_info); [] when it needs none; "
        "None when it cannot be told (the waiting list is not shown and nothing else says so).")


class FidelityFinding(Strict):
    """One customer message or action that broke a behaviour rule of the simulated customer."""

    rule: FidelityRule
    step: int = Field(ge=0, description="Journey step of the message or action.")
    message: str = Field(description="What the customer sent or did, as recorded.")
    evidence: str = Field(description="One line: what broke the rule.")
    value: str | None = Field(None, description="The value at fault, when there is one.")


class FidelityAudit(Strict):
    """The fidelity audit of one trial's customer: every message and action, by rule."""

    audited: bool = Field(description="False when the record or the pack's customer view "
                          "could not be read; the note says why.")
    note: str = ""
    messages: int = Field(0, description="Customer messages audited (the first is the pack's).")
    actions: int = Field(0, description="Customer actions audited (clicks, uploads, ...).")
    findings: list[FidelityFinding] = Field(default_factory=list)


class GraderEntry(Strict):
    """One aspect of the grader record: the status of its component, and why."""

    status: ComponentStatus
    explanation: str
    failure_modes: list[str] = Field(default_factory=list)

    @field_validator("failure_modes")
    @classmethod
    def _modes(cls, v: list[str]) -> list[str]:
        return _known_modes(v)


class GraderRecord(Strict):
    """The staff decision's grader record of one trial: routing, target, state, note,
    follow-through and audit, each with its status and failure modes."""

    decision: str | None = Field(description="The scripted decision.")
    routing: GraderEntry
    target: GraderEntry
    state: GraderEntry
    note: GraderEntry
    follow_through: GraderEntry
    audit: GraderEntry
    failure_modes: list[str] = Field(default_factory=list)


class Sheet(Strict):
    """sheet.json — the scoring sheet of one trial."""

    version: str = Field(SHEET_FORMAT_VERSION)
    run_id: str
    pack_id: str
    trial: int = Field(ge=1)
    path: str = Field(description="Trial folder relative to the run folder.")
    self_test: bool = Field(description="The run drove a controlled runtime on purpose.")
    trial_status: str = Field(description="TrialStatus of the trial.")
    error_category: str = Field(
        description="ErrorCategory of the trial status, or 'unscorable' when the record is "
        "damaged (see damage).")
    scorable: bool = Field(
        description="False for product, simulator and harness errors, damaged records and "
        "simulator-suspect trials.")
    damage: list[str] = Field(
        default_factory=list,
        description="What is wrong with the trial's record (file missing, empty, cut short, "
        "unreadable); non-empty exactly when error_category is 'unscorable'.")
    success: bool | None = Field(
        description="Every scorable component passed and at least one was scored; "
        "None when the trial is not scorable."
    )
    explanation: str = Field(description="One line: why the trial passed or failed.")
    line: str = Field(description="Pack line (motor / home / contents).")
    scenario: str = Field("", description="The pack's scenario kind (oracle).")
    message_style: str
    session_mode: str | None = Field(None, description="claimant_session of the pack, if known.")
    corpus: str | None = Field(None, description="Id prefix of the pack's corpus.")
    innocent_control: bool
    review_required: bool = Field(description="The oracle's review_required.")
    components: list[ComponentResult]
    failure_modes: list[str] = Field(default_factory=list)
    numbers: TrialFacts = Field(default_factory=TrialFacts)
    grader: GraderRecord | None = Field(
        None, description="The staff decision's grader record; None when the pack has no "
        "staff script.")
    human_file: str | None = Field(None, description="human.json used, relative to the trial.")
    simulator_suspect: bool = Field(
        False, description="The fidelity audit found the customer at fault: the trial is "
        "shown but kept out of the agent's rates.")
    fidelity: FidelityAudit | None = Field(None, description="The customer's fidelity audit.")
    scorer: ScorerInfo | None = Field(None, description="The scorer that wrote this sheet.")
    corpus_hash: str | None = Field(None, description="Hash of the corpus the pack's oracle "
                                    "came from.")
    mechanical_success: bool | None = Field(
        None, description="Success as the mechanical scorer decided it, before reviewer "
        "overrides; set only when an override applies to this trial.")
    oracle_hash: str | None = Field(
        None, description="Set when re-scored against packs other than the run's own "
        "(`score --packs`): the content hash of the pack the oracle was read from.")

    @field_validator("failure_modes")
    @classmethod
    def _modes(cls, v: list[str]) -> list[str]:
        return _known_modes(v)


# --------------------------------------------------------------------------- human verdicts


class HumanVerdict(Strict):
    verdict: Literal["pass", "fail"]
    reviewer: str = Field(min_length=1, description="Who judged it.")
    note: str = ""
    date: str | None = Field(None, description="ISO date or timestamp of the verdict.")


class HumanVerdicts(Strict):
    """human.json — a reviewer's verdicts on the human-judged assertions of one trial."""

    version: str = Field(SHEET_FORMAT_VERSION)
    run_id: str | None = None
    pack_id: str
    trial: int = Field(ge=1)
    verdicts: dict[str, HumanVerdict] = Field(description="assertion id -> verdict.")


# --------------------------------------------------------------------------- run summary


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
    trials: int = Field(description="Trials recorded, errors included.")
    n: int = Field(description="Scorable trials.")
    c: int = Field(description="Successful scorable trials.")
    success_rate: float | None = Field(None, description="c / n; None when n = 0.")
    errors: dict[str, int] = Field(
        default_factory=dict, description="Trials kept out of the rates, by category: "
        "infrastructure errors and simulator_suspect."
    )
    k_stats: list[KStat] = Field(default_factory=list, description="For k = 1..n.")
    mean_duration_s: float | None = None
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


# --------------------------------------------------------------------------- comparison


class PackDifference(Strict):
    pack_id: str
    run_rate: float
    baseline_rate: float
    difference: float = Field(description="run_rate - baseline_rate.")
    run_n: int
    baseline_n: int
    run_c: int | None = Field(None, description="Successful scorable trials in the run.")
    baseline_c: int | None = Field(None, description="Successful scorable trials in the "
                                   "baseline.")
    p_value: float | None = Field(None, description="Two-sided Fisher's exact test of this "
                                  "pack's successes in the run against the baseline.")
    adjusted_p_value: float | None = Field(None, description="p_value after Holm–Bonferroni "
                                           "over every paired pack of the comparison.")
    verdict: ComparisonVerdict | None = Field(None, description="This pack alone: better or "
                                              "worse when adjusted_p_value <= alpha, else "
                                              "inconclusive.")


class Comparison(Strict):
    """A paired comparison of two scored runs over the packs both scored."""

    version: str = Field(SHEET_FORMAT_VERSION)
    run_id: str
    baseline_run_id: str
    corpus_version: str
    baseline_corpus_version: str
    different_corpus_allowed: bool = False
    scorer: ScorerInfo | None = Field(None, description="Scorer of the run's summary.")
    baseline_scorer: ScorerInfo | None = Field(None, description="Scorer of the baseline's.")
    different_scorer_allowed: bool = False
    packs: list[PackDifference]
    only_in_run: list[str] = Field(default_factory=list)
    only_in_baseline: list[str] = Field(default_factory=list)
    mean_difference: float | None
    low: float | None = None
    high: float | None = None
    level: float = 0.95
    seed: int
    resamples: int
    verdict: ComparisonVerdict
    explanation: str
    too_thin: bool = Field(False, description="Too few paired packs or trials for any verdict "
                           "(docs/scoring.md, Comparing two runs); the verdict is then "
                           "inconclusive.")
    alpha: float = Field(0.05, description="Two-sided level of the per-pack tests (family-wise, "
                         "after the correction) and of the detectable difference.")
    power: float = Field(0.8, description="Power of the detectable difference.")
    correction: str | None = Field(None, description="The multiple-comparison correction over "
                                   "the per-pack tests.")
    spread: float | None = Field(None, description="Standard deviation of the per-pack "
                                 "differences used for the detectable difference: the observed "
                                 "one or the conservative bound, whichever is larger.")
    detectable_difference: float | None = Field(
        None, description="The smallest true mean difference this design detects with "
        "probability `power` at level `alpha`.")
