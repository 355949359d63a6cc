"""A run: many trials over many packs, spread over lanes, recorded in run.json."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as pkg_version
from pathlib import Path
from typing import Any

import claims_corpus
import claims_records
from claims_records import (
    LABEL_CORPUS_FAILS_CHECK,
    LABEL_NO_RESET,
    LABEL_RUNTIME_DECLARED,
    LABEL_RUNTIME_NOT_REPORTED,
    LABEL_SELF_TEST,
    RETRIED_SIMULATOR_ERRORS,
    CorpusInfo,
    CustomerInfo,
    EarlierAttempt,
    HarnessInfo,
    LaneInfo,
    ProductInfo,
    ProfileError,
    RunConfig,
    RunRecord,
    RunRecordError,
    TrialEntry,
    TrialResult,
    TrialStatus,
    find_run_record,
    is_finished_trial,
    is_run_folder,
    read_run_record,
    read_trial_result,
    run_record_path,
    write_run_record,
)

from ._conversation import check_lanes
from ._launch import BrowserChoice, BrowserKeeper
from ._lock import FolderLock
from ._recovery import storage_error
from ._reset import ResetAdapter, make_reset
from ._runtime import check_runtime
from ._shard import Shard, apply_shard, default_durations
from .customers import LlmSettings, Recording, make_customer, probe_dialect
from .profile import Lane, Profile, load_profile
from .staff import StaffSession
from .trial import TrialRig, TrialSettings, make_pace, run_trial


@dataclass(frozen=True)
class TrialProgress:
    """A trial starting (``status`` None) or finishing, for progress displays."""

    lane: str
    pack_id: str
    trial: int
    done: int
    total: int
    status: str | None = None
    stop_reason: str | None = None
    seconds: float | None = None
    attempt: int = 1
    """Which attempt of the trial (more than 1: run again after an infrastructure error)."""
    previous: str | None = None
    """How the attempt before this one ended (a start event of a later attempt)."""

    def __str__(self) -> str:
        head = f"[{self.lane}] {self.pack_id} trial {self.trial}"
        if self.status is None:
            again = (f" attempt {self.attempt} (attempt {self.attempt - 1} ended "
                     f"{self.previous})" if self.attempt > 1 else "")
            return f"{head} ...{again}"
        return (f"{head}: {self.status} ({self.stop_reason}) in {self.seconds:.1f}s  "
                f"[{self.done}/{self.total}]")


@dataclass
class RunContext:
    """What one run needs besides its configuration (``RunConfig``, recorded in run.json):
    where it goes, what lives only while it runs, and what is never recorded.

    ``profile`` is the loaded profile (pointed at a dev environment's lanes; default: loaded
    from the configuration); ``seed_token`` overrides the profile's environment variable;
    ``llm`` holds the customer model's key (default: built from the configuration and the
    environment); ``browser`` may reach a browser elsewhere (default: the configuration's).
    """

    profile: Profile | None = None
    runs_dir: Path = Path("runs")
    run_id: str | None = None
    resume: str | None = None
    seed_token: str | None = None
    llm: LlmSettings | None = None
    browser: BrowserChoice | None = None
    shard_durations: dict[str, float] | None = None
    """Pack durations for the shard plan; None: ``<runs-dir>/history.json`` if present."""
    progress: Callable[[TrialProgress], None] = lambda event: None
    corpus_fails_check: bool = False
    """The caller found that a corpus of the run fails ``corpus check`` and runs it anyway
    (``--allow-unchecked-corpus``): the run is labelled 'corpus fails check'. The harness
    never runs the check itself (the checker reads what only the scorer may)."""
    started: bool = False
    """Set once this process holds the run's lock and has written its run.json: from then
    on a stop leaves a run that ``--resume`` can finish."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(3)


def git_commit(cwd: Path | None = None) -> str | None:
    """The current git commit, or None outside a repository or without git."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=5, cwd=cwd or Path(__file__).parent)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() or None


def harness_version() -> str:
    try:
        return pkg_version("claims-journey-harness")
    except PackageNotFoundError:
        return "unknown"


def reported_faults(fields: object) -> list[str]:
    """The fault switches a runtime report lists as on (its stored 'faults'), sorted."""
    faults = fields.get("faults") if isinstance(fields, dict) else None
    return sorted({str(f) for f in faults}) if isinstance(faults, list) else []


def _trial_path(pack_id: str, n: int) -> str:
    return f"{pack_id}/trial-{n}"


def move_aside(folder: Path) -> Path:
    """Move an unfinished trial folder to trial-<n>.interrupted-<k> (never deleted)."""
    k = 1
    while (target := folder.with_name(f"{folder.name}.interrupted-{k}")).exists():
        k += 1
    folder.rename(target)
    return target


def prepare_resume(run_dir: Path) -> RunRecord:
    """Load run.json, keep finished trials (trial.json exists), move unfinished ones aside;
    the earlier attempts of a trial run again (``--retry-infra``) stay listed."""
    if not is_run_folder(run_dir):
        raise RunRecordError("no run to resume", file=str(run_record_path(run_dir)))
    record = read_run_record(run_dir)
    for i, entry in enumerate(record.trials):
        folder = run_dir / entry.path
        if is_finished_trial(folder):
            result = read_trial_result(folder)
            record.trials[i] = _entry_from(result, entry.path, entry.earlier_attempts)
            continue
        if folder.exists():
            move_aside(folder)
        record.trials[i] = _pending(entry.pack_id, entry.trial, entry.path,
                                    entry.earlier_attempts)
    record.finished_at = None
    return record


def _pending(pack_id: str, trial: int, path: str,
             earlier: list[EarlierAttempt] | None = None) -> TrialEntry:
    earlier = list(earlier or [])
    return TrialEntry(pack_id=pack_id, trial=trial, path=path, attempts=len(earlier) + 1,
                      earlier_attempts=earlier)


def _first_line(detail: str) -> str:
    return detail.splitlines()[0][:300] if detail else ""


def _entry_from(result: TrialResult, path: str,
                earlier: list[EarlierAttempt] | None = None) -> TrialEntry:
    earlier = list(earlier or [])
    return TrialEntry(
        pack_id=result.pack_id, trial=result.trial, lane=result.lane, status=result.status,
        stop_reason=result.stop_reason, detail=_first_line(result.detail),
        started_at=result.started_at, ended_at=result.ended_at,
        duration_s=result.duration_s, path=path, tokens=result.tokens, cost_usd=result.cost_usd,
        attempts=len(earlier) + 1, earlier_attempts=earlier,
    )


def infrastructure_error(result: TrialResult) -> bool:
    """The trial ended in an error ``--retry-infra`` runs again: ``harness_error`` (the
    harness, its browser, its seed route or stores), or ``simulator_error`` of a transient kind
    (timeout, connection, server, rate_limit). Never the product's own failures
    (``product_error``, ``reset_failed``) nor an agent outcome: running those again until
    they pass would hide them."""
    if result.status == TrialStatus.HARNESS_ERROR:
        return True
    return (result.status == TrialStatus.SIMULATOR_ERROR
            and result.simulator_error_kind in RETRIED_SIMULATOR_ERRORS)


def keep_attempt(folder: Path, attempt: int) -> Path:
    """Move a finished attempt's folder to <folder>.attempt-<k> (never deleted or
    overwritten: a name taken already gets a suffix)."""
    target = folder.with_name(f"{folder.name}.attempt-{attempt}")
    k = 1
    while target.exists():
        k += 1
        target = folder.with_name(f"{folder.name}.attempt-{attempt}-{k}")
    folder.rename(target)
    return target


def _earlier(result: TrialResult, path: str) -> EarlierAttempt:
    return EarlierAttempt(
        attempt=result.attempt, status=result.status, stop_reason=result.stop_reason,
        simulator_error_kind=result.simulator_error_kind, detail=_first_line(result.detail),
        started_at=result.started_at, ended_at=result.ended_at, duration_s=result.duration_s,
        path=path)


def run_labels(self_test: bool, no_reset: bool, runtime_reported: bool,
               runtime_declared: bool = False, corpus_fails_check: bool = False) -> list[str]:
    """What makes a run's numbers not plain product numbers; shown wherever they are."""
    labels = []
    if self_test:
        labels.append(LABEL_SELF_TEST)
    if no_reset:
        labels.append(LABEL_NO_RESET)
    if not runtime_reported:
        labels.append(LABEL_RUNTIME_DECLARED if runtime_declared else
                      LABEL_RUNTIME_NOT_REPORTED)
    if corpus_fails_check:
        labels.append(LABEL_CORPUS_FAILS_CHECK)
    return labels


