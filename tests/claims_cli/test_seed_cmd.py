"""claims-harness seed serve: standalone seed route beside any product."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pymongo
import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_dev import BackgroundServer, free_port, start_stores
from seed import SeedClient, SeedSettings, create_seed_app
from tests.claims_dev._procs import (
    STOP_WAIT_S,
    descendants,
    still_alive,
    stop_command,
    wait_stopped,
)


def test_seed_help_lists_serve():
    result = CliRunner().invoke(app, ["seed", "--help"])
    assert result.exit_code == 0
    assert "serve" in result.output


def test_serve_with_an_invalid_baseline_names_the_file(tmp_path):
    bad = tmp_path / "baseline.json"
    bad.write_text("{not json")
    result = CliRunner().invoke(app, [
        "seed", "serve", "--baseline", str(bad),
        "--mongo-uri", f"mongodb://127.0.0.1:{free_port()}/",
        "--s3-endpoint", f"http://127.0.0.1:{free_port()}",
    ], env={"CLAIMS_HARNESS_SEED_TOKEN": "t"})
    assert result.exit_code == 2
    assert "baseline is not JSON" in result.output
    assert f"file={bad}" in result.output


@pytest.mark.slow
def test_serve_starts_stores_answers_and_stops_on_sigterm(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMS_HARNESS_")}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from claims_cli import main; main()", "seed", "serve",
         "--port", str(port), "--database", "claims_test_serve", "--bucket", "claims-test-serve"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        env={**env, "PYTHONUNBUFFERED": "1"},
    )
    children: set[int] = set()
    try:
        printed = ""
        deadline = time.monotonic() + STOP_WAIT_S
        while "token" not in printed and time.monotonic() < deadline and proc.poll() is None:
            printed += proc.stdout.readline()
        children = descendants(proc.pid)
        token = re.search(r"token\s+(\S+)", printed).group(1)
        assert f"http://127.0.0.1:{port}/_harness/seed" in printed
        with SeedClient(f"http://127.0.0.1:{port}", token, timeout=5) as client:
            bound = time.monotonic() + STOP_WAIT_S  # uvicorn binds just after printing
            while True:
                try:
                    health = client.health()
                    break
                except Exception:
                    assert time.monotonic() < bound, "the seed route never answered /health"
                    time.sleep(0.1)
            assert health == {"ok": True, "database": "claims_test_serve",
                              "bucket": "claims-test-serve"}
            setup = {"pack_id": "CTL-M-001", "claimant_session": "anonymous",
                     "collections": {"policies": [{"_id": "P1"}]}}
            assert client.reset(setup, {})["verified"] is True
            assert list(client.state().collections) == ["policies"]
        assert len(children) >= 2
        proc.send_signal(signal.SIGTERM)
        rest = wait_stopped(proc, "'claims-harness seed serve' after SIGTERM")[0]
    finally:
        stop_command(proc, children)
    assert proc.returncode == 0, rest
    assert "stopped" in rest
    assert still_alive(children) == []


ROOT = Path(__file__).resolve().parents[2]
TOKEN = "cli-test-token"


@pytest.fixture(scope="module")
def lane_route():
    with start_stores() as stores:
        settings = SeedSettings(enabled=True, token=TOKEN, mongo_uri=stores.mongo_uri,
                                database="claims_test_cli", s3_endpoint=stores.s3.endpoint,
                                bucket="claims-test-cli",
                                baseline_path=ROOT / "packs" / "baseline.json")
        with BackgroundServer(create_seed_app(settings)) as server:
            client = pymongo.MongoClient(stores.mongo_uri)
            yield server.url + "/_harness/seed", client["claims_test_cli"]
            client.close()


def test_reset_state_and_diff_through_the_cli(lane_route, tmp_path):
    url, db = lane_route
    runner = CliRunner(env={"CLAIMS_HARNESS_SEED_TOKEN": TOKEN})
    auth = ["--url", url]
    result = runner.invoke(app, ["seed", "reset", str(ROOT / "packs" / "CTL-M-001"), *auth])
    assert result.exit_code == 0, result.output
    assert '"verified": true' in result.output
    assert runner.invoke(app, ["seed", "state", *auth, "--out", str(tmp_path / "before.json")]
                         ).exit_code == 0
    policy = db["policies"].find_one({})
    db["policies"].update_one({"_id": policy["_id"]}, {"$set": {"status": "lapsed",
                                                                "updated_at": "now"}})
    db["claims"].insert_one({"_id": "CLM-1"})
    assert runner.invoke(app, ["seed", "state", *auth, "--out", str(tmp_path / "after.json")]
                         ).exit_code == 0

    result = runner.invoke(app, ["seed", "diff", str(tmp_path / "before.json"),
                                 str(tmp_path / "after.json"), "--vary", "updated_at"])
    assert result.exit_code == 0, result.output
    diff = json.loads(result.output)
    assert [(d["collection"], d["change"]) for d in diff["documents"]] == [
        ("claims", "added"), ("policies", "changed")]
    assert [f["field"] for f in diff["documents"][1]["fields"]] == ["status"]
    assert diff["ignored_fields"] == [f"policies/{policy['_id']}/updated_at"]


def test_reset_with_a_wrong_token_says_why(lane_route):
    url, _ = lane_route
    result = CliRunner(env={"CLAIMS_HARNESS_SEED_TOKEN": "wrong"}).invoke(
        app, ["seed", "reset", str(ROOT / "packs" / "CTL-M-001"), "--url", url])
    assert result.exit_code == 2
    assert "status=401" in result.output and "reason=unauthorized" in result.output


def test_state_without_a_url_explains_where_it_comes_from(monkeypatch):
    for var in ("CLAIMS_HARNESS_LANE1_SEED_URL", "CLAIMS_HARNESS_SEED_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    result = CliRunner().invoke(app, ["seed", "state"])
    assert result.exit_code == 2
    assert "CLAIMS_HARNESS_LANE1_SEED_URL" in result.output


@pytest.mark.parametrize("token", ["", "   "])
def test_an_empty_token_says_no_token(monkeypatch, token):
    monkeypatch.setenv("CLAIMS_HARNESS_LANE1_SEED_URL", "http://127.0.0.1:1/_harness/seed")
    result = CliRunner(env={"CLAIMS_HARNESS_SEED_TOKEN": token}).invoke(app, ["seed", "state"])
    assert result.exit_code == 2
    assert "no token is set" in result.output and "CLAIMS_HARNESS_SEED_TOKEN" in result.output
    assert "Illegal header" not in result.output


def test_secret_options_are_not_offered():
    for command in (["seed", "serve"], ["seed", "reset"], ["seed", "state"], ["dev", "up"]):
        out = CliRunner().invoke(app, [*command, "--help"], terminal_width=200).output
        assert "--token" not in out and "--s3-secret-key" not in out, command


def test_diff_of_an_invalid_dump_names_the_file(tmp_path):
    bad = tmp_path / "state.json"
    bad.write_text('{"version": "1"}')
    result = CliRunner().invoke(app, ["seed", "diff", str(bad), str(bad)])
    assert result.exit_code == 2
    assert f"file={bad}" in result.output


def test_serve_refuses_a_mongo_uri_with_a_password():
    result = CliRunner().invoke(app, ["seed", "serve", "--mongo-uri",
                                      "mongodb://u:CANARY-PW@127.0.0.1:1/"])
    assert result.exit_code == 2
    assert "CLAIMS_HARNESS_MONGO_URI" in result.output
