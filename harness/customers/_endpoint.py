"""The customer model's endpoint: settings, and the one client that talks to it (``openai``).

Every request goes through ``openai.AsyncOpenAI``: its timeout, its transport retries (429,
5xx, timeouts, lost connections, with backoff) and its error types. Nothing here retries by
hand. What the client could not recover becomes an ``EndpointError`` with a
``SimulatorErrorKind``; the API key is removed from every text that leaves this module.

Where a setting comes from, first match wins (docs/llm-customer.md):

1. an explicit option (``claims-harness run --llm-...``);
2. the harness's variable ``CLAIMS_HARNESS_LLM_<NAME>``;
3. the SDK's own variable, for the settings the SDK knows: ``OPENAI_BASE_URL``,
   ``OPENAI_API_KEY``, ``OPENAI_ORG_ID``, ``OPENAI_PROJECT_ID``;
4. the default.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, get_args
from urllib.parse import urlsplit, urlunsplit

from claims_records import (
    CustomerInfo,
    DialectTry,
    LlmConfig,
    LlmMode,
    PromptView,
    ResponseFormatMode,
    SimulatorError,
    TokenUsage,
    sanitized_url,
)

from .._redact import redact_literals
from . import _dialects

ENV_PREFIX = "CLAIMS_HARNESS_LLM_"
SDK_ENV: dict[str, str] = {
    "base_url": "OPENAI_BASE_URL",
    "api_key": "OPENAI_API_KEY",
    "organization": "OPENAI_ORG_ID",
    "project": "OPENAI_PROJECT_ID",
}
DEFAULT_BASE_URL = "https://api.openai.com/v1"
# Sent as the bearer key when none is configured: the SDK insists on one, local servers
# (llama.cpp, Ollama, vLLM) ignore it.
NO_KEY = "no-key"
PROMPT_VIEWS: tuple[str, ...] = get_args(PromptView)
MODES: tuple[str, ...] = get_args(LlmMode)
RESPONSE_FORMATS: tuple[str, ...] = get_args(ResponseFormatMode)
ERROR_TEXT_LIMIT = 500
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MAX_RETRIES = 2
# The client's timeout sized from the probe's answer (``sized_timeout``): a customer prompt
# is about this many tokens (docs/llm-customer.md), and a customer answer may take this many
# times the estimate and still count (a busier machine, a longer prompt later in the journey,
# lanes waiting behind one server).
CUSTOMER_PROMPT_TOKENS = 1500
TIMEOUT_MARGIN = 4.0
# The probe's prompt is short (under a hundred tokens): its answer is mostly generating and
# overhead, which a longer prompt does not multiply. So the prompt's ratio counts at most
# this much (measured on the embedded model: an 84-token probe answered in 11.9 s, customer
# answers of about 1,400 tokens took 15-95 s on the same loaded machine, the longest ones
# reading a whole prompt cold).
PROMPT_SCALE_CAP = 4.0
# An answer estimated slower than this is a local model's (a CPU server): a retry after its
# timeout waits behind the generation the client abandoned (such a server cannot stop it),
# so one retry, for a lost connection, is all that helps.
SLOW_ANSWER_S = 10.0
SLOW_MAX_RETRIES = 1

_CASTS: dict[str, Callable[[str], object]] = {
    "temperature": float, "seed": int, "max_tokens": int, "timeout_s": float,
    "max_retries": int, "malformed_retries": int, "price_prompt_per_mtok": float,
    "price_completion_per_mtok": float,
}


def _without_userinfo(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit(parts._replace(netloc=host))


@dataclass(frozen=True)
class LlmSettings:
    """Endpoint, sampling and cost settings of the customer model.

    ``api_key`` is only ever sent as the bearer header; it is kept out of ``repr`` and out of
    every record. A base URL carrying credentials (``https://user:pass@host``) is refused:
    the key belongs in ``api_key``, where it is guarded.
    """

    model: str
    base_url: str = DEFAULT_BASE_URL
    api_key: str = field(default="", repr=False)
    organization: str | None = None
    project: str | None = None
    temperature: float | None = None
    seed: int | None = None
    max_tokens: int | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_retries: int = DEFAULT_MAX_RETRIES
    malformed_retries: int = 2
    response_format: str = "auto"
    prompt_view: str = "screen"
    mode: str = "free"
    price_prompt_per_mtok: float | None = None
    price_completion_per_mtok: float | None = None
    # Set by auto's probe (``settled``), never by an option: what was asked for, and what
    # the probe found; ``response_format`` is then the dialect settled on.
    asked_format: str | None = None
    dialect_tries: tuple[DialectTry, ...] = ()
    # The settings given as options or variables (``from_options``): the probe's answer
    # time sizes the timeout and retries among the others (None: settings made directly,
    # never resized).
    given: frozenset[str] | None = None

    def __post_init__(self) -> None:
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SimulatorError("the LLM base URL must be an http(s) URL such as "
                                 "http://127.0.0.1:8080/v1", field="base_url")
        if parts.username is not None or parts.password is not None:
            raise SimulatorError(
                "the LLM base URL carries credentials (user:password@); remove them and set "
                f"the key in {ENV_PREFIX}API_KEY instead, where it is never recorded",
                field="base_url", url=_without_userinfo(self.base_url))
        if self.api_key and not (self.api_key.isascii() and self.api_key.isprintable()):
            raise SimulatorError("the LLM API key holds characters an HTTP header cannot "
                                 "carry (only printable ASCII)", field="api_key")
        checks = [
            (self.response_format in RESPONSE_FORMATS, "response_format",
             f"choose one of {', '.join(RESPONSE_FORMATS)}"),
            (self.prompt_view in PROMPT_VIEWS, "prompt_view",
             f"choose one of {', '.join(PROMPT_VIEWS)}"),
            (self.mode in MODES, "mode", f"choose one of {', '.join(MODES)}"),
            (self.timeout_s > 0, "timeout_s", "the timeout must be above zero"),
            (self.max_retries >= 0, "max_retries", "retries cannot be negative"),
            (self.malformed_retries >= 0, "malformed_retries", "retries cannot be negative"),
            (self.temperature is None or 0 <= self.temperature <= 2, "temperature",
             "the temperature must be from 0 to 2 (the OpenAI API's range)"),
            (self.price_prompt_per_mtok is None or self.price_prompt_per_mtok >= 0,
             "price_prompt_per_mtok", "a price cannot be negative"),
            (self.price_completion_per_mtok is None or self.price_completion_per_mtok >= 0,
             "price_completion_per_mtok", "a price cannot be negative"),
        ]
        for ok, name, why in checks:
            if not ok:
                raise SimulatorError(f"invalid LLM setting: {why}", field=name)

    @classmethod
    def from_options(cls, environ: dict[str, str] | None = None, **options: Any) -> LlmSettings:
        """Settings from explicit options, then CLAIMS_HARNESS_LLM_*, then OPENAI_*."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for name in cls.__dataclass_fields__:
            if name in _PROBED:
                continue
            value = options.get(name)
            source = "option"
            if value is None:
                for var in (ENV_PREFIX + name.upper(), SDK_ENV.get(name)):
                    if var and env.get(var, "") != "":
                        value, source = env[var], var
                        break
            if value is None:
                continue
            cast = _CASTS.get(name)
            try:
                values[name] = cast(value) if cast and source != "option" else value
            except ValueError:
                assert cast is not None  # only a cast raises
                raise SimulatorError(f"{source} is not a valid {getattr(cast, '__name__', cast)}",
                                     field=name) from None
        values["given"] = frozenset(values)
        if not values.get("model"):
            raise SimulatorError("the llm customer needs a model (--llm-model or "
                                 f"{ENV_PREFIX}MODEL)", field="model")
        return cls(**values)

    def settled(self, dialect: str | None, tries: list[DialectTry]) -> LlmSettings:
        """These settings after auto's probe: requests use ``dialect`` (None: the probe
        settled nothing, each request finds its own), the records say auto and what the
        probe found."""
        used = next((t for t in tries if t.outcome == "used"), None)
        sizes: dict[str, Any] = {}
        if used is not None and used.latency_s is not None and self.given is not None:
            timeout, retries = sized_timeout(used.latency_s, used.prompt_tokens)
            if "timeout_s" not in self.given:
                sizes["timeout_s"] = timeout
            if "max_retries" not in self.given:
                sizes["max_retries"] = retries
        return replace(self, response_format=dialect or "auto",
                       asked_format=self.asked_format or self.response_format,
                       dialect_tries=tuple(tries), **sizes)

    @property
    def asked(self) -> str:
        """The structured-output mode asked for (auto, or one dialect)."""
        return self.asked_format or self.response_format

    def info(self) -> CustomerInfo:
        """What run.json records: everything that shapes the answers, never the key."""
        parts = urlsplit(self.base_url)
        host = parts.hostname or ""
        return CustomerInfo(
            kind="llm", model=self.model,
            endpoint_host=f"{host}:{parts.port}" if parts.port else host,
            temperature=self.temperature, seed=self.seed, max_tokens=self.max_tokens,
            timeout_s=self.timeout_s, max_retries=self.max_retries,
            malformed_retries=self.malformed_retries,
            response_format=self.asked,  # type: ignore[arg-type]
            dialect=(None if self.response_format == "auto"
                     else self.response_format),  # type: ignore[arg-type]
            dialect_tries=list(self.dialect_tries),
            prompt_view=self.prompt_view,  # type: ignore[arg-type]
            mode=self.mode,  # type: ignore[arg-type]
            price_prompt_per_mtok=self.price_prompt_per_mtok,
            price_completion_per_mtok=self.price_completion_per_mtok,
        )

    def config(self) -> LlmConfig:
        """What a run's configuration records: every setting, the endpoint without
        credentials, query or fragment, never the key."""
        return LlmConfig(
            base_url=sanitized_url(self.base_url), model=self.model,
            temperature=self.temperature, seed=self.seed, max_tokens=self.max_tokens,
            timeout_s=self.timeout_s, max_retries=self.max_retries,
            malformed_retries=self.malformed_retries,
            response_format=self.asked,  # type: ignore[arg-type]
            prompt_view=self.prompt_view,  # type: ignore[arg-type]
            mode=self.mode,  # type: ignore[arg-type]
            price_prompt_per_mtok=self.price_prompt_per_mtok,
            price_completion_per_mtok=self.price_completion_per_mtok)

    def cost(self, usage: TokenUsage) -> float | None:
        if self.price_prompt_per_mtok is None or self.price_completion_per_mtok is None:
            return None
        return (usage.prompt_tokens * self.price_prompt_per_mtok
                + usage.completion_tokens * self.price_completion_per_mtok) / 1_000_000

    def scrub(self, text: str | None) -> str | None:
        """``text`` without any form of the API key."""
        if text is None or not self.api_key:
            return text
        return redact_literals(text, [self.api_key])

    def request_body(self, dialect: str, messages: list[dict[str, Any]],
                     schema: dict[str, Any]) -> dict[str, Any]:
        """The request body asking for an answer to ``schema`` in ``dialect``."""
        body: dict[str, Any] = {"model": self.model, "messages": messages, **self.sampling()}
        return _dialects.apply(dialect, body, schema)

    def sampling(self) -> dict[str, Any]:
        """The request parameters besides model and messages."""
        params = {"temperature": self.temperature, "seed": self.seed,
                  "max_tokens": self.max_tokens}
        return {k: v for k, v in params.items() if v is not None}


# Fields of the settings that auto's probe sets, never an option or a variable.
_PROBED = frozenset({"asked_format", "dialect_tries", "given"})


def sized_timeout(answer_s: float, prompt_tokens: int | None) -> tuple[float, int]:
    """The client's timeout and retries for an endpoint that answered a prompt of
    ``prompt_tokens`` in ``answer_s`` seconds (auto's probe): a customer answer is estimated
    from it in proportion to the prompt (at most ``PROMPT_SCALE_CAP`` times, never below the
    answer measured), the timeout is
    ``TIMEOUT_MARGIN`` times that and never below the default; an answer estimated slower
    than ``SLOW_ANSWER_S`` gets ``SLOW_MAX_RETRIES`` retries, any other the default."""
    scale = (min(PROMPT_SCALE_CAP, max(1.0, CUSTOMER_PROMPT_TOKENS / prompt_tokens))
             if prompt_tokens else 1.0)
    estimate = answer_s * scale
    timeout = max(DEFAULT_TIMEOUT_S, float(round(TIMEOUT_MARGIN * estimate)))
    return timeout, SLOW_MAX_RETRIES if estimate > SLOW_ANSWER_S else DEFAULT_MAX_RETRIES


class EndpointError(Exception):
    """A request the client could not complete, after its own retries."""

    def __init__(self, kind: str, message: str, statuses: list[int | None],
                 usage: TokenUsage | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.statuses = statuses
        self.usage = usage or TokenUsage()

    @property
    def status_code(self) -> int | None:
        return next((s for s in reversed(self.statuses) if s is not None), None)


@dataclass
class Completion:
    """One answer of the endpoint."""

    text: str
    usage: TokenUsage
    statuses: list[int | None]
    latency_s: float
    body: dict[str, Any]


def classify(exc: BaseException) -> str:
    """The ``SimulatorErrorKind`` of an exception raised while calling the endpoint."""
    import openai

    if isinstance(exc, openai.RateLimitError):
        return "rate_limit"
    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "connection"
    if isinstance(exc, openai.APIStatusError):
        return "server" if exc.status_code >= 500 else "request_rejected"
    return "malformed_output"  # an answer the SDK could not read (not JSON, wrong shape)


# The dialect each endpoint (base URL, model) settled on in this process, when auto found it
# request by request rather than by a probe: later requests start there.
_SETTLED: dict[tuple[str, str], ResponseFormatMode] = {}


class Endpoint:
    """The customer model's endpoint, through one ``AsyncOpenAI`` client."""

    def __init__(self, settings: LlmSettings) -> None:
        self.settings = settings
        self._statuses: list[int | None] = []
        import openai  # here, not at the top: a run without a model customer never loads it

        http = openai.DefaultAsyncHttpxClient(
            event_hooks={"request": [self._on_request], "response": [self._on_response]})
        self.client = openai.AsyncOpenAI(
            api_key=settings.api_key or NO_KEY, base_url=settings.base_url,
            organization=settings.organization, project=settings.project,
            timeout=settings.timeout_s, max_retries=settings.max_retries, http_client=http)
        self._key = (settings.base_url, settings.model)
        self._auto = settings.response_format == "auto"
        self._schema: dict[str, Any] = {}
        # auto without a probe: each dialect in turn until the endpoint takes one
        self.response_format: ResponseFormatMode = (
            _SETTLED.get(self._key, _dialects.ORDER[0]) if self._auto
            else _dialects.named(settings.response_format))

    async def _on_request(self, request: Any) -> None:
        self._statuses.append(None)

    async def _on_response(self, response: Any) -> None:
        if self._statuses:
            self._statuses[-1] = response.status_code

    async def aclose(self) -> None:
        await self.client.close()

    def scrub(self, text: str | None) -> str | None:
        """``text`` without any form of the API key."""
        return self.settings.scrub(text)

    def body(self, messages: list[dict[str, Any]], schema: dict[str, Any]) -> dict[str, Any]:
        """The request body asking for an answer to ``schema`` in the current dialect."""
        self._schema = schema
        return self.settings.request_body(self.response_format, messages, schema)

    async def _create(self, body: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """One request; in ``auto`` without a settled dialect, an HTTP error for the request
        moves on to the next dialect (and is asked again in it) until one is taken (each
        call's record says the dialect it was answered in). Returns the answer and the body
        it answered."""
        import openai

        while True:
            try:
                result = await self.client.chat.completions.create(**_dialects.split(body))
            except openai.APIStatusError as exc:
                nxt = _dialects.after(self.response_format)
                if not (self._auto and nxt and _dialects.refused(exc)):
                    raise
                self.response_format = _SETTLED[self._key] = nxt
                body = _dialects.apply(nxt, body, self._schema)
                continue
            return result, body

    async def complete(self, body: dict[str, Any]) -> Completion:
        """One chat completion; raises ``EndpointError`` with a kind when it fails.

        In ``auto`` mode without a probe, an endpoint that refuses the dialect's fields is
        asked again in the next dialect (``_dialects.ORDER``), which later requests keep;
        ``Completion.body`` is what was finally sent.
        """
        self._statuses = []
        started = time.monotonic()
        try:
            result, body = await self._create(body)
        except Exception as exc:  # every SDK error, and an answer it could not decode
            error = f"{type(exc).__name__}: {exc}".replace("\n", " ")[:ERROR_TEXT_LIMIT]
            raise EndpointError(classify(exc), self.scrub(error) or "",
                                list(self._statuses)) from exc
        latency = time.monotonic() - started
        raw_usage = getattr(result, "usage", None)
        usage = TokenUsage(
            prompt_tokens=getattr(raw_usage, "prompt_tokens", 0) or 0,
            completion_tokens=getattr(raw_usage, "completion_tokens", 0) or 0,
            total_tokens=getattr(raw_usage, "total_tokens", 0) or 0,
        )
        choices = getattr(result, "choices", None)
        message = getattr(choices[0], "message", None) if choices else None
        text = getattr(message, "content", None)
        if not isinstance(text, str) or not text.strip():
            refusal = getattr(message, "refusal", None)
            why = ("the answer has no choices" if not choices else
                   f"the model refused: {refusal}" if refusal else "the answer has no text")
            raise EndpointError("malformed_output", self.scrub(why) or why,
                                list(self._statuses), usage=usage)
        return Completion(text=text, usage=usage, statuses=list(self._statuses),
                          latency_s=latency, body=body)