def _lane_info(ln: Lane) -> LaneInfo:
    return LaneInfo(name=ln.name, base_url=ln.base_url, staff_base_url=ln.staff_base_url,
                    database=ln.database)


def _product_info(profile: Profile, lanes: list[Lane], runtime: Any) -> ProductInfo:
    return ProductInfo(
        profile=profile.name, base_urls=[ln.base_url for ln in lanes], runtime=runtime.runtime,
        runtime_report=runtime.fields, runtime_reported=runtime.reported,
        reset_adapter=profile.reset.adapter, state_source=profile.state_source(),
        capabilities=profile.capabilities.model_dump(),
        claim_number_pattern=profile.customer_screen.claim_number_pattern,
        faults=reported_faults(runtime.fields), locale=profile.locale,
        currency=profile.currency, runtime_source=runtime.source,
        declared_runtime=runtime.declared, conversation_scope=profile.conversation.scope,
        new_conversation=profile.conversation.new.by if profile.conversation.new else None)


def quiet_interrupts(loop: asyncio.AbstractEventLoop) -> None:
    """An interrupt (Ctrl-C, or SIGTERM turned into one) that lands in a side task (a
    screenshot, the staff reading) stops the run like any other; the command line reports it
    once. Without this, asyncio would also log that task's never-retrieved KeyboardInterrupt,
    with a traceback, after the run's own 'interrupted' line."""
    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if not isinstance(context.get("exception"), KeyboardInterrupt):
            loop.default_exception_handler(context)
    loop.set_exception_handler(handler)


