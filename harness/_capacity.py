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
from urllib.parse import urlsplit

from claims_records import (
    MAX_LANES,
    CustomerWork,
    HarnessError,
    ProfileError,
    RunConfig,
    read_acceptance,
)

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


def auto_lanes(think_s: float, cores: int | None = None, memory_mb: float | None = None,
               model_cores: float = 0.0, model_mb: float = 0.0) -> LaneChoice:
    """The lanes for a customer that thinks ``think_s`` seconds per answer, on ``cores``
    cores with ``memory_mb`` available (default: this machine's). A model answering on this
    machine keeps ``model_cores`` cores busy while it thinks, and takes ``model_mb`` more
    memory per lane (a server of its own per lane): its time counts as the trial's CPU."""
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
            os.cpu_count() or 1)
    if memory_mb is None:
        memory_mb = _memory_mb()
    thinking = ANSWERS_PER_TRIAL * max(0.0, think_s)
    wall = ACTIVE_S_PER_TRIAL + thinking
    busy = (CPU_S_PER_TRIAL + thinking * model_cores) / wall  # cores one lane keeps busy
    by_cpu = cores * CORES_OVERCOMMIT / busy
    by_memory = (float("inf") if memory_mb is None
                 else (memory_mb - MEMORY_RESERVE_MB) / (MEMORY_MB_PER_LANE + model_mb))
    lanes = max(1, min(MAX_LANES, int(min(by_cpu, by_memory))))
    limit = ("memory" if by_memory < by_cpu else "cores") if min(by_cpu, by_memory) < MAX_LANES \
        else f"the most lanes a run starts ({MAX_LANES})"
    mem = "unknown" if memory_mb is None else f"{memory_mb / 1024:.1f} GiB"
    local = (f" on this machine ({model_cores:g} core(s) while it thinks)"
             if model_cores else "")
    return LaneChoice(lanes, f"{lanes} lane(s): {cores} core(s), {mem} available, "
                             f"{think_s:g} s to think per answer{local}; one lane keeps "
                             f"{busy:.2f} core(s) busy; limited by {limit}")


# A person's typical answer, for --pace human: the reply read before it and what is typed.
TYPICAL_REPLY_WORDS = 25
TYPICAL_ANSWER_CHARS = 40
MODEL_THINK_S = 3.0
"""A model customer's answer when nothing better is known: a few seconds (a hosted model, a
small local one on a busy machine)."""
LOCAL_MODEL_CORES = 1.0
"""Cores a model on this machine keeps busy while it answers: the embedded model's server
reads the prompt and generates on its threads, one per server when it serves several lanes
(``model serve --instances``, docs/llm-customer.md "Model time"). Its answers are CPU time of
the trial, not idle waiting: on two cores, lanes then stop at two or three."""
LOCAL_MODEL_MB = 450.0
"""Memory of one more embedded model server (one per lane), measured (PSS) on SmolLM2-135M
with an 8,192-token context."""
_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def model_on_this_machine(config: RunConfig) -> bool:
    """Whether the run's customer model answers on this machine (a loopback endpoint)."""
    if config.customer != "llm":
        return False
    from .customers import LlmSettings

    options = config.llm.model_dump() if config.llm else {}
    try:
        settings = LlmSettings.from_options(**{**options, "model": options.get("model") or "-"})
    except HarnessError:
        return False
    return (urlsplit(settings.base_url).hostname or "") in _LOOPBACK


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
    local = model_on_this_machine(config)
    choice = auto_lanes(think_time_s(config.pace, config.customer, config.corpora[0]),
                        model_cores=LOCAL_MODEL_CORES if local else 0.0,
                        model_mb=LOCAL_MODEL_MB if local else 0.0)
    return config.model_copy(update={"lanes": choice.lanes}), choice
