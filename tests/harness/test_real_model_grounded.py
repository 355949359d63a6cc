"""The grounded customer played by the real embedded model (SmolLM2-135M-Instruct behind
llama-cpp-python, started on loopback by the tests): a whole journey on the reference app to
a claim number, audited clean, and its replay with the model server stopped.

The server turns each step's schema (an enum of the permitted choices) into a grammar, so the
model can only choose; what these tests hold is that a 135M model then plays a whole journey
honestly, and that the run can be reproduced without it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claims_dev import start_local_model
from claims_records import RunRecord, read_model_calls
from harness.customers import LlmSettings

from .conftest import PACKS, profile_for, run_packs

pytestmark = [pytest.mark.slow, pytest.mark.browser]

PACK = "CTL-M-001"


@pytest.fixture(scope="module")
def grounded_run(dev_env, tmp_path_factory) -> Path:
    """One grounded journey on the real model; the server is stopped before any test reads
    the run, so the replay below cannot reach it."""
    import scoring

    local, handle = start_local_model()
    try:
        settings = LlmSettings(base_url=local.base_url, model=local.model, temperature=0,
                               seed=7, max_tokens=200, timeout_s=600, mode="grounded")
        runs = tmp_path_factory.mktemp("runs")
        _, run_dir = run_packs(dev_env, profile_for(dev_env), PACKS, runs, run_id="grounded",
                               packs=[PACK], customer="llm", llm=settings, turn_limit=25)
    finally:
        handle.stop()
    scoring.score_run(run_dir, PACKS)
    return run_dir


def _actions(run_dir: Path) -> list[str]:
    lines = (run_dir / PACK / "trial-1" / "journey.jsonl").read_text().splitlines()
    return [json.dumps(json.loads(x)["action"]) for x in lines
            if json.loads(x).get("action") is not None]


def test_the_real_model_plays_a_whole_grounded_journey_to_a_claim_number(grounded_run):
    record = RunRecord.model_validate_json((grounded_run / "run.json").read_text())
    assert record.customer.mode == "grounded" and record.customer.dialect == "json_object_schema"
    assert record.options.llm is not None and record.options.llm.mode == "grounded"
    trial = json.loads((grounded_run / PACK / "trial-1" / "trial.json").read_text())
    sheet = json.loads((grounded_run / PACK / "trial-1" / "sheet.json").read_text())
    assert trial["status"] == "completed" and trial["claim_number"], trial
    assert sheet["error_category"] != "simulator_suspect", sheet["explanation"]
    calls = read_model_calls(grounded_run / PACK / "trial-1")
    answered = [c for c in calls if c.action is not None]
    assert len(answered) >= 5  # the model chose every step after the opening message
    for call in answered:
        enum = call.request["response_format"]["schema"]["properties"]["choice"]["enum"]
        assert json.loads(call.reply or "")["choice"] in enum
        assert call.usage.prompt_tokens > 0


def test_a_grounded_run_replays_exactly_with_the_model_server_stopped(dev_env, grounded_run,
                                                                       tmp_path):
    gone = LlmSettings(base_url="http://127.0.0.1:9/v1", model="smollm2", temperature=0,
                       seed=7, max_tokens=200, mode="grounded")
    _, replay_dir = run_packs(dev_env, profile_for(dev_env), PACKS, tmp_path, run_id="again",
                              packs=[PACK], customer="llm", llm=gone, turn_limit=25,
                              replay=str(grounded_run))
    assert _actions(replay_dir) == _actions(grounded_run)
    calls = read_model_calls(replay_dir / PACK / "trial-1")
    assert calls and all(c.replayed for c in calls)
    again = json.loads((replay_dir / PACK / "trial-1" / "trial.json").read_text())
    first = json.loads((grounded_run / PACK / "trial-1" / "trial.json").read_text())
    assert (again["status"], again["steps"]) == (first["status"], first["steps"])
