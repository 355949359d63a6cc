"""A placeholder API key (``x``, ``EMPTY``, ``ollama``) is not a secret: the stored model calls
keep their text, so a run made with one replays; a real key is still removed everywhere."""

from __future__ import annotations

import pytest

from harness.customers import LlmSettings
from harness.customers._replay import prompt_key

PROMPT = "Text the customer sees: my next claim is for a taxi, ollama EMPTY x-ray."


@pytest.mark.parametrize("key", ["x", "EMPTY", "ollama", "no-key", "1234567"])
def test_a_placeholder_key_leaves_the_recorded_text_as_it_was(key):
    settings = LlmSettings(model="m", base_url="http://127.0.0.1:9/v1", api_key=key)
    assert settings.scrub(PROMPT) == PROMPT
    body = {"model": "m", "messages": [{"role": "user", "content": PROMPT}]}
    scrubbed = {"model": "m", "messages": [{"role": "user", "content": settings.scrub(PROMPT)}]}
    assert prompt_key(scrubbed) == prompt_key(body)  # the replay finds the recorded answer


@pytest.mark.parametrize("key", ["sk-abcdefgh", "sk-live-0123456789abcdef"])
def test_a_real_key_is_removed_wherever_it_occurs(key):
    settings = LlmSettings(model="m", base_url="http://127.0.0.1:9/v1", api_key=key)
    echoed = f"error: invalid key {key} (Bearer {key})"
    clean = settings.scrub(echoed)
    assert key not in clean
    assert clean.count("[REDACTED]") == 2