async def execute(config: RunConfig, ctx: RunContext | None = None
                  ) -> tuple[RunRecord, Path]:
    """Run (or resume) every pending trial; returns the final record and the run folder.

    The run folder is locked for the whole run (``_lock``): a second run or resume of the
    same folder is refused before it touches anything.
    """
    ctx = ctx if ctx is not None else RunContext()
    quiet_interrupts(asyncio.get_running_loop())
    with contextlib.ExitStack() as held:
        try:
            return await _execute(config, ctx, held)
        except OSError as exc:  # a full disk, a read-only or forbidden runs folder
            raise storage_error(exc) from exc


async def _execute(config: RunConfig, ctx: RunContext, held: contextlib.ExitStack
                   ) -> tuple[RunRecord, Path]:
    profile = ctx.profile if ctx.profile is not None else load_profile(config.profile)
    lanes = profile.resolved_lanes()
    check_lanes(profile, lanes, started_per_lane=config.dev is not None, file=config.profile)
    roots = [Path(c) for c in config.corpora]
    if ctx.resume and len(roots) == 1:  # the corpora the run started with
        roots = _recorded_corpora(Path(ctx.runs_dir) / ctx.resume) or roots
    corpora = claims_corpus.open_corpora(roots)
    main = corpora.first
    if profile.reset.adapter == "none" and not config.no_reset:
        raise ProfileError("refusing to run: the profile gives no way to reset the product "
                           "between trials, so trials would see each other's claims; pass "
                           "--no-reset to run anyway (the run is labelled 'no reset')",
                           profile=profile.name, field="reset.adapter")
    runtime = check_runtime(profile, lanes, config.self_test, config.allow_unreported_runtime,
                            config.declared_runtime)
    token = ctx.seed_token if ctx.seed_token is not None else profile.seed_token()
    if not config.no_reset:  # a reset that cannot work (no seed token) refuses before any record
        make_reset(profile, lanes[0], roots[0], token).close()
    recording = Recording.open(config.replay, ctx.runs_dir) if config.replay else None
    if recording is not None:  # the replayed run's customer settings, unless given
        config = recording.applied(config)
    llm = ctx.llm
    if config.customer == "llm" and llm is None:
        llm = LlmSettings.from_options(**(config.llm.model_dump() if config.llm else {}))
    if recording is not None and llm is not None:  # a replay asks no endpoint anything
        llm = recording.settled(llm)
    if config.customer == "llm" and llm is not None:  # auto: the dialect, found once per run
        llm = await probe_dialect(llm)
    if llm is not None:  # what the run records: the settings in force, never the key
        config = config.model_copy(update={"llm": llm.config()})
    labels = run_labels(config.self_test, config.no_reset, runtime.reported,
                        runtime.declared is not None, ctx.corpus_fails_check)
    if ctx.resume:
        run_dir = Path(ctx.runs_dir) / ctx.resume
        if is_run_folder(run_dir):
            held.enter_context(FolderLock(run_dir))
        record = prepare_resume(run_dir)
        _check_resumable(record, ctx.resume, corpora, config.self_test, runtime, labels)
        # Lanes of a resumed run may listen elsewhere (a new dev environment): record them too.
        known = {(ln.name, ln.base_url) for ln in record.lanes}
        for ln in lanes:
            if (ln.name, ln.base_url) not in known:
                record.lanes.append(_lane_info(ln))
                record.product.base_urls.append(ln.base_url)
    else:
        all_packs = corpora.pack_ids
        wanted = config.packs or all_packs
        unknown = [p for p in wanted if p not in all_packs]
        if unknown:
            raise claims_records.PackError(f"no such pack(s): {unknown}",
                                   file=", ".join(str(c.root) for c in corpora.corpora))
        run_id = ctx.run_id or new_run_id()
        run_dir = Path(ctx.runs_dir) / run_id
        if run_dir.exists():
            raise RunRecordError("a run with this id exists; use --resume to finish it",
                                 run=run_id, file=str(run_dir))
        customer_info = (llm.info() if config.customer == "llm" and llm else
                         CustomerInfo(kind="scripted"))
        record = RunRecord(
            run_id=run_id, created_at=_now(), self_test=config.self_test, labels=labels,
            harness=HarnessInfo(version=harness_version(), git_commit=git_commit()),
            corpus=_corpus_info(main),
            corpora=[_corpus_info(c) for c in corpora.corpora],
            product=_product_info(profile, lanes, runtime),
            customer=customer_info,
            lanes=[_lane_info(ln) for ln in lanes],
            options=config,
            trials=[_pending(p, n, _trial_path(p, n))
                    for p in wanted for n in range(1, config.trials + 1)],
        )
        if config.shard is not None:
            durations = (ctx.shard_durations if ctx.shard_durations is not None
                         else default_durations(Path(ctx.runs_dir)))
            record.trials, record.shard = apply_shard(record.trials, Shard.parse(config.shard),
                                                      durations)
        try:
            run_dir.mkdir(parents=True)
        except FileExistsError:
            raise RunRecordError("a run with this id exists; use --resume to finish it",
                                 run=run_id, file=str(run_dir)) from None
        held.enter_context(FolderLock(run_dir))
    write_run_record(run_dir, record)
    ctx.started = True
    confirm_labels = list(profile.customer_screen.confirm_labels)
    customer, money = config.customer, profile.money()

    def customers_for(pack_id: str, trial: int) -> Callable[[Any, Path], Any]:
        """How trial ``trial`` of ``pack_id`` makes its customer (a replay's reads that
        trial's recording, within the trial: a damaged one is the trial's error)."""

        def factory(view: Any, pack_dir: Path) -> Any:
            replay = recording.trial(pack_id, trial) if recording is not None else None
            return make_customer(customer, view, pack_dir, llm, confirm_labels=confirm_labels,
                                 money=money, replay=replay)

        return factory

    baseline_root = corpora.first.root  # corpora run together share one baseline

    def reset_for(lane: Lane) -> ResetAdapter:
        if config.no_reset:
            return ResetAdapter(profile, lane, baseline_root)
        return make_reset(profile, lane, baseline_root, token)

    settings = TrialSettings(turn_limit=config.turn_limit, stuck_after=config.stuck_after,
                             tracing=config.tracing, self_test=config.self_test,
                             labels=list(record.labels),
                             pace=make_pace(config.pace, corpora.first.root))
    choice = ctx.browser or BrowserChoice(executable=config.browser.executable,
                                          channel=config.browser.channel,
                                          headed=config.headed)
    await _run_pending(record, run_dir, lanes, corpora, profile, reset_for, customers_for,
                       settings, choice, ctx.progress, config.retry_infra)
    record.finished_at = _now()
    write_run_record(run_dir, record)
    return record, run_dir


