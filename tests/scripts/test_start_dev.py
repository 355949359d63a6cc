"""A manual run as a new user makes one: scripts/start-dev.sh from a shell with no virtual
environment active, then the `run` command it prints (no --dev, no URL flag) finds the running
stack, then score and report; `run --base-url` reaches the same product by its URL; stopping
start-dev leaves nothing running and no stack file."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.claims_dev._procs import (
    STOP_WAIT_S,
    descendants,
    group_members,
    read_until,
    still_alive,
    stop_command,
    wait_stopped,
)

REPO = Path(__file__).resolve().parents[2]
# What `dev up` writes into its env file, and where `run` looks for a stack: a fresh shell has
# none of them.
_DEV_VARS = re.compile(r"CLAIMS_HARNESS_(MONGO_URI|S3_\w+|SEED_TOKEN|LANES?\w*|STACK_FILE)$")


def _fresh_shell_env() -> dict[str, str]:
    """This environment as a new shell would have it: no virtual environment active, no dev
    variables. The scripts' rule then picks ./.venv; a test run from another virtual
    environment names that one instead (setup-env.sh uses an active one as it is)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONHOME") and not _DEV_VARS.match(k)}
    prefix_bin = str(Path(sys.prefix) / "bin")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if p and Path(p) != Path(prefix_bin))
    if Path(sys.prefix).resolve() != (REPO / ".venv").resolve():
        env["VIRTUAL_ENV"] = sys.prefix
    env["PYTHONUNBUFFERED"] = "1"
    return env


@pytest.mark.slow
@pytest.mark.browser
def test_start_dev_then_run_with_no_url_flags_then_score_report_and_stop(tmp_path):
    env = _fresh_shell_env()
    env_file = tmp_path / "dev.env"
    stack_file = tmp_path / ".claims-harness.stack.json"
    proc = subprocess.Popen(
        ["bash", str(REPO / "scripts" / "start-dev.sh"), "--env-file", str(env_file)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True, env=env)
    children: set[int] = set()
    try:
        printed = "\n".join(read_until(proc, "ready", timeout=STOP_WAIT_S))
        children = descendants(proc.pid)
        app_url = re.search(r"lane1\s+app\s+(http://127\.0\.0\.1:\d+)", printed).group(1)
        assert not app_url.endswith(":8000")  # a free port, not the profile's
        assert stack_file.is_file() and Path(f"{env_file}.ps1").is_file()
        assert f"with CLAIMS_HARNESS_STACK_FILE={stack_file}" in printed
        command = re.search(r"^\s+(\S.*claims-harness) run --pack CTL-M-001$", printed,
                            re.MULTILINE)
        assert command, printed
        exe = shlex.split(command.group(1))
        runs = tmp_path / "runs"

        # the printed command, from the repository as printed, in a new shell: no URL flag
        run = subprocess.run(
            [*exe, "run", "--pack", "CTL-M-001", "--runs-dir", str(runs)], cwd=REPO,
            env={**env, "CLAIMS_HARNESS_STACK_FILE": str(stack_file)}, capture_output=True,
            text=True, timeout=STOP_WAIT_S)
        assert run.returncode == 0, run.stdout + run.stderr
        assert f"running stack of dev up (pid {proc.pid}): {app_url}" in run.stdout
        assert "1 completed" in run.stdout, run.stdout
        (run_dir,) = [p for p in runs.iterdir() if p.is_dir()]
        for step in (["score", str(run_dir)], ["report", str(run_dir)]):
            done = subprocess.run([*exe, *step], cwd=REPO, env=env, capture_output=True,
                                  text=True, timeout=STOP_WAIT_S)
            assert done.returncode == 0, done.stdout + done.stderr
        assert (run_dir / "summary.json").is_file()
        assert (run_dir / "report" / "index.html").is_file()

        # --base-url names the product itself; no stack file is looked at (none here)
        token = dict(line.split("=", 1) for line in env_file.read_text().splitlines()
                     if line)["CLAIMS_HARNESS_SEED_TOKEN"]
        direct = subprocess.run(
            [*exe, "run", "--pack", "CTL-M-001", "--packs", str(REPO / "packs"), "--runs-dir",
             str(runs), "--base-url", app_url], cwd=tmp_path,
            env={**env, "CLAIMS_HARNESS_SEED_TOKEN": token}, capture_output=True, text=True,
            timeout=STOP_WAIT_S)
        assert direct.returncode == 0, direct.stdout + direct.stderr
        assert "running stack" not in direct.stdout and "1 completed" in direct.stdout

        proc.send_signal(signal.SIGINT)
        rest = wait_stopped(proc, "scripts/start-dev.sh after Ctrl-C")[0]
    finally:
        stop_command(proc, children)
    assert proc.returncode == 0, rest
    assert "stopped" in rest
    assert still_alive(children) == []
    assert group_members(proc.pid) == set()
    assert not stack_file.exists()
