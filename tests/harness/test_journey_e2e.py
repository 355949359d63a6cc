"""End to end: packs through the reference app in Chromium, with full evidence."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from claims_corpus import load_labels
from claims_records import JourneyEvent, RunRecord, StaffReading, StateDump, TrialResult

from .conftest import PACKS, copy_corpus, edit_json, profile_for, run_packs, start_env
from .fake_openai import FakeOpenAI
from .har_check import check_har

pytestmark = [pytest.mark.slow, pytest.mark.browser]

HEADER_CANARY = "CANARY-HEADER-77aa11"
QUERY_CANARY = "CANARY-QUERY-88bb22"
PASSWORD_CANARY = "CANARY-PASSWORD-99cc33"


def _events(trial: Path) -> list[JourneyEvent]:
    lines = (trial / "journey.jsonl").read_text(encoding="utf-8").splitlines()
    return [JourneyEvent.model_validate_json(line) for line in lines]


def _text_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and p.suffix != ".png"]


def test_scripted_customer_reaches_a_claim_number_with_full_evidence(
        dev_env, tmp_path, monkeypatch):
    monkeypatch.setenv("TEST_GATEWAY_KEY", HEADER_CANARY)
    profile = profile_for(dev_env, start_path=f"/?access_token={QUERY_CANARY}")
    profile = profile.model_copy(update={"browser": profile.browser.model_copy(
        update={"extra_headers_env": {"X-Api-Key": "TEST_GATEWAY_KEY"}})})
    record, run_dir = run_packs(dev_env, profile, PACKS, tmp_path / "runs",
                                packs=["CTL-M-001"], run_id="e2e")
    trial = run_dir / "CTL-M-001" / "trial-1"
    result = TrialResult.model_validate_json((trial / "trial.json").read_text())
    assert result.status == "completed", result.detail
    assert result.stop_reason == "claim_number"
    assert result.claim_number and result.claim_number.startswith("NWF-")

    # a screenshot for every customer action
    events = _events(trial)
    acted = [e for e in events if e.action is not None]
    assert len(acted) >= 8
    for e in acted:
        assert e.screenshot and (trial / e.screenshot).is_file()
        assert e.screenshot.startswith("screens/")
    assert acted[0].action.text == (PACKS / "CTL-M-001/input/initial_message.txt").read_text(
        ).rstrip("\n")
    assert sum(1 for e in acted if e.note == "initial message") == 1
    assert any(e.timings.reply_wait_s is not None for e in events)

    # the HAR is valid HAR 1.2 and free of the planted secrets
    har = check_har(trial / "network.har")
    assert any("/api/" in e["request"]["url"] for e in har["log"]["entries"])
    for path in _text_files(run_dir):
        text = path.read_text(encoding="utf-8", errors="replace")
        assert HEADER_CANARY not in text, path
        assert QUERY_CANARY not in text, path
        assert dev_env.seed_token not in text, path

    transcript = (trial / "transcript.md").read_text(encoding="utf-8")
    assert result.claim_number in transcript
    assert "SELF-TEST" not in transcript

    staff = StaffReading.model_validate_json((trial / "staff.json").read_text())
    labels = load_labels(PACKS / "CTL-M-001")
    assert staff.found and staff.claim_number == result.claim_number
    assert staff.triage_class == labels.triage.triage_class
    assert staff.review_required is labels.review.review_required
    assert set(staff.checks) == set(labels.review.checks)
    assert all((trial / s).is_file() for s in staff.screenshots)

    before = StateDump.model_validate_json((trial / "state-before.json").read_text())
    after = StateDump.model_validate_json((trial / "state-after.json").read_text())
    assert after.collections != before.collections

    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    assert run.product.runtime == "reference" and not run.self_test
    assert run.harness.version and run.corpus.hash and run.finished_at
    assert [t.status for t in run.trials] == ["completed"]
    assert run.lanes[0].base_url == dev_env.lanes[0].base_url


def test_a_paced_customer_takes_its_time_and_the_products_time_leaves_it_out(dev_env, tmp_path):
    """--pace 0.5: every answer after the opening message takes at least half a second, and
    the sheet's product time is the report's span without those waits."""
    import scoring
    from claims_records import Sheet

    record, run_dir = run_packs(dev_env, profile_for(dev_env), PACKS, tmp_path / "runs",
                                packs=["CTL-M-001"], run_id="paced", pace="0.5s")
    assert record.options.pace == 0.5 and [t.status for t in record.trials] == ["completed"]
    trial = run_dir / "CTL-M-001" / "trial-1"
    answers = [e for e in _events(trial) if e.action is not None and e.step > 0]
    assert len(answers) >= 5
    assert all(e.timings.customer_s is not None and e.timings.customer_s >= 0.5
               for e in answers), [e.timings for e in answers]
    scoring.score_run(run_dir, PACKS)
    numbers = Sheet.model_validate_json((trial / "sheet.json").read_text()).numbers
    assert numbers.report_duration_s and numbers.product_time_s is not None
    paced = sum(1 for e in answers if not e.screen or not e.screen.claim_number)
    assert numbers.report_duration_s - numbers.product_time_s >= 0.5 * paced - 0.01
    assert numbers.customer_work and numbers.customer_work.actions == paced + 1


def test_anonymous_then_sign_in_signs_in_when_asked(dev_env, tmp_path):
    from claims_reference_app._store import hash_password

    packs = copy_corpus(tmp_path / "packs", ["CTL-M-001"])

    def change(setup):
        setup["claimant_session"] = "anonymous_then_sign_in"
        setup["customer_credentials"] = {"username": "daniel.carter@example.org",
                                         "password": PASSWORD_CANARY}
        setup["collections"]["accounts"] = [{
            "_id": "acct-m001", "customer_id": "cust-m001", "email": "daniel.carter@example.org",
            "password_hash": hash_password(PASSWORD_CANARY)}]

    edit_json(packs / "CTL-M-001" / "setup.json", change)
    record, run_dir = run_packs(dev_env, profile_for(dev_env), packs, tmp_path / "runs",
                                run_id="signin")
    trial = run_dir / "CTL-M-001" / "trial-1"
    result = TrialResult.model_validate_json((trial / "trial.json").read_text())
    assert result.status == "completed", result.detail
    kinds = [e.action.kind for e in _events(trial) if e.action]
    assert "sign_in" in kinds
    signed = kinds.index("sign_in")
    assert any(e.screen and e.screen.sign_in_prompt for e in _events(trial))
    assert signed > 0 and kinds[0] == "say"
    assert "[signed in]" in (trial / "transcript.md").read_text(encoding="utf-8")
    check_har(trial / "network.har")
    for path in _text_files(run_dir):
        assert PASSWORD_CANARY not in path.read_text(encoding="utf-8", errors="replace"), path


def _llm_run(dev_env, tmp_path: Path, server: FakeOpenAI, run_id: str, **settings):
    """CTL-M-001 once with the llm customer on ``server``; (record, trial folder, result)."""
    from harness.customers import LlmSettings

    # one dialect named: auto would probe the endpoint first, taking the queued replies
    llm = LlmSettings(base_url=server.base_url, model=run_id,
                      **{"response_format": "json_schema", **settings})
    record, run_dir = run_packs(dev_env, profile_for(dev_env), PACKS, tmp_path / "runs",
                                packs=["CTL-M-001"], customer="llm", llm=llm,
                                run_id=run_id)
    trial = run_dir / "CTL-M-001" / "trial-1"
    return record, trial, TrialResult.model_validate_json((trial / "trial.json").read_text())


def test_llm_customer_failures_become_simulator_errors(dev_env, tmp_path):
    key = "sk-CANARY-LLM"
    with FakeOpenAI() as server:
        for _ in range(3):  # the client's first try and its two retries
            server.queue(429, {"error": {"message": f"slow down, {key}"}})
        record, trial, result = _llm_run(dev_env, tmp_path, server, "llm", api_key=key,
                                         max_retries=2, timeout_s=5)
    run_dir = trial.parent.parent
    assert result.status == "simulator_error"
    assert result.stop_reason == "simulator_error" and "kind=rate_limit" in result.detail
    assert result.retries == 2
    [call] = [json.loads(c) for c in (trial / "customer-model.jsonl").read_text().splitlines()]
    assert call["http_statuses"] == [429, 429, 429] and call["error_kind"] == "rate_limit"
    assert record.customer.kind == "llm" and record.customer.endpoint_host
    assert record.customer.max_retries == 2 and record.customer.prompt_view == "screen"
    # prompts: the screen's visible text and permitted fields only
    first_reply = next(e.screen.latest_reply for e in _events(trial) if e.screen
                       and e.screen.latest_reply)
    prompt = json.dumps(server.requests[0]["messages"])
    assert first_reply and first_reply in prompt
    labels = load_labels(PACKS / "CTL-M-001")
    for value in [labels.scenario, "damage_photo", "repair_quote", *labels.review.checks]:
        assert value not in prompt, value
    for path in _text_files(run_dir):
        assert key not in path.read_text(encoding="utf-8", errors="replace"), path


def test_llm_customer_completes_a_journey_with_permitted_prompts_only(dev_env, tmp_path):
    """The panel's well-behaved stand-in plays a whole journey from the screen-only prompt:
    the prompt holds enough, and nothing it may not hold."""
    import scoring
    from harness.panel import well_behaved

    with FakeOpenAI(default=well_behaved) as server:
        server.queue(503, {"error": {"message": "warming up"}})
        record, trial, result = _llm_run(dev_env, tmp_path, server, "llm-ok",
                                         api_key="sk-CANARY-LLM-2", timeout_s=10,
                                         price_prompt_per_mtok=0.5,
                                         price_completion_per_mtok=1.5)
    run_dir = trial.parent.parent
    assert result.status == "completed", result.detail
    assert result.retries == 1 and result.tokens.total_tokens > 0
    assert result.cost_usd == pytest.approx(result.tokens.prompt_tokens * 0.5e-6
                                            + result.tokens.completion_tokens * 1.5e-6)
    [entry] = RunRecord.model_validate_json((run_dir / "run.json").read_text()).trials
    assert entry.tokens == result.tokens and entry.cost_usd == result.cost_usd
    labels = load_labels(PACKS / "CTL-M-001")
    forbidden = [labels.scenario, labels.triage.triage_class, "damage_photo", "repair_quote",
                 "evidence_kind", *labels.triage.required_reasons, *labels.review.checks,
                 dev_env.seed_token]
    # one prompt per decision (after the failed first attempt), each holding the reply on
    # screen and no earlier reply of the agent
    steps = [e.screen for e in _events(trial)
             if e.screen and e.action and e.note != "initial message"]
    prompts = [json.dumps(r["messages"]) for r in server.requests]
    assert len(steps) > 5 and len(prompts) == len(steps) + 1
    assert prompts[0] == prompts[1]
    for i, (screen, prompt) in enumerate(zip(steps, prompts[1:], strict=True)):
        assert json.dumps(screen.latest_reply)[1:-1] in prompt
        for earlier in steps[:i]:
            if earlier.latest_reply != screen.latest_reply:
                assert json.dumps(earlier.latest_reply)[1:-1] not in prompt
    for prompt in prompts:
        for value in forbidden:
            assert value not in prompt, value
    for path in _text_files(run_dir):
        assert "sk-CANARY-LLM-2" not in path.read_text(encoding="utf-8", errors="replace")
    summary = scoring.score_run(run_dir, PACKS)
    assert summary.fidelity.audited_trials == 1 and summary.fidelity.suspect_trials == 0


def _customer_blocks(trial: Path) -> list[str]:
    """The customer's messages as transcript.md writes them."""
    text = (trial / "transcript.md").read_text(encoding="utf-8")
    return [block.split("\n\n", 1)[0] for block in text.split("**Customer:**\n\n")[1:]]


