"""The reference app's ``model`` runtime on the embedded model: when start_dev starts the model
(the documented rule), how the app is pointed at it, and real journeys against it — by
``run --dev --runtime model`` with the scripted customer, and by ``dev up --model local``.

The embedded model is SmolLM2-135M: what a journey ends as depends on what it happens to
answer, so the journey test asserts only what must hold whatever it answers — the trial ends
as the product's doing (completed, or a failure of the agent or the product), never as the
harness's or the customer's, and the run names the runtime and the model.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_dev import TOOLS_CHAT_FORMAT, DevEnvironment, LocalModel, start_dev, wants_local_model
from claims_dev import _app as app_module
from claims_records import (
    STATUS_CATEGORY,
    ErrorCategory,
    RunRecord,
    SeedError,
    TrialResult,
    TrialStatus,
)
from seed import S3Config

from ._procs import (
    STOP_WAIT_S,
    alive,
    ctrl_c_stops_everything,
    descendants,
    read_until,
    stop_command,
)

REPO = Path(__file__).resolve().parents[2]
PACKS = REPO / "packs"
MAIN = [sys.executable, "-c", "from claims_cli import main; main()"]
URL_ENV = "CLAIMS_APP_MODEL_BASE_URL"
PRODUCTS_DOING = {ErrorCategory.NONE, ErrorCategory.AGENT, ErrorCategory.PRODUCT}


def test_the_embedded_model_starts_only_for_the_model_runtime_by_the_documented_rule():
    assert wants_local_model("model", "auto", environ={})
    assert wants_local_model("model", "auto", environ={URL_ENV: "  "})  # empty is unset
    assert not wants_local_model("model", "auto", environ={URL_ENV: "http://m.example/v1"})
    assert wants_local_model("model", "local", environ={URL_ENV: "http://m.example/v1"})
    assert not wants_local_model("model", "env", environ={})
    assert not wants_local_model("reference", "auto", environ={})
    assert not wants_local_model("model", "auto", app=False, environ={})  # no app, no model
    with pytest.raises(SeedError, match="model runtime") as err:
        wants_local_model("reference", "local", environ={})
    assert err.value.context["runtime"] == "reference"
    with pytest.raises(SeedError, match="unknown model source") as err:
        wants_local_model("model", "cloud", environ={})
    assert err.value.context["model"] == "cloud"


def test_a_wrong_model_choice_is_refused_before_anything_starts(tmp_path):
    for kwargs in ({"runtime": "reference", "model": "local"},
                   {"runtime": "model", "model": "local", "app": False},
                   {"runtime": "model", "model": "cloud"}):
        with pytest.raises(SeedError):
            start_dev(log_dir=tmp_path / "logs", **kwargs)
        assert not (tmp_path / "logs").exists()  # refused before the stores or logs


def test_dev_up_refuses_the_local_model_without_the_model_runtime(tmp_path):
    result = CliRunner().invoke(app, ["dev", "up", "--model", "local",
                                      "--env-file", str(tmp_path / "dev.env")])
    assert result.exit_code == 2, result.output
    assert "the embedded model is for the reference app's model runtime (--runtime model)" \
        in result.output
    assert not any(tmp_path.iterdir())


def test_an_app_on_the_embedded_model_is_pointed_at_it_without_a_foreign_key(tmp_path,
                                                                            monkeypatch):
    from claims_reference_app.__main__ import parse_args

    monkeypatch.setenv("CLAIMS_APP_MODEL_API_KEY", "sk-CANARY-for-another-endpoint")
    monkeypatch.setenv(URL_ENV, "http://elsewhere.example/v1")
    monkeypatch.delenv("CLAIMS_APP_MODEL_TIMEOUT_S", raising=False)
    monkeypatch.delenv("CLAIMS_APP_MODEL_MAX_RETRIES", raising=False)
    env = DevEnvironment(
        lanes=[], seed_token="tok", mongo_uri="mongodb://127.0.0.1:9/",
        s3=S3Config(endpoint="http://127.0.0.1:9"), runtime="model", log_dir=tmp_path,
        model=LocalModel(base_url="http://127.0.0.1:9/v1", model="smollm2"))
    argv = app_module.app_command(("lane1", "claims_dev_lane1", "claims-dev-lane1"), 8123, env,
                                  None, [])
    child = app_module.app_environment(env)
    assert "CLAIMS_APP_MODEL_API_KEY" not in child
    assert child["CLAIMS_APP_MODEL_TIMEOUT_S"] == "30"
    assert child["CLAIMS_APP_MODEL_MAX_RETRIES"] == "0"
    monkeypatch.delenv("CLAIMS_APP_MODEL_API_KEY")
    for name, value in child.items():
        monkeypatch.setenv(name, value)
    _, settings = parse_args(argv[3:])
    # the command line's endpoint wins over the environment's
    assert (settings.runtime, settings.model_base_url, settings.model_name) == (
        "model", "http://127.0.0.1:9/v1", "smollm2")
    assert settings.model_api_key is None
    assert (settings.model_timeout_s, settings.model_max_retries) == (30.0, 0)
    assert any(line.startswith("model     smollm2 at http://127.0.0.1:9/v1")
               and TOOLS_CHAT_FORMAT in line for line in env.describe())

    # the environment's own request settings are kept
    monkeypatch.setenv("CLAIMS_APP_MODEL_TIMEOUT_S", "90")
    assert app_module.app_environment(env)["CLAIMS_APP_MODEL_TIMEOUT_S"] == "90"
    # an app with an endpoint of its own gets neither
    mine = DevEnvironment(
        lanes=[], seed_token="tok", mongo_uri="mongodb://127.0.0.1:9/",
        s3=S3Config(endpoint="http://127.0.0.1:9"), runtime="model", log_dir=tmp_path)
    monkeypatch.setenv("CLAIMS_APP_MODEL_API_KEY", "sk-mine")
    assert app_module.app_environment(mine)["CLAIMS_APP_MODEL_API_KEY"] == "sk-mine"
    assert "--model-base-url" not in app_module.app_command(
        ("lane1", "claims_dev_lane1", "claims-dev-lane1"), 8123, mine, None, [])


def _model_servers() -> set[int]:
    """Live processes of this test run's that serve a model (llama_cpp.server)."""
    found = set()
    for pid in descendants(os.getpid()):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"llama_cpp.server" in cmd and alive(pid):
            found.add(pid)
    return found


