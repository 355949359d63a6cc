"""The running dev stack: its file, the rule that lets `run` use it, and --base-url."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import harness
from claims_cli import app
from claims_records import DevStack, ProfileError, SeedError, StackLane, StackProcess


@pytest.fixture(autouse=True)
def _no_stack_file_named(monkeypatch):
    monkeypatch.delenv(harness._stack.STACK_FILE_ENV, raising=False)


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


def test_a_seed_only_or_unreadable_stack_is_ignored_with_a_note(tmp_path):
    path = harness.write_stack_file(_stack(tmp_path, os.getpid(), "seed_route"),
                                    tmp_path / "stack.json")
    stack, note = harness.running_stack(path)
    assert stack is None and "--no-app" in note
    path.write_text('{"version": "1", "pid": 1, "surprise": true}')
    stack, note = harness.running_stack(path)
    assert stack is None and "stack.json" in note


def test_no_stack_file_says_how_to_reach_a_stack_elsewhere(tmp_path, monkeypatch):
    # before: (None, None), and run went on silently against the profile's port 8000
    stack, note = harness.running_stack(tmp_path / "none.json")
    assert stack is None
    assert str(tmp_path / "none.json") in note and "http://127.0.0.1:8000" in note
    assert "CLAIMS_HARNESS_STACK_FILE=" in note and "--base-url" in note
    # a stack file named explicitly that is not there is refused, not silently replaced
    monkeypatch.setenv(harness._stack.STACK_FILE_ENV, str(tmp_path / "gone.json"))
    with pytest.raises(SeedError, match="CLAIMS_HARNESS_STACK_FILE names no file") as exc:
        harness.running_stack()
    assert str(tmp_path / "gone.json") in str(exc.value)


def test_a_stack_that_cannot_serve_is_refused_saying_which_process_and_why(tmp_path):
    path = tmp_path / "stack.json"
    harness.write_stack_file(_stack(tmp_path, _gone_pid()), path)
    with pytest.raises(SeedError, match=r"dev up process \d+ is no longer running"):
        harness.running_stack(path)

    live = _stack(tmp_path, os.getpid())
    app = live.model_copy(update={"processes": [StackProcess(name="lane1 app",
                                                             pid=_gone_pid())]})
    harness.write_stack_file(app, path)
    with pytest.raises(SeedError, match=r"dead: its lane1 app \(pid \d+\) is no longer "
                       "running"):
        harness.running_stack(path)

    harness.mark_stack_dead(live, "lane1 app (pid 77) was killed by SIGKILL (signal 9)", path)
    dead = DevStack.model_validate_json(path.read_text())
    assert dead.state == "dead" and dead.died.startswith("lane1 app (pid 77) was killed")
    with pytest.raises(SeedError) as exc:
        harness.running_stack(path)
    line = str(exc.value)
    assert "dead: lane1 app (pid 77) was killed by SIGKILL (signal 9) at 20" in line
    assert "\n" not in line and "start it again" in line

    harness.write_stack_file(harness.starting_record(tmp_path / "dev.env", True, "reference"),
                             path)
    with pytest.raises(SeedError, match=f"still starting \\(dev up pid {os.getpid()}"):
        harness.running_stack(path)


def test_a_ready_or_dead_stack_names_everything_and_a_dead_one_says_why():
    with pytest.raises(ValueError, match="names its lanes"):
        DevStack(pid=1, started_at="t", product="reference_app", runtime="reference",
                 env_file="/e")
    with pytest.raises(ValueError, match="'died' is given exactly"):
        DevStack(pid=1, state="dead", started_at="t", product="seed_route", runtime=None,
                 mongo_uri="m", s3_endpoint="s", env_file="/e",
                 lanes=[StackLane(name="lane1", base_url=None, seed_url="u", database="d",
                                  bucket="b")])


def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_live_stack_file_is_not_claimed_again_and_nothing_is_written(tmp_path):
    path = harness.write_stack_file(_stack(tmp_path, os.getpid()), tmp_path / "stack.json")
    before = _files(tmp_path)
    with pytest.raises(SeedError) as exc:
        harness.claim_stack_file(harness.starting_record(tmp_path / "dev.env", True,
                                                         "reference", pid=os.getpid() + 1),
                                 path)
    line = str(exc.value)
    assert f"already runs from this folder: dev up pid {os.getpid()}" in line
    assert "lane1 app http://127.0.0.1:9001" in line and "--name NAME" in line
    assert f"kill {os.getpid()}" in line and "nothing was started or overwritten" in line
    assert _files(tmp_path) == before  # not a byte changed, no temporary file left


def test_a_stale_or_dead_stack_file_is_taken_over(tmp_path):
    path = tmp_path / "stack.json"
    claim = harness.starting_record(tmp_path / "dev.env", True, "reference")
    assert harness.claim_stack_file(claim, path) == path  # no file yet
    assert DevStack.model_validate_json(path.read_text()).state == "starting"
    harness.write_stack_file(_stack(tmp_path, _gone_pid()), path)
    harness.claim_stack_file(claim, path)
    assert DevStack.model_validate_json(path.read_text()) == claim
    harness.mark_stack_dead(_stack(tmp_path, os.getpid()), "s3 ended", path)
    harness.claim_stack_file(claim, path)
    assert DevStack.model_validate_json(path.read_text()) == claim
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dev.env", "stack.json"]


def test_a_file_that_is_no_stack_file_is_refused_not_overwritten(tmp_path):
    path = tmp_path / "stack.json"
    path.write_text("not json")
    with pytest.raises(SeedError, match="not a stack file this version reads"):
        harness.claim_stack_file(harness.starting_record(tmp_path / "e.env", True, "reference"),
                                 path)
    assert path.read_text() == "not json"


def test_a_stack_file_given_apart_does_not_take_a_live_stack_env_file(tmp_path):
    live = _stack(tmp_path, os.getpid())  # its env file: tmp_path/dev.env
    harness.write_stack_file(live, tmp_path / ".claims-harness.stack.json")
    claim = harness.starting_record(tmp_path / "dev.env", True, "reference", pid=1)
    with pytest.raises(SeedError, match=f"writes {tmp_path / 'dev.env'}: dev up pid"):
        harness.claim_stack_file(claim, tmp_path / "other.json")
    assert not (tmp_path / "other.json").exists()
    other = harness.starting_record(tmp_path / "other.env", True, "reference", pid=1)
    harness.claim_stack_file(other, tmp_path / "other.json")  # its own env file: fine


def test_stack_paths_default_named_and_given(tmp_path):
    assert harness.stack_paths(None, None, None) == (
        Path(".claims-harness.env"), Path(".claims-harness.stack.json"))
    assert harness.stack_paths("second", None, None) == (
        Path(".claims-harness-second.env"), Path(".claims-harness-second.stack.json"))
    assert harness.stack_paths(None, tmp_path / "d.env", None) == (
        tmp_path / "d.env", tmp_path / ".claims-harness.stack.json")
    assert harness.stack_paths("b", None, tmp_path / "s.json")[1] == tmp_path / "s.json"
    with pytest.raises(SeedError, match="field=--name"):
        harness.stack_paths("../x", None, None)


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


def test_a_claim_without_hard_links_still_refuses_a_live_stack(tmp_path, monkeypatch):
    def no_links(src, dst):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    path = tmp_path / "stack.json"
    claim = harness.starting_record(tmp_path / "dev.env", True, "reference")
    harness.claim_stack_file(claim, path)
    assert DevStack.model_validate_json(path.read_text()) == claim
    with pytest.raises(SeedError, match=f"dev up pid {os.getpid()}, starting since"):
        harness.claim_stack_file(claim.model_copy(update={"pid": 1}), path)