def test_a_replayed_run_repeats_the_customer_byte_for_byte_without_a_model(dev_env, tmp_path):
    """A run recorded against the stand-in, which then stops, is replayed on the same
    product: the customer sends the same messages and takes the same actions, and no
    server is asked anything (with auto asked for, not even its probe)."""
    import harness
    from claims_records import CustomerModelCall, LlmConfig, RunConfig
    from harness.panel import well_behaved

    with FakeOpenAI(default=well_behaved) as server:
        _, first, result = _llm_run(dev_env, tmp_path, server, "recorded",
                                    response_format="json_schema", timeout_s=10)
    assert result.status == "completed", result.detail
    with FakeOpenAI(default=well_behaved) as watcher:  # a silent new call would land here
        ctx = harness.RunContext(profile=profile_for(dev_env), runs_dir=tmp_path / "runs",
                                 run_id="replayed", seed_token=dev_env.seed_token)
        config = RunConfig(corpora=[str(PACKS)], packs=["CTL-M-001"], customer="llm",
                           replay="recorded",
                           llm=LlmConfig(base_url=watcher.base_url, response_format="auto"))
        record, run_dir = harness.run(config, ctx)
        assert watcher.requests == []
    again = run_dir / "CTL-M-001" / "trial-1"
    replayed = TrialResult.model_validate_json((again / "trial.json").read_text())
    assert replayed.status == "completed", replayed.detail
    assert record.options.replay == str(first.parent.parent.resolve())
    assert (record.customer.model, record.customer.response_format,
            record.customer.dialect) == ("recorded", "auto", "json_schema")

    def actions(trial: Path) -> list[str]:
        return [e.action.model_dump_json() for e in _events(trial) if e.action]

    def calls(trial: Path) -> list[CustomerModelCall]:
        lines = (trial / "customer-model.jsonl").read_text(encoding="utf-8").splitlines()
        return [CustomerModelCall.model_validate_json(line) for line in lines]

    assert len(actions(first)) > 5 and actions(again) == actions(first)
    assert _customer_blocks(again) == _customer_blocks(first)
    assert replayed.customer_messages == result.customer_messages
    before, after = calls(first), calls(again)
    assert [c.prompt_hash for c in after] == [c.prompt_hash for c in before]
    assert [c.reply for c in after] == [c.reply for c in before]
    assert all(c.replayed and c.http_statuses == [] for c in after)
    assert not any(c.replayed for c in before)


