"""Structured-output dialects and auto's probe, against stand-in servers that each speak one
dialect the way real servers do: refusing the fields of the others (llama-cpp-python answers
500, others 400), or ignoring them and answering in prose."""

from __future__ import annotations

import json
from typing import Any

import pytest

from harness.customers import LlmSettings, action_schema, probe_dialect
from harness.customers._dialects import ORDER, apply

from .fake_openai import FakeOpenAI

ACTION = json.dumps({"kind": "say", "text": "Hello, I need to report a claim."})
PROSE = "Sure! Here is what I would say: hello, I need to report a claim."


def dialect_of(body: dict[str, Any]) -> str:
    """Which dialect a request body speaks, read off its fields as a server would."""
    if "guided_json" in body:
        return "guided_json"
    if "format" in body:
        return "ollama_format"
    fmt = body.get("response_format")
    if fmt is None:
        return "off"
    if fmt["type"] == "json_schema":
        return "json_schema"
    return "json_object_schema" if "schema" in fmt else "json_object"


def speaks(dialect: str, other: str = "refuse", status: int = 400):
    """A server's behaviour: an action in ``dialect``; in any other, HTTP ``status`` (refuse)
    or prose (ignore the fields)."""
    def behaviour(body: dict[str, Any]):
        if dialect_of(body) == dialect:
            return ACTION
        if other == "refuse":
            return status, {"error": {"message": f"unsupported: {dialect_of(body)}"}}
        return PROSE
    return behaviour


def _settings(server: FakeOpenAI, **kw: Any) -> LlmSettings:
    return LlmSettings(base_url=server.base_url, model="probe-me", max_retries=0, **kw)


@pytest.mark.parametrize("dialect", ORDER)
def test_each_dialect_asks_for_the_schema_with_its_own_fields(dialect):
    body = apply(dialect, {"model": "m", "messages": [], "format": "stale"}, action_schema())
    assert dialect_of(body) == dialect
    assert body["model"] == "m" and "stale" not in json.dumps(body)


@pytest.mark.asyncio
@pytest.mark.parametrize("status", [400, 500], ids=["400", "500-like-llama-cpp-python"])
@pytest.mark.parametrize("dialect", ORDER)
async def test_the_probe_settles_on_the_dialect_the_server_speaks(dialect, status):
    with FakeOpenAI(default=speaks(dialect, status=status)) as server:
        settled = await probe_dialect(_settings(server))
        sent = [dialect_of(r) for r in server.requests]
    assert settled.response_format == dialect
    info = settled.info()
    assert info.response_format == "auto" and info.dialect == dialect
    before = list(ORDER[:ORDER.index(dialect)])
    assert sent == [*before, dialect]  # every field reached the server as sent
    assert [(t.dialect, t.outcome) for t in info.dialect_tries] == [
        *[(d, "refused") for d in before], (dialect, "used")]
    assert all(f"HTTP {status}" in t.detail and "unsupported" in t.detail
               for t in info.dialect_tries[:-1])
    assert settled.config().response_format == "auto"  # what was asked stays on record


@pytest.mark.asyncio
async def test_fields_a_server_ignores_are_passed_over_when_the_answer_is_prose():
    with FakeOpenAI(default=speaks("json_object", other="ignore")) as server:
        info = (await probe_dialect(_settings(server))).info()
    assert info.dialect == "json_object"
    assert [t.outcome for t in info.dialect_tries] == ["ignored"] * 4 + ["used"]
    assert "not one action" in info.dialect_tries[0].detail
    assert "Sure! Here is" in info.dialect_tries[0].detail


@pytest.mark.asyncio
async def test_a_model_that_never_answers_in_json_is_left_with_the_prompt_alone():
    with FakeOpenAI(default=lambda body: PROSE) as server:
        info = (await probe_dialect(_settings(server))).info()
    assert info.dialect == "off"
    assert [t.outcome for t in info.dialect_tries] == ["ignored"] * len(ORDER)


@pytest.mark.asyncio
async def test_a_rate_limit_stops_the_probe_and_settles_nothing():
    with FakeOpenAI(default=speaks("json_schema")) as server:
        server.queue(429, {"error": {"message": "slow down"}})
        settled = await probe_dialect(_settings(server))
    info = settled.info()
    assert settled.response_format == "auto" and info.dialect is None
    [t] = info.dialect_tries
    assert (t.dialect, t.outcome) == ("json_schema", "failed") and "429" in t.detail


@pytest.mark.asyncio
async def test_an_unreachable_endpoint_stops_the_probe():
    with FakeOpenAI() as server:
        url = server.base_url
    settled = await probe_dialect(LlmSettings(base_url=url, model="gone", max_retries=0,
                                              timeout_s=2))
    [t] = settled.info().dialect_tries
    assert t.outcome == "failed" and settled.info().dialect is None


@pytest.mark.asyncio
async def test_a_dialect_asked_for_is_not_probed():
    with FakeOpenAI(default=speaks("guided_json")) as server:
        settled = await probe_dialect(_settings(server, response_format="guided_json"))
        assert server.requests == []
    assert settled.info().dialect == "guided_json" and settled.info().dialect_tries == []


def test_the_probe_fields_are_not_options():
    settled = LlmSettings.from_options(environ={"CLAIMS_HARNESS_LLM_ASKED_FORMAT": "off"},
                                       model="m")
    assert settled.asked_format is None and settled.dialect_tries == ()
