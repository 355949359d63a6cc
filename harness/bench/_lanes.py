"""Whole runs on 1, 2, … lanes: trials per hour, CPU and memory per lane, where it stops
scaling, and what a night of many packs would take here and on several machines.

With ``pace`` the scripted customer takes that long per answer (``run --pace``), as a model
or a person would, so a trial is mostly waiting and more lanes fill the idle machine. The
nightly estimate scales the best measured rate to ``nightly_packs`` × ``nightly_trials``
trials (a corpus made like the measured one), on one machine and on ``shards`` machines
alike (each runs its share at that rate, plus its own start-up).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from claims_records import BrowserConfig, RunConfig

from .._capacity import auto_lanes
from .._dev import dev_product
from ..profile import load_profile
from ..runner import RunContext, run
from . import _cpu
from ._bench import evidence_problems

KNEE_GAIN = 1.25
"""Doubling the lanes past the knee gives less than this much more trials per hour."""


def measure_lanes(packs_root: Path, pack_ids: list[str], lane_counts: list[int],
                  profile: str = "reference", trials: int = 1,
                  browser_executable: str | None = None, nightly_packs: int = 100,
                  nightly_trials: int = 3, pace: float | None = None, shards: int = 4,
                  progress: Callable[[str], None] = lambda line: None) -> dict[str, Any]:
    """Run the packs ``trials`` times on each number of lanes in ``lane_counts``."""
    base = load_profile(profile)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    out: dict[str, Any] = {"profile": base.name, "packs": len(pack_ids), "trials": trials,
                           "pace_s": pace, "cores": cores,
                           "nightly": {"packs": nightly_packs, "trials": nightly_trials},
                           "lanes": {}}
    work = Path(tempfile.mkdtemp(prefix="claims-bench-lanes-"))
    try:
        for n in lane_counts:
            started = time.perf_counter()
            with dev_product(base, n, Path(packs_root)) as (pointed, env):
                startup = time.perf_counter() - started
                token = env.seed_token if pointed.reset.adapter == "seed_route" else None
                config = RunConfig(profile=profile, corpora=[str(packs_root)],
                                   packs=list(pack_ids), trials=trials, lanes=n, pace=pace,
                                   browser=BrowserConfig(executable=browser_executable))
                ctx = RunContext(profile=pointed, runs_dir=work, run_id=f"lanes-{n}",
                                 seed_token=token,
                                 progress=lambda e: progress(str(e)) if e.status else None)
                sampler = _cpu.Sampler()
                sampler.start()
                t0 = time.perf_counter()
                try:
                    record, run_dir = run(config, ctx)
                finally:
                    wall = time.perf_counter() - t0
                    used = sampler.stop()
            out["lanes"][str(n)] = _lane_row(n, record, run_dir, wall, startup, used,
                                             sampler.peak_mb, cores or 1)
            row = out["lanes"][str(n)]
            progress(f"{n} lane(s): {row['trials_per_hour']:.0f} trials/hour ({wall:.1f}s for "
                     f"{row['trials']} trials), {row['cpu_busy_cores']} core(s) busy, "
                     f"{row['memory_mb']['total']:.0f} MB, {row['evidence_problems']} "
                     "evidence problem(s)")
            shutil.rmtree(run_dir, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out.update(_curve(out["lanes"], nightly_packs * nightly_trials, shards))
    if pace is not None:
        out["auto"] = auto_lanes(pace).__dict__
    out["load_average_after"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    return out


def _lane_row(n: int, record: Any, run_dir: Path, wall: float, startup: float,
              used: _cpu.CpuReading | None, peak: dict[str, float], cores: int
              ) -> dict[str, Any]:
    done = len(record.trials)
    statuses: dict[str, int] = {}
    problems = 0
    for t in record.trials:
        statuses[t.status.value] = statuses.get(t.status.value, 0) + 1
        folder = run_dir / t.path
        problems += len(evidence_problems(folder)) if folder.is_dir() else 1
    return {
        "wall_s": round(wall, 2), "startup_s": round(startup, 2), "trials": done,
        "statuses": statuses, "evidence_problems": problems,
        "trials_per_hour": round(done / wall * 3600, 1),
        "cpu_per_trial_s": None if used is None else {
            "harness": round(used.harness / done, 3), "product": round(used.product / done, 3),
            "total": round(used.total / done, 3)},
        "cpu_busy_cores": None if used is None else round(used.total / wall, 2),
        "cpu_busy_share": None if used is None else round(used.total / wall / cores, 2),
        "memory_mb": dict(peak),
        "memory_per_lane_mb": round(peak["total"] / n, 1),
    }


def _curve(rows: dict[str, dict[str, Any]], night: int, shards: int) -> dict[str, Any]:
    """Speed-up over one lane, the memory one more lane takes, the knee, the best count, and
    the night's estimate on one machine and on ``shards``."""
    if not rows:
        return {}
    rate = {int(k): v["trials_per_hour"] for k, v in rows.items()}
    counts = sorted(rate)
    best = max(counts, key=lambda k: rate[k])
    knee = next((a for a, b in zip(counts, counts[1:], strict=False)
                 if rate[b] < rate[a] * KNEE_GAIN), counts[-1])
    out: dict[str, Any] = {"best_lanes": best, "knee_lanes": knee}
    if 1 in rate:
        out["speedup_over_1_lane"] = {str(k): round(rate[k] / rate[1], 2) for k in counts}
    mem = {int(k): v["memory_mb"]["total"] for k, v in rows.items()}
    if len(counts) > 1 and counts[-1] > counts[0]:
        out["memory_per_added_lane_mb"] = round(
            (mem[counts[-1]] - mem[counts[0]]) / (counts[-1] - counts[0]), 1)
    startup = rows[str(best)]["startup_s"]
    hours = night / rate[best]
    out["nightly_estimate_min"] = {
        "one_machine": round(hours * 60 + startup / 60, 1),
        f"{shards}_shards": round(hours * 60 / shards + startup / 60, 1),
        "lanes": best, "trials": night}
    return out
