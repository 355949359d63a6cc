"""A run's configuration: what ``claims-harness run`` (or the nightly job, a bench, the defect
panel) asks a run to do, in one strict type.

The command line builds a ``RunConfig``; ``run.json`` records it as ``options``; ``--resume``
reads it back and applies the options given on its command line over it; merging compares
its trial fields. ``RunSettings`` is the part a nightly configuration shares (its keys are
the same, see ``nightly.NightlyConfig``). Nothing secret is in it: the LLM endpoint and a
declared runtime's endpoint are kept without credentials, query or fragment, the API key
and a remote browser's endpoint are never here, and neither is anything that only lives
while a run does (its progress display, the seed token, the loaded profile).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import Field, field_validator, model_validator

from ._base import Strict

# The most lanes one run starts (``--lanes N`` and ``auto`` alike).
MAX_LANES = 32

PromptView = Literal["screen", "wide"]
# How the LLM customer answers (docs/llm-customer.md, "Modes"): free (one action in its own
# words) or grounded (it chooses one of the actions its view and the screen permit, offered
# as an enum in the answer's schema; its words are the chosen fact's own).
LlmMode = Literal["free", "grounded"]
# How the customer model is asked for one JSON action (docs/llm-customer.md, "Dialects"):
# json_schema (OpenAI), json_object_schema (llama.cpp, llama-cpp-python), guided_json (vLLM),
# ollama_format (Ollama), json_object (any JSON, the schema in the prompt), off (the prompt
# alone); auto tries them in that order once per run.
ResponseFormatMode = Literal["auto", "json_schema", "json_object_schema", "guided_json",
                             "ollama_format", "json_object", "off"]
RESPONSE_FORMAT_MODES: tuple[str, ...] = get_args(ResponseFormatMode)
"""Every structured-output mode, ``auto`` first and then the dialects in the order auto tries
them: the one list that options, help texts and the client's dialects are derived from."""
RESPONSE_FORMAT_HELP = ("Structured output: " + " | ".join(RESPONSE_FORMAT_MODES)
                        + " (default auto).")
Tracing = Literal["on", "off", "retain-on-failure"]
CustomerKind = Literal["scripted", "llm"]

# The run fields that change what one trial does: shards of one run must agree on them.
TRIAL_FIELDS = ("trials", "customer", "tracing", "turn_limit", "stuck_after", "dev",
                "no_reset", "allow_unreported_runtime", "packs", "replay", "retry_infra",
                "pace")


def sanitized_url(url: str | None) -> str | None:
    """A URL without user name, password, query or fragment (what may be recorded)."""
    if not url:
        return url
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


class DeclaredRuntime(Strict):
    """The agent runtime of a product that cannot report it, as the team declares it (the
    profile's ``[runtime.declared]``, ``run --declare-runtime``). Nothing checks it: every
    report shows it as declared, not reported."""

    model: str | None = Field(None, min_length=1, description="The agent's model, e.g. "
                              "'gpt-4o-mini'.")
    endpoint: str | None = Field(None, min_length=1, description="The model endpoint the "
                                 "product calls; kept without user name, password, query or "
                                 "fragment.")
    version: str | None = Field(None, min_length=1, description="The product's or agent's "
                                "version or build.")

    @field_validator("endpoint")
    @classmethod
    def _without_credentials(cls, v: str | None) -> str | None:
        return sanitized_url(v)

    @model_validator(mode="after")
    def _something(self) -> DeclaredRuntime:
        if not (self.model or self.endpoint or self.version):
            raise ValueError("declare at least one of model, endpoint and version")
        return self

    def describe(self) -> str:
        """One line naming what is declared: 'model gpt-4o-mini; endpoint http://...'."""
        return "; ".join(f"{k} {v}" for k, v in self.model_dump().items() if v)

    def over(self, base: DeclaredRuntime | None) -> DeclaredRuntime:
        """``base`` with what this declaration gives put over it, key by key."""
        if base is None:
            return self
        return base.model_copy(update=self.model_dump(exclude_none=True))


