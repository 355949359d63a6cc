"""Replay: the llm customer answered from a recorded trial, by prompt hash, never a model.

A decision is made once against the stand-in; the same decision replayed from its recorded
calls gives the same action and the same record, with the endpoint down. A prompt the
recording does not hold is a ``replay_miss`` naming the pack, trial, step and key.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claims_corpus import Progress, load_customer_view
from claims_records import (
    CorpusInfo,
    CustomerInfo,
    CustomerModelCall,
    HarnessInfo,
    LlmConfig,
    ProductInfo,
    RunConfig,
    RunRecord,
    RunRecordError,
    ScreenReading,
    SimulatorError,
    TrialEntry,
    append_jsonl,
    read_model_calls,
    write_run_record,
)
from harness.customers import (
    CustomerContext,
    EndpointError,
    LlmSettings,
    RecordedTrial,
    Recording,
    make_customer,
    material_availability,
    prompt_key,
)
from harness.customers._replay import Replay

from .fake_openai import FakeOpenAI, completion

PACK = Path(__file__).resolve().parents[2] / "packs" / "CTL-M-001"
SCREEN = ScreenReading(latest_reply="Thanks. What is the registration of the car?",
                       chips=[], todo="Tell us about the incident", buttons=["Talk to a person"])
OTHER_SCREEN = ScreenReading(latest_reply="When did it happen?", chips=[],
                             buttons=["Talk to a person"])
SAY_REG = json.dumps({"kind": "say", "text": "The registration is LK19 XRD."})


def _settings(url: str, **kw) -> LlmSettings:
    base = dict(base_url=url + "/v1", model="fake-customer", temperature=0.2, seed=7,
                max_retries=0, timeout_s=2.0, response_format="json_schema")
    base.update(kw)
    return LlmSettings(**base)


def _dead_url() -> str:
    """The address of a stand-in that has stopped: nothing answers there."""
    with FakeOpenAI() as server:
        url = server.url
    return url


async def _decide(settings: LlmSettings, replay: RecordedTrial | None = None,
                  screen: ScreenReading = SCREEN, step: int = 3):
    """One decision of trial 1 of CTL-M-001; (action or SimulatorError, recorded calls)."""
    view = load_customer_view(PACK)
    customer = make_customer("llm", view, PACK, settings, replay=replay)
    calls: list[CustomerModelCall] = []
    available, later = material_availability(view, Progress(messages=1, actions=1))
    ctx = CustomerContext(step=step, messages_sent=1,
                          history=[("customer", view.initial_message),
                                   ("agent", "Sorry to hear that.")],
                          available_files=available, later_files=later,
                          record_call=calls.append)
    try:
        return await customer.next_action(screen, ctx), calls
    except SimulatorError as exc:
        return exc, calls
    finally:
        await customer.aclose()


def _trial(calls: list[CustomerModelCall]) -> RecordedTrial:
    return RecordedTrial("rec", "CTL-M-001", 1, tuple(calls))


def test_the_key_is_the_prompt_model_and_sampling_without_the_structured_output_fields():
    body = {"model": "m", "messages": [{"role": "user", "content": "é"}], "temperature": 0.2}
    key = prompt_key(body)
    assert len(key) == 64 and key == prompt_key(dict(reversed(body.items())))
    for extra in ({"response_format": {"type": "json_object"}}, {"guided_json": {}},
                  {"format": {"type": "object"}}):
        assert prompt_key({**body, **extra}) == key
    for change in ({"model": "n"}, {"temperature": 0.3}, {"seed": 7},
                   {"messages": [{"role": "user", "content": "e"}]}):
        assert prompt_key({**body, **change}) != key


@pytest.mark.asyncio
async def test_a_replayed_decision_is_the_recorded_one_with_the_endpoint_down():
    with FakeOpenAI() as server:
        server.queue(200, completion(SAY_REG, 900, 40))
        action, recorded = await _decide(_settings(server.url,
                                                   response_format="json_object_schema"))
    [original] = recorded
    assert original.prompt_hash == prompt_key(original.request) and not original.replayed
    # another dialect asked for: the key leaves it out, the record keeps the recorded one
    again, replayed = await _decide(_settings(_dead_url()), _trial(recorded))
    assert again == action and again.text == "The registration is LK19 XRD."
    [call] = replayed
    assert call.replayed and call.prompt_hash == original.prompt_hash
    assert call.reply == original.reply and call.action == original.action
    assert call.request == original.request and call.response_format == "json_object_schema"
    assert call.http_statuses == [] and call.usage.total_tokens == 0 and call.error is None


@pytest.mark.asyncio
async def test_repeated_keys_are_answered_in_recorded_order_and_recorded_failures_repeat():
    with FakeOpenAI() as server:
        server.queue(200, completion(""))  # no text: asked again with the same prompt
        server.queue(200, completion(SAY_REG))
        action, recorded = await _decide(_settings(server.url))
    assert [c.error_kind for c in recorded] == ["malformed_output", None]
    assert recorded[0].prompt_hash == recorded[1].prompt_hash
    again, replayed = await _decide(_settings(_dead_url()), _trial(recorded))
    assert again == action
    assert [c.error_kind for c in replayed] == ["malformed_output", None]
    assert replayed[0].error == "as recorded: " + recorded[0].error
    assert [c.attempt for c in replayed] == [1, 2]


@pytest.mark.asyncio
async def test_a_key_used_as_often_as_recorded_is_then_a_miss():
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    calls = [CustomerModelCall(step=1, attempt=1, ts="t", request=body, reply=r)
             for r in ("first", "second")]  # older records: no prompt_hash, keyed by request
    replay = Replay(_settings(_dead_url()), _trial(calls))
    assert [(await replay.complete(dict(body))).text for _ in range(2)] == ["first", "second"]
    with pytest.raises(EndpointError) as raised:
        await replay.complete(dict(body))
    assert raised.value.kind == "replay_miss" and "2 answer(s)" in raised.value.message


@pytest.mark.asyncio
async def test_a_prompt_the_recording_does_not_hold_ends_the_decision_as_a_replay_miss():
    with FakeOpenAI() as server:
        server.queue(200, completion(SAY_REG))
        _, recorded = await _decide(_settings(server.url))
    with FakeOpenAI() as watcher:  # a live endpoint: a silent new call would reach it
        outcome, replayed = await _decide(_settings(watcher.url), _trial(recorded),
                                          screen=OTHER_SCREEN, step=5)
        assert watcher.requests == []
    assert isinstance(outcome, SimulatorError) and outcome.context["kind"] == "replay_miss"
    [call] = replayed
    assert call.replayed and call.error_kind == "replay_miss" and call.reply is None
    text = str(outcome)
    assert "CTL-M-001 trial 1" in text and "step=5" in text and call.prompt_hash in text
    assert call.prompt_hash != recorded[0].prompt_hash

    outcome, _ = await _decide(_settings(watcher.url), RecordedTrial(
        "rec", "CTL-M-001", 2, (), held=False))
    assert "no such trial" in str(outcome)


def _recorded_run(runs: Path, customer: str = "llm") -> Path:
    """A run folder whose trial 1 of CTL-M-001 holds one recorded call."""
    llm = LlmConfig(base_url="http://127.0.0.1:9/v1", model="rec-model", temperature=0.2,
                    response_format="auto") if customer == "llm" else None
    options = RunConfig(customer=customer, llm=llm, packs=["CTL-M-001"], trials=2)
    record = RunRecord(
        run_id="rec", created_at="2026-03-12T00:00:00+00:00",
        harness=HarnessInfo(version="0"), corpus=CorpusInfo(version="0", hash="h", path="p"),
        product=ProductInfo(profile="reference", base_urls=["http://127.0.0.1:1"],
                            runtime="reference"),
        customer=CustomerInfo(kind=customer, model="rec-model", response_format="auto",
                              dialect="json_object_schema") if customer == "llm"
        else CustomerInfo(kind=customer), options=options,
        trials=[TrialEntry(pack_id="CTL-M-001", trial=1, path="CTL-M-001/trial-1")])
    run_dir = runs / "rec"
    (run_dir / "CTL-M-001" / "trial-1").mkdir(parents=True)
    write_run_record(run_dir, record)
    append_jsonl(run_dir / "CTL-M-001" / "trial-1" / "customer-model.jsonl",
                 CustomerModelCall(step=1, attempt=1, ts="t", request={"model": "rec-model"},
                                   reply=SAY_REG))
    return run_dir


def test_a_recording_is_found_by_id_or_path_and_read_trial_by_trial(tmp_path):
    run_dir = _recorded_run(tmp_path / "runs")
    by_id = Recording.open("rec", tmp_path / "runs")
    by_path = Recording.open(str(run_dir), tmp_path / "elsewhere")
    assert by_id.run_dir == by_path.run_dir == run_dir.resolve()
    [call] = by_id.trial("CTL-M-001", 1).calls
    assert call.reply == SAY_REG and call.prompt_hash is None  # an older record still loads
    assert not by_id.trial("CTL-M-001", 2).held and by_id.trial("CTL-M-001", 2).calls == ()
    # auto is never probed in a replay: it takes the dialect the recorded run used
    settled = by_id.settled(LlmSettings(model="rec-model", base_url="http://127.0.0.1:9/v1"))
    assert settled.response_format == "json_object_schema" and settled.asked == "auto"
    config = by_id.applied(RunConfig(customer="llm", replay="rec",
                                     llm=LlmConfig(temperature=0.0)))
    assert config.replay == str(run_dir.resolve()) and config.llm.model == "rec-model"
    assert config.llm.temperature == 0.0 and config.llm.base_url == "http://127.0.0.1:9/v1"
    with pytest.raises(RunRecordError, match="no run to replay"):
        Recording.open("nope", tmp_path / "runs")
    (run_dir / "CTL-M-001" / "trial-1" / "customer-model.jsonl").write_text("{\n")
    with pytest.raises(RunRecordError, match="customer-model.jsonl") as raised:
        by_id.trial("CTL-M-001", 1)
    assert raised.value.context["line"] == 1
    assert read_model_calls(tmp_path / "no-trial") == []


def test_only_an_llm_customer_is_replayed(tmp_path):
    _recorded_run(tmp_path / "runs", customer="scripted")
    with pytest.raises(RunRecordError, match="only an LLM customer"):
        Recording.open("rec", tmp_path / "runs")
    with pytest.raises(ValueError, match="customer must be llm"):
        RunConfig(replay="rec")
    with pytest.raises(SimulatorError, match="only the llm customer"):
        make_customer("scripted", load_customer_view(PACK), PACK,
                      replay=RecordedTrial("rec", "CTL-M-001", 1, ()))
