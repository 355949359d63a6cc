"""The LLM customer: any OpenAI-compatible chat-completions endpoint, through ``openai``.

The prompt comes only from ``claims_corpus.build_customer_messages`` (customer view + its own
memory + the visible screen, in the run's prompt view) and passes the runtime leak guard
before it is sent. The answer must be one ``CustomerAction`` (``_action``) that fits the
screen. An unusable answer is asked again, with a note saying what was wrong, up to
``malformed_retries`` times; transport failures are retried by the ``openai`` client alone
(``_endpoint``). What cannot be recovered is a ``SimulatorError`` with its kind. Every call is
recorded with its prompt's key (``_replay.prompt_key``); a replayed customer (``run
--replay``) asks its recording (``_replay.Replay``) in place of the endpoint.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from claims_corpus import CustomerView, LeakGuard
from claims_records import CustomerAction, CustomerModelCall, ScreenReading, SimulatorError

from ._action import action_schema, exact_label, misfit, parse_action
from ._base import CustomerContext
from ._endpoint import Endpoint, EndpointError, LlmSettings
from ._replay import RecordedTrial, Replay, prompt_key


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class LlmCustomer:
    """A customer played by a chat model, deciding from its view and the screen only.

    With ``replay`` (a recorded trial), the model's answers come from that recording and no
    endpoint is ever asked."""

    def __init__(self, view: CustomerView, settings: LlmSettings, *, guard: LeakGuard,
                 build_messages: Callable[..., list[dict[str, str]]],
                 build_repair: Callable[[str, str], list[dict[str, str]]],
                 replay: RecordedTrial | None = None) -> None:
        self.view = view
        self.settings = settings
        self.info = settings.info()
        self._guard = guard
        self._build = build_messages
        self._repair = build_repair
        self._endpoint: Endpoint | Replay = (Replay(settings, replay) if replay is not None
                                             else Endpoint(settings))
        self._schema = action_schema()
        self.retries = 0

    async def aclose(self) -> None:
        await self._endpoint.aclose()

    def messages(self, screen: ScreenReading, ctx: CustomerContext) -> list[dict[str, str]]:
        """The prompt for this screen, checked by the leak guard."""
        messages = self._build(
            self.view, screen, list(ctx.history), list(ctx.available_files),
            list(ctx.later_files), uploaded=list(ctx.uploaded),
            prompt_view=self.settings.prompt_view, can_attach=ctx.can_attach,
            learned_facts=list(ctx.learned_facts), returned=ctx.returned)
        self._guard.check(messages)
        return messages

    def turn(self, screen: ScreenReading, ctx: CustomerContext
             ) -> tuple[list[dict[str, str]], dict[str, Any], Callable[[str], CustomerAction]]:
        """This turn's prompt, the answer's JSON schema, and how an answer becomes an action
        (raising ``ValueError`` or ``ValidationError`` for one that does not)."""
        return self.messages(screen, ctx), self._schema, parse_action

    def took(self, action: CustomerAction, ctx: CustomerContext) -> None:
        """The customer takes ``action`` (a mode that remembers its choices hears of it)."""

    async def next_action(self, screen: ScreenReading, ctx: CustomerContext) -> CustomerAction:
        messages, schema, read = self.turn(screen, ctx)
        attempts = 1 + self.settings.malformed_retries
        problem = "no attempt made"
        for attempt in range(1, attempts + 1):
            if attempt > 1:
                self.retries += 1
            body = self._endpoint.body(messages, schema)
            call = CustomerModelCall(step=ctx.step, attempt=attempt, ts=_now(), request=body,
                                     response_format=self._endpoint.response_format,
                                     prompt_hash=prompt_key(body),
                                     replayed=isinstance(self._endpoint, Replay))
            try:
                done = await self._endpoint.complete(body)
            except EndpointError as exc:
                self.retries += max(0, len(exc.statuses) - 1)
                call.error, call.error_kind = exc.message, exc.kind  # type: ignore[assignment]
                call.http_statuses, call.status_code = exc.statuses, exc.status_code
                call.usage, call.cost_usd = exc.usage, self.settings.cost(exc.usage)
                ctx.record_call(call)
                if exc.kind != "malformed_output":
                    raise SimulatorError(f"the customer model failed: {exc.kind}",
                                         kind=exc.kind, step=ctx.step,
                                         last_error=exc.message) from None
                problem = exc.message
                continue
            self.retries += max(0, len(done.statuses) - 1)
            call.request, call.response_format = done.body, self._endpoint.response_format
            call.http_statuses = done.statuses
            call.status_code = next((s for s in reversed(done.statuses) if s), None)
            call.latency_s, call.usage = round(done.latency_s, 3), done.usage
            call.cost_usd = self.settings.cost(done.usage)
            call.reply = self._endpoint.scrub(done.text)
            try:
                action = read(done.text)
                problem = misfit(action, screen, ctx) or ""
            except (ValueError, ValidationError) as exc:
                problem = f"not one customer action: {exc}".splitlines()[0][:300]
            if not problem:
                call.action = exact_label(action, screen)
                ctx.record_call(call)
                self.took(call.action, ctx)
                return call.action
            call.error, call.error_kind = f"malformed reply: {problem}", "malformed_output"
            ctx.record_call(call)
            repair = self._repair(call.reply or "", problem)
            self._guard.check(repair[1:])  # the note; the model's own answer is not pack text
            messages = [*messages, *repair]
        raise SimulatorError(
            "the customer model gave no usable action", kind="malformed_output",
            step=ctx.step, attempts=attempts, last_error=self._endpoint.scrub(problem))
