"""claims-harness dev up: prints the URLs, the health endpoint answers, Ctrl-C leaves nothing;
one stack per stack file; a process of the stack that dies is reported and refused by run."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_records import DEV_STACK_FILE, DevStack, StackLane
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


def test_dev_up_rejects_an_unknown_runtime_before_it_writes_anything(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in (["--runtime", "magic"], ["--name", "x", "--runtime", "magic"]):
        result = CliRunner().invoke(app, ["dev", "up", "--no-app", *args])
        assert result.exit_code == 2
        assert "runtime=magic" in result.output
        assert list(tmp_path.iterdir()) == []  # not even the stack file's claim


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


REPO = Path(__file__).resolve().parents[2]
_CLI = [sys.executable, "-c", "from claims_cli import main; main()"]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_second_dev_up_in_the_folder_is_refused_and_overwrites_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env_file = tmp_path / ".claims-harness.env"
    env_file.write_text("CLAIMS_HARNESS_SEED_TOKEN=first-token\n")
    Path(f"{env_file}.ps1").write_text("$env:CLAIMS_HARNESS_SEED_TOKEN = 'first-token'\n")
    first = DevStack(pid=os.getpid(), started_at="2026-12-03T06:00:00+00:00",
                     product="reference_app", runtime="reference",
                     mongo_uri="mongodb://127.0.0.1:1/", s3_endpoint="http://127.0.0.1:2",
                     env_file=str(env_file),
                     lanes=[StackLane(name="lane1", base_url="http://127.0.0.1:45678",
                                      seed_url="http://127.0.0.1:45678/_harness/seed",
                                      database="claims_dev_lane1", bucket="claims-dev-lane1")])
    (tmp_path / DEV_STACK_FILE).write_text(first.model_dump_json(indent=2) + "\n")
    before = _files(tmp_path)
    # the same files; the env file of a live stack under another stack file name
    for extra in ([], ["--env-file", str(env_file)], ["--stack-file", "other.json"]):
        result = CliRunner().invoke(app, ["dev", "up", "--no-app", *extra])
        assert result.exit_code == 2, result.output
        assert f"dev up pid {os.getpid()}" in result.output, result.output
        assert "lane1 app http://127.0.0.1:45678" in result.output
        assert "--name NAME" in result.output and "stopped" not in result.output
        assert _files(tmp_path) == before  # not a byte changed, nothing added


class _Lines:
    """The lines a command prints, read on a thread: waiting for one never blocks longer than
    asked."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.seen: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(proc,), daemon=True).start()

    def _read(self, proc: subprocess.Popen) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def until(self, marker: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self._queue.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            if marker in line:
                return line
        raise AssertionError(f"{marker!r} not printed within {timeout:.0f} s: {self.seen}")


def _dev_up(folder: Path, *args: str) -> tuple[subprocess.Popen, _Lines]:
    proc = subprocess.Popen([*_CLI, "dev", "up", *args], cwd=folder, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    return proc, _Lines(proc)


@pytest.mark.slow
def test_two_stacks_in_one_folder_then_a_killed_app_is_reported_and_refused(tmp_path,
                                                                              monkeypatch):
    first, first_out = _dev_up(tmp_path, "--log-dir", str(tmp_path / "logs-1"))
    second = None
    children: set[int] = set()
    try:
        first_out.until("ready", STOP_WAIT_S)
        children = descendants(first.pid)
        app_url = re.search(r"lane1\s+app\s+(http://\S+)", "\n".join(first_out.seen)).group(1)
        mine = [".claims-harness.env", ".claims-harness.env.ps1", DEV_STACK_FILE]
        before = {name: (tmp_path / name).read_bytes() for name in mine}

        # a second start-dev.sh for the same folder's files: refused, naming the first
        path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
        again = subprocess.run(
            ["bash", str(REPO / "scripts" / "start-dev.sh"), "--env-file",
             str(tmp_path / ".claims-harness.env")], capture_output=True, text=True,
            timeout=STOP_WAIT_S, env={**os.environ, "PATH": path})
        assert again.returncode == 2, again.stdout + again.stderr
        assert f"dev up pid {first.pid}" in again.stderr and app_url in again.stderr
        assert {name: (tmp_path / name).read_bytes() for name in mine} == before

        # a named one beside it: its own files, the first's untouched
        second, second_out = _dev_up(tmp_path, "--name", "second", "--no-app")
        second_out.until("ready", STOP_WAIT_S)
        named = DevStack.model_validate_json(
            (tmp_path / ".claims-harness-second.stack.json").read_text())
        assert named.pid == second.pid and named.lanes[0].database == "claims_dev_second_lane1"
        assert named.env_file == str(tmp_path / ".claims-harness-second.env")
        assert (tmp_path / ".claims-harness-second.env.ps1").is_file()
        second.send_signal(signal.SIGINT)
        wait_stopped(second, "the second dev up after Ctrl-C")
        assert second.returncode == 0
        assert not (tmp_path / ".claims-harness-second.stack.json").exists()
        assert {name: (tmp_path / name).read_bytes() for name in mine} == before

        # the first stack's app dies: dev up says which and how at once
        stack = DevStack.model_validate_json((tmp_path / DEV_STACK_FILE).read_text())
        (app_pid,) = [p.pid for p in stack.processes if p.name == "lane1 app"]
        assert {p.name for p in stack.processes} >= {"embedded mongo", "embedded s3"}
        os.killpg(app_pid, signal.SIGKILL)
        killed = time.monotonic()
        said = first_out.until("the stack is dead", 5.0)
        assert time.monotonic() - killed < 5.0
        assert f"lane1 app (pid {app_pid}) was killed by SIGKILL (signal 9)" in said
        wait_stopped(first, "dev up after its app died")
        assert first.returncode == 3
        dead = DevStack.model_validate_json((tmp_path / DEV_STACK_FILE).read_text())
        assert dead.state == "dead" and f"lane1 app (pid {app_pid}) was killed" in dead.died
        assert (tmp_path / "logs-1" / "app-lane1.log").is_file()  # kept: they say why

        # run refuses the dead stack in one line naming the process, not "Connection refused"
        monkeypatch.chdir(tmp_path)
        monkeypatch.delenv("CLAIMS_HARNESS_STACK_FILE", raising=False)
        result = CliRunner().invoke(app, ["run", "--pack", "CTL-M-001", "--packs",
                                          str(REPO / "packs"), "--runs-dir", "runs"])
        assert result.exit_code == 2, result.output
        (line,) = [ln for ln in result.output.splitlines() if ln.startswith("error:")]
        assert f"dead: lane1 app (pid {app_pid}) was killed by SIGKILL" in line
        assert "Connection refused" not in result.output and "running stack" not in result.output
        assert not (tmp_path / "runs").exists()
    finally:
        if second is not None:
            stop_command(second, set())
        stop_command(first, children)
    assert still_alive(children) == []
    assert group_members(first.pid) == set()
