"""The model runtime against a tiny OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from html import unescape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from .conftest import POLICY, seed_documents


class FakeModel:
    """Answers chat completions from a script: each entry is a message dict, or an int HTTP
    status to fail with. Records every request body."""

    def __init__(self, script: list) -> None:
        self.script = list(script)
        self.requests: list[dict] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server API
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append(
                    {"path": self.path, "auth": self.headers.get("Authorization"), "body": body}
                )
                step = fake.script.pop(0)
                if isinstance(step, tuple):  # (seconds to stall, then the step)
                    time.sleep(step[0])
                    step = step[1]
                if step == "slow":
                    time.sleep(1.5)
                    step = {"role": "assistant", "content": "too late"}
                if isinstance(step, int):
                    body = json.dumps({"error": {"message": f"failed for key "
                                                 f"{self.headers.get('Authorization')}"}})
                    self.send_response(step)
                    self.send_header("retry-after-ms", "10")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body.encode())
                    return
                payload = json.dumps(
                    {
                        "id": "x",
                        "object": "chat.completion",
                        "choices": [{"index": 0, "message": step, "finish_reason": "stop"}],
                    }
                ).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except BrokenPipeError:  # the app gave up waiting (the timeout test)
                    return

            def log_message(self, *args: object) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake_model() -> Iterator[callable]:
    made: list[FakeModel] = []

    def make(script: list) -> FakeModel:
        made.append(FakeModel(script))
        return made[-1]

    yield make
    for m in made:
        m.close()


def _last_agent(html: str) -> str:
    return unescape(re.findall(r'data-testid="agent-message"[^>]*>([^<]*)<', html)[-1])


def _tool_call(name: str, args: dict, call_id: str = "call_1") -> dict:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(args)},
            }
        ],
    }


def test_model_runtime_completes_a_tool_calling_turn(make_app, fake_model) -> None:
    fake = fake_model(
        [
            _tool_call("record_fact", {"key": "policy_number", "value": POLICY}),
            {
                "role": "assistant",
                "content": "Thanks, I have your policy. On what date did it happen?",
            },
        ]
    )
    a = make_app(
        runtime="model",
        model_base_url=fake.base_url,
        model_name="tiny-test-model",
        model_api_key="test-key",
        model_timeout_s=5,
    )
    seed_documents(a.db)
    assert a.client.get("/api/runtime").json() == {
        "runtime": "model",
        "faults": [],
        "model": "tiny-test-model",
        "version": a.client.get("/api/runtime").json()["version"],
    }
    r = a.client.post("/api/messages", json={"text": f"My car was hit. Policy {POLICY}."})
    assert _last_agent(r.text) == "Thanks, I have your policy. On what date did it happen?"
    # The fact recorded by the tool shows as suggested; the line came from the policy.
    assert re.search(
        r"Policy number</th><td>NWF-POL-100234</td>\s*<td><span class=\"state "
        r"state-suggested\">suggested",
        r.text,
    )
    assert r.text.count('data-testid="fact-row"') == 10
    first, second = fake.requests
    assert first["path"] == "/v1/chat/completions" and first["auth"] == "Bearer test-key"
    assert first["body"]["model"] == "tiny-test-model"
    assert {t["function"]["name"] for t in first["body"]["tools"]} == {
        "record_fact",
        "request_upload",
        "create_claim",
        "hand_off",
    }
    assert first["body"]["messages"][0]["role"] == "system"
    assert first["body"]["messages"][-1] == {
        "role": "user",
        "content": f"My car was hit. Policy {POLICY}.",
    }
    # tool_choice said out loud: llama-cpp-python's chatml-function-calling offers the tools
    # only then; a tool-call turn goes back with empty text, never null (its server refuses it)
    assert first["body"]["tool_choice"] == "auto"
    said = second["body"]["messages"][-2]
    assert said["role"] == "assistant" and said["content"] == ""
    assert said["tool_calls"][0]["function"]["name"] == "record_fact"
    tool_msg = second["body"]["messages"][-1]
    assert tool_msg["role"] == "tool" and tool_msg["tool_call_id"] == "call_1"
    assert json.loads(tool_msg["content"])["ok"] is True
    actions = [e["action"] for e in a.db.audit_events.find()]
    assert "record_fact" in actions and "lookup_policy" in actions


def test_model_tools_create_the_claim_and_hand_off(make_app, fake_model) -> None:
    facts = {
        "policy_number": POLICY,
        "incident_date": "2026-03-14",
        "incident_time": "17:40",
        "incident_type": "collision",
        "incident_location": "Leeds",
        "incident_description": "Hit from behind at the lights.",
        "vehicle_registration": "AB12 CDE",
        "vehicle_driveable": "yes",
        "third_party_involved": "yes",
        "injuries": "no",
    }
    calls = [
        _tool_call("record_fact", {"key": k, "value": v}, f"c{i}")["tool_calls"][0]
        for i, (k, v) in enumerate(facts.items())
    ]
    script = [
        {"role": "assistant", "content": None, "tool_calls": calls},
        _tool_call("create_claim", {}, "cc"),
        {"role": "assistant", "content": "Your claim has been created."},
        _tool_call("hand_off", {"reason": "customer wants a call"}, "h"),
        {"role": "assistant", "content": "A member of our team will contact you."},
    ]
    fake = fake_model(script)
    a = make_app(runtime="model", model_base_url=fake.base_url, model_name="m")
    seed_documents(a.db)
    r = a.client.post("/api/messages", json={"text": "everything at once"})
    number = re.search(r'data-testid="claim-number">([^<]+)<', r.text).group(1)
    claim = a.db.claims.find_one({"claim_number": number})
    assert claim["triage"]["class"] == "standard" and claim["runtime"] == "model"
    assert claim["facts"]["vehicle_driveable"]["value"] is True
    a.client.post("/api/messages", json={"text": "Can someone call me"})
    item = a.db.waiting_list.find_one()
    assert item["kind"] == "contact_request" and item["text"] == "customer wants a call"


@pytest.mark.parametrize(
    "script,expected",
    [
        ([500], "answered HTTP 500"),
        ([{"role": "assistant", "content": ""}], "empty reply"),
    ],
)
def test_model_errors_are_shown_on_screen_without_fallback(
    make_app, fake_model, script, expected
) -> None:
    fake = fake_model(script)
    a = make_app(runtime="model", model_base_url=fake.base_url, model_name="m",
                 model_api_key="sk-app-CANARY", model_max_retries=0)
    r = a.client.post("/api/messages", json={"text": "hello"})
    assert r.status_code == 200
    assert "sk-app-CANARY" not in r.text  # the error body echoed the key; the screen does not
    assert re.search(
        r'class="bubble agent error" data-testid="agent-message" role="alert">'
        r"Sorry, the assistant could not reply: [^<]*" + expected,
        r.text,
    )
    assert a.db.sessions.find_one({"kind": "customer"})["state"]["facts"] == {}


def test_model_endpoint_unreachable_or_unset(make_app) -> None:
    a = make_app(
        runtime="model", model_base_url="http://127.0.0.1:9/v1", model_name="m", model_timeout_s=2,
        model_max_retries=0,
    )
    r = a.client.post("/api/messages", json={"text": "hello"})
    assert "could not be reached" in _last_agent(r.text)
    b = make_app(runtime="model")
    r = b.client.post("/api/messages", json={"text": "hello"})
    assert "no model endpoint is configured" in _last_agent(r.text)


def test_model_timeout_is_shown_on_screen(make_app, fake_model) -> None:
    fake = fake_model(["slow"])
    a = make_app(runtime="model", model_base_url=fake.base_url, model_name="m",
                 model_timeout_s=0.3, model_max_retries=0)
    r = a.client.post("/api/messages", json={"text": "hello"})
    assert "the model did not reply within 0.3 s" in _last_agent(r.text)
    assert "too late" not in r.text
    assert a.db.audit_events.count_documents({"action": "model_error"}) == 1


def test_the_client_retries_a_rate_limit_then_succeeds(make_app, fake_model) -> None:
    fake = fake_model([429, {"role": "assistant", "content": "What is your policy number?"}])
    a = make_app(runtime="model", model_base_url=fake.base_url, model_name="m",
                 model_max_retries=2)
    r = a.client.post("/api/messages", json={"text": "hello"})
    assert _last_agent(r.text) == "What is your policy number?"
    assert len(fake.requests) == 2 and fake.script == []


def test_credentials_in_the_model_url_are_refused() -> None:
    from pydantic import ValidationError

    from claims_reference_app._settings import AppSettings

    with pytest.raises(ValidationError, match="carries credentials") as exc:
        AppSettings(model_base_url="http://user:s3cret-pw@127.0.0.1:9/v1")
    assert "s3cret-pw" not in str(exc.value)  # not even as the rejected input


@pytest.mark.parametrize("retries", [0, 2])
def test_a_model_that_stalls_is_shown_on_screen_within_the_timeout(
        make_app, fake_model, retries) -> None:
    """The timeout bounds the whole reply: the client's retries of a stalled request and the
    tool rounds before it all count, so the customer reads why within it."""
    fake = fake_model([(1.2, _tool_call("record_fact", {"key": "policy_number",
                                                         "value": POLICY})),
                       (30, {"role": "assistant", "content": "too late"}),
                       (30, {"role": "assistant", "content": "too late"}),
                       (30, {"role": "assistant", "content": "too late"})])
    a = make_app(runtime="model", model_base_url=fake.base_url, model_name="m",
                 model_timeout_s=2.5, model_max_retries=retries)
    seed_documents(a.db)
    started = time.monotonic()
    r = a.client.post("/api/messages", json={"text": f"Policy {POLICY}"})
    took = time.monotonic() - started
    # a request each took 2.5 s before, the tool round's 1.2 s on top, and each retry again
    assert 2.4 < took < 3.6, took
    assert re.search(r'class="bubble agent error" data-testid="agent-message" role="alert">'
                     r"Sorry, the assistant could not reply: the model did not reply within "
                     r"2.5 s", r.text)
    assert "too late" not in r.text
    assert len(fake.requests) >= 2  # the tool round ran, then the stalled request
    assert a.db.audit_events.count_documents({"action": "model_error"}) == 1
