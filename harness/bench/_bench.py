"""The harness against a bare Playwright replay of the same journey, in one run.

For each pack: one harness trial records the journey (and warms everything up), one bare
replay warms up, then ``repeats`` rounds each measure three ways, in an order that rotates
from round to round so that load drifting on a shared machine falls on all three alike:

``full``  a harness trial with all its evidence (screenshots, HAR, staff side, state dumps);
``off``   a harness trial with evidence off (screen reading, decisions, journey record);
``bare``  the recorded actions replayed with plain Playwright (``_replay``);
``bare_ev`` the same replay keeping the customer side's evidence (the HAR and a screenshot
          after every reply), as a hand-written test that keeps evidence would.

A pack with a staff script adds a fourth, ``decide``: the full trial followed by the staff
decision and the customer's return. The bare replay has no such phase, so ``full`` leaves it
out (``TrialSettings(decisions=False)``) and ``decide`` shows what the phase adds.

All three share one browser, one product lane and its reset before every journey. Each
measurement is the wall time of the whole journey (reset included) and the CPU seconds of
the harness side (Python, Playwright's driver, Chromium) and of the product side. Ratios are
taken within a round (full / bare, off / bare) and summarised over rounds, so the spread says
how steady the machine was.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from claims_corpus import CustomerView
from claims_records import JOURNEY_FILE, TrialResult

from .._dev import dev_product
from ..browser import launch_browser
from ..customers import Customer, make_customer
from ..profile import Lane, Profile, load_profile
from ..reset import ResetAdapter, make_reset, setup_and_files
from ..staff import StaffSession
from ..trial import TrialRig, TrialSettings, run_trial
from . import _cpu
from ._replay import BareReplay, recorded_actions

MODES = ("full", "off", "bare", "bare_ev")


@dataclass
class Sample:
    """One measured journey."""

    pack_id: str
    mode: str
    round: int
    wall_s: float
    harness_cpu_s: float | None
    product_cpu_s: float | None
    status: str
    actions: int
    claim_number: str | None = None


@dataclass
class BenchOptions:
    packs_root: Path
    pack_ids: list[str]
    profile: str = "reference"
    repeats: int = 3
    browser_executable: str | None = None
    keep: Path | None = None  # keep every measured trial's record here (default: removed)
    progress: Callable[[str], None] = lambda line: None


@dataclass
class _Bench:
    options: BenchOptions
    profile: Profile
    lane: Lane
    reset: ResetAdapter
    work: Path
    samples: list[Sample] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


T = TypeVar("T")


async def _measure(coro_factory: Callable[[], Awaitable[T]]
                   ) -> tuple[T, float, _cpu.CpuReading | None]:
    before, t0 = _cpu.read(), time.perf_counter()
    value = await coro_factory()
    wall = time.perf_counter() - t0
    after = _cpu.read()
    used = after - before if before is not None and after is not None else None
    return value, wall, used


async def _pack(b: _Bench, browser: Any, staff: StaffSession, replay: BareReplay,
                replay_ev: BareReplay, pack_id: str) -> dict[str, Any]:
    opts, packs = b.options, Path(b.options.packs_root)
    confirm = list(b.profile.customer_screen.confirm_labels)

    def factory(view: CustomerView, pack_dir: Path) -> Customer:
        return make_customer("scripted", view, pack_dir, None, confirm_labels=confirm,
                             money=b.profile.money())

    async def harness_trial(mode: str, n: int) -> TrialResult:
        folder = b.work / pack_id / f"{mode}-{n}"
        settings = TrialSettings(evidence=mode != "off", decisions=mode == "decide")
        rig = TrialRig(browser, b.profile, b.lane, b.reset, factory, settings, staff)
        return await run_trial(rig, packs / pack_id, n, folder)

    record = await harness_trial("record", 1)
    journey = b.work / pack_id / "record-1" / JOURNEY_FILE
    actions = len(recorded_actions(journey))
    opts.progress(f"{pack_id}: recorded {actions} actions ({record.status.value}, "
                  f"{record.duration_s:.1f}s)")
    warm = await replay.run(pack_id, journey)
    if record.claim_number and not warm.claim_number:
        b.problems.append(f"{pack_id}: the bare replay showed no claim number")
    modes = MODES + (("decide",) if _has_staff_script(packs / pack_id) else ())
    for rnd in range(opts.repeats):
        order = modes[rnd % len(modes):] + modes[:rnd % len(modes)]
        for mode in order:
            if mode in ("bare", "bare_ev"):
                player = replay if mode == "bare" else replay_ev
                res, wall, cpu = await _measure(partial(player.run, pack_id, journey))
                status = "completed" if res.claim_number or not record.claim_number else \
                    "no claim number"
                sample = Sample(pack_id, mode, rnd, wall, *_split(cpu), status, res.actions,
                                res.claim_number)
            else:
                trial, wall, cpu = await _measure(partial(harness_trial, mode, rnd + 1))
                done = recorded_actions(b.work / pack_id / f"{mode}-{rnd + 1}" / JOURNEY_FILE)
                sample = Sample(pack_id, mode, rnd, wall, *_split(cpu), trial.status.value,
                                len(done), trial.claim_number)
            if mode == "bare_ev":
                har = (b.work / "bare-evidence" / pack_id / "network.har").is_file()
                if res.shots != res.actions + 1 or not har:
                    b.problems.append(f"{pack_id} bare_ev round {rnd + 1}: {res.shots} "
                                      f"screenshot(s) for {res.actions} actions, HAR "
                                      f"{'kept' if har else 'missing'}")
            if mode in ("full", "decide"):
                b.problems += [f"{pack_id} {mode} round {rnd + 1}: {p}" for p in
                               evidence_problems(b.work / pack_id / f"{mode}-{rnd + 1}")]
            if mode == "decide" and not (b.work / pack_id / f"decide-{rnd + 1}" /
                                         "decision.json").is_file():
                b.problems.append(f"{pack_id} decide round {rnd + 1}: no decision.json")
            if sample.status != record.status.value or sample.actions != actions:
                b.problems.append(f"{pack_id} {mode} round {rnd + 1}: {sample.status} after "
                                  f"{sample.actions} actions (recorded: {record.status.value} "
                                  f"after {actions})")
            b.samples.append(sample)
            opts.progress(f"{pack_id} round {rnd + 1} {mode:4s}: {wall:6.2f}s wall, "
                          f"{_fmt(sample.harness_cpu_s)} CPU-s harness side, "
                          f"{_fmt(sample.product_cpu_s)} product")
    return {"recording": {"status": record.status.value, "actions": actions,
                          "steps": record.steps, "claim_number": record.claim_number},
            **summarise([s for s in b.samples if s.pack_id == pack_id])}


def _has_staff_script(pack_dir: Path) -> bool:
    return setup_and_files(pack_dir)[0].staff_script is not None


def evidence_problems(folder: Path) -> list[str]:
    """What a full-evidence trial folder lacks: a screenshot for every step, the HAR, the
    transcript, the state dumps, a staff reading that found the claim with its screenshots."""
    from claims_records import StaffReading, read_journey

    problems = []
    for name in ("network.har", "transcript.md", "state-before.json", "state-after.json"):
        if not (folder / name).is_file():
            problems.append(f"no {name}")
    for event in read_journey(folder):
        if event.screen is None:
            continue  # the reset note
        if not event.screenshot or not (folder / event.screenshot).is_file():
            problems.append(f"step {event.step} has no screenshot")
    staff = StaffReading.model_validate_json((folder / "staff.json").read_text("utf-8"))
    if not staff.available:
        return problems
    if staff.error or (staff.claim_number and not staff.found):
        problems.append(f"staff side not read: {staff.error or 'claim not found'}")
    if not staff.screenshots or not all((folder / s).is_file() for s in staff.screenshots):
        problems.append("staff screenshots missing")
    return problems


def _split(cpu: _cpu.CpuReading | None) -> tuple[float | None, float | None]:
    if cpu is None:
        return None, None
    return round(cpu.harness, 3), round(cpu.product, 3)


def _fmt(value: float | None) -> str:
    return "  n/a" if value is None else f"{value:5.2f}"


def _spread(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"median": round(statistics.median(values), 3), "min": round(min(values), 3),
            "max": round(max(values), 3), "n": len(values)}


def summarise(samples: list[Sample]) -> dict[str, Any]:
    """Medians per mode, and per-round ratios of each harness mode to the bare replay."""
    by = {(s.mode, s.round): s for s in samples}
    rounds = sorted({s.round for s in samples})
    medians = {}
    for mode in (*MODES, "decide"):
        mine = [s for s in samples if s.mode == mode]
        if not mine and mode == "decide":
            continue
        medians[mode] = {
            "wall_s": _spread([s.wall_s for s in mine]),
            "harness_cpu_s": _spread([s.harness_cpu_s for s in mine
                                      if s.harness_cpu_s is not None]),
            "total_cpu_s": _spread([s.harness_cpu_s + s.product_cpu_s for s in mine
                                    if s.harness_cpu_s is not None
                                    and s.product_cpu_s is not None]),
        }
    ratios = {}
    for mode, yardstick in (("full", "bare"), ("off", "bare"), ("full_to_bare_ev", "bare_ev")):
        wall, cpu, total = [], [], []
        for r in rounds:
            h, bare = by.get((mode.split("_to_")[0], r)), by.get((yardstick, r))
            if h is None or bare is None:
                continue
            wall.append(h.wall_s / bare.wall_s)
            if h.harness_cpu_s is not None and bare.harness_cpu_s:
                cpu.append(h.harness_cpu_s / bare.harness_cpu_s)
                total.append((h.harness_cpu_s + (h.product_cpu_s or 0)) /
                             (bare.harness_cpu_s + (bare.product_cpu_s or 0)))
        ratios[mode] = {"wall": _spread(wall), "harness_cpu": _spread(cpu),
                        "total_cpu": _spread(total)}
    return {"medians": medians, "ratios_to_bare": ratios}


async def _run(options: BenchOptions, profile: Profile, lane: Lane, seed_token: str | None,
               work: Path) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    reset = make_reset(profile, lane, options.packs_root, seed_token)
    b = _Bench(options, profile, lane, reset, work)
    report: dict[str, Any] = {"packs": {}}
    try:
        async with async_playwright() as pw:
            browser = await launch_browser(pw, options.browser_executable)
            staff = StaffSession(browser, profile.staff_side(), lane,
                                 profile.browser.extra_headers())
            try:
                report["browser"] = browser.version
                replay = BareReplay(browser, profile, lane, reset, options.packs_root)
                replay_ev = BareReplay(browser, profile, lane, reset, options.packs_root,
                                       evidence=True, keep=work / "bare-evidence")
                for pack_id in options.pack_ids:
                    report["packs"][pack_id] = await _pack(b, browser, staff, replay,
                                                           replay_ev, pack_id)
            finally:
                await staff.close()
                await browser.close()
    finally:
        reset.close()
    report["problems"] = b.problems
    report["samples"] = [asdict(s) for s in b.samples]
    return report


def run_bench(options: BenchOptions) -> dict[str, Any]:
    """Start the profile's product in a dev environment (one lane), measure, stop it all."""
    profile = load_profile(options.profile)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    work = Path(tempfile.mkdtemp(prefix="claims-bench-"))
    try:
        with dev_product(profile, 1, Path(options.packs_root)) as (pointed, env):
            lane = pointed.resolved_lanes()[0]
            token = env.seed_token if pointed.reset.adapter == "seed_route" else None
            report = asyncio.run(_run(options, pointed, lane, token, work))
        if options.keep is not None:
            shutil.copytree(work, options.keep, dirs_exist_ok=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report.update(profile=profile.name, repeats=options.repeats,
                  cpu_measured=_cpu.available(), cpus=os.cpu_count(),
                  load_average_before=load,
                  load_average_after=os.getloadavg() if hasattr(os, "getloadavg") else None)
    return report
