"""``python -m claims_reference_app``: options, environment, and a real start on loopback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from claims_dev import free_port
from claims_reference_app.__main__ import main, parse_args

ROOT = Path(__file__).resolve().parents[2]


def test_flags_win_over_environment(monkeypatch) -> None:
    monkeypatch.setenv("CLAIMS_APP_RUNTIME", "controlled")
    monkeypatch.setenv("CLAIMS_APP_BUCKET", "env-bucket")
    monkeypatch.setenv("CLAIMS_HARNESS_SEED_TOKEN", "env-token")
    args, s = parse_args(["--port", "8123", "--runtime", "model", "--fault", "lose_fact",
                          "--fault", "ask_twice", "--enable-seed-route",
                          "--model-base-url", "http://127.0.0.1:1/v1", "--model-name", "m"])
    assert args.port == 8123
    assert (s.runtime, s.bucket, s.seed_token, s.seed_enabled) == ("model", "env-bucket",
                                                                  "env-token", True)
    assert s.faults == ["ask_twice", "lose_fact"]
    assert s.model_base_url == "http://127.0.0.1:1/v1"


def test_faults_in_the_environment_are_refused_not_applied(monkeypatch, capsys) -> None:
    monkeypatch.setenv("CLAIMS_APP_FAULTS", "flag_everything")
    assert main(["--fault", "ask_twice"]) == 2
    err = capsys.readouterr().err
    assert "CLAIMS_APP_FAULTS is set" in err and "--fault" in err


def test_seed_route_without_token_is_refused(monkeypatch, capsys) -> None:
    monkeypatch.delenv("CLAIMS_HARNESS_SEED_TOKEN", raising=False)
    assert main(["--enable-seed-route"]) == 2
    assert "needs a token in CLAIMS_HARNESS_SEED_TOKEN" in capsys.readouterr().err


@pytest.mark.parametrize(("flag", "variable"), [
    ("--seed-token", "CLAIMS_HARNESS_SEED_TOKEN"),
    ("--s3-secret-key", "CLAIMS_APP_S3_SECRET_KEY"),
    ("--model-api-key", "CLAIMS_APP_MODEL_API_KEY"),
])
def test_secrets_are_refused_on_the_command_line(capsys, flag, variable) -> None:
    with pytest.raises(SystemExit) as exited:
        parse_args([flag, "CANARY-SECRET"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert variable in err and "command line" in err


def test_mongo_uri_with_a_password_is_refused_on_the_command_line(capsys) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--mongo-uri", "mongodb://user:CANARY-PW@127.0.0.1:27017/"])
    assert "CLAIMS_APP_MONGO_URI" in capsys.readouterr().err
    _, settings = parse_args(["--mongo-uri", "mongodb://127.0.0.1:27017/"])
    assert settings.mongo_uri == "mongodb://127.0.0.1:27017/"


def test_secrets_come_from_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("CLAIMS_APP_S3_SECRET_KEY", "s3-secret")
    monkeypatch.setenv("CLAIMS_APP_MODEL_API_KEY", "model-key")
    monkeypatch.setenv("CLAIMS_HARNESS_SEED_TOKEN", "seed-token")
    _, s = parse_args([])
    assert (s.s3_secret_key, s.model_api_key, s.seed_token) == (
        "s3-secret", "model-key", "seed-token")


@pytest.mark.slow
def test_module_starts_and_serves_runtime_and_seed_route(stores) -> None:
    port = free_port()
    argv = [sys.executable, "-m", "claims_reference_app", "--host", "127.0.0.1",
            "--port", str(port),
            "--mongo-uri", stores.mongo_uri, "--database", "test_refapp_main",
            "--s3-endpoint", stores.s3.endpoint, "--s3-access-key", stores.s3.access_key,
            "--bucket", "test-refapp-main",
            "--runtime", "reference", "--fault", "flag_everything",
            "--enable-seed-route", "--baseline", str(ROOT / "packs" / "baseline.json")]
    env = {**os.environ, "CLAIMS_HARNESS_SEED_TOKEN": "tok",
           "CLAIMS_APP_S3_SECRET_KEY": stores.s3.secret_key}
    proc = subprocess.Popen(argv, cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                report = httpx.get(base + "/api/runtime", timeout=2).json()
                break
            except httpx.HTTPError:
                assert proc.poll() is None, proc.stderr.read().decode()
                assert time.monotonic() < deadline, "app did not answer in time"
                time.sleep(0.1)
        assert report["runtime"] == "reference" and report["faults"] == ["flag_everything"]
        health = httpx.get(base + "/_harness/seed/health", headers={"Authorization": "Bearer tok"})
        assert health.status_code == 200 and health.json()["database"] == "test_refapp_main"
        assert httpx.get(base + "/").status_code == 200
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
    assert proc.poll() is not None
