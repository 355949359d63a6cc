"""The llm customer against a local OpenAI-compatible server started by the test."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from corpus import Progress, load_customer_view, load_labels, load_setup
from corpus.errors import SimulatorError
from corpus.formats import CustomerAction, CustomerModelCall, ScreenReading
from harness.customers import (
    CustomerContext,
    LlmSettings,
    make_customer,
    material_availability,
    parse_action,
)

from .fake_openai import FakeOpenAI, completion

PACK = Path(__file__).resolve().parents[2] / "packs" / "CTL-M-001"
KEY = "sk-test-CANARY-KEY-5f4e3d"
SCREEN = ScreenReading(latest_reply="Thanks. What is the registration of the car?",
                       chips=[], todo="Tell us about the incident",
                       facts_panel="Date of incident: 2026-03-12 (suggested)")
SAY_REG = json.dumps({"kind": "say", "text": "The registration is LK19 XRD."})


def _settings(url: str, **kw) -> LlmSettings:
    base = dict(base_url=url, model="fake-customer", api_key=KEY, temperature=0.2, seed=7,
                max_attempts=4, backoff_s=0.01, timeout_s=2.0, price_prompt_per_mtok=1.0,
                price_completion_per_mtok=2.0)
    base.update(kw)
    return LlmSettings(**base)


def _decide(server: FakeOpenAI, settings: LlmSettings | None = None):
    view = load_customer_view(PACK)
    customer = make_customer("llm", view, PACK, settings or _settings(server.url))
    calls: list[CustomerModelCall] = []
    available, later = material_availability(view, Progress(messages=2, actions=2))
    ctx = CustomerContext(step=3, messages_sent=2,
                          history=[("customer", view.initial_message),
                                   ("agent", "Sorry to hear that. What is your policy number?"),
                                   ("customer", "My policy number is NWF-POL-100234.")],
                          available_files=available, later_files=later,
                          record_call=calls.append)

    async def go():
        try:
            return await customer.next_action(SCREEN, ctx)
        finally:
            await customer.aclose()

    try:
        return asyncio.run(go()), calls, customer
    except SimulatorError as exc:
        return exc, calls, customer


def test_a_fenced_json_action_is_accepted_and_logged_with_usage_and_cost():
    with FakeOpenAI() as server:
        server.queue(200, completion("```json\n" + SAY_REG + "\n```", 1000, 50))
        action, calls, _ = _decide(server)
    assert action == CustomerAction(kind="say", text="The registration is LK19 XRD.")
    assert len(calls) == 1
    call = calls[0]
    assert call.usage.total_tokens == 1050
    assert call.cost_usd == pytest.approx((1000 * 1.0 + 50 * 2.0) / 1e6)
    assert call.request["model"] == "fake-customer"
    assert call.request["temperature"] == 0.2 and call.request["seed"] == 7
    assert server.headers[0]["Authorization"] == f"Bearer {KEY}"
    assert KEY not in call.model_dump_json()


def test_429_500_timeout_and_malformed_are_retried_then_succeed():
    with FakeOpenAI() as server:
        server.queue(429, {"error": "rate limited"})
        server.queue(500, {"error": "boom"})
        server.queue(200, completion("Sure! I'd say: " + SAY_REG))  # prose around JSON
        server.queue(200, completion(SAY_REG))
        action, calls, customer = _decide(server, _settings(server.url, max_attempts=5))
    assert action.kind == "say"
    assert [c.attempt for c in calls] == [1, 2, 3, 4]
    assert [c.status_code for c in calls] == [429, 500, 200, 200]
    assert calls[2].error and calls[2].error.startswith("malformed reply")
    assert customer.retries == 3


def test_timeouts_are_retried():
    with FakeOpenAI() as server:
        server.queue(200, completion(SAY_REG), delay_s=1.5)
        server.queue(200, completion(SAY_REG))
        action, calls, _ = _decide(server, _settings(server.url, timeout_s=0.5))
    assert action.kind == "say"
    assert "Timeout" in (calls[0].error or "")


def test_persistent_failure_is_a_simulator_error_after_the_bound():
    with FakeOpenAI() as server:
        server.queue(429, {"error": "rate limited"})
        server.queue(500, {"error": "boom"})
        server.queue(200, completion("not json at all"))
        server.queue(200, completion(json.dumps({"kind": "upload", "file": "secret.pdf"})))
        server.queue(200, completion(SAY_REG))  # never reached: the bound is 4
        outcome, calls, _ = _decide(server)
    assert isinstance(outcome, SimulatorError)
    assert outcome.context["attempts"] == 4
    assert len(calls) == 4 and all(c.error for c in calls)
    assert len(server.requests) == 4


def test_prompts_hold_only_permitted_fields_and_screen_text():
    with FakeOpenAI() as server:
        server.queue(200, completion(SAY_REG))
        _decide(server)
    prompt = json.dumps(server.requests[0]["messages"])
    view = load_customer_view(PACK)
    assert SCREEN.latest_reply in prompt
    assert view.persona.name in prompt
    assert "photo of the back of my car" in prompt
    labels, setup = load_labels(PACK), load_setup(PACK)
    forbidden = {labels.triage.triage_class, labels.scenario, "damage_photo", "repair_quote",
                 "evidence_kind", "oracle", *labels.triage.required_reasons}
    forbidden |= {k for k, v in labels.review.checks.items()}
    if setup.customer_credentials:
        forbidden |= {setup.customer_credentials.password}
    if setup.staff_credentials:
        forbidden |= {setup.staff_credentials.password}
    for value in forbidden:
        assert value not in prompt, value
    assert KEY not in prompt


def test_settings_from_environment(monkeypatch):
    monkeypatch.setenv("CLAIMS_HARNESS_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("CLAIMS_HARNESS_LLM_MODEL", "m")
    monkeypatch.setenv("CLAIMS_HARNESS_LLM_API_KEY", KEY)
    monkeypatch.setenv("CLAIMS_HARNESS_LLM_TEMPERATURE", "0.5")
    monkeypatch.setenv("CLAIMS_HARNESS_LLM_SEED", "11")
    s = LlmSettings.from_options(model="explicit")
    assert (s.model, s.temperature, s.seed, s.api_key) == ("explicit", 0.5, 11, KEY)
    info = s.info()
    assert info.endpoint_host == "127.0.0.1:9"
    assert KEY not in info.model_dump_json()
    monkeypatch.delenv("CLAIMS_HARNESS_LLM_MODEL")
    with pytest.raises(SimulatorError, match="model"):
        LlmSettings.from_options()


@pytest.mark.parametrize("text", [
    '{"kind": "say"}', '{"kind": "fly", "text": "x"}', '["say"]', 'say hello',
    '{"kind": "say", "text": "x", "thoughts": "secret reasoning"}',
    'Reasoning first.\n```json\n{"kind": "say", "text": "x"}\n```',
])
def test_parse_action_is_strict(text):
    with pytest.raises(ValueError):
        parse_action(text)


def test_parse_action_accepts_done_with_last_words():
    action = parse_action('{"kind": "done", "text": "Thanks, bye.", "reason": "claim number"}')
    assert action.kind == "done" and action.text == "Thanks, bye."
