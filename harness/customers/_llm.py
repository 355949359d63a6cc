"""The LLM customer: any OpenAI-compatible chat-completions endpoint.

The prompt comes only from ``corpus.build_customer_messages`` (customer view + visible
screen) and passes the runtime leak guard before it is sent. The reply must be one JSON
``CustomerAction`` (a ```json fence is tolerated, nothing else). Malformed replies, 429, 5xx
and timeouts are retried with exponential backoff up to a bound, then ``SimulatorError``.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import httpx
from pydantic import ValidationError

from corpus.errors import SimulatorError
from corpus.formats import CustomerAction, CustomerModelCall, ScreenReading
from corpus.formats.run import CustomerInfo, TokenUsage

from ._base import CustomerContext

ENV_PREFIX = "CLAIMS_HARNESS_LLM_"
_FENCE = re.compile(r"^```(?:json)?\s*\n(.*?)\n?```$", re.S)
_RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


@dataclass(frozen=True)
class LlmSettings:
    """Endpoint and sampling settings. ``api_key`` is only ever sent as a header."""

    base_url: str
    model: str
    api_key: str = ""
    temperature: float | None = None
    seed: int | None = None
    max_attempts: int = 4
    backoff_s: float = 1.0
    timeout_s: float = 60.0
    price_prompt_per_mtok: float | None = None
    price_completion_per_mtok: float | None = None

    @classmethod
    def from_options(cls, **options: Any) -> LlmSettings:
        """Options given explicitly win; the rest come from CLAIMS_HARNESS_LLM_* variables."""
        env = os.environ

        def pick(name: str, cast: Any = str) -> Any:
            value = options.get(name)
            if value is None:
                raw = env.get(ENV_PREFIX + name.upper())
                value = cast(raw) if raw not in (None, "") else None
            return value

        base_url, model = pick("base_url"), pick("model")
        if not base_url or not model:
            missing = "base_url" if not base_url else "model"
            raise SimulatorError(
                "the llm customer needs an endpoint and a model "
                f"(--llm-{missing.replace('_', '-')} or {ENV_PREFIX}{missing.upper()})",
                field=missing,
            )
        extra = {
            k: options[k]
            for k in ("max_attempts", "backoff_s", "timeout_s", "price_prompt_per_mtok",
                      "price_completion_per_mtok")
            if options.get(k) is not None
        }
        return cls(
            base_url=base_url,
            model=model,
            api_key=pick("api_key") or "",
            temperature=pick("temperature", float),
            seed=pick("seed", int),
            **extra,
        )

    def info(self) -> CustomerInfo:
        return CustomerInfo(
            kind="llm",
            model=self.model,
            endpoint_host=urlsplit(self.base_url).netloc or None,
            temperature=self.temperature,
            seed=self.seed,
        )

    def cost(self, usage: TokenUsage) -> float | None:
        if self.price_prompt_per_mtok is None or self.price_completion_per_mtok is None:
            return None
        return (usage.prompt_tokens * self.price_prompt_per_mtok
                + usage.completion_tokens * self.price_completion_per_mtok) / 1_000_000


def parse_action(text: str) -> CustomerAction:
    """Strictly parse a model reply into a ``CustomerAction`` (raises ``ValueError``)."""
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    data = json.loads(body)
    if not isinstance(data, dict):
        raise ValueError("the reply is not a JSON object")
    action = CustomerAction.model_validate(data)
    need = {"say": "text", "click": "label", "upload": "file"}.get(action.kind)
    if need and not (getattr(action, need) or "").strip():
        raise ValueError(f"a '{action.kind}' action needs '{need}'")
    return action


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class LlmCustomer:
    """A customer played by a chat model, deciding from its view and the screen only."""

    def __init__(
        self,
        view: Any,
        settings: LlmSettings,
        *,
        guard: Any,
        build_messages: Any,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self.view = view
        self.settings = settings
        self.info = settings.info()
        self._guard = guard
        self._build = build_messages
        self._client = client or httpx.AsyncClient(timeout=settings.timeout_s)
        self.retries = 0

    async def aclose(self) -> None:
        await self._client.aclose()

    def _url(self) -> str:
        base = self.settings.base_url.rstrip("/")
        return base + ("/chat/completions" if base.endswith("/v1") else "/v1/chat/completions")

    def request_body(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.settings.model, "messages": messages}
        if self.settings.temperature is not None:
            body["temperature"] = self.settings.temperature
        if self.settings.seed is not None:
            body["seed"] = self.settings.seed
        return body

    async def next_action(self, screen: ScreenReading, ctx: CustomerContext) -> CustomerAction:
        messages = self._build(
            self.view, screen, list(ctx.history), list(ctx.available_files), list(ctx.later_files),
            list(ctx.learned_facts)
        )
        self._guard.check(messages)
        body = self.request_body(messages)
        key = self.settings.api_key
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        last_error = "no attempt made"
        for attempt in range(1, self.settings.max_attempts + 1):
            if attempt > 1:
                self.retries += 1
                await asyncio.sleep(self.settings.backoff_s * 2 ** (attempt - 2))
            call = CustomerModelCall(step=ctx.step, attempt=attempt, ts=_now(), request=body)
            started = time.monotonic()
            try:
                resp = await self._client.post(self._url(), json=body, headers=headers)
            except httpx.HTTPError as exc:
                last_error = f"{type(exc).__name__}: {exc}"
                call.error, call.latency_s = last_error, time.monotonic() - started
                ctx.record_call(call)
                continue
            call.latency_s = time.monotonic() - started
            call.status_code = resp.status_code
            if resp.status_code != 200:
                last_error = f"HTTP {resp.status_code}"
                call.error, call.reply = last_error, resp.text[:2000]
                ctx.record_call(call)
                if resp.status_code in _RETRY_STATUS:
                    continue
                break
            try:
                payload = resp.json()
                usage = TokenUsage(**{k: int(v) for k, v in (payload.get("usage") or {}).items()
                                      if k in TokenUsage.model_fields})
                call.usage, call.cost_usd = usage, self.settings.cost(usage)
                call.reply = payload["choices"][0]["message"]["content"]
                call.action = parse_action(call.reply or "")
            except (ValueError, KeyError, IndexError, TypeError, ValidationError) as exc:
                last_error = f"malformed reply: {exc}".splitlines()[0][:300]
                call.error = last_error
                ctx.record_call(call)
                continue
            if call.action.kind == "upload" and call.action.file not in ctx.available_files:
                last_error = f"malformed reply: upload of a file not available: {call.action.file}"
                call.error, call.action = last_error, None
                ctx.record_call(call)
                continue
            ctx.record_call(call)
            return call.action
        raise SimulatorError(
            "the customer model gave no usable action", step=ctx.step,
            attempts=self.settings.max_attempts, last_error=last_error,
        )