def _check_resumable(record: RunRecord, run_id: str, corpora: Any, self_test: bool,
                     runtime: Any, labels: list[str]) -> None:
    """Refuse a resume that would mix two corpora, products or kinds of run in one record."""
    main = corpora.first
    now = {c.id_prefix: c.hash for c in corpora.corpora}
    before = {c.id_prefix: c.hash for c in record.corpora} or {main.id_prefix:
                                                               record.corpus.hash}
    if before != now:
        raise RunRecordError("a corpus changed since this run started; start a new run",
                             run=run_id, recorded=record.corpus.hash[:12],
                             now=main.hash[:12])
    if record.self_test != self_test:
        raise RunRecordError("resume with the same --self-test setting as the run",
                             run=run_id, self_test=record.self_test)
    if record.product.runtime != runtime.runtime:
        raise RunRecordError("the product now reports another runtime; resuming would mix "
                             "two products in one run", run=run_id,
                             recorded=record.product.runtime, now=runtime.runtime)
    if sorted(record.labels) != sorted(labels):
        raise RunRecordError("resume with the same --self-test / --no-reset / "
                             "--allow-unreported-runtime settings as the run (and a corpus "
                             "that passes or fails `corpus check` as it did)",
                             run=run_id, labels=record.labels)
    if record.product.faults != reported_faults(runtime.fields):
        raise RunRecordError("the product now reports other fault switches; resuming "
                             "would mix a clean and a defect product in one run",
                             run=run_id, recorded=record.product.faults,
                             now=reported_faults(runtime.fields))


