"""The LLM customer played by a real model through its real server: the embedded
SmolLM2-135M-Instruct behind llama-cpp-python (``claims_dev.start_local_model``), started by the
tests on loopback; no stand-in anywhere.

A 135M model is a test fixture, not a customer to trust. What these tests hold is how the
harness meets a real model: ``auto`` finds the dialect the server speaks; every trial ends as
a completed journey or as the customer's own failure with its reasons (``simulator_error``,
``simulator_suspect``), never as a server error caused by the dialect; the fidelity audit
reads its answers; the simulator panel gives a verdict with counts per rule; a replay gives
back its messages byte for byte.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_dev import start_local_model
from claims_records import RunRecord, read_model_calls
from harness.customers import LlmSettings

from .conftest import PACKS, profile_for, run_packs

pytestmark = [pytest.mark.slow, pytest.mark.browser]

PACK_IDS = ["CTL-M-001", "CTL-H-002", "CTL-C-001"]
# Enough steps to see how the model plays (each answer after the pack's opening message is the
# model's); a 135M model rarely reaches a claim number, and on a busy machine the first answer
# of a trial (a whole prompt to read) takes tens of seconds.
TURN_LIMIT = 2


@pytest.fixture(scope="module")
def model():
    local, handle = start_local_model()
    try:
        yield local
    finally:
        handle.stop()


def _settings(model, **kw) -> LlmSettings:
    return LlmSettings(base_url=model.base_url, model=model.model, temperature=0, seed=7,
                       max_tokens=200, timeout_s=120, **kw)


@pytest.fixture(scope="module")
def real_run(dev_env, model, tmp_path_factory) -> Path:
    import scoring

    runs = tmp_path_factory.mktemp("runs")
    _, run_dir = run_packs(dev_env, profile_for(dev_env), PACKS, runs, run_id="real",
                           packs=PACK_IDS, customer="llm", llm=_settings(model),
                           turn_limit=TURN_LIMIT)
    scoring.score_run(run_dir, PACKS)
    return run_dir


def _trials(run_dir: Path) -> list[tuple[dict, dict]]:
    out = []
    for pack in PACK_IDS:
        trial = run_dir / pack / "trial-1"
        out.append((json.loads((trial / "trial.json").read_text()),
                    json.loads((trial / "sheet.json").read_text())))
    return out


def test_auto_settles_on_the_dialect_the_real_server_speaks(real_run):
    record = RunRecord.model_validate_json((real_run / "run.json").read_text())
    customer = record.customer
    assert customer.kind == "llm" and customer.model == "smollm2"
    assert customer.response_format == "auto" and customer.dialect == "json_object_schema"
    refused, used = customer.dialect_tries
    assert (refused.dialect, refused.outcome) == ("json_schema", "refused")
    assert "HTTP 500" in refused.detail and "json_object" in refused.detail  # its own words
    assert (used.dialect, used.outcome) == ("json_object_schema", "used")
    assert record.options.llm is not None and record.options.llm.response_format == "auto"
    for pack in PACK_IDS:
        calls = read_model_calls(real_run / pack / "trial-1")
        assert calls and all(c.response_format == "json_object_schema" for c in calls)
        assert all(c.request["response_format"]["type"] == "json_object" for c in calls)


def test_every_trial_completes_or_is_the_customers_own_failure_with_reasons(real_run):
    for result, sheet in _trials(real_run):
        assert "kind=server" not in result["detail"], result["detail"]
        assert result["status"] in ("completed", "simulator_error", "stuck",
                                    "agent_stopped"), result  # never the product's or ours
        if result["status"] == "completed":
            continue
        # not completed: the customer's failure, kept out of the rates with its reasons
        assert sheet["error_category"] in ("simulator_error", "simulator_suspect"), sheet
        assert not sheet["scorable"]
        if sheet["error_category"] == "simulator_suspect":
            assert re.search(r"(invented|volunteered|unrequested_upload|hinting|"
                             r"out_of_character|premature_give_up) at step \d+",
                             sheet["explanation"]), sheet["explanation"]
        else:
            assert "kind=" in result["detail"]
    calls = [c for pack in PACK_IDS for c in read_model_calls(real_run / pack / "trial-1")]
    assert calls and all(c.usage.total_tokens > 0 for c in calls if c.error is None)
    assert all(c.latency_s and c.latency_s > 0 for c in calls if c.error is None)


def test_a_replay_gives_back_the_real_models_messages_byte_for_byte(dev_env, real_run,
                                                                    tmp_path):
    """The recorded run replayed on the same product: no model is asked (the settings point
    at a port nothing listens on) and every customer action is the same, byte for byte."""
    gone = LlmSettings(base_url="http://127.0.0.1:9/v1", model="smollm2", temperature=0,
                       seed=7, max_tokens=200)
    _, replay_dir = run_packs(dev_env, profile_for(dev_env), PACKS, tmp_path, run_id="again",
                              packs=PACK_IDS, customer="llm", llm=gone,
                              turn_limit=TURN_LIMIT, replay=str(real_run))

    def actions(run_dir: Path, pack: str) -> list[str]:
        lines = (run_dir / pack / "trial-1" / "journey.jsonl").read_text().splitlines()
        return [json.dumps(json.loads(x)["action"]) for x in lines
                if json.loads(x).get("action") is not None]

    for pack in PACK_IDS:
        assert actions(replay_dir, pack) == actions(real_run, pack), pack
        calls = read_model_calls(replay_dir / pack / "trial-1")
        assert calls and all(c.replayed for c in calls)


# The simulator panel's pack (the fewest recorded screens) and how many of its screens the
# real model answers: each answer costs seconds of CPU, and two show the verdict and its counts.
PANEL_PACK, PANEL_SCREENS = "CTL-H-030", 2


def test_the_simulator_panel_names_the_rules_the_real_model_breaks_with_counts(model,
                                                                               tmp_path):
    from harness.panel import SCREENS_DIR

    recorded = json.loads((SCREENS_DIR / f"{PANEL_PACK}.json").read_text(encoding="utf-8"))
    recorded["screens"] = recorded["screens"][:PANEL_SCREENS]
    (tmp_path / f"{PANEL_PACK}.json").write_text(json.dumps(recorded), encoding="utf-8")
    result = CliRunner().invoke(app, [
        "selftest", "simulator", "--llm-base-url", model.base_url, "--llm-model", model.model,
        "--pack", PANEL_PACK, "--packs", str(PACKS), "--screens", str(tmp_path)],
        env={"CLAIMS_HARNESS_LLM_TEMPERATURE": "0", "CLAIMS_HARNESS_LLM_SEED": "7",
             "CLAIMS_HARNESS_LLM_MAX_TOKENS": "200"})
    out = result.output
    assert "structured output auto: json_object_schema; passed over: json_schema refused " \
           "(HTTP 500" in out, out
    steps = re.search(rf"{PANEL_PACK}: (\d+) step\(s\), ended \w+.*, (\d+) model call\(s\)", out)
    assert steps and 1 <= int(steps[1]) <= PANEL_SCREENS and int(steps[2]) >= 1, out
    verdict = out.strip().splitlines()[-1]
    assert verdict.startswith(("TRUSTED", "SUSPECT")), out
    if verdict.startswith("SUSPECT"):
        assert result.exit_code == 1
        assert re.search(r"[a-z_]+ \d+ finding\(s\) in \d+ pack\(s\)|[a-z_]+ in \d+ pack\(s\)",
                         verdict), verdict
    else:
        assert result.exit_code == 0