class LlmConfig(Strict):
    """The LLM customer's settings. The API key never is one: it comes from
    CLAIMS_HARNESS_LLM_API_KEY (else OPENAI_API_KEY); an endpoint left out comes from
    CLAIMS_HARNESS_LLM_BASE_URL (else OPENAI_BASE_URL)."""

    base_url: str | None = Field(None, description="OpenAI-compatible endpoint, without any "
                                 "credentials in it (recorded without query or fragment).")
    model: str | None = Field(None, description="Customer model name.")
    temperature: float | None = Field(None, ge=0, le=2, description="Sampling temperature "
                                      "(0 to 2, the OpenAI API's range).")
    seed: int | None = Field(None, description="Sampling seed (honoured on a best-effort "
                             "basis by most servers).")
    max_tokens: int | None = Field(None, ge=1, description="Most tokens per answer.")
    timeout_s: float | None = Field(None, gt=0, description="Seconds per model request "
                                    "(default 60).")
    max_retries: int | None = Field(None, ge=0, description="Client retries on 429, 5xx, "
                                    "timeouts, lost connections (default 2).")
    malformed_retries: int | None = Field(None, ge=0, description="Times an unusable answer "
                                          "is asked again (default 2).")
    response_format: ResponseFormatMode | None = Field(
        None, description=RESPONSE_FORMAT_HELP)
    prompt_view: PromptView | None = Field(
        None, description="What the customer model sees: screen (the standard; default) | "
        "wide (whole conversation and panels; labelled in every report).")
    mode: LlmMode | None = Field(
        None, description="How the customer model answers: free (one action in its own words; "
        "default) | grounded (it chooses one of the actions its view and the screen permit; "
        "it cannot state a fact it does not hold).")
    price_prompt_per_mtok: float | None = Field(None, ge=0, description="USD per million "
                                                "prompt tokens (0 or more).")
    price_completion_per_mtok: float | None = Field(None, ge=0, description="USD per million "
                                                    "completion tokens (0 or more).")


class DevConfig(Strict):
    """Start the embedded stores and the profile's product for the run (``--dev``, the
    nightly ``[dev]`` table); stop them afterwards."""

    runtime: str = Field("reference", description="Runtime the reference app starts with "
                         "(reference | model).")
    faults: list[str] = Field(default_factory=list, description="Reference app fault switches "
                              "(docs/reference-app.md); the run is labelled a defect run.")


class BrowserConfig(Strict):
    """A browser launched on this machine: a file, or an installed browser by channel (at
    most one). A browser reached elsewhere (CDP, a Playwright server) is never recorded: its
    endpoint may hold a token."""

    executable: str | None = Field(None, description="Chromium/Chrome/Edge file to launch.")
    channel: str | None = Field(None, description="Installed browser by channel: chrome, "
                                "msedge, chrome-beta, msedge-dev, ...")


