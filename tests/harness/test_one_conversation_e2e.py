"""A product holding one conversation for its whole process, driven in Chromium: the step
starting a new conversation gives every trial an empty one (by URL, by control), a step that
leaves the old one on screen is the product's error, the runtime its profile declares is
recorded and shown as declared, and a product that stores nothing is scored on its screens."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

import scoring
from claims_records import RunConfig, TrialResult
from harness import Profile, RunContext, TrialRig, run, run_trial
from scoring._state_checks import STATE_NOT_READ

from .one_conversation import ProductThread
from .pages import NoState, Numbered

pytestmark = [pytest.mark.browser]

PACKS = Path(__file__).resolve().parents[2] / "packs"


def one_chat_profile(base_url: str, new: dict[str, Any]) -> Profile:
    """The one-conversation product: nothing stored, no runtime report, a declared one."""
    return Profile.model_validate({
        "name": "one-chat", "base_url": base_url,
        "capabilities": {"customer_accounts": False, "staff_side": False, "chips": False,
                         "todo_bar": False, "facts_panel": False, "confirm_step": False,
                         "talk_to_person": False, "waiting_list": False,
                         "runtime_report": False},
        "runtime": {"declared": {"model": "claims-bot-7b", "version": "0.4",
                                 "endpoint": "http://bot:s3cret@127.0.0.1:9/v1?key=abc"}},
        "reset": {"adapter": "none"}, "state": {"source": "none"},
        "completion": {"selector": ".thread", "attribute": "data-state", "value": "idle",
                       "timeout_s": 8, "new_reply_timeout_s": 4},
        "customer_screen": {
            "conversation": ".thread", "agent_message": ".bubble.bot",
            "customer_message": ".bubble.me", "composer_send": "button.send",
            "composer_input": "role=textbox[name='Your message']", "buttons": [],
            "claim_number_pattern": "CLM-26-[A-Z0-9]{6}"},
        "conversation": {"scope": "process", "new": new},
    })


@pytest.fixture(scope="module")
def product():
    server = ProductThread()
    try:
        yield server
    finally:
        server.close()


def _run(product: ProductThread, runs: Path, run_id: str, new: dict[str, Any],
         trials: int) -> Path:
    config = RunConfig(corpora=[str(PACKS)], packs=["CTL-M-001"], trials=trials,
                       no_reset=True)
    _, run_dir = run(config, RunContext(profile=one_chat_profile(product.url, new),
                                        runs_dir=runs, run_id=run_id))
    return run_dir


def _trial(run_dir: Path, n: int) -> dict[str, Any]:
    return json.loads((run_dir / "CTL-M-001" / f"trial-{n}" / "trial.json").read_text())


def _earlier(product: ProductThread) -> None:
    """A conversation left from before, as a previous trial would leave it."""
    httpx.get(product.url + "/new", timeout=5)
    httpx.post(product.url + "/api/say", json={"text": "an earlier customer"}, timeout=5)


def test_a_new_conversation_by_url_gives_each_trial_an_empty_one(product, tmp_path):
    run_dir = _run(product, tmp_path, "by-url", {"by": "url", "url": "/new"}, trials=2)
    first, second = _trial(run_dir, 1), _trial(run_dir, 2)
    assert [first["status"], second["status"]] == ["completed", "completed"]
    assert first["claim_number"] != second["claim_number"]
    for trial in (first, second):
        step = trial["new_conversation"]
        assert (step["by"], step["ok"], step["fresh"]) == ("url", True, True)
        assert step["took_ms"] > 0 and "/new" in step["detail"]
        assert trial["customer_messages"] == 2  # the claim came in its own conversation
    transcript = (run_dir / "CTL-M-001" / "trial-2" / "transcript.md").read_text()
    assert first["claim_number"] not in transcript
    events = [json.loads(line) for line in
              (run_dir / "CTL-M-001" / "trial-2" / "journey.jsonl").read_text().splitlines()]
    assert any(e["note"].startswith("new conversation by url in ") for e in events)

    # the declared runtime: recorded as declared, without credentials, labelled everywhere
    record = json.loads((run_dir / "run.json").read_text())
    product_info = record["product"]
    assert product_info["runtime_source"] == "declared"
    assert product_info["declared_runtime"] == {"model": "claims-bot-7b", "version": "0.4",
                                                "endpoint": "http://127.0.0.1:9/v1"}
    assert "s3cret" not in (run_dir / "run.json").read_text()
    assert (product_info["conversation_scope"], product_info["new_conversation"]) == (
        "process", "url")
    assert record["labels"] == ["no reset", "runtime declared, not reported"]
    assert "Run labelled: no reset, runtime declared, not reported" in transcript

    # nothing stored: the state is not_implemented with its reason, the screens are scored
    summary = scoring.score_run(run_dir, PACKS)
    assert summary.labels == record["labels"]
    assert summary.product_runtime.endswith("(declared, not reported)")
    sheet = json.loads((run_dir / "CTL-M-001" / "trial-2" / "sheet.json").read_text())
    components = {c["name"]: c for c in sheet["components"]}
    assert components["state"]["status"] == "not_implemented"
    assert components["state"]["explanation"] == STATE_NOT_READ
    assert components["journey"]["status"] == "pass" and sheet["success"] is True
    scoring.write_report(run_dir)
    index = (run_dir / "report" / "index.html").read_text()
    assert 'data-testid="runtime-declared"' in index
    assert "the run declares it (model claims-bot-7b" in index
    pack_page = next((run_dir / "report").glob("**/CTL-M-001*.html")).read_text()
    assert STATE_NOT_READ.replace("'", "&#39;") in pack_page


async def _trial_on(product: ProductThread, browser: Any, folder: Path,
                   new: dict[str, Any]) -> TrialResult:
    """One trial on the module's browser (no run around it)."""
    profile = one_chat_profile(product.url, new)
    rig = TrialRig(browser, profile, profile.resolved_lanes()[0], NoState(profile),
                   lambda view, _dir: Numbered(limit=3))
    return await run_trial(rig, PACKS / "CTL-M-001", 1, folder)


@pytest.mark.asyncio(loop_scope="module")
async def test_a_new_conversation_by_control_clears_the_earlier_one(product, browser,
                                                                     tmp_path):
    _earlier(product)
    trial = await _trial_on(product, browser, tmp_path / "trial-1",
                            {"by": "control", "control": "role=button[name='New claim']"})
    assert trial.status == "completed", trial.detail
    assert trial.new_conversation is not None
    step = trial.new_conversation
    assert (step.by, step.ok, step.fresh) == ("control", True, True)
    assert trial.customer_messages == 2


@pytest.mark.asyncio(loop_scope="module")
async def test_a_trial_never_runs_on_a_stale_conversation(product, browser, tmp_path):
    _earlier(product)
    # opening the start page starts nothing new: the earlier conversation is still there
    trial = await _trial_on(product, browser, tmp_path / "trial-1", {"by": "url", "url": "/"})
    assert (trial.status, trial.stop_reason) == ("product_error", "product_error")
    assert "still shows 1 customer message(s) of an earlier one" in trial.detail
    assert trial.customer_messages == 0
    assert trial.new_conversation is not None
    assert (trial.new_conversation.ok, trial.new_conversation.fresh) == (True, False)
