"""Reading a run record into memory: one ``TrialRecord`` per trial folder.

Only reads; never writes. A damaged trial (a file missing, empty, cut short or unreadable) does
not stop the run's scoring: ``load_trial`` records what is wrong in ``TrialRecord.damage`` and
the trial is scored ``unscorable``. Problems with run.json itself or an oracle file still raise
``RunRecordError`` / ``PackError`` naming the run, the file and the field.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from claims_corpus import CustomerView, load_customer_view
from claims_corpus.formats import (
    HOME_CONVENTIONS,
    Baseline,
    Facts,
    Labels,
    Manifest,
    MoneyConventions,
    Setup,
    StaffScript,
)
from claims_records import (
    DECISION_JOURNEY_FILE,
    HUMAN_FILE,
    JOURNEY_FILE,
    STATUS_CATEGORY,
    TRIAL_FILE,
    UNSCORABLE,
    DecisionRecord,
    ErrorCategory,
    HarnessError,
    HumanVerdicts,
    JourneyEvent,
    PackError,
    RunRecord,
    RunRecordError,
    StaffReading,
    StateDump,
    TrialEntry,
    TrialResult,
    TrialStatus,
    field_of,
    read_journey,
    read_model,
    read_optional,
    read_run_record,
)

M = TypeVar("M", bound=BaseModel)



@dataclass
class TrialRecord:
    """Everything the scorer reads about one trial. Built by ``load_trial``."""

    run_id: str
    pack_id: str
    trial: int
    path: str
    self_test: bool
    status: TrialStatus
    result: TrialResult | None = None
    entry: TrialEntry | None = None
    events: list[JourneyEvent] = field(default_factory=list)
    staff: StaffReading | None = None
    state_before: StateDump | None = None
    state_after: StateDump | None = None
    decision: DecisionRecord | None = None
    """decision.json: the staff decision step (None: the pack has none, or it never ran)."""
    state_after_decision: StateDump | None = None
    decision_events: list[JourneyEvent] = field(default_factory=list)
    session_mode: str | None = None
    claim_number_pattern: str | None = None
    money: MoneyConventions = HOME_CONVENTIONS
    """How the product shows money: its locale and home currency (run.json's product)."""
    state_readable: bool = True
    responses: list[tuple[str, str]] | None = None
    """(url, body text) of every text response the customer's page received (network.har);
    None when the trial has no readable network log (``network_problem`` says why)."""
    network_problem: str = ""
    damage: list[str] = field(default_factory=list)

    @property
    def error_category(self) -> str:
        if self.damage and is_rated_status(self.status):
            return UNSCORABLE
        return STATUS_CATEGORY[self.status].value

    @property
    def detail(self) -> str:
        if self.result is not None and self.result.detail:
            return self.result.detail
        return self.entry.detail if self.entry is not None else ""


def is_rated_status(status: TrialStatus) -> bool:
    """Statuses whose trials count in the rates (the journey ran to an end of the agent's)."""
    return STATUS_CATEGORY[status] in (ErrorCategory.NONE, ErrorCategory.AGENT)


class _Reader:
    """Reads a trial's files, noting each one that is unreadable instead of raising."""

    def __init__(self, tdir: Path, **context: object) -> None:
        self.tdir, self.context = tdir, context
        self.damage: list[str] = []
        self.missing: list[str] = []

    def model(self, model: type[M], name: str) -> M | None:
        path = self.tdir / name
        if not path.exists():
            self.missing.append(name)
            return None
        try:
            return read_model(model, path, RunRecordError, **self.context)
        except RunRecordError as exc:
            self.damage.append(f"{name} is unreadable: {exc.message}")
            return None

    def optional(self, model: type[M], name: str) -> M | None:
        """A file only some trials have: absent is no damage, unreadable is."""
        return self.model(model, name) if (self.tdir / name).exists() else None

    def events(self, name: str = JOURNEY_FILE, required: bool = True
               ) -> list[JourneyEvent]:
        path = self.tdir / name
        if not path.exists():
            if required:
                self.missing.append(name)
            return []
        try:
            return read_journey(path, **self.context)
        except RunRecordError as exc:
            where = exc.field or ""
            self.damage.append(f"{name} is unreadable ({where}): {exc.message}")
            return []


def load_responses(path: Path) -> tuple[list[tuple[str, str]] | None, str]:
    """(url, text) of each response in a HAR with a text body (binary bodies are skipped),
    or None and why when there is no readable HAR: a damaged network log is reported, it
    never stops the scoring of the run."""
    if not path.exists():
        return None, f"no {path.name} recorded"
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))["log"]["entries"]
        out = []
        for entry in entries:
            content = (entry.get("response") or {}).get("content") or {}
            text = content.get("text")
            if isinstance(text, str) and text and content.get("encoding") != "base64":
                out.append((str((entry.get("request") or {}).get("url", "")), text))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return None, f"{path.name} unreadable: {type(exc).__name__}: {exc}"[:300]
    return out, ""