class RunSettings(Strict):
    """What a run does, as ``run`` options and nightly keys alike."""

    profile: str = Field("reference", description="Product profile: a shipped profile name or "
                         "a TOML path.")
    corpora: list[str] = Field(default_factory=lambda: ["packs"], min_length=1,
                               description="Corpus folders (`--packs`); the first is the main "
                               "corpus, the others run beside it with their own id prefixes.")
    packs: list[str] = Field(default_factory=list, description="Pack ids to run (`--pack`; "
                             "default: all).")
    trials: int = Field(1, ge=1, description="Trials per pack.")
    lanes: Annotated[int, Field(ge=0)] | Literal["auto"] = Field(
        0, description="With dev: lanes to start (0: one; at most MAX_LANES; 'auto': as many "
        "as this machine sustains for the customer's think time, docs/throughput.md). "
        "Without: 0, or the profile's number of lanes.")

    @field_validator("lanes")
    @classmethod
    def _at_most_max_lanes(cls, value: int | str) -> int | str:
        if isinstance(value, int) and value > MAX_LANES:
            raise ValueError(f"at most {MAX_LANES} lanes: each lane starts its own product, "
                             "seed route and browser, one after another, and past that many "
                             "a machine is out of memory or cores long before the run "
                             "finishes; --lanes auto picks what this machine sustains")
        return value
    customer: CustomerKind = Field("scripted", description="The simulated customer: scripted "
                                   "or llm.")
    pace: float | Literal["human"] | None = Field(
        None, description="How long the customer takes (`--pace`): seconds (at least that long "
        "for each answer, its own deciding included), 'human' (each action the time a person "
        "takes for it by acceptance.toml's [report_duration.customer_time]), or none: machine "
        "speed.")

    tracing: Tracing = Field("off", description="Playwright tracing: on | off | "
                             "retain-on-failure.")
    turn_limit: int = Field(40, ge=1, description="Most customer actions per trial.")
    stuck_after: int = Field(3, ge=2, description="Same screen this many times = stuck.")
    no_reset: bool = Field(False, description="Run without resetting the product between "
                           "trials; the run is labelled 'no reset'.")
    allow_unchecked_corpus: bool = Field(
        False, description="Run a corpus that fails `corpus check` (an experiment; "
        "`--allow-unchecked-corpus`, nightly key `allow_unchecked_corpus`); the run is "
        "labelled 'corpus fails check'. Without it such a corpus is refused before anything "
        "is recorded.")
    retry_infra: int = Field(
        0, ge=0, le=10, description="Run a trial again, up to this many times, when it ended "
        "in an infrastructure error: harness_error, or simulator_error of a transient kind "
        "(timeout, connection, server, rate_limit). Never the product's own failures "
        "(product_error, reset_failed). Every earlier attempt's evidence is kept beside the "
        "trial (trial-<n>.attempt-<k>) and listed in run.json; the statistics use the last "
        "attempt.")
    stop_after_errors: int = Field(
        5, ge=0, le=1000, description="Stop the run after this many trials in a row ended in "
        "an infrastructure error (product_error, reset_failed, harness_error, "
        "simulator_error; counted after any retry_infra attempts): a product or an endpoint "
        "that is down fails every pack the same way. The trials not run stay pending in "
        "run.json and the record says why it stopped; `run --resume` runs them. 0: never "
        "stop.")
    allow_unreported_runtime: bool = Field(
        False, description="Run a product whose profile says it reports no runtime; the run "
        "is labelled 'runtime not reported'.")
    declared_runtime: DeclaredRuntime | None = Field(
        None, description="The runtime of a product that cannot report it (`--declare-runtime "
        "KEY=VALUE`), over the profile's [runtime.declared] key by key; the run is labelled "
        "'runtime declared, not reported'.")
    dev: DevConfig | None = Field(None, description="Start the embedded stores and the "
                                  "profile's product for the run.")
    llm: LlmConfig | None = Field(None, description="The LLM customer's settings (customer = "
                                  "llm).")
    browser: BrowserConfig = Field(default_factory=BrowserConfig,
                                   description="The browser launched on this machine.")


    def lane_count(self) -> int:
        """The lanes to start, once ``lanes = "auto"`` is resolved (``harness.resolve_lanes``
        does it before a run starts)."""
        if self.lanes == "auto":
            raise ValueError("lanes 'auto' is resolved into a number before the run starts")
        return self.lanes

    @field_validator("pace", mode="before")
    @classmethod
    def _pace_read(cls, value: Any) -> Any:
        # as written on the command line: "2", "2.5s", "human", "off"
        if isinstance(value, str):
            text = value.strip().lower()
            if text in ("", "off", "none"):
                return None
            if text == "human":
                return text
            try:
                value = float(text.removesuffix("s"))
            except ValueError:
                raise ValueError(f"a pace is seconds per answer (e.g. 2 or 2s), human or "
                                 f"off; got {value!r}") from None
        if isinstance(value, bool) or (isinstance(value, int | float) and not (
                0 <= value <= 3600)):
            raise ValueError(f"a pace is 0 to 3600 seconds per answer; got {value!r}")
        return value


