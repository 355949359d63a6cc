"""claims-harness dev up: prints the URLs, the health endpoint answers, Ctrl-C leaves nothing."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_records import DEV_STACK_FILE, DevStack
from seed import SeedClient
from tests.claims_dev._procs import (
    STOP_WAIT_S,
    descendants,
    group_members,
    read_until,
    still_alive,
    stop_command,
    wait_stopped,
)


def _env_file(path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if line)


@pytest.mark.slow
@pytest.mark.parametrize("stop_signals", [[signal.SIGINT], [signal.SIGTERM],
                                          [signal.SIGINT, signal.SIGINT]],
                         ids=["ctrl-c", "term", "ctrl-c-twice"])
def test_dev_up_prints_urls_answers_health_and_stops_everything(tmp_path, stop_signals):
    env_file = tmp_path / "dev.env"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from claims_cli import main; main()", "dev", "up", "--no-app",
         "--lanes", "2", "--env-file", str(env_file), "--log-dir", str(tmp_path / "logs")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    children: set[int] = set()
    try:
        lines = read_until(proc, "ready", timeout=STOP_WAIT_S)
        children = descendants(proc.pid)
        printed = "\n".join(lines)
        seed_urls = re.findall(r"seed (http://127\.0\.0\.1:\d+/_harness/seed)", printed)
        assert len(seed_urls) == 2
        assert re.search(r"MongoDB\s+mongodb://127\.0\.0\.1:\d+/", printed)
        assert re.search(r"S3\s+http://127\.0\.0\.1:\d+", printed)
        values = _env_file(env_file)
        assert values["CLAIMS_HARNESS_LANE1_SEED_URL"] == seed_urls[0]
        assert values["CLAIMS_HARNESS_LANE2_DATABASE"] == "claims_dev_lane2"
        assert values["CLAIMS_HARNESS_SEED_TOKEN"] not in printed  # the token stays in the file
        stack = DevStack.model_validate_json((tmp_path / DEV_STACK_FILE).read_text())
        assert (stack.pid, stack.product, [ln.seed_url for ln in stack.lanes]) == (
            proc.pid, "seed_route", seed_urls)
        assert values["CLAIMS_HARNESS_SEED_TOKEN"] not in (tmp_path / DEV_STACK_FILE).read_text()
        assert (tmp_path / "dev.env.ps1").read_text().startswith("$env:CLAIMS_HARNESS_")
        for i, url in enumerate(seed_urls, start=1):
            with SeedClient(url, values["CLAIMS_HARNESS_SEED_TOKEN"], timeout=10) as client:
                assert client.health() == {"ok": True, "database": f"claims_dev_lane{i}",
                                           "bucket": f"claims-dev-lane{i}"}
        assert len(children) >= 2  # SecantusDB and the S3 server at least

        for sig in stop_signals:
            proc.send_signal(sig)
            time.sleep(0.3)
        # stopping two lanes' seed routes and both stores: seconds when the machine is quiet,
        # much longer when it is busy; wait for the command itself, not for a guess at that
        names = "+".join(signal.Signals(s).name for s in stop_signals)
        rest = wait_stopped(proc, f"'claims-harness dev up' after {names}")[0]
    finally:
        stop_command(proc, children)
    assert proc.returncode == 0, rest
    assert "stopped" in rest
    assert still_alive(children) == []
    assert group_members(proc.pid) == set()
    assert not (tmp_path / DEV_STACK_FILE).exists()  # removed on stop


def test_dev_up_rejects_an_unknown_runtime():
    result = CliRunner().invoke(app, ["dev", "up", "--no-app", "--runtime", "magic"])
    assert result.exit_code == 2
    assert "runtime=magic" in result.output


def test_dev_up_rejects_zero_lanes():
    result = CliRunner().invoke(app, ["dev", "up", "--lanes", "0"])
    assert result.exit_code == 2


def test_start_dev_script_wraps_dev_up():
    root = Path(__file__).resolve().parents[2]
    # the script runs the claims-harness on PATH: this Python's, whether or not it is active
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    result = subprocess.run([str(root / "scripts" / "start-dev.sh"), "--help"],
                            capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PATH": path})
    assert result.returncode == 0, result.stderr
    assert "--lanes" in result.stdout and "--no-app" in result.stdout
    assert "claims-harness dev up" in (root / "scripts" / "start-dev.ps1").read_text()
