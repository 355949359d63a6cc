"""Merging the shards of one run (``claims-harness merge RUN… --into RUN``) into one run
record that scores, reports, compares and gates as one run.

Only shards of the same run are merged: the same corpora (version and hash of each), product
(profile, runtime and its report), customer settings, harness (version and commit), labels,
run options that shape a trial, and shard plan. Anything else is refused with the field and
both values. Every trial's evidence is copied (sources are left as they are; earlier scoring
sheets are not copied: the merged run is scored as itself); the new folder appears whole or
not at all.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from claims_records import (
    SHEET_FILE,
    MergedShard,
    MergeInfo,
    RunRecord,
    RunRecordError,
    TrialStatus,
    is_run_folder,
    read_run_record,
    run_record_path,
    write_run_record,
)

from ._lock import FolderLock

NOT_COPIED = (SHEET_FILE,)


def _corpora(r: RunRecord) -> Any:
    listed = getattr(r, "corpora", None) or [r.corpus]
    return [(c.version, c.hash, getattr(c, "id_prefix", None)) for c in listed]


# (what, how to read it off a run record) — each must be equal across shards.
IDENTITY: tuple[tuple[str, Callable[[RunRecord], Any]], ...] = (
    ("corpus (version and hash of each corpus)", _corpora),
    ("product profile", lambda r: r.product.profile),
    ("product runtime", lambda r: r.product.runtime),
    ("product runtime source", lambda r: r.product.runtime_source),
    ("product conversations", lambda r: (r.product.conversation_scope,
                                         r.product.new_conversation)),
    ("product runtime report", lambda r: r.product.runtime_report),
    ("product fault switches", lambda r: getattr(r.product, "faults", None)),
    ("product capabilities", lambda r: r.product.capabilities),
    ("where the staff side is read", lambda r: r.product.staff_side),
    ("reset adapter", lambda r: r.product.reset_adapter),
    ("customer settings", lambda r: r.customer.model_dump()),
    ("harness version", lambda r: r.harness.version),
    ("harness commit", lambda r: r.harness.git_commit),
    ("run labels", lambda r: sorted(r.labels)),
    ("self-test", lambda r: r.self_test),
    ("trial options", lambda r: r.options.trial_fields()),
    ("shard plan", lambda r: (r.shard.total, r.shard.plan_digest) if r.shard else None),
)


def _load(path: Path) -> RunRecord:
    if not is_run_folder(path):
        raise RunRecordError("not a run folder (no run.json)", file=str(run_record_path(path)))
    return read_run_record(path)


def check_mergeable(runs: list[tuple[Path, RunRecord]], partial: bool = False) -> list[int]:
    """Refuse runs that are not shards of one run; return the missing shard indexes."""
    if len(runs) < 2:
        raise RunRecordError("merge needs at least two shards", given=len(runs))
    first = runs[0][1]
    for path, r in runs:
        if r.shard is None:
            raise RunRecordError("not a shard: it was not run with --shard i/n", run=r.run_id,
                                 file=str(path))
        pending = sum(1 for t in r.trials if t.status == TrialStatus.PENDING)
        if pending and not partial:
            raise RunRecordError(
                f"shard {r.shard.index}/{r.shard.total} is unfinished ({pending} trial(s) "
                "pending): finish it with `claims-harness run --resume` or merge with "
                "--partial", run=r.run_id, file=str(path))
    for what, read in IDENTITY:
        mine = read(first)
        for _, r in runs[1:]:
            theirs = read(r)
            if theirs != mine:
                raise RunRecordError(f"the runs differ in {what}; only shards of one run are "
                                     "merged", field=what, **{first.run_id: mine,
                                                             r.run_id: theirs})
    seen: dict[int, str] = {}
    for _, r in runs:
        assert r.shard is not None
        if r.shard.index in seen:
            raise RunRecordError(f"shard {r.shard.index}/{r.shard.total} is given twice",
                                 runs=f"{seen[r.shard.index]}, {r.run_id}")
        seen[r.shard.index] = r.run_id
    keys = [(t.pack_id, t.trial) for _, r in runs for t in r.trials]
    if len(keys) != len(set(keys)):
        raise RunRecordError("two shards hold the same trial; they were not split by one plan")
    total = first.shard.total if first.shard else 0
    missing = [i for i in range(1, total + 1) if i not in seen]
    if missing and not partial:
        raise RunRecordError(f"shard(s) {', '.join(map(str, missing))} of {total} are missing; "
                             "give every shard, or merge with --partial", given=len(runs))
    return missing


def _copy_trials(src_dir: Path, r: RunRecord, dest: Path) -> None:
    """Every trial folder of ``r`` and the earlier attempts beside it (interrupted, or run
    again after an infrastructure error: ``--retry-infra``), without sheets."""
    ignore = shutil.ignore_patterns(*NOT_COPIED)
    for t in r.trials:
        folder = src_dir / t.path
        if not folder.parent.is_dir():
            continue
        for item in sorted(folder.parent.iterdir()):
            if item.name == folder.name or item.name.startswith(
                    (folder.name + ".interrupted-", folder.name + ".attempt-")):
                shutil.copytree(item, dest / item.relative_to(src_dir), ignore=ignore)


def merge_runs(sources: list[Path], into: Path, partial: bool = False) -> RunRecord:
    """Merge shard runs at ``sources`` into a new run folder ``into``; returns its record."""
    into = Path(into)
    if into.exists():
        raise RunRecordError("the merged run's folder exists; choose a new one", file=str(into))
    runs = [(Path(p), _load(Path(p))) for p in sources]
    missing = check_mergeable(runs, partial)
    with contextlib.ExitStack() as held:
        for path, _ in runs:  # a shard still running cannot be merged
            held.enter_context(FolderLock(path, "shard"))
        first = runs[0][1]
        order = first.shard.pack_order if first.shard else []
        rank = {p: i for i, p in enumerate(order)}
        trials = sorted((t for _, r in runs for t in r.trials),
                        key=lambda t: (rank.get(t.pack_id, len(rank)), t.pack_id, t.trial))
        lanes, urls = [], []
        for _, r in runs:
            lanes += [ln for ln in r.lanes if ln not in lanes]
            urls += [u for u in r.product.base_urls if u not in urls]
        browsers = []
        for _, r in runs:
            browsers += [b for b in r.browsers if b not in browsers]
        ends = [r.finished_at for _, r in runs]
        merged = first.model_copy(deep=True, update={
            "run_id": into.name,
            "created_at": min(r.created_at for _, r in runs),
            "finished_at": None if None in ends else max(e for e in ends if e),
            "lanes": lanes, "trials": trials, "browsers": browsers, "shard": None,
            "product": first.product.model_copy(update={"base_urls": urls}),
            "options": first.options.model_copy(update={"shard": None}),
            "merged": MergeInfo(
                merged_at=datetime.now(UTC).isoformat(timespec="seconds"),
                missing_shards=missing,
                sources=[MergedShard(run_id=r.run_id, path=str(p),
                                     shard=r.shard.index if r.shard else None,
                                     trials=len(r.trials), created_at=r.created_at,
                                     finished_at=r.finished_at, git_commit=r.harness.git_commit)
                         for p, r in runs]),
        })
        into.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{into.name}.merging-", dir=into.parent))
        try:
            staging.chmod(0o755)
            for path, r in runs:
                _copy_trials(path, r, staging)
            write_run_record(staging, merged)
            staging.rename(into)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return merged
