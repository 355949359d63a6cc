"""Chromium killed in the middle of a journey: that trial is a harness error ("browser
crash"), the browser is started again, and the trials after it complete."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from claims_records import TrialStatus

from .conftest import PACKS, profile_for, run_packs

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _our_browser_processes() -> list[int]:
    """This test process's own Chromium main processes (never another process's browser)."""
    found = []
    for pid in _descendants(os.getpid()):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        name = os.path.basename(cmd[0].decode(errors="replace")) if cmd and cmd[0] else ""
        if ("chrom" in name or "headless_shell" in name) and not any(
                a.startswith(b"--type=") for a in cmd):
            found.append(pid)
    return found


def _kill_when(journey: Path, lines: int, killed: list[int], stop: threading.Event) -> None:
    """SIGKILL the browser once ``journey`` has ``lines`` events (mid-journey)."""
    while not stop.is_set():
        try:
            if len(journey.read_text().splitlines()) >= lines:
                for pid in _our_browser_processes():
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                return
        except OSError:
            pass
        time.sleep(0.05)


@contextmanager
def _browser_killed_at(journey: Path) -> Iterator[list[int]]:
    """While the block runs, kill the browser once ``journey`` has 4 steps; yields the pids
    killed."""
    killed: list[int] = []
    stop = threading.Event()
    killer = threading.Thread(target=_kill_when, args=(journey, 4, killed, stop), daemon=True)
    killer.start()
    try:
        yield killed
    finally:
        stop.set()
        killer.join(5)


def test_a_killed_browser_costs_one_trial_and_is_started_again(dev_env, tmp_path):
    runs = tmp_path / "runs"
    with _browser_killed_at(runs / "crash" / "CTL-M-001" / "trial-2" / "journey.jsonl") as killed:
        record, run_dir = run_packs(dev_env, profile_for(dev_env), PACKS, runs,
                                    packs=["CTL-M-001"], trials=3, run_id="crash")
    assert killed, "the browser was never killed: the test did not test anything"
    by_trial = {t.trial: t for t in record.trials}
    assert by_trial[2].status == TrialStatus.HARNESS_ERROR
    assert by_trial[2].detail.startswith("browser crash"), by_trial[2].detail
    assert by_trial[1].status == TrialStatus.COMPLETED
    assert by_trial[3].status == TrialStatus.COMPLETED, by_trial[3].detail
    # the crashed trial keeps its evidence: the journey so far and its screenshots
    crashed = run_dir / "CTL-M-001" / "trial-2"
    assert len((crashed / "journey.jsonl").read_text().splitlines()) >= 4
    assert (crashed / "trial.json").is_file() and (crashed / "transcript.md").is_file()
    # the relaunched browser is closed with the run: nothing of ours is left running
    assert _our_browser_processes() == []


def test_retry_infra_runs_the_killed_browsers_trial_again(dev_env, tmp_path):
    runs = tmp_path / "runs"
    with _browser_killed_at(runs / "again" / "CTL-M-001" / "trial-1" / "journey.jsonl") as killed:
        record, run_dir = run_packs(dev_env, profile_for(dev_env), PACKS, runs,
                                    packs=["CTL-M-001"], trials=1, run_id="again",
                                    retry_infra=1)
    assert killed, "the browser was never killed: the test did not test anything"
    trial, = record.trials
    assert trial.status == TrialStatus.COMPLETED, trial.detail  # the last attempt counts
    assert trial.attempts == 2
    first, = trial.earlier_attempts
    assert first.status == TrialStatus.HARNESS_ERROR and first.detail.startswith("browser crash")
    assert first.path == "CTL-M-001/trial-1.attempt-1"
    # the first attempt's evidence is kept as it was: the journey so far, its record
    kept = run_dir / first.path
    assert len((kept / "journey.jsonl").read_text().splitlines()) >= 4
    assert (kept / "trial.json").is_file() and (kept / "transcript.md").is_file()
    assert '"attempt": 2' in (run_dir / trial.path / "trial.json").read_text()
    assert _our_browser_processes() == []
