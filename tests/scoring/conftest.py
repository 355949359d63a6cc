"""Run records made by the real runner, for the scoring, report and smoke tests.

Each variant starts its own dev environment (embedded stores + reference app on loopback)
with the runtime and fault switches it needs, runs the scripted customer through the packs
with ``harness.run`` and stops everything again. Built once per test session, on demand.
"""

from __future__ import annotations

import concurrent.futures
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKS = REPO / "packs"

# The packs the smoke test drives: one per line (so every line's questions are covered), none
# needing review (so flagging everything is always wrong); two are innocent controls.
SMOKE_PACKS: tuple[str, ...] = ("CTL-M-001", "CTL-H-001", "CTL-C-002")

# name -> (runtime, faults, self_test)
VARIANTS: dict[str, tuple[str, tuple[str, ...], bool]] = {
    "reference": ("reference", (), False),
    "flag_everything": ("reference", ("flag_everything",), False),
    "ask_twice": ("reference", ("ask_twice",), False),
    "lose_fact": ("reference", ("lose_fact",), False),
    "controlled": ("controlled", (), True),
    "pressure": ("reference", (), False),
    "drop_questions": ("reference", ("drop_questions",), False),
}
# The packs whose customer asks a question (C-008) and asks for a person (H-014) mid-journey.
PRESSURE_PACKS: tuple[str, ...] = ("CTL-C-008", "CTL-H-014")
# Variants that run other packs than the smoke packs.
VARIANT_PACKS: dict[str, tuple[str, ...]] = {"pressure": PRESSURE_PACKS,
                                             "drop_questions": PRESSURE_PACKS}


@dataclass
class RealRuns:
    root: Path
    logs: Path
    packs: tuple[str, ...]
    _done: dict[str, Path]

    def get(self, name: str) -> Path:
        """The run folder of one variant, running it the first time it is asked for."""
        if name not in self._done:
            self._done[name] = _run_variant(self, name)
        return self._done[name]


def _run_variant(runs: RealRuns, name: str) -> Path:
    import claims_dev
    import harness
    from claims_records import RunConfig

    runtime, faults, self_test = VARIANTS[name]
    with claims_dev.start_dev(lanes=1, app=True, runtime=runtime, faults=faults,
                        baseline_path=PACKS / "baseline.json",
                        log_dir=runs.logs / name) as env:
        profile = harness.load_profile("reference").with_lanes([
            harness.Lane(name=ln.name, base_url=ln.base_url, seed_url=ln.seed_url,
                         database=ln.database) for ln in env.lanes])
        config = RunConfig(corpora=[str(PACKS)],
                           packs=list(VARIANT_PACKS.get(name, runs.packs)), trials=1,
                           self_test=self_test, turn_limit=30,
                           tracing="on" if name == "reference" else "off")
        ctx = harness.RunContext(profile=profile, runs_dir=runs.root, run_id=name,
                                 seed_token=env.seed_token)
        # its own thread: a test's sync Playwright may already run an event loop in this one
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            _, run_dir = pool.submit(harness.run, config, ctx).result()
    return run_dir


@pytest.fixture(scope="session")
def real_runs(tmp_path_factory) -> RealRuns:
    missing = [p for p in SMOKE_PACKS if not (PACKS / p / "oracle" / "labels.json").is_file()]
    if missing:
        pytest.fail(f"smoke packs missing from the corpus: {missing}")
    return RealRuns(root=tmp_path_factory.mktemp("real-runs"),
                    logs=tmp_path_factory.mktemp("real-run-logs"), packs=SMOKE_PACKS,
                    _done={})
