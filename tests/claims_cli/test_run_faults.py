"""A run stopped by a scheduler, a full disk or a read-only runs folder ends in one clear line
with the exit code and the command that finishes it — a command that works as printed — and
two resumes of one run never both run."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_records import RunRecord
from tests.claims_dev._procs import wait_stopped

from .test_run_cmd import PACKS, reference_env, write_profile  # noqa: F401,F811 - fixture

runner = CliRunner()
MAIN = [sys.executable, "-c", "from claims_cli import main; main()"]


def _wait(condition, timeout: float, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        if proc is not None:
            assert proc.poll() is None, "the process ended too early"
        time.sleep(0.05)


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def _printed_command(stderr: str) -> list[str]:
    line = [x for x in stderr.splitlines() if "finish it with: " in x][-1]
    command = line.split("finish it with: ", 1)[1].split(" (finished", 1)[0]
    argv = shlex.split(command)
    assert argv[0] == "claims-harness"
    return argv[1:]


@pytest.mark.slow
@pytest.mark.browser
def test_stop_resume_as_printed_and_a_second_resume_is_refused(tmp_path):
    runs = tmp_path / "runs"
    run_dir = runs / "nightly"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    start = MAIN + ["run", "--dev", "--packs", str(PACKS), "--pack", "CTL-M-001",
                    "--trials", "3", "--runs-dir", str(runs), "--run-id", "nightly"]
    first = subprocess.Popen(start, cwd=tmp_path, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
    _wait(lambda: (run_dir / "CTL-M-001/trial-1/trial.json").exists()
          and _lines(run_dir / "CTL-M-001/trial-2/journey.jsonl") >= 2, 300, first)
    first.send_signal(signal.SIGTERM)  # what systemd, Kubernetes and CI send
    err = wait_stopped(first, "the interrupted 'claims-harness run' after SIGTERM")[1]
    assert first.returncode == 130, err
    assert "Traceback" not in err, err
    assert "interrupted; exit code 130; finish it with: claims-harness run --resume nightly " \
           f"--runs-dir {runs}" in err
    args = _printed_command(err)
    assert args == ["run", "--resume", "nightly", "--runs-dir", str(runs)]

    # the printed command, from another folder, with nothing else: --dev, the corpus and the
    # profile come from run.json
    resumed = subprocess.Popen(MAIN + args, cwd=elsewhere, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        def holds_lock() -> bool:
            text = (run_dir / ".lock").read_text() if (run_dir / ".lock").exists() else ""
            return bool(text) and json.loads(text)["pid"] == resumed.pid

        _wait(holds_lock, 120, resumed)
        _wait(lambda: _lines(run_dir / "CTL-M-001/trial-2/journey.jsonl") >= 1, 300, resumed)
        # held still while the second resume tries, so that it cannot finish first however
        # fast its trials are
        os.killpg(resumed.pid, signal.SIGSTOP)
        try:
            second = runner.invoke(app, args)
        finally:
            os.killpg(resumed.pid, signal.SIGCONT)
        assert second.exit_code == 2, second.output
        assert "this run is in use by another process" in second.output
        assert f"pid={resumed.pid}" in second.output
        assert "finish it with" not in second.output  # no hint: the run is someone else's
        out, err = resumed.communicate(timeout=400)
    finally:
        if resumed.poll() is None:
            os.killpg(resumed.pid, signal.SIGKILL)
            resumed.wait()
    assert resumed.returncode == 0, err
    assert "dev environment: 1 lane(s), runtime reference" in out
    record = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    assert [(t.trial, t.status) for t in record.trials] == [
        (1, "completed"), (2, "completed"), (3, "completed")]
    aside = sorted(p.name for p in (run_dir / "CTL-M-001").iterdir() if "interrupted" in p.name)
    assert aside == ["trial-2.interrupted-1"]  # the refused resume moved nothing aside


@pytest.fixture
def short_tmp():
    """A private temporary folder with a short path (Chromium puts sockets in it)."""
    import shutil
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="ch-", dir="/tmp"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def small_mount(tmp_path):
    """A 300 kB tmpfs: a runs folder that fills up during the first trial."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", str(mnt)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small file system here ({done.stderr.strip()}); the full "
                    "disk case needs root with CAP_SYS_ADMIN")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


@pytest.mark.slow
@pytest.mark.browser
def test_a_full_disk_is_one_line_leaves_no_raw_evidence_and_resumes(
        reference_env, tmp_path, small_mount, short_tmp):  # noqa: F811
    profile = write_profile(reference_env, tmp_path / "p.toml")
    private_tmp = short_tmp
    env = {**os.environ, "CLAIMS_HARNESS_SEED_TOKEN": reference_env.seed_token,
           "TMPDIR": str(private_tmp)}
    argv = MAIN + ["run", "--profile", str(profile), "--packs", str(PACKS), "--pack",
                   "CTL-M-001", "--runs-dir", str(small_mount), "--run-id", "full"]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=400)
    assert done.returncode == 3, done.stdout + done.stderr  # failed after it had started
    assert "Traceback" not in done.stdout + done.stderr
    errors = [x for x in done.stderr.splitlines() if x.strip()]
    assert len(errors) == 1, errors
    line = errors[0]
    assert line.startswith("error: the run stopped: no space left on the device")
    assert "exit code 3" in line and "free some space, then finish it with: " in line
    assert list(private_tmp.iterdir()) == []  # no unredacted HAR or trace left behind

    subprocess.run(["mount", "-o", "remount,size=64m", str(small_mount)], check=True)
    args = _printed_command(line)
    again = subprocess.run(MAIN + args, env=env, capture_output=True, text=True, timeout=400)
    assert again.returncode == 0, again.stdout + again.stderr
    record = RunRecord.model_validate_json((small_mount / "full" / "run.json").read_text())
    assert [t.status for t in record.trials] == ["completed"]


def test_a_read_only_runs_folder_is_one_line(reference_env, tmp_path):  # noqa: F811
    mnt = tmp_path / "ro"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(mnt)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a read-only file system here ({done.stderr.strip()})")
    try:
        profile = write_profile(reference_env, tmp_path / "p.toml")
        result = runner.invoke(app, ["run", "--profile", str(profile), "--packs", str(PACKS),
                                     "--pack", "CTL-M-001", "--runs-dir", str(mnt),
                                     "--run-id", "ro"],
                               env={"CLAIMS_HARNESS_SEED_TOKEN": reference_env.seed_token})
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "error: the run stopped: the file system is read-only" in result.output
    assert "exit code 2; make the runs folder writable and run again" in result.output
    assert "Traceback" not in result.output


def test_an_empty_seed_token_says_no_token_before_anything_is_written(
        reference_env, tmp_path):  # noqa: F811
    profile = write_profile(reference_env, tmp_path / "p.toml")
    for token in ("", "   "):
        result = runner.invoke(app, ["run", "--profile", str(profile), "--packs", str(PACKS),
                                     "--pack", "CTL-M-001", "--runs-dir", str(tmp_path / "runs"),
                                     "--run-id", "t"],
                               env={"CLAIMS_HARNESS_SEED_TOKEN": token})
        assert result.exit_code == 2, result.output
        assert "no token is set (CLAIMS_HARNESS_SEED_TOKEN is empty or unset)" in result.output
        assert "Illegal header" not in result.output and "Traceback" not in result.output
        assert "finish it with" not in result.output
        assert not (tmp_path / "runs" / "t").exists()
