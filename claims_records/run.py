"""The run record format (ARCHITECTURE §8), written by the harness and read by the scorer.

    <runs-dir>/<run-id>/run.json                      RunRecord

with what run.json says of each trial (TrialEntry: TrialStatus, StopReason, ErrorCategory),
the run's labels, and the corpus-check stamp. What a trial folder holds (trial.json and the
journey's evidence) is in ``trial.py``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field, model_validator

from ._base import Strict
from ._json import JsonField
from .config import DeclaredRuntime, LlmMode, PromptView, ResponseFormatMode, RunConfig

RUN_FORMAT_VERSION = "2"
"""2: ``options`` is a ``RunConfig`` (1: a loose dict of command-line option names, still
read: it is converted on reading)."""


class TrialStatus(StrEnum):
    """How a trial ended. Only the first three are the product's own doing as an agent."""

    PENDING = "pending"
    COMPLETED = "completed"          # reached a visible outcome (claim number or hand-off)
    AGENT_STOPPED = "agent_stopped"  # customer ended it: nothing left to answer, no outcome
    STUCK = "stuck"                  # same screen N times, or turn limit reached
    PRODUCT_ERROR = "product_error"  # product crashed, timed out, broke its contract
    RESET_FAILED = "reset_failed"    # the product's own reset (endpoint, command) failed
    SIMULATOR_ERROR = "simulator_error"  # customer model failed after retries
    HARNESS_ERROR = "harness_error"  # a bug or failure in the harness or its infrastructure
    NOT_IMPLEMENTED = "not_implemented"  # the pack needs a capability the product lacks


class ErrorCategory(StrEnum):
    """Whose failure a trial's outcome is. Everything but NONE and AGENT stays out of the rates.

    ``SIMULATOR_SUSPECT`` is never a trial status: the scorer gives it to a trial whose
    customer broke a behaviour rule (the fidelity audit, docs/scoring.md).
    """

    NONE = "none"
    AGENT = "agent_failure"
    PRODUCT = "product_error"
    SIMULATOR = "simulator_error"
    HARNESS = "harness_error"
    NOT_IMPLEMENTED = "not_implemented"  # shown, never counted
    SIMULATOR_SUSPECT = "simulator_suspect"


STATUS_CATEGORY: dict[TrialStatus, ErrorCategory] = {
    TrialStatus.PENDING: ErrorCategory.HARNESS,
    TrialStatus.COMPLETED: ErrorCategory.NONE,
    TrialStatus.AGENT_STOPPED: ErrorCategory.AGENT,
    TrialStatus.STUCK: ErrorCategory.AGENT,
    TrialStatus.PRODUCT_ERROR: ErrorCategory.PRODUCT,
    TrialStatus.RESET_FAILED: ErrorCategory.PRODUCT,
    TrialStatus.SIMULATOR_ERROR: ErrorCategory.SIMULATOR,
    TrialStatus.HARNESS_ERROR: ErrorCategory.HARNESS,
    TrialStatus.NOT_IMPLEMENTED: ErrorCategory.NOT_IMPLEMENTED,
}

StopReason = Literal[
    "claim_number",
    "handoff",
    "customer_done",
    "turn_limit",
    "stuck",
    "product_error",
    "reset_failed",
    "simulator_error",
    "harness_error",
    "interrupted",
    "not_implemented",
]

# Run labels shown wherever the run's numbers are shown (summary, report, gate).
LABEL_SELF_TEST = "self-test"
LABEL_NO_RESET = "no reset"
LABEL_RUNTIME_NOT_REPORTED = "runtime not reported"
LABEL_RUNTIME_DECLARED = "runtime declared, not reported"
LABEL_CORPUS_FAILS_CHECK = "corpus fails check"
"""The run ran a corpus that fails ``corpus check`` (``run --allow-unchecked-corpus``)."""

CORPUS_CHECK_STAMP_VERSION = "1"

