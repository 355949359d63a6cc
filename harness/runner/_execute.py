"""A run: many trials over many packs, spread over lanes, recorded in run.json."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import claims_corpus
import claims_records
from claims_records import (
    CustomerInfo,
    HarnessInfo,
    ProfileError,
    RunConfig,
    RunRecord,
    RunRecordError,
    SeedError,
    is_run_folder,
    write_run_record,
)

from .._conversation import check_lanes
from .._runtime import check_runtime
from ..browser import BrowserChoice
from ..customers import LlmSettings, Recording, make_customer, probe_dialect
from ..profile import Lane, Profile, load_profile
from ..reset import ResetAdapter, make_reset, setup_and_files
from ..trial import TrialSettings, make_pace
from ._attempts import ErrorPolicy, pending_entry, prepare_resume
from ._context import RunContext
from ._lanes import run_lanes
from ._lock import FolderLock
from ._record import (
    check_resumable,
    corpus_info,
    git_commit,
    harness_version,
    lane_info,
    new_run_id,
    product_info,
    recorded_corpora,
    run_labels,
    trial_path,
    utc_now,
)
from ._recovery import storage_error
from ._shard import Shard, apply_shard, default_durations


def quiet_interrupts(loop: asyncio.AbstractEventLoop) -> None:
    """An interrupt (Ctrl-C, or SIGTERM turned into one) that lands in a side task (a
    screenshot, the staff reading) stops the run like any other; the command line reports it
    once. Without this, asyncio would also log that task's never-retrieved KeyboardInterrupt,
    with a traceback, after the run's own 'interrupted' line."""
    def handler(loop: asyncio.AbstractEventLoop, details: dict[str, Any]) -> None:
        if not isinstance(details.get("exception"), KeyboardInterrupt):
            loop.default_exception_handler(details)
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
        roots = recorded_corpora(Path(ctx.runs_dir) / ctx.resume) or roots
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
    if not config.no_reset:  # a reset that cannot work refuses before any record or change
        preflight(profile, lanes, corpora, config.packs or corpora.pack_ids, token)
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
        check_resumable(record, ctx.resume, corpora, config.self_test, runtime, labels)
        # Lanes of a resumed run may listen elsewhere (a new dev environment): record them too.
        known = {(ln.name, ln.base_url) for ln in record.lanes}
        for ln in lanes:
            if (ln.name, ln.base_url) not in known:
                record.lanes.append(lane_info(ln))
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
            run_id=run_id, created_at=utc_now(), self_test=config.self_test, labels=labels,
            harness=HarnessInfo(version=harness_version(), git_commit=git_commit()),
            corpus=corpus_info(main),
            corpora=[corpus_info(c) for c in corpora.corpora],
            product=product_info(profile, lanes, runtime),
            customer=customer_info,
            lanes=[lane_info(ln) for ln in lanes],
            options=config,
            trials=[pending_entry(p, n, trial_path(p, n))
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
    policy = ErrorPolicy(retry_infra=config.retry_infra, stop_after=config.stop_after_errors,
                         backoff=ctx.backoff, sleep=ctx.sleep)
    await run_lanes(record, run_dir, lanes, corpora, profile, reset_for, customers_for,
                    settings, choice, ctx.progress, policy)
    record.finished_at = utc_now()
    write_run_record(run_dir, record)
    return record, run_dir


def preflight(profile: Profile, lanes: list[Lane], corpora: Any, packs: list[str],
              token: str | None) -> None:
    """Check, on every lane, that the first pack's reset could run — every store's guard and
    plan, as a reset makes them before the product's own clearing step — without changing
    anything; the first refusal stops the run before any record is written, as the same kind
    of error (a ``StoreRefusal`` stays one) on one line naming the pack and the lane."""
    if not packs:
        return
    pack_dir = corpora.pack_dir(packs[0])
    setup, files = setup_and_files(pack_dir)
    for lane in lanes:
        reset: ResetAdapter | None = None
        try:
            reset = make_reset(profile, lane, corpora.first.root, token)
            reset.preflight(setup, files)
        except (SeedError, ProfileError) as exc:
            context = {"lane": lane.name,
                       **{k: v for k, v in exc.context.items() if k != "lane"}}
            raise type(exc)(f"refusing to run: the reset of {packs[0]} on {lane.name} would "
                            f"fail: {exc.message}", **context) from exc
        finally:
            if reset is not None:
                reset.close()


def run(config: RunConfig, ctx: RunContext | None = None) -> tuple[RunRecord, Path]:
    """Synchronous entry point around :func:`execute`."""
    return asyncio.run(execute(config, ctx))