def _corpus_info(ref: Any) -> CorpusInfo:
    return CorpusInfo(version=ref.version, hash=ref.hash, path=str(ref.root),
                      id_prefix=ref.id_prefix, name=ref.name)


def _recorded_corpora(run_dir: Path) -> list[Path]:
    """The corpus folders a run was started with (empty when run.json cannot tell)."""
    record = find_run_record(run_dir)
    if record is None:
        return []  # prepare_resume reports the problem
    return [Path(c.path) for c in record.corpora]


async def _run_pending(record: RunRecord, run_dir: Path, lanes: list[Lane], corpora: Any,
                       profile: Profile, reset_for: Callable[[Lane], ResetAdapter],
                       customers_for: Callable[[str, int], Callable[[Any, Path], Any]],
                       settings: TrialSettings,
                       choice: BrowserChoice, progress: Callable[[TrialProgress], None],
                       retry_infra: int = 0) -> None:
    from playwright.async_api import async_playwright

    pending: asyncio.Queue[int] = asyncio.Queue()
    for i, entry in enumerate(record.trials):
        if entry.status == TrialStatus.PENDING:
            pending.put_nowait(i)
    total = pending.qsize()
    done = 0

    async with async_playwright() as pw:
        keeper = BrowserKeeper(pw, choice)

        async def browser_now() -> Any:
            """The connected browser (relaunched, and recorded, when it had ended)."""
            browser, info = await keeper.get()
            if info is not None and info not in record.browsers:
                record.browsers.append(info)
                write_run_record(run_dir, record)
            return browser

        try:
            await browser_now()

            async def lane_worker(lane: Lane) -> None:
                nonlocal done
                client = reset_for(lane)
                staff: StaffSession | None = None
                try:
                    while True:
                        try:
                            i = pending.get_nowait()
                        except asyncio.QueueEmpty:
                            return
                        entry = record.trials[i]
                        progress(TrialProgress(lane.name, entry.pack_id, entry.trial, done,
                                               total))
                        t0 = time.monotonic()
                        earlier = list(entry.earlier_attempts)
                        while True:
                            browser = await browser_now()
                            if staff is None or staff.browser is not browser:
                                if staff is not None:
                                    await staff.close()
                                # one staff context per lane, kept across its trials
                                staff = StaffSession(browser, profile.staff_side(), lane,
                                                     profile.browser.extra_headers())
                            result = await run_trial(
                                TrialRig(browser, profile, lane, client,
                                         customers_for(entry.pack_id, entry.trial), settings,
                                         staff),
                                corpora.pack_dir(entry.pack_id), entry.trial,
                                run_dir / entry.path, attempt=len(earlier) + 1)
                            if len(earlier) >= retry_infra or not infrastructure_error(result):
                                break
                            # run it again; the attempt's evidence stays in its own folder
                            kept = keep_attempt(run_dir / entry.path, len(earlier) + 1)
                            earlier.append(_earlier(result, kept.relative_to(run_dir)
                                                    .as_posix()))
                            record.trials[i] = _pending(entry.pack_id, entry.trial,
                                                        entry.path, earlier)
                            write_run_record(run_dir, record)
                            progress(TrialProgress(
                                lane.name, entry.pack_id, entry.trial, done, total,
                                attempt=len(earlier) + 1,
                                previous=f"{result.status.value}: {_first_line(result.detail)}"
                                [:200]))
                        record.trials[i] = _entry_from(result, entry.path, earlier)
                        write_run_record(run_dir, record)
                        done += 1
                        progress(TrialProgress(
                            lane.name, entry.pack_id, entry.trial, done, total,
                            result.status.value, result.stop_reason, time.monotonic() - t0))
                finally:
                    if staff is not None:
                        await staff.close()
                    with contextlib.suppress(Exception):
                        client.close()

            await asyncio.gather(*(lane_worker(lane) for lane in lanes))
        finally:
            await keeper.close()