RuntimeSource = Literal["reported", "declared", "unknown"]
ConversationScope = Literal["session", "process"]
# Where a run read the staff side: the product's staff screen, its stores (a product without
# a staff screen whose profile says where they keep it: [staff_stores]), or nowhere.
StaffSideSource = Literal["staff_screen", "stores", "none"]
NewConversationWay = Literal["url", "control", "restart"]


SimulatorErrorKind = Literal[
    "rate_limit",        # HTTP 429 after the client's retries
    "timeout",           # no answer within the timeout, after the client's retries
    "server",            # HTTP 5xx after the client's retries
    "connection",        # the endpoint could not be reached
    "request_rejected",  # any other HTTP 4xx (key, model name, request shape)
    "malformed_output",  # an answer that is not one usable customer action
    "replay_miss",       # a replayed customer met a prompt its recording does not hold
]


class TokenUsage(Strict):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0


class HarnessInfo(Strict):
    version: str
    git_commit: str | None = None


class CorpusInfo(Strict):
    version: str
    hash: str = Field(description="sha256 over the manifest's pack hashes.")
    path: str
    id_prefix: str | None = Field(None, description="The corpus's id prefix (its identity).")
    name: str | None = Field(None, description="The corpus's name from its manifest.")
    story_facts: list[str] = Field(
        default_factory=list, description="Story-fact keys the corpus's manifest declares "
        "for itself (beyond the standard's list), sorted.")


class ProductInfo(Strict):
    profile: str = Field(description="Profile name.")
    base_urls: list[str]
    runtime: str = Field(description="Runtime the product reported, e.g. 'reference'; "
                         "what the run declares ('model gpt-4o-mini; version 1.2') when "
                         "the product cannot report it; else 'not reported'.")
    runtime_report: dict[str, JsonField] = Field(
        default_factory=dict, description="Only the report fields the profile names.")
    runtime_reported: bool = Field(True, description="The product reported its runtime.")
    reset_adapter: str = Field("seed_route", description="seed_route | endpoint | stores | "
                               "endpoint+stores | command+stores | none.")
    state_source: str = Field("seed_route", description="seed_route | stores | none.")
    capabilities: dict[str, bool] = Field(
        default_factory=dict, description="The profile's capabilities (absent ones make what "
        "depends on them not_implemented).")
    claim_number_pattern: str | None = Field(
        None, description="The product's claim-number pattern ({claim_number} in oracles).")
    faults: list[str] = Field(
        default_factory=list, description="Fault switches the product reported as on (its "
        "runtime report's 'faults'): a defect run, shown everywhere the run is.")
    locale: str = Field(
        "en_GB", pattern=r"^[a-z]{2,3}(_[A-Za-z0-9]+)*$",
        description="CLDR locale the product writes amounts in (profile 'locale'): the "
        "scorer reads shown amounts in it.")
    currency: str = Field(
        "GBP", pattern=r"^[A-Z]{3}$", description="ISO 4217 code of the product's home "
        "currency (profile 'currency'): a shown amount naming no currency is in it.")
    runtime_source: RuntimeSource = Field(
        "reported", description="reported (the product's runtime report), declared (the "
        "profile or the command line; shown as 'declared, not reported') or unknown "
        "(--allow-unreported-runtime).")
    declared_runtime: DeclaredRuntime | None = Field(
        None, description="What the run declared the runtime to be (runtime_source "
        "'declared'); its endpoint without credentials.")
    conversation_scope: ConversationScope = Field(
        "session", description="session (a conversation per browser session) or process "
        "(the product holds one conversation for the whole process: profile "
        "conversation.scope).")
    new_conversation: NewConversationWay | None = Field(
        None, description="How a new conversation is started before every trial (profile "
        "[conversation.new] by): url, control or restart; null: none is needed.")
    staff_side: StaffSideSource = Field(
        "staff_screen", description="Where the staff side was read: staff_screen (the "
        "product's staff pages), stores (no staff screen: read from the state dumped after "
        "each journey, where the profile's [staff_stores] says; shown as 'staff side: read "
        "from the stores') or none (no staff side: its components not_implemented). Records "
        "made before it was kept: staff_screen, or none when capabilities.staff_side is "
        "false.")

    @model_validator(mode="before")
    @classmethod
    def _source_of_older_records(cls, data: object) -> object:
        """Records made before runtime_source: an unreported runtime was unknown; before
        staff_side: no staff side when the capabilities said so."""
        if isinstance(data, dict) and "runtime_source" not in data:
            reported = data.get("runtime_reported", True)
            data = {**data, "runtime_source": "reported" if reported else "unknown"}
        if isinstance(data, dict) and "staff_side" not in data:
            caps = data.get("capabilities")
            present = caps.get("staff_side", True) if isinstance(caps, dict) else True
            data = {**data, "staff_side": "staff_screen" if present else "none"}
        return data


