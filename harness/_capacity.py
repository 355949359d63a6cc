"""How many lanes one machine sustains (``run --lanes auto``).

A lane plays one trial at a time. Its trial keeps the machine busy only part of its time:
the rest is the customer thinking (``--pace``, a model's answer) while the browser and the
product sit idle. So the lanes that fill the cores are

    cores × overcommit ÷ (CPU seconds per trial ÷ wall seconds per trial)

where a trial's wall time is its active time plus its answers × the think time per answer,
capped by memory: (available memory − a reserve) ÷ memory per lane. The overcommit is more
than 1 because a trial's own waits (the product's replies, the completion windows) stretch
when many lanes share the cores and leave them idle part of the time: on the bench, lanes
kept paying off up to about 1.6 times the count that the one-lane figures say fills the
cores. The per-trial figures are the reference app's, measured by
``scripts/bench_harness.py --lanes`` (docs/throughput.md shows the curve they come from); a
product of its own is better served by measuring it and passing ``--lanes N``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from claims_records import CustomerWork, ProfileError, RunConfig, read_acceptance

# Measured on the reference app (docs/throughput.md): per trial of 20 packs spread over the
# corpus.
CPU_S_PER_TRIAL = 4.3
"""CPU seconds of one trial, harness, browser and product together."""
ACTIVE_S_PER_TRIAL = 2.5
"""Wall seconds of one trial on one lane with a customer that answers at once."""
ANSWERS_PER_TRIAL = 9.2
"""Customer answers in a trial (the opening message not counted)."""
MEMORY_MB_PER_LANE = 200.0
"""Memory one more lane takes: its product, its store databases, its browser context."""
MEMORY_RESERVE_MB = 2048.0
CORES_OVERCOMMIT = 1.5
"""Lanes are asked to keep this many times the cores busy by the one-lane figures (see
above); the bench's best count lies between 1.3 and 2 times."""
MAX_LANES = 32


@dataclass(frozen=True)
class LaneChoice:
    """The lanes ``--lanes auto`` picked, and why, in one line."""

    lanes: int
    why: str


def _memory_mb() -> float | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def auto_lanes(think_s: float, cores: int | None = None, memory_mb: float | None = None
               ) -> LaneChoice:
    """The lanes for a customer that thinks ``think_s`` seconds per answer, on ``cores``
    cores with ``memory_mb`` available (default: this machine's)."""
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
            os.cpu_count() or 1)
    if memory_mb is None:
        memory_mb = _memory_mb()
    wall = ACTIVE_S_PER_TRIAL + ANSWERS_PER_TRIAL * max(0.0, think_s)
    busy = CPU_S_PER_TRIAL / wall  # cores one lane keeps busy
    by_cpu = cores * CORES_OVERCOMMIT / busy
    by_memory = (float("inf") if memory_mb is None
                 else (memory_mb - MEMORY_RESERVE_MB) / MEMORY_MB_PER_LANE)
    lanes = max(1, min(MAX_LANES, int(min(by_cpu, by_memory))))
    limit = ("memory" if by_memory < by_cpu else "cores") if min(by_cpu, by_memory) < MAX_LANES \
        else f"the most lanes a run starts ({MAX_LANES})"
    mem = "unknown" if memory_mb is None else f"{memory_mb / 1024:.1f} GiB"
    return LaneChoice(lanes, f"{lanes} lane(s): {cores} core(s), {mem} available, "
                             f"{think_s:g} s to think per answer; one lane keeps "
                             f"{busy:.2f} core(s) busy; limited by {limit}")


# A person's typical answer, for --pace human: the reply read before it and what is typed.
TYPICAL_REPLY_WORDS = 25
TYPICAL_ANSWER_CHARS = 40
MODEL_THINK_S = 3.0
"""A model customer's answer when nothing better is known: a few seconds (a hosted model, a
small local one on a busy machine)."""


def think_time_s(pace: float | str | None, customer: str, corpus_root: str) -> float:
    """Seconds the customer thinks per answer, as the run is configured."""
    if isinstance(pace, int | float):
        return float(pace)
    if pace == "human":
        model = read_acceptance(Path(corpus_root))[0].report_duration.customer_time
        return model.seconds(CustomerWork(words_read=TYPICAL_REPLY_WORDS,
                                          chars_typed=TYPICAL_ANSWER_CHARS, actions=1))
    return MODEL_THINK_S if customer == "llm" else 0.0


def resolve_lanes(config: RunConfig) -> tuple[RunConfig, LaneChoice | None]:
    """``config`` with ``lanes = "auto"`` replaced by the number this machine sustains (and
    the choice); other configurations unchanged (None)."""
    if config.lanes != "auto":
        return config, None
    if config.dev is None:
        raise ProfileError("--lanes auto starts lanes, so it needs --dev; a product you run "
                           "yourself has the lanes its profile lists", field="lanes")
    choice = auto_lanes(think_time_s(config.pace, config.customer, config.corpora[0]))
    return config.model_copy(update={"lanes": choice.lanes}), choice
