"""Whole runs on 1, 2, … lanes: wall time, CPU seconds per journey, and what a nightly run of
many packs would take here.

The estimate scales the measured wall time per trial to ``nightly_packs`` × ``nightly_trials``
trials, assuming the nightly corpus is made like the measured one (the same mix of lines and
journey lengths): estimate = wall / trials run × nightly trials.
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

from .._dev import dev_product
from .._run import RunContext, run
from ..profile import load_profile
from . import _cpu


def measure_lanes(packs_root: Path, pack_ids: list[str], lane_counts: list[int],
                  profile: str = "reference", trials: int = 1,
                  browser_executable: str | None = None, nightly_packs: int = 100,
                  nightly_trials: int = 3,
                  progress: Callable[[str], None] = lambda line: None) -> dict[str, Any]:
    """Run the packs ``trials`` times on each number of lanes in ``lane_counts``."""
    base = load_profile(profile)
    out: dict[str, Any] = {"profile": base.name, "packs": len(pack_ids), "trials": trials,
                           "nightly": {"packs": nightly_packs, "trials": nightly_trials},
                           "lanes": {}}
    work = Path(tempfile.mkdtemp(prefix="claims-bench-lanes-"))
    try:
        for n in lane_counts:
            with dev_product(base, n, Path(packs_root)) as (pointed, env):
                token = env.seed_token if pointed.reset.adapter == "seed_route" else None
                config = RunConfig(profile=profile, corpora=[str(packs_root)],
                                   packs=list(pack_ids), trials=trials, lanes=n,
                                   browser=BrowserConfig(executable=browser_executable))
                ctx = RunContext(profile=pointed, runs_dir=work, run_id=f"lanes-{n}",
                                 seed_token=token,
                                 progress=lambda e: progress(str(e)) if e.status else None)
                sampler = _cpu.Sampler()
                sampler.start()
                t0 = time.perf_counter()
                try:
                    record, _ = run(config, ctx)
                finally:
                    wall = time.perf_counter() - t0
                    used = sampler.stop()
            done = len(record.trials)
            statuses: dict[str, int] = {}
            for t in record.trials:
                statuses[t.status.value] = statuses.get(t.status.value, 0) + 1
            nightly = nightly_packs * nightly_trials
            out["lanes"][str(n)] = {
                "wall_s": round(wall, 2), "trials": done, "statuses": statuses,
                "wall_per_trial_s": round(wall / done, 3),
                "cpu_per_journey_s": None if used is None else {
                    "harness": round(used.harness / done, 3),
                    "product": round(used.product / done, 3),
                    "total": round(used.total / done, 3)},
                "nightly_estimate_min": round(wall / done * nightly / 60, 1),
            }
            progress(f"{n} lane(s): {wall:.1f}s for {done} trials -> nightly "
                     f"{nightly_packs}x{nightly_trials} ~ "
                     f"{out['lanes'][str(n)]['nightly_estimate_min']} min")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    walls = {k: v["wall_s"] for k, v in out["lanes"].items()}
    if "1" in walls:
        out["speedup_over_1_lane"] = {k: round(walls["1"] / w, 2) for k, w in walls.items()}
    out["load_average_after"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    return out
