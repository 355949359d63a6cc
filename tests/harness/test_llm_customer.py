"""The llm customer against a local OpenAI-compatible stand-in started by each test.

Every fault the ``openai`` client meets — 429 then success, timeouts, 5xx, a body that is
not JSON, an answer without choices — ends as a recovered call or a ``SimulatorError``
with its kind, and every attempt is on record.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claims_corpus import Progress, load_customer_view
from claims_records import CustomerAction, CustomerModelCall, ScreenReading, SimulatorError
from harness.customers import (
    CustomerContext,
    LlmSettings,
    action_schema,
    make_customer,
    material_availability,
    parse_action,
)

from .fake_openai import FakeOpenAI, completion

PACK = Path(__file__).resolve().parents[2] / "packs" / "CTL-M-001"
KEY = "sk-test-CANARY-KEY-5f4e3d"
SCREEN = ScreenReading(latest_reply="Thanks. What is the registration of the car?",
                       chips=[], todo="Tell us about the incident", buttons=["Talk to a person"],
                       facts_panel="Date of incident: 2026-03-12 (suggested)")
SAY_REG = json.dumps({"kind": "say", "text": "The registration is LK19 XRD."})


def _settings(url: str, **kw) -> LlmSettings:
    base = dict(base_url=url + "/v1", model="fake-customer", api_key=KEY, temperature=0.2,
                seed=7, max_retries=2, malformed_retries=2, timeout_s=2.0,
                price_prompt_per_mtok=1.0, price_completion_per_mtok=2.0)
    base.update(kw)
    return LlmSettings(**base)


async def _decide(server: FakeOpenAI, settings: LlmSettings | None = None,
                  screen: ScreenReading = SCREEN):
    """One decision; returns (action or SimulatorError, recorded calls, customer)."""
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
    try:
        return await customer.next_action(screen, ctx), calls, customer
    except SimulatorError as exc:
        return exc, calls, customer
    finally:
        await customer.aclose()


@pytest.mark.asyncio
async def test_a_fenced_json_action_is_accepted_and_logged_with_usage_and_cost():
    with FakeOpenAI() as server:
        server.queue(200, completion("```json\n" + SAY_REG + "\n```", 1000, 50))
        action, calls, _ = await _decide(server)
    assert action == CustomerAction(kind="say", text="The registration is LK19 XRD.")
    [call] = calls
    assert call.usage.total_tokens == 1050 and call.http_statuses == [200]
    assert call.cost_usd == pytest.approx((1000 * 1.0 + 50 * 2.0) / 1e6)
    body = server.requests[0]
    assert call.request == body
    assert body["model"] == "fake-customer" and body["temperature"] == 0.2
    assert body["seed"] == 7
    assert body["response_format"]["type"] == "json_schema"
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["kind"]["enum"] == ["say", "click", "upload", "sign_in", "done"]
    # every field the model may fill; ``corrects`` is only ever set by the scripted customer
    assert set(schema["required"]) == set(CustomerAction.model_fields) - {"corrects"}
    assert server.headers[0]["authorization"] == f"Bearer {KEY}"
    assert KEY not in call.model_dump_json()


@pytest.mark.asyncio
async def test_a_rate_limit_is_retried_by_the_client_then_succeeds():
    with FakeOpenAI() as server:
        server.queue(429, {"error": {"message": "rate limited"}})
        server.queue(200, completion(SAY_REG))
        action, calls, customer = await _decide(server)
    assert action.kind == "say"
    [call] = calls  # one decision, two HTTP attempts made by the client
    assert call.http_statuses == [429, 200] and call.error is None
    assert customer.retries == 1 and len(server.requests) == 2


@pytest.mark.asyncio
async def test_a_persistent_server_error_is_a_server_simulator_error():
    with FakeOpenAI() as server:
        for _ in range(3):
            server.queue(500, {"error": {"message": "boom"}})
        outcome, calls, customer = await _decide(server)
    assert isinstance(outcome, SimulatorError) and outcome.context["kind"] == "server"
    [call] = calls
    assert call.http_statuses == [500, 500, 500] and call.error_kind == "server"
    assert call.status_code == 500 and customer.retries == 2


@pytest.mark.asyncio
async def test_a_timeout_is_retried_then_reported_as_a_timeout():
    with FakeOpenAI() as server:
        # the bound leaves a busy machine a second for the prompt answer; the slow one
        # answers well after it
        server.queue(200, completion(SAY_REG), delay_s=4.0)
        server.queue(200, completion(SAY_REG))
        action, calls, _ = await _decide(server, _settings(server.url, timeout_s=1.0,
                                                           max_retries=1))
        assert action.kind == "say"
        assert calls[0].http_statuses == [None, 200]
        server.queue(200, completion(SAY_REG), delay_s=4.0)
        outcome, calls, _ = await _decide(server, _settings(server.url, timeout_s=1.0,
                                                            max_retries=0))
    assert isinstance(outcome, SimulatorError) and outcome.context["kind"] == "timeout"
    assert calls[0].http_statuses == [None] and calls[0].error_kind == "timeout"


@pytest.mark.asyncio
async def test_an_unreachable_endpoint_is_a_connection_error():
    settings = LlmSettings(base_url="http://127.0.0.1:9/v1", model="m", max_retries=0,
                           timeout_s=2)
    view = load_customer_view(PACK)
    customer = make_customer("llm", view, PACK, settings)
    try:
        with pytest.raises(SimulatorError) as exc:
            await customer.next_action(SCREEN, CustomerContext(step=1))
    finally:
        await customer.aclose()
    assert exc.value.context["kind"] == "connection"


@pytest.mark.asyncio
@pytest.mark.parametrize("body", ["this is not json", {"id": "x", "object": "chat.completion"},
                                  completion(None)],
                         ids=["malformed-json", "missing-choices", "no-content"])
async def test_an_unreadable_answer_is_asked_again(body):
    with FakeOpenAI() as server:
        server.queue(200, body)
        server.queue(200, completion(SAY_REG))
        action, calls, customer = await _decide(server)
    assert action.kind == "say"
    assert [c.attempt for c in calls] == [1, 2]
    assert calls[0].error_kind == "malformed_output" and calls[1].error is None
    assert customer.retries == 1


@pytest.mark.asyncio
async def test_prose_and_misfits_are_repaired_with_a_note_then_given_up_after_the_bound():
    with FakeOpenAI() as server:
        server.queue(200, completion("Sure! I'd say: " + SAY_REG))
        server.queue(200, completion(json.dumps({"kind": "upload", "file": "secret.pdf"})))
        server.queue(200, completion(SAY_REG))
        action, calls, _ = await _decide(server)
        assert action.kind == "say" and [c.attempt for c in calls] == [1, 2, 3]
        assert "not one customer action" in calls[0].error
        assert "not one of the files you have now" in calls[1].error
        # the second request carries the first answer and a note on what was wrong
        second = server.requests[1]["messages"]
        assert second[-2] == {"role": "assistant", "content": "Sure! I'd say: " + SAY_REG}
        assert "could not be used" in second[-1]["content"]
        for _ in range(3):
            server.queue(200, completion("I think I'll say hello"))
        outcome, calls, _ = await _decide(server)
    assert isinstance(outcome, SimulatorError)
    assert outcome.context["kind"] == "malformed_output" and outcome.context["attempts"] == 3
    assert len(calls) == 3 and all(c.error_kind == "malformed_output" for c in calls)


@pytest.mark.asyncio
async def test_a_click_must_name_a_control_on_the_screen_and_takes_its_exact_label():
    chips = SCREEN.model_copy(update={"chips": ["Yes", "No"]})
    with FakeOpenAI() as server:
        server.queue(200, completion(json.dumps({"kind": "click", "label": "Maybe"})))
        server.queue(200, completion(json.dumps({"kind": "click", "label": " yes"})))
        action, calls, _ = await _decide(server, screen=chips)
    assert action == CustomerAction(kind="click", label="Yes")
    assert "no button labelled 'Maybe'" in calls[0].error


@pytest.mark.asyncio
async def test_an_endpoint_refusing_the_dialect_is_asked_in_the_next_one():
    """auto without a probe (``_probe``): a request refused as malformed is asked again in the
    next dialect, which later requests to that endpoint keep."""
    with FakeOpenAI() as server:
        server.queue(400, {"error": {"message": "response_format is not supported"}})
        server.queue(200, completion(SAY_REG))
        action, calls, _ = await _decide(server, _settings(server.url, model="no-schema-model"))
        assert action.kind == "say"
        assert server.requests[0]["response_format"]["type"] == "json_schema"
        asked = {"type": "json_object", "schema": action_schema()}
        assert server.requests[1]["response_format"] == asked
        assert calls[0].response_format == "json_object_schema"
        assert calls[0].request["response_format"] == asked
        server.queue(200, completion(SAY_REG))
        await _decide(server, _settings(server.url, model="no-schema-model"))
        assert server.requests[2]["response_format"] == asked  # remembered for the endpoint
        server.queue(200, completion(SAY_REG))
        await _decide(server, _settings(server.url, response_format="json_object"))
    assert server.requests[3]["response_format"] == {"type": "json_object"}


@pytest.mark.asyncio
@pytest.mark.parametrize("key", [KEY, 'sk-"CANARY"\\back/slash+plus'], ids=["plain", "escaped"])
async def test_the_key_echoed_in_an_error_body_is_never_recorded(key):
    echoed = {"error": {"message": f"invalid key {key}", "escaped": json.dumps(key)}}
    with FakeOpenAI() as server:
        server.queue(401, json.dumps(echoed, ensure_ascii=True))
        outcome, calls, _ = await _decide(server, _settings(server.url, api_key=key))
    assert isinstance(outcome, SimulatorError)
    assert outcome.context["kind"] == "request_rejected"
    text = calls[0].model_dump_json() + str(outcome)
    assert "invalid key" in text and "[REDACTED]" in text
    for form in (key, json.dumps(key)[1:-1], json.dumps(json.dumps(key))[1:-1]):
        assert form not in text


@pytest.mark.asyncio
async def test_the_screen_view_prompt_holds_the_latest_reply_and_no_panels():
    with FakeOpenAI() as server:
        server.queue(200, completion(SAY_REG))
        await _decide(server)
    prompt = json.dumps(server.requests[0]["messages"])
    view = load_customer_view(PACK)
    assert SCREEN.latest_reply in prompt and view.persona.name in prompt
    assert "photo of the back of my car" in prompt
    assert "My policy number is NWF-POL-100234." in prompt  # its own memory
    for hidden in ("Sorry to hear that", SCREEN.todo, SCREEN.facts_panel):
        assert hidden not in prompt
    assert KEY not in prompt


@pytest.mark.parametrize("text", [
    '{"kind": "say"}', '{"kind": "fly", "text": "x"}', '["say"]', 'say hello',
    '{"kind": "say", "text": "x", "thoughts": "secret reasoning"}',
    'Reasoning first.\n```json\n{"kind": "say", "text": "x"}\n```',
    '{"kind": "say", "text": "   "}',
])
def test_parse_action_is_strict(text):
    with pytest.raises(ValueError):
        parse_action(text)


def test_parse_action_tolerates_what_structured_output_and_reasoning_models_add():
    action = parse_action('{"kind": "done", "text": "Thanks, bye.", "reason": "claim number"}')
    assert action.kind == "done" and action.text == "Thanks, bye."
    strict = parse_action('{"kind": "click", "text": "", "label": "Yes", "file": null, '
                          '"reason": null}')
    assert strict == CustomerAction(kind="click", label="Yes")
    thought = parse_action('<think>the user asks for the plate</think>\n'
                           '{"kind": "say", "text": "LK19 XRD", "label": "ignored"}')
    assert thought == CustomerAction(kind="say", text="LK19 XRD")
    # a raw line break inside a string, as a small model behind a grammar writes it
    broken = parse_action('{"kind": "say", "text": "Yes.\nIt was parked."}')
    assert broken == CustomerAction(kind="say", text="Yes.\nIt was parked.")
