"""A scheduler's stop (SIGTERM) or Ctrl-C ends a long-running command (``selftest defects``,
``nightly``, ``selftest simulator``; ``run`` and ``dev up`` have their own) with what it
started stopped: exit 130, a line saying so, no process of its own left behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.claims_dev._procs import (
    STOP_WAIT_S,
    descendants,
    still_alive,
    stop_command,
    wait_stopped,
)

PACKS = Path(__file__).resolve().parents[2] / "packs"


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["term", "ctrl-c"])
def test_a_stopped_panel_leaves_no_server_running(tmp_path, sig):
    panel_dir = tmp_path / "runs" / "panel"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from claims_cli import main; main()", "selftest", "defects",
         "--packs", str(PACKS), "--fault", "wrong_triage", "--packs-per-fault", "1",
         "--runs-dir", str(tmp_path / "runs"), "--panel-id", "panel"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    children: set[int] = set()
    try:
        # the stores and the clean run's reference app are up: at least three processes
        deadline = time.monotonic() + STOP_WAIT_S
        while time.monotonic() < deadline and proc.poll() is None:
            children = descendants(proc.pid)
            if (panel_dir / "logs" / "clean").is_dir() and len(children) >= 3:
                break
            time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()
        assert len(children) >= 3, f"the panel started {len(children)} process(es)"
        proc.send_signal(sig)
        out, err = wait_stopped(proc, f"'selftest defects' after {signal.Signals(sig).name}")
    finally:
        stop_command(proc, children)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
    assert "interrupted; exit code 130; the panel's app and stores are stopped" in err
    assert still_alive(children) == []
    assert "Panel PASSED" not in out and "Panel FAILED" not in out


@pytest.mark.slow
@pytest.mark.browser
def test_a_stopped_night_leaves_no_server_running(tmp_path):
    """``nightly`` with [dev]: SIGTERM stops its reference app and stores, exit 130."""
    config = tmp_path / "nightly.toml"
    config.write_text(
        f'name = "stopped-night"\nruns_dir = "runs"\ncorpora = ["{PACKS}"]\n'
        'packs = ["CTL-M-001", "CTL-H-001"]\ntrials = 3\nlanes = 1\ntracing = "off"\n'
        '[dev]\nruntime = "reference"\n', encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-c", "from claims_cli import main; main()", "nightly", str(config),
         "--night-id", "n1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"}, cwd=tmp_path)
    children: set[int] = set()
    try:
        deadline = time.monotonic() + STOP_WAIT_S
        trial = tmp_path / "runs" / "n1" / "CTL-M-001" / "trial-1"
        while time.monotonic() < deadline and proc.poll() is None:
            children = descendants(proc.pid)
            if trial.is_dir() and len(children) >= 3:
                break
            time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()
        assert len(children) >= 3, f"the night started {len(children)} process(es)"
        proc.send_signal(signal.SIGTERM)
        out, err = wait_stopped(proc, "'nightly' after SIGTERM")
    finally:
        stop_command(proc, children)
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err, err
    assert still_alive(children) == []


def test_a_stopped_simulator_panel_closes_its_stand_in(monkeypatch):
    """``selftest simulator`` starts no process (its stand-in model is a thread); SIGTERM in the
    middle of the panel closes the stand-in and exits 130 with one line."""
    from typer.testing import CliRunner

    from claims_cli import app
    from harness import panel

    seen: dict[str, object] = {}
    real_close = panel.StandIn.close

    def close(self):
        seen["closed"] = True
        real_close(self)

    def terminated(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGTERM)  # what a scheduler's timeout sends
        time.sleep(5)
        raise AssertionError("SIGTERM did not stop the panel")

    monkeypatch.setattr(panel.StandIn, "close", close)
    monkeypatch.setattr(panel, "run_panel", terminated)
    result = CliRunner().invoke(app, ["selftest", "simulator", "--stand-in", "well_behaved",
                                      "--packs", str(PACKS), "--pack", "CTL-M-001"])
    assert result.exit_code == 130, result.output
    assert "interrupted; exit code 130; nothing was written" in result.output
    assert seen.get("closed") is True