class DialectTry(Strict):
    """One structured-output dialect tried by auto's probe at the start of a run."""

    dialect: ResponseFormatMode = Field(description="The dialect tried.")
    outcome: Literal["used", "refused", "ignored", "failed"] = Field(
        description="used: the endpoint answered in the schema; refused: an HTTP error for "
        "the request; ignored: an answer that does not follow the schema (the field was "
        "not applied); failed: no answer at all (connection, timeout), probing stopped.")
    detail: str = Field("", description="The status and message, or what was wrong.")
    latency_s: float | None = Field(
        None, ge=0, description="Seconds the dialect's answer took (the one used: what the "
        "client's timeout was sized from, docs/llm-customer.md \"Model time\").")
    prompt_tokens: int | None = Field(None, ge=0, description="Prompt tokens of the probe "
                                      "request, as the endpoint counted them.")


class CustomerInfo(Strict):
    """The simulated customer of a run and every setting that shapes its answers."""

    kind: Literal["scripted", "llm"]
    model: str | None = None
    endpoint_host: str | None = Field(
        None, description="Host and port only; never the key, a path or any userinfo.")
    temperature: float | None = None
    seed: int | None = None
    max_tokens: int | None = Field(None, description="Most completion tokens per answer.")
    timeout_s: float | None = Field(None, description="Timeout of one model request.")
    max_retries: int | None = Field(
        None, description="Transport retries of the client (429, 5xx, timeouts, connection).")
    malformed_retries: int | None = Field(
        None, description="Times an unusable answer is asked again before giving up.")
    response_format: ResponseFormatMode | None = Field(
        None, description="Structured output asked for: auto (each dialect in turn, once per "
        "run) or one dialect.")
    dialect: ResponseFormatMode | None = Field(
        None, description="The structured-output dialect the run's requests used: the one "
        "asked for, or what auto settled on.")
    dialect_tries: list[DialectTry] = Field(
        default_factory=list, description="What auto's probe found, one entry per dialect "
        "tried, in order.")
    prompt_view: PromptView | None = Field(
        None, description="What of the screen the customer model sees: 'screen' (the "
        "standard: latest reply, cards and dialogs needing action, action labels) or 'wide' "
        "(also the whole conversation and every panel; labelled in every report).")
    mode: LlmMode | None = Field(
        None, description="How the customer model answered: 'free' (one action in its own "
        "words) or 'grounded' (one of the actions its view and the screen permitted, chosen "
        "from an enum). Absent in records written before modes existed (free).")
    price_prompt_per_mtok: float | None = Field(None, description="USD per million tokens.")
    price_completion_per_mtok: float | None = Field(None, description="USD per million tokens.")


class LaneInfo(Strict):
    name: str
    base_url: str
    staff_base_url: str | None = None
    database: str | None = None


class BrowserInfo(Strict):
    """The browser a run used: launched here or reached where it runs."""

    kind: Literal["executable", "channel", "playwright", "cdp", "ws"] = Field(
        description="executable (a file path), channel (Chrome/Edge by channel name), "
        "playwright (Playwright's own Chromium), cdp (Chrome DevTools Protocol endpoint), "
        "ws (a Playwright browser server).")
    executable: str | None = Field(None, description="Launched file, when launched here.")
    channel: str | None = Field(None, description="Channel name, e.g. 'chrome', 'msedge'.")
    endpoint: str | None = Field(None, description="scheme://host:port of a remote browser; "
                                 "never its path or query, which may hold a token.")
    version: str | None = Field(None, description="The browser's own version string.")