class RunConfig(RunSettings):
    """A run's configuration, recorded in run.json as ``options`` (no secrets)."""

    headed: bool = Field(False, description="Show the browser.")
    self_test: bool = Field(False, description="Allow a controlled runtime; the run is "
                            "labelled a self-test.")
    shard: str | None = Field(None, description="Only shard i of n of the trials, e.g. '2/4'.")
    nightly: str | None = Field(None, description="The nightly configuration that started "
                                "the run.")
    panel: str | None = Field(None, description="The defect panel (selftest defects) the run "
                              "belongs to.")
    replay: str | None = Field(
        None, min_length=1, description="The run whose customer this run replays (`--replay`), "
        "by its folder: each trial's LLM customer is answered from that run's recorded calls "
        "of the same pack and trial, matched by prompt hash; no endpoint is called, and a "
        "prompt the recording does not hold ends the trial as simulator_error (replay_miss).")

    @field_validator("shard")
    @classmethod
    def _shard_given(cls, value: str | None) -> str | None:
        # An empty --shard would otherwise read as "no shard" and run every trial.
        if value is not None and not value.strip():
            raise ValueError(f"a shard is written i/n, e.g. 2/4; got {value!r}")
        return value

    @model_validator(mode="after")
    def _replay_is_llm(self) -> RunConfig:
        if self.replay is not None and self.customer != "llm":
            raise ValueError("a replay plays an LLM customer: customer must be llm")
        return self

    def trial_fields(self) -> dict[str, Any]:
        """The fields that change what a trial does (shards of one run agree on them)."""
        return self.model_dump(mode="json", include=set(TRIAL_FIELDS))

    def merged(self, given: dict[str, Any]) -> RunConfig:
        """This configuration with ``given`` (config-shaped, possibly partial; tables are
        merged key by key) applied over it."""
        return RunConfig.model_validate(_deep_merge(self.model_dump(), given))

    @classmethod
    def from_legacy(cls, options: dict[str, Any], self_test: bool = False) -> RunConfig:
        """The configuration of a run.json written before format 2, whose ``options`` was a
        loose dict of command-line option names (unknown keys are dropped)."""
        o = {k: v for k, v in options.items() if v is not None}
        packs = o.get("packs")
        llm = {k[4:] if k.startswith("llm_") else k: o[k] for k in _LEGACY_LLM if k in o}
        if "timeout" in llm:
            llm["timeout_s"] = llm.pop("timeout")
        if "base_url" in llm:
            llm["base_url"] = sanitized_url(llm["base_url"])
        faults = sorted(set(o.get("faults") or []))
        data: dict[str, Any] = {
            **{k: o[k] for k in _LEGACY_SAME if k in o},
            "corpora": [packs] if isinstance(packs, str) else list(packs or ["packs"]),
            "packs": list(o.get("pack") or []),
            "dev": ({"runtime": o.get("runtime") or "reference", "faults": faults}
                    if o.get("dev") or faults else None),
            "llm": llm or None,
            "browser": {"executable": o.get("browser_executable"),
                        "channel": o.get("browser_channel")},
            "self_test": self_test,
        }
        if o.get("selftest") == "defects" and "panel" in o:
            data["panel"] = str(o["panel"])
        return cls.model_validate(data)


_LEGACY_SAME = ("profile", "trials", "lanes", "customer", "tracing", "turn_limit",
                "stuck_after", "no_reset", "allow_unreported_runtime", "headed", "shard",
                "nightly")
_LEGACY_LLM = ("llm_base_url", "llm_model", "llm_temperature", "llm_seed", "llm_max_tokens",
               "llm_timeout", "llm_max_retries", "llm_malformed_retries",
               "llm_response_format", "prompt_view")


def _deep_merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out