def test_product_killed_mid_journey_is_a_product_error_and_the_run_continues(
        tmp_path_factory, tmp_path):
    env = start_env(tmp_path_factory, lanes=2)
    try:
        runs = tmp_path / "runs"
        journey = runs / "kill" / "CTL-M-001" / "trial-1" / "journey.jsonl"
        killed = threading.Event()

        def killer():
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                if journey.exists() and len(journey.read_text().splitlines()) >= 4:
                    os.killpg(env._apps[0].proc.pid, signal.SIGKILL)
                    killed.set()
                    return
                time.sleep(0.02)

        watcher = threading.Thread(target=killer, daemon=True)
        watcher.start()
        record, run_dir = run_packs(env, profile_for(env), PACKS, runs, packs=["CTL-M-001"],
                                    trials=2, run_id="kill")
        watcher.join(timeout=5)
        assert killed.is_set()
        statuses = {t.trial: (t.status, t.lane) for t in record.trials}
        assert statuses[1] == ("product_error", "lane1")
        assert statuses[2] == ("completed", "lane2")
        first = run_dir / "CTL-M-001" / "trial-1"
        for name in ("trial.json", "journey.jsonl", "network.har", "transcript.md",
                     "state-before.json", "staff.json"):
            assert (first / name).is_file(), name
        assert len(list((first / "screens").glob("*.png"))) >= 3
        check_har(first / "network.har")
        result = TrialResult.model_validate_json((first / "trial.json").read_text())
        assert result.status == "product_error" and result.detail
    finally:
        env.close()


