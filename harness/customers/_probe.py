"""auto's probe: which structured-output dialect an endpoint speaks, found once per run.

Each dialect of ``_dialects.ORDER`` is asked, in turn, for one customer action on a short
prompt (``dialect_probe.md``). The first whose answer is one action is used. An HTTP error
for the request means the dialect's fields were refused; an answer that is not one action
means they were ignored (or the model could not answer through them): both move on. An
endpoint that cannot be reached, times out or limits the rate stops the probe: that says
nothing of the dialect, and the requests of the run then find their own (``Endpoint``).
``off`` is what is left when every other dialect failed.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pydantic import ValidationError

from claims_records import DialectTry

from . import _dialects
from ._action import action_schema, parse_action
from ._endpoint import Endpoint, EndpointError, LlmSettings

PROMPT = (Path(__file__).with_name("dialect_probe.md")).read_text(encoding="utf-8").strip()
# Enough for one short action; a probe answer is never a customer's message.
PROBE_MAX_TOKENS = 200
# Answers that say nothing of the dialect: the probe stops.
_STOPS = ("rate_limit", "timeout", "connection")


async def probe(settings: LlmSettings) -> LlmSettings:
    """``settings`` with the dialect the endpoint speaks (``LlmSettings.settled``); settings
    that do not ask for auto come back as they are."""
    if settings.response_format != "auto":
        return settings
    tries: list[DialectTry] = []
    schema = action_schema()
    messages = [{"role": "user", "content": PROMPT}]
    for dialect in _dialects.ORDER:
        endpoint = Endpoint(replace(settings, response_format=dialect,
                                    max_tokens=min(settings.max_tokens or PROBE_MAX_TOKENS,
                                                   PROBE_MAX_TOKENS)))
        try:
            done = await endpoint.complete(endpoint.body(messages, schema))
        except EndpointError as exc:
            if exc.kind in _STOPS:
                tries.append(DialectTry(dialect=dialect, outcome="failed", detail=exc.message))
                return settings.settled(None, tries)
            if exc.status_code:
                tries.append(DialectTry(dialect=dialect, outcome="refused",
                                        detail=f"HTTP {exc.status_code}: {exc.message}"))
            else:
                tries.append(DialectTry(dialect=dialect, outcome="ignored", detail=exc.message))
            continue
        finally:
            await endpoint.aclose()
        try:
            parse_action(done.text)
        except (ValueError, ValidationError) as exc:
            why = f"the answer is not one action: {exc}".splitlines()[0][:200]
            tries.append(DialectTry(dialect=dialect, outcome="ignored",
                                    detail=f"{why}; it began {done.text[:80]!r}"))
            continue
        tries.append(DialectTry(dialect=dialect, outcome="used",
                                latency_s=round(done.latency_s, 3),
                                prompt_tokens=done.usage.prompt_tokens or None))
        return settings.settled(dialect, tries)
    return settings.settled("off", tries)

