"""Measure journeys: wall time per journey and per turn, harness overhead vs product time.

Starts the embedded dev environment (reference app), runs the scripted customer over the
given packs, then reads the run record back:

    python scripts/bench_journey.py --pack CTL-M-001 --trials 3 [--runs-dir /tmp/bench]

"Product time" is the time spent waiting for the product's replies (completion signal);
everything else inside a trial is the harness's own overhead (reset and state dumps, browser
context, screen reading, screenshots, the customer's decisions, the staff side, HAR redaction).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import claims_dev  # noqa: E402
import harness  # noqa: E402
from claims_records import (  # noqa: E402
    JourneyEvent,
    RunConfig,
    is_finished_trial,
    read_trial_result,
)


def _ts(value: str) -> float:
    return datetime.fromisoformat(value).timestamp()


def measure_trial(folder: Path) -> dict:
    result = read_trial_result(folder)
    events = [JourneyEvent.model_validate_json(line)
              for line in (folder / "journey.jsonl").read_text().splitlines()]
    waits = sum(e.timings.reply_wait_s or 0 for e in events)
    customer = sum(e.timings.customer_s or 0 for e in events)
    actions = sum(e.timings.action_s or 0 for e in events)
    turns = sum(1 for e in events if e.action is not None)
    loop = _ts(events[-1].ts) - _ts(events[0].ts) if len(events) > 1 else 0.0
    return {
        "pack": result.pack_id, "trial": result.trial, "status": result.status.value,
        "journey_s": result.duration_s, "turns": turns,
        "per_turn_s": result.duration_s / turns if turns else None,
        "product_wait_s": waits, "customer_s": customer, "action_s": actions,
        "loop_s": loop, "harness_overhead_s": result.duration_s - waits,
        "overhead_in_loop_s": loop - waits,
    }


def _stats(values: list[float]) -> dict:
    values = [v for v in values if v is not None]
    if not values:
        return {}
    return {"median": round(statistics.median(values), 3),
            "mean": round(statistics.mean(values), 3),
            "min": round(min(values), 3), "max": round(max(values), 3)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pack", action="append", default=[], help="pack id (repeatable)")
    ap.add_argument("--packs", type=Path, default=REPO / "packs")
    ap.add_argument("--trials", type=int, default=3)
    ap.add_argument("--lanes", type=int, default=1)
    ap.add_argument("--runs-dir", type=Path, default=None)
    args = ap.parse_args(argv)
    runs_dir = args.runs_dir or Path(tempfile.mkdtemp(prefix="bench-runs-"))
    with claims_dev.start_dev(lanes=args.lanes, app=True, runtime="reference",
                        baseline_path=args.packs / "baseline.json") as env:
        profile = harness.load_profile("reference").with_lanes([
            harness.Lane(name=ln.name, base_url=ln.base_url or "", seed_url=ln.seed_url,
                         database=ln.database) for ln in env.lanes])
        config = RunConfig(corpora=[str(args.packs)], packs=args.pack or ["CTL-M-001"],
                           trials=args.trials, lanes=args.lanes)
        ctx = harness.RunContext(profile=profile, runs_dir=runs_dir, seed_token=env.seed_token,
                                 progress=print)
        record, run_dir = harness.run(config, ctx)
    rows = [measure_trial(run_dir / t.path) for t in record.trials
            if is_finished_trial(run_dir / t.path)]
    product = sum(r["product_wait_s"] for r in rows)
    total = sum(r["journey_s"] for r in rows)
    waits = []
    for t in record.trials:
        result = read_trial_result(run_dir / t.path)
        waits += result.turn_times_s
    report = {
        "run": str(run_dir), "trials": len(rows),
        "journey_s": _stats([r["journey_s"] for r in rows]),
        "per_turn_s": _stats([r["per_turn_s"] for r in rows]),
        "product_reply_wait_per_turn_s": _stats(waits),
        "harness_overhead_per_journey_s": _stats([r["harness_overhead_s"] for r in rows]),
        "overhead_in_loop_per_turn_s": _stats([r["overhead_in_loop_s"] / r["turns"]
                                               for r in rows if r["turns"]]),
        "product_share_of_wall_time": round(product / total, 3) if total else None,
        "per_trial": rows,
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