def test_a_human_pace_counts_the_opening_messages_typing_and_reports_show_modelled_time(
        dev_env, tmp_path):
    """--pace human: the opening message takes its typing time before it is sent, the sheet's
    report_duration_s includes it, and the pack page shows the modelled time first."""
    import scoring
    from claims_records import CustomerAction, CustomerWork, Sheet, read_acceptance

    packs = copy_corpus(tmp_path / "packs", ["CTL-M-001"])
    (packs / "acceptance.toml").write_text(  # a fast person, so the test stays short
        "[report_duration.customer_time]\ntyping_wpm = 400\nreading_wpm = 20000\n"
        "think_s = 0.3\nclick_s = 0\nupload_s = 0\nsign_in_s = 0\n", encoding="utf-8")
    record, run_dir = run_packs(dev_env, profile_for(dev_env), packs, tmp_path / "runs",
                                packs=["CTL-M-001"], run_id="human", pace="human")
    assert [t.status for t in record.trials] == ["completed"]
    trial = run_dir / "CTL-M-001" / "trial-1"
    opening = next(e for e in _events(trial) if e.note == "initial message")
    model = read_acceptance(packs)[0].report_duration.customer_time
    typing = model.seconds(CustomerWork.of_step("", CustomerAction(
        kind="say", text=opening.action.text)))
    assert typing > 0.5 and opening.timings.customer_s >= typing - 0.01
    scoring.score_run(run_dir, packs)
    numbers = Sheet.model_validate_json((trial / "sheet.json").read_text()).numbers
    assert numbers.report_duration_s >= numbers.product_time_s + typing - 0.01
    assert numbers.report_modelled_s == pytest.approx(
        numbers.product_time_s + numbers.customer_time_s, abs=0.01)
    page = (scoring.write_report(run_dir).parent / "packs" / "CTL-M-001.html").read_text(
        encoding="utf-8")
    assert f"report {numbers.report_modelled_s:.1f} s (product " in page
    assert f"machine time {numbers.report_duration_s:.1f} s" in page
