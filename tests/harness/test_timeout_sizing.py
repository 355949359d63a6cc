"""The client's timeout and retries sized from auto's probe: the probe's answer time, scaled
to a customer prompt's size, times a margin; never below the defaults; what was given as an
option or variable stays as given."""

from __future__ import annotations

import json

import pytest

from claims_records import DialectTry
from harness.customers import LlmSettings, probe_dialect
from harness.customers._endpoint import (
    CUSTOMER_PROMPT_TOKENS,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT_S,
    PROMPT_SCALE_CAP,
    sized_timeout,
)

from .fake_openai import FakeOpenAI, completion

ACTION = json.dumps({"kind": "say", "text": "Hello, I need to report a claim."})


def test_a_quick_endpoint_keeps_the_defaults():
    assert sized_timeout(1.0, 300) == (DEFAULT_TIMEOUT_S, DEFAULT_MAX_RETRIES)
    assert sized_timeout(3.6, 1400) == (DEFAULT_TIMEOUT_S, DEFAULT_MAX_RETRIES)


def test_a_slow_endpoint_gets_a_timeout_in_proportion_and_one_retry():
    # 5 s for 500 prompt tokens: about 15 s for a customer prompt, four times that to time out
    assert sized_timeout(5.0, 500) == (4 * 5.0 * CUSTOMER_PROMPT_TOKENS / 500, 1)
    # a short probe's answer is mostly generating: its prompt ratio counts at most 4 times
    # (the embedded model's probe: 84 tokens in 11.9 s on a loaded machine)
    assert sized_timeout(11.9, 84) == (round(4 * 11.9 * PROMPT_SCALE_CAP), 1) == (190, 1)
    # a probe prompt longer than a customer's is not scaled down
    assert sized_timeout(20.0, 3000) == (80.0, 1)
    assert sized_timeout(20.0, None) == (80.0, 1)


def _used(latency: float, tokens: int) -> list[DialectTry]:
    return [DialectTry(dialect="json_schema", outcome="refused", detail="HTTP 500"),
            DialectTry(dialect="json_object_schema", outcome="used", latency_s=latency,
                       prompt_tokens=tokens)]


def test_settled_sizes_only_what_was_not_given():
    env: dict[str, str] = {}
    free = LlmSettings.from_options(environ=env, model="m", base_url="http://127.0.0.1:1/v1")
    sized = free.settled("json_object_schema", _used(5.0, 300))
    assert (sized.timeout_s, sized.max_retries) == (80.0, 1)
    assert sized.info().timeout_s == 80.0 and sized.config().max_retries == 1
    fixed = LlmSettings.from_options(environ={"CLAIMS_HARNESS_LLM_TIMEOUT_S": "30"}, model="m",
                                     base_url="http://127.0.0.1:1/v1", max_retries=2)
    kept = fixed.settled("json_object_schema", _used(5.0, 300))
    assert (kept.timeout_s, kept.max_retries) == (30.0, 2)
    direct = LlmSettings(model="m", base_url="http://127.0.0.1:1/v1", timeout_s=5.0)
    assert direct.settled("json_object_schema", _used(5.0, 300)).timeout_s == 5.0


@pytest.mark.asyncio
async def test_the_probe_records_the_answer_time_it_sizes_from():
    with FakeOpenAI() as server:
        server.queue(200, completion(ACTION, prompt_tokens=250), delay_s=0.8)
        settings = LlmSettings.from_options(environ={}, model="m", base_url=server.base_url)
        settled = await probe_dialect(settings)
    used = settled.info().dialect_tries[-1]
    assert used.outcome == "used" and used.prompt_tokens == 250
    assert used.latency_s is not None and used.latency_s >= 0.8
    assert settled.timeout_s == sized_timeout(used.latency_s, 250)[0]