class ShardInfo(Strict):
    """This run is one shard of a run split across machines (``run --shard i/n``)."""

    index: int = Field(ge=1, description="This shard, 1..total.")
    total: int = Field(ge=1, description="How many shards the trials were split into.")
    balanced_by: Literal["count", "duration"] = Field(
        description="count (no durations known) or duration (each pack's recorded duration).")
    plan_digest: str = Field(description="sha256 of the whole assignment of trials to shards; "
                             "shards of one run share it.")
    plan_trials: int = Field(ge=0, description="Trials of the whole run, all shards together.")
    pack_order: list[str] = Field(default_factory=list,
                                  description="Pack ids of the whole run in run order.")


class MergedShard(Strict):
    """One run merged into this one (``claims-harness merge``)."""

    run_id: str
    path: str = Field(description="The merged run folder, as given.")
    shard: int | None = Field(None, description="Its shard index, when it was a shard.")
    trials: int = Field(ge=0)
    created_at: str
    finished_at: str | None = None
    git_commit: str | None = None


class MergeInfo(Strict):
    """Where a merged run's trials came from."""

    merged_at: str
    sources: list[MergedShard]
    missing_shards: list[int] = Field(
        default_factory=list, description="Shards absent from a --partial merge.")


RETRIED_SIMULATOR_ERRORS: tuple[SimulatorErrorKind, ...] = (
    "timeout", "connection", "server", "rate_limit")
"""Kinds of simulator_error that ``--retry-infra`` runs again: the endpoint's transient
failures (a refused request, an unusable answer or a replay miss would fail again)."""


class EarlierAttempt(Strict):
    """An attempt of a trial that ended in an infrastructure error and was run again
    (``run --retry-infra``). Its evidence stays where ``path`` says, untouched."""

    attempt: int = Field(ge=1, description="1 for the first attempt, and so on.")
    status: TrialStatus = Field(description="How the attempt ended.")
    stop_reason: StopReason | None = None
    simulator_error_kind: SimulatorErrorKind | None = Field(
        None, description="The customer model's failure, for a simulator_error.")
    detail: str = Field("", description="One line on why it ended that way.")
    started_at: str | None = None
    ended_at: str | None = None
    duration_s: float | None = None
    path: str = Field(description="The attempt's folder relative to the run folder "
                      "(<trial folder>.attempt-<k>).")


class TrialEntry(Strict):
    pack_id: str
    trial: int = Field(ge=1)
    lane: str | None = None
    status: TrialStatus = TrialStatus.PENDING
    stop_reason: StopReason | None = None
    detail: str = Field("", description="One line on why it ended that way.")
    started_at: str | None = None
    ended_at: str | None = None
    duration_s: float | None = None
    path: str = Field(description="Trial folder relative to the run folder.")
    tokens: TokenUsage = Field(default_factory=TokenUsage,
                               description="Customer-model tokens of the trial.")
    cost_usd: float | None = Field(None, description="Customer-model cost of the trial.")
    attempts: int = Field(1, ge=1, description="How many attempts the trial took: more than "
                          "1 when an infrastructure error was run again (--retry-infra); "
                          "status, detail and path are the last attempt's.")
    earlier_attempts: list[EarlierAttempt] = Field(
        default_factory=list, description="The attempts run again, first first; their "
        "evidence is kept in their own folders.")

    @model_validator(mode="after")
    def _attempts_counted(self) -> TrialEntry:
        if self.attempts != len(self.earlier_attempts) + 1:
            raise ValueError(f"attempts is {self.attempts} but {len(self.earlier_attempts)} "
                             "earlier attempt(s) are listed")
        return self