@pytest.mark.slow
@pytest.mark.browser
def test_a_journey_on_the_model_runtime_meets_the_embedded_model(tmp_path, monkeypatch):
    """``run --dev --runtime model`` with no model endpoint in the environment: start_dev starts
    the embedded model, the app talks to it, and the trial ends as the product's doing."""
    monkeypatch.chdir(REPO)
    monkeypatch.delenv(URL_ENV, raising=False)
    # SmolLM2 tends to generate until the app gives up: a shorter wait than the embedded
    # default (30 s) keeps the test short and the outcome the same (the app's own error)
    monkeypatch.setenv("CLAIMS_APP_MODEL_TIMEOUT_S", "10")
    runs = tmp_path / "runs"
    result = CliRunner().invoke(app, [
        "run", "--dev", "--runtime", "model", "--packs", str(PACKS), "--pack", "CTL-M-001",
        "--runs-dir", str(runs), "--run-id", "model", "--turn-limit", "1"])
    assert result.exit_code == 0, result.output
    assert "runtime model" in result.output
    record = RunRecord.model_validate_json((runs / "model" / "run.json").read_text())
    assert record.product.runtime == "model" and record.product.runtime_reported
    assert record.product.runtime_report["model"] == "smollm2"
    folder = runs / "model" / "CTL-M-001" / "trial-1"
    trial = TrialResult.model_validate_json((folder / "trial.json").read_text())
    transcript = (folder / "transcript.md").read_text(encoding="utf-8")
    assert STATUS_CATEGORY[trial.status] in PRODUCTS_DOING, (trial.status, trial.detail,
                                                            transcript)
    if trial.status == TrialStatus.COMPLETED:
        assert trial.stop_reason in ("claim_number", "handoff")
    elif trial.status == TrialStatus.PRODUCT_ERROR:
        assert trial.stop_reason == "product_error" and trial.detail
    # the product answered the customer's first message, or was seen not to in time
    assert "**Agent:**" in transcript or trial.status == TrialStatus.PRODUCT_ERROR
    assert not _model_servers(), "the embedded model outlived the run"


@pytest.mark.slow
def test_dev_up_with_the_local_model_points_the_app_at_it_and_stops_it(tmp_path):
    children: set[int] = set()
    proc = subprocess.Popen(
        [*MAIN, "dev", "up", "--runtime", "model", "--model", "local",
         "--baseline", str(PACKS / "baseline.json"), "--env-file", str(tmp_path / "dev.env")],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    try:
        lines = read_until(proc, "ready", STOP_WAIT_S)
        children = descendants(proc.pid)
        model_line = next(x for x in lines if x.startswith("model "))
        model_url = model_line.split(" at ", 1)[1].split()[0]
        app_url = next(x for x in lines if x.startswith("lane1") and " app " in x).split()[-1]
        assert httpx.get(f"{model_url}/models", timeout=10).json()["data"][0]["id"] == "smollm2"
        report = httpx.get(f"{app_url}/api/runtime", timeout=10).json()
        assert (report["runtime"], report["model"]) == ("model", "smollm2")
        ctrl_c_stops_everything(proc, "claims-harness dev up")
    finally:
        stop_command(proc, children)  # a failed stop leaves nothing running either
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"{model_url}/models", timeout=2)
