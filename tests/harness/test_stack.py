"""The running dev stack: its file, the rule that lets `run` use it, and --base-url."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import harness
from claims_cli import app
from claims_records import DevStack, ProfileError, StackLane


def _stack(tmp_path, pid: int, product: str = "reference_app") -> DevStack:
    env_file = tmp_path / "dev.env"
    env_file.write_text("CLAIMS_HARNESS_MONGO_URI=mongodb://x\nCLAIMS_HARNESS_SEED_TOKEN=tok-1\n")
    return DevStack(
        pid=pid, started_at="2026-12-03T06:00:00+00:00", product=product, runtime="reference",
        mongo_uri="mongodb://127.0.0.1:1/", s3_endpoint="http://127.0.0.1:2",
        env_file=str(env_file),
        lanes=[StackLane(name=f"lane{i}", base_url=f"http://127.0.0.1:{9000 + i}",
                         seed_url=f"http://127.0.0.1:{9000 + i}/_harness/seed",
                         database=f"claims_dev_lane{i}", bucket=f"claims-dev-lane{i}")
               for i in (1, 2)])


def _gone_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_running_stack_points_the_reference_profile_at_its_lanes(tmp_path):
    path = harness.write_stack_file(_stack(tmp_path, os.getpid()), tmp_path / "stack.json")
    stack, note = harness.running_stack(path)
    assert note is None and stack is not None
    prof = harness.load_profile("reference")
    assert harness.serves_profile(prof)
    lanes = harness.point_at_stack(prof, stack).resolved_lanes()
    assert [(ln.name, ln.base_url, ln.seed_url, ln.staff_base_url) for ln in lanes] == [
        (f"lane{i}", f"http://127.0.0.1:{9000 + i}",
         f"http://127.0.0.1:{9000 + i}/_harness/seed", f"http://127.0.0.1:{9000 + i}")
        for i in (1, 2)]
    assert harness.stack_seed_token(stack) == "tok-1"
    assert "tok-1" not in path.read_text()  # the token stays in the env file


def test_a_stale_or_seed_only_stack_is_ignored_with_a_note(tmp_path):
    assert harness.running_stack(tmp_path / "none.json") == (None, None)
    path = harness.write_stack_file(_stack(tmp_path, _gone_pid()), tmp_path / "stack.json")
    stack, note = harness.running_stack(path)
    assert stack is None and "no longer running" in note and "stale" in note
    harness.write_stack_file(_stack(tmp_path, os.getpid(), "seed_route"), path)
    stack, note = harness.running_stack(path)
    assert stack is None and "--no-app" in note
    path.write_text('{"version": "1", "pid": 1, "surprise": true}')
    stack, note = harness.running_stack(path)
    assert stack is None and "stack.json" in note


def test_only_a_profile_dev_up_serves_at_its_default_url_uses_the_stack():
    prof = harness.load_profile("reference")
    assert not harness.serves_profile(harness.with_base_urls(prof, ["http://127.0.0.1:8123"]))
    assert not harness.serves_profile(harness.load_profile("kestrel"))


def test_removing_the_stack_file_leaves_another_process_file(tmp_path):
    path = harness.write_stack_file(_stack(tmp_path, os.getpid() + 1), tmp_path / "stack.json")
    harness.remove_stack_file(path)
    assert path.exists()
    harness.write_stack_file(_stack(tmp_path, os.getpid()), path)
    harness.remove_stack_file(path)
    assert not path.exists()


def test_base_urls_replace_the_profile_url_one_lane_each():
    prof = harness.load_profile("reference")
    one = harness.with_base_urls(prof, ["http://10.0.0.5:9000/"]).resolved_lanes()
    assert [(ln.name, ln.base_url, ln.seed_url) for ln in one] == [
        ("lane-1", "http://10.0.0.5:9000", "http://10.0.0.5:9000/_harness/seed")]
    two = harness.with_base_urls(prof, ["http://a:1", "http://b:2"]).resolved_lanes()
    assert [(ln.name, ln.base_url) for ln in two] == [("lane-1", "http://a:1"),
                                                      ("lane-2", "http://b:2")]
    with pytest.raises(ProfileError, match="field=--base-url"):
        harness.with_base_urls(prof, ["127.0.0.1:8000"])


def test_powershell_env_quotes_values():
    assert harness.powershell_env({"A": "x'y", "B": "1"}) == "$env:A = 'x''y'\n$env:B = '1'\n"


def test_run_refuses_base_url_with_dev():
    result = CliRunner().invoke(app, ["run", "--dev", "--base-url", "http://127.0.0.1:1",
                                      "--pack", "CTL-M-001"])
    assert result.exit_code == 2
    assert "drop --base-url" in result.output