class EarlyStop(Strict):
    """The run stopped before its last trial because this many trials in a row ended in
    infrastructure errors (``RunSettings.stop_after_errors``): the trials not run stay
    ``pending`` in run.json (nothing is lost; ``run --resume`` runs them)."""

    reason: str = Field(description="One line: why the run stopped, with the last error.")
    errors_in_a_row: int = Field(ge=1, description="Trials in a row that ended in "
                                 "product_error, reset_failed, harness_error or "
                                 "simulator_error (after any --retry-infra attempts).")
    limit: int = Field(ge=1, description="The run's stop_after_errors.")
    last_status: TrialStatus = Field(description="How the last of them ended.")
    last_detail: str = Field("", description="One line on the last error.")
    not_run: int = Field(ge=0, description="Trials left pending, not run.")
    stopped_at: str = Field(description="When the run stopped (UTC, ISO 8601).")


class RunRecord(Strict):
    """run.json."""

    version: str = Field(RUN_FORMAT_VERSION)
    run_id: str
    created_at: str
    finished_at: str | None = None
    self_test: bool = Field(False, description="Ran against a controlled runtime on purpose.")
    labels: list[str] = Field(
        default_factory=list, description="What makes this run's numbers not plain product "
        "numbers ('self-test', 'no reset', 'runtime not reported', 'runtime declared, not "
        "reported', 'corpus fails check'); shown everywhere.")
    harness: HarnessInfo
    corpus: CorpusInfo = Field(description="The main corpus (the first one given).")
    corpora: list[CorpusInfo] = Field(
        default_factory=list,
        description="Every corpus of the run, the main one first; its pack ids start with its "
        "id prefix. Empty in records made before several corpora could run together.",
    )
    product: ProductInfo
    customer: CustomerInfo
    lanes: list[LaneInfo] = Field(default_factory=list)
    options: RunConfig = Field(default_factory=RunConfig,
                               description="The run's configuration (no secrets).")
    trials: list[TrialEntry] = Field(default_factory=list)
    browsers: list[BrowserInfo] = Field(
        default_factory=list, description="Every browser the run used (a resumed run may add "
        "one).")
    shard: ShardInfo | None = Field(None, description="Set when this run is one shard.")
    merged: MergeInfo | None = Field(None, description="Set when this run was merged from "
                                     "shards.")
    stopped: EarlyStop | None = Field(
        None, description="Set when the run stopped early on infrastructure errors in a row; "
        "its pending trials were not run. A resume clears it.")

    @model_validator(mode="before")
    @classmethod
    def _from_format_1(cls, data: object) -> object:
        """A format-1 run.json recorded its options as a loose dict: read it as a
        ``RunConfig`` (the record is format 2 from then on)."""
        if (isinstance(data, dict) and str(data.get("version")) == "1"
                and isinstance(data.get("options", {}), dict)):
            options = RunConfig.from_legacy(data.get("options") or {},
                                            self_test=bool(data.get("self_test", False)))
            data = {**data, "version": RUN_FORMAT_VERSION, "options": options}
        return data


class CorpusCheckStamp(Strict):
    """The outcome of ``corpus check`` on one corpus's exact content, kept so that ``run``
    does not check an unchanged corpus again (``<cache>/corpus-checks/<key>.json``)."""

    version: str = Field(CORPUS_CHECK_STAMP_VERSION)
    key: str = Field(pattern=r"^[0-9a-f]{64}$", description="sha256 over every file of the "
                     "corpus folder (path and content) and the checker's own code: any change "
                     "to either is another key.")
    root: str = Field(description="The corpus folder checked, as given.")
    checked_at: str
    packs_checked: int = Field(ge=0)
    problems: int = Field(ge=0, description="How many problems the check found (0: passes).")
    first: str | None = Field(None, description="The first problem as the checker words it.")
    first_pack: str | None = Field(None, description="The first problem's pack.")
    first_file: str | None = Field(None, description="The first problem's file.")
    first_field: str | None = Field(None, description="The first problem's field.")

    @property
    def ok(self) -> bool:
        return self.problems == 0
