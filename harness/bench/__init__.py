"""Measuring the harness: against a bare Playwright replay of the same journeys, and whole
runs on one or more lanes (``scripts/bench_harness.py`` is the command; docs/speed.md reads
its numbers)."""

from ._bench import MODES, BenchOptions, Sample, evidence_problems, run_bench, summarise
from ._cpu import tree_pss_mb
from ._lanes import measure_lanes
from ._replay import BareReplay, ReplayResult, recorded_actions

__all__ = [
    "MODES",
    "BareReplay",
    "BenchOptions",
    "ReplayResult",
    "evidence_problems",
    "Sample",
    "measure_lanes",
    "recorded_actions",
    "run_bench",
    "summarise",
    "tree_pss_mb",
]
