"""``python -m claims_example_app``: options, environment, secrets from the environment only, and a
real start of both servers on loopback."""

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
from claims_example_app import KestrelSettings
from claims_example_app.__main__ import main, parse_args
from tests.claims_dev._procs import wait_stopped

ROOT = Path(__file__).resolve().parents[2]
S3_ENV = {"KESTREL_S3_ACCESS_KEY": "k", "KESTREL_S3_SECRET_KEY": "s"}


def test_flags_win_over_environment_and_secrets_come_from_it(monkeypatch):
    monkeypatch.setenv("KESTREL_DATABASE", "env_db")
    monkeypatch.setenv("KESTREL_BUCKET", "env-bucket")
    monkeypatch.setenv("KESTREL_OPS_RESET", "yes")
    monkeypatch.setenv("KESTREL_OPS_KEY", "ops-from-env")
    monkeypatch.setenv("KESTREL_STAFF_TOKEN", "staff-from-env")
    args, s = parse_args(["--port", "8400", "--staff-port", "8401", "--database", "flag_db",
                          "--agent-latency-ms", "0", "--chunk-gap-ms", "100"])
    assert (args.port, args.staff_port) == (8400, 8401)
    assert (s.database, s.bucket, s.ops_reset) == ("flag_db", "env-bucket", True)
    assert (s.ops_key, s.staff_token) == ("ops-from-env", "staff-from-env")
    assert (s.agent_latency_ms, s.greeting_delay_ms, s.chunk_gap_ms) == (0, 1000, 100)


@pytest.mark.parametrize("flag", ["--ops-key", "--staff-token", "--s3-access-key",
                                  "--s3-secret-key"])
def test_there_is_no_command_line_option_for_a_secret(flag, capsys):
    with pytest.raises(SystemExit):
        parse_args([flag, "x"])
    assert "unrecognized arguments" in capsys.readouterr().err


def test_settings_refuse_a_secret_as_an_override():
    with pytest.raises(ValueError, match="KESTREL_OPS_KEY"):
        KestrelSettings.from_env({}, ops_key="x")


@pytest.mark.parametrize(("argv", "env", "words"), [
    ([], {}, "KESTREL_S3_ACCESS_KEY"),
    (["--enable-ops-reset"], S3_ENV, "needs KESTREL_OPS_KEY"),
    (["--port", "8500", "--staff-port", "8500"], S3_ENV, "must differ"),
    (["--agent-latency-ms", "-1"], S3_ENV, "invalid settings"),
])
def test_bad_starts_are_refused_with_a_reason(monkeypatch, capsys, argv, env, words):
    for name in ("KESTREL_S3_ACCESS_KEY", "KESTREL_S3_SECRET_KEY", "KESTREL_OPS_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(argv) == 2
    assert words in capsys.readouterr().err


def test_help_documents_every_option(capsys):
    with pytest.raises(SystemExit):
        parse_args(["--help"])
    out = capsys.readouterr().out
    for option in ("--host", "--port", "--staff-host", "--staff-port", "--mongo-uri",
                   "--database", "--s3-endpoint", "--s3-region", "--bucket",
                   "--agent-latency-ms", "--greeting-delay-ms", "--chunk-gap-ms",
                   "--max-upload-bytes", "--enable-ops-reset", "KESTREL_STAFF_TOKEN",
                   "KESTREL_OPS_KEY", "KESTREL_S3_ACCESS_KEY", "KESTREL_S3_SECRET_KEY"):
        assert option in out, option


def _wait(url: str, proc: subprocess.Popen, **kw) -> httpx.Response:
    deadline = time.monotonic() + 30
    while True:
        try:
            return httpx.get(url, timeout=2, **kw)
        except httpx.HTTPError:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, f"{url} did not answer in time"
            time.sleep(0.1)


@pytest.mark.slow
def test_module_starts_both_servers_and_stops_on_sigterm(stores):
    port, staff_port = free_port(), free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KESTREL_S3_ACCESS_KEY": stores.s3.access_key,
           "KESTREL_S3_SECRET_KEY": stores.s3.secret_key, "KESTREL_OPS_KEY": "main-ops",
           "KESTREL_STAFF_TOKEN": "main-staff"}
    argv = [sys.executable, "-m", "claims_example_app", "--port", str(port), "--staff-port",
            str(staff_port), "--mongo-uri", stores.mongo_uri, "--database", "test_kestrel_main",
            "--s3-endpoint", stores.s3.endpoint, "--bucket", "test-kestrel-main",
            "--enable-ops-reset"]
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        base, staff = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{staff_port}"
        assert _wait(base + "/ops/health", proc).json()["status"] == "ok"
        about = httpx.get(base + "/ops/about", headers={"X-Ops-Key": "main-ops"}).json()
        assert about["service"]["agent"]["mode"] == "rules"
        r = httpx.post(base + "/ops/fixtures", headers={"X-Ops-Key": "main-ops"},
                       json={"label": "smoke", "fixtures": {"cover": [{"_id": "c"}]}})
        assert r.status_code == 200 and r.json()["loaded"] == {"cover": 1}
        assert "main-ops" not in proc.args and "main-staff" not in " ".join(proc.args)
        assert _wait(staff + "/", proc).status_code == 401
        ok = httpx.get(staff + "/", headers={"Authorization": "Bearer main-staff"})
        assert ok.status_code == 200 and "Kestrel workbench" in ok.text
        shell = httpx.get(base + "/")
        assert shell.status_code == 200 and "data-testid" not in shell.text
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        err = wait_stopped(proc, "python -m example_app after SIGTERM")[1]
    # uvicorn shuts both servers down, then re-raises the signal it caught
    assert proc.returncode in (0, -signal.SIGTERM)
    assert "Traceback" not in err.decode()