def run(config: RunConfig, ctx: RunContext | None = None) -> tuple[RunRecord, Path]:
    """Synchronous entry point around :func:`execute`."""
    return asyncio.run(execute(config, ctx))


def summary_line(record: RunRecord, run_dir: Path) -> str:
    """One line: counts per status, self-test label, and where the record is."""
    counts: dict[str, int] = {}
    for t in record.trials:
        counts[t.status.value] = counts.get(t.status.value, 0) + 1
    parts = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
    label = "SELF-TEST " if record.self_test else ""
    if record.product.faults:
        label += f"FAULTS ({', '.join(record.product.faults)}) "
    others = [x for x in record.labels if x != LABEL_SELF_TEST]
    if record.product.runtime_source == "declared":
        others = [f"{x}: {record.product.runtime}" if x == LABEL_RUNTIME_DECLARED else x
                  for x in others]
    labelled = f" [labelled: {'; '.join(others)}]" if others else ""
    again = [t for t in record.trials if t.attempts > 1]
    retried = (f"; {len(again)} run again after an infrastructure error "
               f"({sum(t.attempts - 1 for t in again)} earlier attempt(s) kept)"
               if again else "")
    return (f"{label}run {record.run_id}: {len(record.trials)} trial(s): {parts}{retried}"
            f"{labelled} -> {run_dir}")
