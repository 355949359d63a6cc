"""Splitting a run's trials across machines (``run --shard i/n``), the way every shard of
the run computes the same split on its own.

Trials are dealt to shards greedily, longest first, each to the shard with the least work
so far (ties: fewest trials, then the lowest index). A trial's work is its pack's recorded
mean duration when a history or an earlier run gives one (packs without one count as the
median of those with one), else 1 — balanced by count. The whole assignment is hashed into
``plan_digest``: shards planned from different durations cannot be merged by mistake.
"""

from __future__ import annotations

import hashlib
import json
import re
import statistics
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from claims_records import (
    HarnessError,
    HistoryIndex,
    RunRecordError,
    ShardInfo,
    TrialEntry,
    TrialStatus,
    history_path,
    read_model,
    read_run_record,
)

_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$", re.ASCII)
MAX_SHARDS = 1000
"""The most shards a run is split into (a plan holds one load per shard)."""


def _shown(text: str, limit: int = 40) -> str:
    """``text`` for an error message: a very long value cut down to its ends."""
    shown = repr(text)
    return shown if len(shown) <= limit else f"{shown[:18]}…{shown[-18:]} ({len(text)} chars)"


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``total`` (1-based, as Playwright's ``--shard=2/4``)."""

    index: int
    total: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        m = _SHARD.match(text or "")
        if not m:
            raise HarnessError("a shard is written i/n, e.g. 2/4 (1 <= i <= n)",
                               field="shard", value=_shown(text or ""))
        digits = [m[1].lstrip("0") or "0", m[2].lstrip("0") or "0"]
        if any(len(d) > len(str(MAX_SHARDS)) for d in digits) or int(digits[1]) > MAX_SHARDS:
            raise HarnessError(f"a run is split into at most {MAX_SHARDS} shards (i/n with "
                               f"1 <= i <= n <= {MAX_SHARDS})", field="shard",
                               value=_shown(text))
        index, total = int(digits[0]), int(digits[1])
        if total < 1 or not 1 <= index <= total:
            raise HarnessError("a shard is written i/n with 1 <= i <= n", field="shard",
                               value=_shown(text))
        return cls(index, total)

    def __str__(self) -> str:
        return f"{self.index}/{self.total}"


def plan(trials: list[tuple[str, int]], total: int,
         durations: dict[str, float] | None = None
         ) -> tuple[list[int], Literal["count", "duration"], str]:
    """Shard (1..total) of every trial, how it was balanced, and the plan's digest."""
    known = {p: round(d, 1) for p, d in (durations or {}).items()
             if d is not None and d > 0 and any(p == t[0] for t in trials)}
    if known:
        fill = statistics.median(known.values())
        weights = [known.get(p, fill) for p, _ in trials]
        method: Literal["count", "duration"] = "duration"
    else:
        weights = [1.0] * len(trials)
        method = "count"
    order = sorted(range(len(trials)), key=lambda i: (-weights[i], trials[i]))
    loads, counts = [0.0] * total, [0] * total
    assign = [0] * len(trials)
    for i in order:
        k = min(range(total), key=lambda s: (loads[s], counts[s], s))
        assign[i] = k + 1
        loads[k] += weights[i]
        counts[k] += 1
    body = {"total": total, "balanced_by": method,
            "plan": [[p, n, a] for (p, n), a in zip(trials, assign, strict=True)]}
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
    return assign, method, digest


def apply_shard(entries: list[TrialEntry], shard: Shard,
                durations: dict[str, float] | None) -> tuple[list[TrialEntry], ShardInfo]:
    """This shard's trials of the whole run's ``entries``, and the record of the split."""
    keys = [(e.pack_id, e.trial) for e in entries]
    assign, method, digest = plan(keys, shard.total, durations)
    mine = [e for e, a in zip(entries, assign, strict=True) if a == shard.index]
    order = list(dict.fromkeys(e.pack_id for e in entries))
    return mine, ShardInfo(index=shard.index, total=shard.total, balanced_by=method,
                           plan_digest=digest, plan_trials=len(entries), pack_order=order)


def _run_durations(run_dir: Path) -> dict[str, float]:
    record = read_run_record(run_dir)
    per_pack: dict[str, list[float]] = defaultdict(list)
    for t in record.trials:
        if t.status != TrialStatus.PENDING and t.duration_s:
            per_pack[t.pack_id].append(t.duration_s)
    return {p: statistics.fmean(v) for p, v in per_pack.items()}


def _history_durations(path: Path, nights: int = 7) -> dict[str, float]:
    index = read_model(HistoryIndex, path)
    per_pack: dict[str, list[float]] = defaultdict(list)
    for night in index.nights[-nights:]:
        for pack, seconds in night.pack_durations.items():
            per_pack[pack].append(seconds)
    return {p: statistics.fmean(v) for p, v in per_pack.items()}


def load_durations(source: Path) -> dict[str, float]:
    """Mean duration per pack from a history index (``history.json``, its last 7 nights) or
    a run folder (its finished trials)."""
    source = Path(source)
    try:
        if source.is_dir():
            return _run_durations(source)
        return _history_durations(source)
    except (OSError, ValueError, RunRecordError) as exc:
        raise RunRecordError("cannot read pack durations for the shard plan",
                             file=str(source), error=str(exc).splitlines()[0][:200]) from exc


def default_durations(runs_dir: Path) -> dict[str, float] | None:
    """Durations from ``<runs-dir>/history.json`` when it exists, else None (by count)."""
    path = history_path(runs_dir)
    return load_durations(path) if path.is_file() else None