def load_run_record(run_dir: Path) -> RunRecord:
    return read_run_record(run_dir)


def money_conventions(run: RunRecord) -> MoneyConventions:
    """How the run's product shows money (run.json's ``product.locale`` and
    ``product.currency``)."""
    try:
        return MoneyConventions(locale=run.product.locale, currency=run.product.currency)
    except ValidationError as exc:
        raise RunRecordError(f"run.json: {exc.errors()[0]['msg']}", run=run.run_id,
                             field=f"product.{field_of(exc)}") from exc


def load_trial(run: RunRecord, run_dir: Path, entry: TrialEntry,
               session_mode: str | None = None) -> TrialRecord:
    """Read one trial folder. A missing trial.json leaves the entry's status in charge.

    A trial that should be rated (completed, agent stopped, stuck) needs all of its evidence:
    trial.json, a journey.jsonl that reaches the last step trial.json counts, staff.json and
    both state dumps. Whatever is missing, empty, cut short or unreadable is listed in
    ``damage``, and the trial is ``unscorable``.
    """
    tdir = Path(run_dir) / entry.path
    ctx = {"run": run.run_id, "pack": entry.pack_id, "trial": entry.trial}
    read = _Reader(tdir, **ctx)
    result = read.model(TrialResult, TRIAL_FILE)
    status = result.status if result is not None else entry.status
    if status == TrialStatus.PENDING:
        status = TrialStatus.HARNESS_ERROR if result is None else status
    events = read.events()
    record = TrialRecord(
        run_id=run.run_id,
        pack_id=entry.pack_id,
        trial=entry.trial,
        path=entry.path,
        self_test=run.self_test or (result.self_test if result is not None else False),
        status=status,
        result=result,
        entry=entry,
        events=events,
        staff=read.model(StaffReading, "staff.json"),
        state_before=read.model(StateDump, "state-before.json"),
        state_after=read.model(StateDump, "state-after.json"),
        decision=read.optional(DecisionRecord, "decision.json"),
        state_after_decision=read.optional(StateDump, "state-after-decision.json"),
        decision_events=read.events(DECISION_JOURNEY_FILE, required=False),
        session_mode=session_mode,
        claim_number_pattern=run.product.claim_number_pattern,
        money=money_conventions(run),
        state_readable=run.product.state_source != "none",
        damage=read.damage,
    )
    if is_rated_status(status):
        record.damage += _missing_evidence(tdir, read, result, events, status,
                                           record.state_readable)
    record.responses, record.network_problem = load_responses(tdir / "network.har")
    return record


def _missing_evidence(tdir: Path, read: _Reader, result: TrialResult | None,
                      events: list[JourneyEvent], status: TrialStatus,
                      state_readable: bool) -> list[str]:
    """What a rated trial lacks. State dumps are expected only when the product's state can
    be read (a profile with ``state_source = "none"`` records none)."""
    missing = [name for name in read.missing
               if state_readable or name not in ("state-before.json", "state-after.json")]
    if not tdir.is_dir():
        return [f"the trial folder is missing although run.json says {status.value}"]
    out = [f"{name} is missing" + (f" although run.json says {status.value}"
                                   if name == TRIAL_FILE else "")
           for name in missing if name != JOURNEY_FILE]
    if JOURNEY_FILE in missing:
        out.append(f"{JOURNEY_FILE} is missing")
    elif any(d.startswith(JOURNEY_FILE) for d in read.damage):
        pass  # already said why
    elif not events:
        out.append(f"{JOURNEY_FILE} is empty")
    elif result is not None and events and max(e.step for e in events) < result.steps:
        last = max(e.step for e in events)
        out.append(f"{JOURNEY_FILE} ends at step {last} but trial.json counts {result.steps} "
                   "steps: the file was cut short")
    return out


