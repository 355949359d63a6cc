"""Bench the harness against a bare Playwright replay of the same journeys (one run).

    python scripts/bench_harness.py                       # CTL-M-001 + CTL-M-003, 3 rounds
    python scripts/bench_harness.py --pack CTL-M-001 --repeats 5 --out bench.json
    python scripts/bench_harness.py --profile kestrel --pack CTL-M-001
    python scripts/bench_harness.py --lanes 1 --lanes 2   # whole corpus on 1 and 2 lanes
    python scripts/bench_harness.py --pace 2 --sample 20 --lanes 1 --lanes 2 --lanes 4 \
        --lanes 8 --lanes 16                             # a paced customer: where it stops scaling

Starts the profile's product in a dev environment, measures, stops everything. Prints one
line per measured journey and a summary; --out writes the whole report as JSON. See
docs/speed.md for what is measured and how to read it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import claims_corpus  # noqa: E402
from harness.bench import BenchOptions, measure_lanes, run_bench  # noqa: E402

DEFAULT_PACKS = ["CTL-M-001", "CTL-M-003"]  # an anonymous pack and a sign-in (account) pack


def _summary(report: dict) -> list[str]:
    lines = [f"profile {report['profile']}, {report['repeats']} round(s), browser "
             f"{report.get('browser')}, load {report.get('load_average_before')}"]
    for pack, data in report["packs"].items():
        med, rat = data["medians"], data["ratios_to_bare"]
        lines.append(f"{pack} ({data['recording']['actions']} actions, "
                     f"{data['recording']['status']}):")
        for mode in ("full", "off", "bare", "bare_ev", "decide"):
            if mode not in med:
                continue
            m = med[mode]
            cpu = m["harness_cpu_s"]["median"] if m["harness_cpu_s"] else None
            tot = m["total_cpu_s"]["median"] if m["total_cpu_s"] else None
            line = f"  {mode:4s} wall {m['wall_s']['median']:6.2f}s  CPU-s harness {cpu}  " \
                   f"with product {tot}"
            if mode in rat and rat[mode]["wall"]:
                r = rat[mode]
                line += (f"   x bare: wall {r['wall']['median']:.2f} "
                         f"[{r['wall']['min']:.2f}-{r['wall']['max']:.2f}]")
                if r["harness_cpu"]:
                    line += (f", CPU {r['harness_cpu']['median']:.2f} "
                             f"[{r['harness_cpu']['min']:.2f}-{r['harness_cpu']['max']:.2f}]")
            lines.append(line)
        ev = rat.get("full_to_bare_ev")
        if ev and ev["wall"]:
            lines.append(f"  full x bare_ev (the replay keeping the same evidence): wall "
                         f"{ev['wall']['median']:.2f} [{ev['wall']['min']:.2f}-"
                         f"{ev['wall']['max']:.2f}]"
                         + (f", CPU {ev['total_cpu']['median']:.2f}" if ev["total_cpu"] else ""))
    for problem in report["problems"]:
        lines.append(f"PROBLEM: {problem}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="reference", help="profile name or TOML path")
    ap.add_argument("--packs", type=Path, default=REPO / "packs", help="corpus folder")
    ap.add_argument("--pack", action="append", default=[], help="pack id (repeatable)")
    ap.add_argument("--repeats", type=int, default=3, help="measured rounds per pack")
    ap.add_argument("--lanes", type=int, action="append", default=[],
                    help="instead: run the corpus (or --pack) once on N lanes (repeatable)")
    ap.add_argument("--trials", type=int, default=1, help="with --lanes: trials per pack")
    ap.add_argument("--pace", type=float, default=None,
                    help="with --lanes: the customer takes at least this many seconds per answer")
    ap.add_argument("--sample", type=int, default=None,
                    help="with --lanes and no --pack: N packs spread evenly over the corpus")
    ap.add_argument("--browser-executable", default=None)
    ap.add_argument("--keep", type=Path, default=None, help="keep measured trial records here")
    ap.add_argument("--out", type=Path, default=None, help="write the report as JSON here")
    args = ap.parse_args(argv)
    if args.lanes:
        every = [p.name for p in claims_corpus.list_packs(args.packs)]
        step = max(1, len(every) // args.sample) if args.sample else 1
        packs = args.pack or every[::step][:args.sample]
        report = measure_lanes(args.packs, packs, args.lanes, profile=args.profile,
                               trials=args.trials, browser_executable=args.browser_executable,
                               pace=args.pace, progress=print)
        print(json.dumps({k: v for k, v in report.items()}, indent=2))
    else:
        report = run_bench(BenchOptions(packs_root=args.packs, pack_ids=args.pack or
                                        DEFAULT_PACKS, profile=args.profile,
                                        repeats=args.repeats,
                                        browser_executable=args.browser_executable,
                                        keep=args.keep, progress=print))
        print("\n".join(_summary(report)))
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 1 if report.get("problems") else 0


if __name__ == "__main__":
    raise SystemExit(main())
