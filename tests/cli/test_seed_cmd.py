"""claims-harness seed serve: standalone seed route beside any product."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from cli import app
from seed import SeedClient, free_port
from tests.seed._procs import alive, descendants


def test_seed_help_lists_serve():
    result = CliRunner().invoke(app, ["seed", "--help"])
    assert result.exit_code == 0
    assert "serve" in result.output


def test_serve_with_an_invalid_baseline_names_the_file(tmp_path):
    bad = tmp_path / "baseline.json"
    bad.write_text("{not json")
    result = CliRunner().invoke(app, [
        "seed", "serve", "--baseline", str(bad), "--token", "t",
        "--mongo-uri", f"mongodb://127.0.0.1:{free_port()}/",
        "--s3-endpoint", f"http://127.0.0.1:{free_port()}",
    ])
    assert result.exit_code == 2
    assert "baseline is not JSON" in result.output
    assert f"file={bad}" in result.output


@pytest.mark.slow
def test_serve_starts_stores_answers_and_stops_on_sigterm(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMS_HARNESS_")}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from cli import main; main()", "seed", "serve",
         "--port", str(port), "--database", "claims_test_serve", "--bucket", "claims-test-serve"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        env={**env, "PYTHONUNBUFFERED": "1"},
    )
    try:
        printed = ""
        deadline = time.monotonic() + 120
        while "token" not in printed and time.monotonic() < deadline and proc.poll() is None:
            printed += proc.stdout.readline()
        token = re.search(r"token\s+(\S+)", printed).group(1)
        assert f"http://127.0.0.1:{port}/_harness/seed" in printed
        with SeedClient(f"http://127.0.0.1:{port}", token, timeout=5) as client:
            for _ in range(100):  # uvicorn binds just after printing
                try:
                    health = client.health()
                    break
                except Exception:
                    time.sleep(0.1)
            assert health == {"ok": True, "database": "claims_test_serve",
                              "bucket": "claims-test-serve"}
            setup = {"pack_id": "CTL-M-001", "claimant_session": "anonymous",
                     "collections": {"policies": [{"_id": "P1"}]}}
            assert client.reset(setup, {})["verified"] is True
            assert list(client.state().collections) == ["policies"]
        children = descendants(proc.pid)
        assert len(children) >= 2
        proc.send_signal(signal.SIGTERM)
        rest = proc.communicate(timeout=60)[0]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, rest
    assert "stopped" in rest
    time.sleep(0.2)
    assert [p for p in children if alive(p)] == []