def load_human(trial_dir: Path, **context: object) -> HumanVerdicts | None:
    return read_optional(HumanVerdicts, Path(trial_dir) / HUMAN_FILE, **context)


def load_labels(corpus_root: Path, pack_id: str) -> Labels:
    """The pack's oracle: ``<corpus>/<pack>/oracle/labels.json``."""
    path = Path(corpus_root) / pack_id / "oracle" / "labels.json"
    if not path.exists():
        raise PackError("the pack has no oracle/labels.json", pack=pack_id, file=str(path))
    return read_model(Labels, path, error=PackError, pack=pack_id)


@dataclass(frozen=True)
class PackContext:
    """What the scorer knows of a pack besides its labels: the fact keys its customer knows
    (``input/facts.json``; None when the pack has none), the identifiers of the other
    customer the baseline seeds beside it (empty when it seeds none), and the pack's customer
    view, which the fidelity audit reads (None when the customer files cannot be read)."""

    known_facts: frozenset[str] | None = None
    other_customer: dict[str, str] = field(default_factory=dict)
    view: CustomerView | None = None  # for the fidelity audit; None: not readable
    staff_script: StaffScript | None = None
    """What staff decide after the journey (setup.json); None: no decision step."""
    requested: RequestedItem | None = None
    """return_for_info: what the requested item looks like once it reaches the product."""


@dataclass(frozen=True)
class CheckInput:
    """What a scoring component's check reads: the trial's record, the pack's oracle, what
    else the scorer knows of the pack, and a reviewer's verdicts (None: none yet)."""

    record: TrialRecord
    labels: Labels
    pack: PackContext = field(default_factory=PackContext)
    human: HumanVerdicts | None = None

    @property
    def staff(self) -> StaffReading | None:
        return self.record.staff


@dataclass(frozen=True)
class RequestedItem:
    """A requested 'comes later' item: its name, and the fact's value as text or the file's
    sha256 (how it is recognised in the state after the decision)."""

    name: str
    value: str | None = None
    sha256: str | None = None


def load_other_customer(corpus_root: Path) -> dict[str, str]:
    """The baseline's other-customer identifiers (name -> value); {} without any."""
    path = Path(corpus_root) / "baseline.json"
    if not path.exists():
        return {}
    baseline = read_model(Baseline, path, error=PackError)
    return dict(baseline.other_customer.identifiers) if baseline.other_customer else {}


def load_pack_context(corpus_root: Path, pack_id: str,
                      other_customer: dict[str, str] | None = None) -> PackContext:
    path = Path(corpus_root) / pack_id / "input" / "facts.json"
    known = (frozenset(f.key for f in read_model(Facts, path, error=PackError,
                                                  pack=pack_id).facts)
             if path.exists() else None)
    pack_dir = Path(corpus_root) / pack_id
    view = _customer_view(pack_dir)
    setup_path = pack_dir / "setup.json"
    script = (read_model(Setup, setup_path, error=PackError, pack=pack_id).staff_script
              if setup_path.exists() else None)
    requested = None
    if script is not None and script.requested and view is not None:
        requested = _requested_item(view, script.requested)
    return PackContext(known_facts=known, other_customer=dict(other_customer or {}),
                       view=view, staff_script=script, requested=requested)


def _requested_item(view: CustomerView, name: str) -> RequestedItem:
    for fact in view.facts:
        if fact.key == name:
            return RequestedItem(name, value=str(fact.value))
    for material in view.materials:
        if material.file == name:
            data = Path(material.path).read_bytes()
            return RequestedItem(name, sha256=hashlib.sha256(data).hexdigest())
    return RequestedItem(name)


def _customer_view(pack_dir: Path) -> CustomerView | None:
    """The pack's customer view; None when its customer files cannot be read."""
    try:
        return load_customer_view(pack_dir)
    except HarnessError:
        return None


def session_mode_of(corpus_root: Path, pack_id: str) -> str | None:
    """claimant_session of a pack, from the manifest or setup.json; None when neither says."""
    manifest = Path(corpus_root) / "manifest.json"
    if manifest.exists():
        m = read_model(Manifest, manifest, error=PackError)
        if pack_id in m.packs:
            return m.packs[pack_id].claimant_session
    setup = Path(corpus_root) / pack_id / "setup.json"
    if setup.exists():
        try:
            value = json.loads(setup.read_text(encoding="utf-8")).get("claimant_session")
        except (OSError, ValueError, AttributeError):
            return None
        return value if isinstance(value, str) else None
    return None
