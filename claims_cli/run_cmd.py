"""Commands: run — drive packs through the product with a simulated customer."""

from __future__ import annotations

import contextlib
from pathlib import Path

import typer

from claims_records import RESPONSE_FORMAT_HELP, ExitCode, HarnessError, run_exit_code

from . import _browser_opts as browser_opts
from ._errors import reported_errors
from ._progress import run_progress
from ._stop import sigterm_as_interrupt


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.command("run")(run)


# Where each ``run`` option goes in the run configuration (``RunConfig``), when not under
# its own name; options absent here and from the configuration are not recorded.
_CONFIG_PATH: dict[str, tuple[str, ...]] = {
    "packs": ("corpora",), "pack": ("packs",), "runtime": ("dev", "runtime"),
    "fault": ("dev", "faults"), "browser_executable": ("browser", "executable"),
    "browser_channel": ("browser", "channel"), "llm_base_url": ("llm", "base_url"),
    "llm_model": ("llm", "model"), "llm_temperature": ("llm", "temperature"),
    "llm_seed": ("llm", "seed"), "llm_max_tokens": ("llm", "max_tokens"),
    "llm_timeout": ("llm", "timeout_s"), "llm_max_retries": ("llm", "max_retries"),
    "llm_malformed_retries": ("llm", "malformed_retries"),
    "llm_response_format": ("llm", "response_format"), "prompt_view": ("llm", "prompt_view"),
    "llm_mode": ("llm", "mode"),
    "llm_price_prompt": ("llm", "price_prompt_per_mtok"),
    "llm_price_completion": ("llm", "price_completion_per_mtok"),
    "declare_runtime": ("declared_runtime",),
}
_NOT_CONFIG = {"dev", "runs_dir", "run_id", "resume", "shard_durations", "browser_cdp_url",
               "browser_ws_endpoint", "base_url"}


def _given_config(ctx: typer.Context, resume: bool) -> dict:
    """The run configuration the command line gives, as a (nested) dict: every option for a
    new run, only those given on the command line for a resumed one (they win over what the
    run recorded)."""
    from claims_records import RunConfig

    out: dict = {}
    for name, value in ctx.params.items():
        source = ctx.get_parameter_source(name)
        if name in _NOT_CONFIG or (resume and getattr(source, "name", "DEFAULT") in (
                "DEFAULT", "DEFAULT_MAP")):
            continue
        path = _CONFIG_PATH.get(name, (name,))
        if path[0] not in RunConfig.model_fields or (path[0] == "llm" and value is None):
            continue
        if name == "packs":
            value = [str(Path(p).resolve()) for p in value]  # resumable from anywhere
        elif name == "profile":
            value = _recorded_profile(value)
        elif name == "fault":
            value = sorted(set(value))
        elif name == "pack":
            value = list(value)
        elif name == "declare_runtime":
            value = _declaration(value)
        node = out
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = value
    return out


def _replaying(ctx: typer.Context, given: dict, base, replay: str, runs_dir: Path,
               resume: bool):
    """The configuration a replay of run ``replay`` starts from (the recorded run's customer
    settings, corpora, packs and trials); ``given`` keeps only what the command line gives
    for those, and names the replayed run by its folder."""
    import harness

    if resume:
        raise typer.BadParameter("a resumed run keeps what it replays; drop --replay",
                                 param_hint="--replay")
    recording = harness.Recording.open(replay, runs_dir)
    explicit = _given_config(ctx, True)
    if explicit.get("customer", "llm") != "llm":
        raise typer.BadParameter("a replay plays the LLM customer of the run it replays",
                                 param_hint="--customer")
    for key in ("customer", "corpora", "packs", "trials"):
        if key not in explicit:
            given.pop(key, None)
    given["replay"] = str(recording.run_dir)
    return base.merged(recording.defaults())


def _declaration(items: list[str]) -> dict[str, str] | None:
    """``--declare-runtime KEY=VALUE`` options as the run configuration's table (None when
    none is given)."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise typer.BadParameter(f"{item!r} is not KEY=VALUE (model=..., endpoint=..., "
                                     "version=...)", param_hint="--declare-runtime")
        out[key.strip()] = value.strip()
    return out or None


def _merged(base, given: dict):
    """``base`` with ``given`` applied; a value the configuration refuses names its option."""
    from pydantic import ValidationError

    try:
        return base.merged(given)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(str(p) for p in err["loc"])
        name = next((n for n, path in _CONFIG_PATH.items() if path == loc[:len(path)]),
                    loc[0] if loc else "")
        raise typer.BadParameter(err["msg"], param_hint="--" + name.replace("_", "-")
                                 ) from None


def _pointed(prof, base_url: list[str], dev: bool):
    """The profile pointed where this run goes, and the seed token to use (None: the
    profile's environment variable): ``--base-url`` when given; else the stack a running
    `dev up` serves, when the profile is one it serves (``harness._stack`` has the rule);
    else the profile as it is."""
    import os

    import harness

    if base_url:
        if dev:
            raise typer.BadParameter("--dev starts its own product; drop --base-url",
                                     param_hint="--base-url")
        return harness.with_base_urls(prof, base_url), None
    if dev or not harness.serves_profile(prof):
        return prof, None
    stack, note = harness.running_stack()
    if note:
        typer.secho(f"note: {note}", err=True, fg=typer.colors.YELLOW)
    if stack is None:
        return prof, None
    urls = ", ".join(ln.base_url or "" for ln in stack.lanes)
    typer.echo(f"running stack of dev up (pid {stack.pid}): {urls}")
    token = None if os.environ.get(prof.seed.token_env) else harness.stack_seed_token(stack)
    return harness.point_at_stack(prof, stack), token


def _recorded_profile(profile: str) -> str:
    """A profile file by absolute path (a resume works from anywhere); a name as given."""
    path = Path(profile)
    return str(path.resolve()) if path.suffix == ".toml" or path.is_file() else profile


def run(
    ctx: typer.Context,
    profile: str = typer.Option("reference", help="Product profile: a TOML path or a shipped "
                                "profile name."),
    base_url: list[str] = typer.Option(
        [], "--base-url", metavar="URL", help="The product's URL instead of the profile's: once "
        "for one lane, once per lane for several (each lane's seed route is URL + the "
        "profile's seed path). Without it and without --dev, the reference profile runs "
        "against the stack a running `dev up` wrote to .claims-harness.stack.json."),
    packs: list[Path] = typer.Option(
        [Path("packs")], "--packs", help="Corpus folder; repeat it to run several corpora "
        "together (a held-out corpus beside packs/), each with its own manifest and id prefix. "
        "The first is the main corpus: with --dev the product is reset to its baseline."),
    pack: list[str] = typer.Option([], "--pack", help="Pack id to run (repeatable; default all)."),
    trials: int = typer.Option(1, min=1, help="Trials per pack."),
    lanes: str = typer.Option(
        "0", metavar="N|auto", help="With --dev: number of lanes to start; auto: as many as "
        "this machine sustains for the customer's think time (--pace, a model's answers; "
        "docs/throughput.md)."),
    dev: bool = typer.Option(False, "--dev", help="Start the embedded stores and the profile's "
                             "product (\\[dev] in the profile) for this run; stop them "
                             "afterwards."),
    customer: str = typer.Option("scripted", help="scripted | llm"),
    runs_dir: Path = typer.Option(Path("runs"), help="Where run records go."),
    run_id: str | None = typer.Option(None, help="Run id (default: timestamp + random)."),
    resume: str | None = typer.Option(
        None, help="Finish the interrupted run with this id: its packs, trials and options come "
        "from its run.json (an option given here wins); finished trials are kept."),
    replay: str | None = typer.Option(
        None, "--replay", metavar="RUN", help="Replay the customer of run RUN (an id in "
        "--runs-dir, or a run folder): each trial's LLM customer is answered from RUN's "
        "recorded calls of the same pack and trial, matched by prompt hash; no model is "
        "called, and a prompt RUN does not hold ends the trial as simulator_error "
        "(replay_miss). The customer settings, corpora, packs and trials default to RUN's."),
    shard: str | None = typer.Option(
        None, "--shard", help="Run only shard i of n of the trials, e.g. 2/4 (split the same "
        "way on every machine; merge the shards with `claims-harness merge`)."),
    shard_durations: Path | None = typer.Option(
        None, "--shard-durations", help="history.json or a run folder whose pack durations "
        "balance the shards (default: <runs-dir>/history.json when present, else by count)."),
    self_test: bool = typer.Option(False, "--self-test", help="Allow a controlled runtime; the "
                                   "run is labelled a self-test."),
    no_reset: bool = typer.Option(False, "--no-reset", help="Run without resetting the product "
                                  "between trials (a profile without a reset needs it); the "
                                  "run is labelled 'no reset'."),
    allow_unreported_runtime: bool = typer.Option(
        False, "--allow-unreported-runtime", help="Run a product whose profile says it reports "
        "no runtime; the run is labelled 'runtime not reported'."),
    declare_runtime: list[str] = typer.Option(
        [], "--declare-runtime", metavar="KEY=VALUE", help="Declare the runtime of a product "
        "that cannot report it: model=NAME, endpoint=URL, version=TEXT (repeatable; over the "
        "profile's \\[runtime.declared] key by key). The run is labelled 'runtime declared, not "
        "reported'; the endpoint is recorded without credentials."),
    retry_infra: int = typer.Option(
        0, "--retry-infra", min=0, max=10, metavar="N", help="Run a trial again, up to N times, "
        "when it ended in an infrastructure error (harness_error; simulator_error of kind "
        "timeout, connection, server or rate_limit); never the product's own errors "
        "(product_error, reset_failed). Each attempt waits first, longer each time: 2 s, "
        "doubling, at most 60 s. Earlier attempts keep their evidence (trial-<n>.attempt-<k>) "
        "and are listed in run.json; the statistics use the last."),
    stop_after_errors: int = typer.Option(
        5, "--stop-after-errors", min=0, max=1000, metavar="N", help="Stop the run after N "
        "trials in a row ended in an infrastructure error (product_error, reset_failed, "
        "harness_error, simulator_error; after --retry-infra): a product or endpoint that "
        "is down fails every pack alike. The trials not run stay pending in run.json (exit "
        "3; --resume runs them). 0: never stop."),
    allow_unchecked_corpus: bool = typer.Option(
        False, "--allow-unchecked-corpus", help="Run a corpus that fails `corpus check` (an "
        "experiment); the run is labelled 'corpus fails check' in every report. Without it "
        "such a corpus is refused before anything starts or is recorded."),
    headed: bool = typer.Option(False, "--headed", help="Show the browser."),
    browser_executable: browser_opts.Executable = None,
    browser_channel: browser_opts.Channel = None,
    browser_cdp_url: browser_opts.CdpUrl = None,
    browser_ws_endpoint: browser_opts.WsEndpoint = None,
    tracing: str = typer.Option("off", help="Playwright tracing: on | off | retain-on-failure."),
    turn_limit: int = typer.Option(40, min=1, help="Most customer actions per trial."),
    stuck_after: int = typer.Option(3, min=2, help="Same screen this many times = stuck."),
    pace: str | None = typer.Option(
        None, "--pace", metavar="SECONDS|human", help="Make the customer take time: at least "
        "SECONDS for each answer (e.g. 2s: a model's latency without a model), or 'human': "
        "each action the time a person takes for it (reading, typing, deciding, finding a "
        "file) by the corpus's acceptance.toml \\[report_duration.customer_time]."),
    runtime: str = typer.Option("reference", help="With --dev: runtime the app starts with."),
    fault: list[str] = typer.Option(
        [], "--fault", help="With --dev: switch on a fault of the reference app (repeatable; "
        "docs/reference-app.md). The run is labelled a defect run everywhere."),
    llm_base_url: str | None = typer.Option(
        None, help="OpenAI-compatible endpoint (default $CLAIMS_HARNESS_LLM_BASE_URL, then "
        "$OPENAI_BASE_URL). The key comes only from $CLAIMS_HARNESS_LLM_API_KEY or "
        "$OPENAI_API_KEY."),
    llm_model: str | None = typer.Option(None, help="Customer model name."),
    llm_temperature: float | None = typer.Option(None, help="Customer model temperature."),
    llm_seed: int | None = typer.Option(None, help="Customer model seed."),
    llm_max_tokens: int | None = typer.Option(None, min=1, help="Most tokens per answer."),
    llm_timeout: float | None = typer.Option(None, min=0.1, help="Seconds per model request "
                                             "(default 60)."),
    llm_max_retries: int | None = typer.Option(
        None, min=0, help="Client retries on 429, 5xx, timeouts, lost connections (default 2)."),
    llm_malformed_retries: int | None = typer.Option(
        None, min=0, help="Times an unusable answer is asked again (default 2)."),
    llm_response_format: str | None = typer.Option(
        None, help=RESPONSE_FORMAT_HELP),
    prompt_view: str | None = typer.Option(
        None, help="What the customer model sees: screen (the standard; default) | wide "
        "(whole conversation and panels; labelled in every report)."),
    llm_mode: str | None = typer.Option(
        None, "--llm-mode", metavar="free|grounded", help="How the customer model answers: "
        "free (one action in its own words; default) | grounded (it chooses one of the "
        "actions its view and the screen permit, so a small model can play it and cannot "
        "state a fact it does not hold; docs/llm-customer.md)."),
    llm_price_prompt: float | None = typer.Option(None, help="USD per million prompt tokens."),
    llm_price_completion: float | None = typer.Option(
        None, help="USD per million completion tokens."),
) -> None:
    """Run packs end to end through the browser and write a run record.

    Exit 0: the run reached outcomes (how good they are is for score and gate); 2: refused
    before anything was recorded; 3: no trial reached an outcome of the product's agent
    (every one an infrastructure error), or the run stopped early or could not finish; 130:
    interrupted (docs/running.md, "Exit codes")."""
    import claims_corpus
    import harness
    from claims_records import RunConfig
    from harness.customers import LlmSettings

    with reported_errors():
        if tracing not in harness.TRACING_MODES:
            raise typer.BadParameter(f"choose one of {', '.join(harness.TRACING_MODES)}",
                                     param_hint="--tracing")
        if customer not in ("scripted", "llm"):
            raise typer.BadParameter("choose scripted or llm", param_hint="--customer")
        if shard and resume:
            harness.Shard.parse(shard)
            raise typer.BadParameter("a resumed shard keeps its trials; drop --shard",
                                     param_hint="--shard")
        given = _given_config(ctx, bool(resume))
        recorded = harness.recorded_config(runs_dir / resume) if resume else None
        base = recorded or RunConfig()
        if replay:
            base = _replaying(ctx, given, base, replay, runs_dir, bool(resume))
        dev_given = given.pop("dev", {})
        if dev or base.dev is not None:
            given["dev"] = dev_given
        elif dev_given.get("faults"):
            raise typer.BadParameter("fault switches belong to the reference app that --dev "
                                     "starts; a product you run yourself reports its own",
                                     param_hint="--fault")
        else:
            given["dev"] = None
        config = _merged(base, given)
        config, lane_choice = harness.resolve_lanes(config)
        if lane_choice is not None:
            typer.echo(f"lanes auto: {lane_choice.why}")
        for option in ("prompt_view", "mode"):
            if config.customer != "llm" and given.get("llm", {}).get(option) is not None:
                raise typer.BadParameter("only the llm customer reads a prompt",
                                         param_hint="--" + _option_name(option))
        faults = config.dev.faults if config.dev else []
        if faults:
            from claims_reference_app import FAULTS, RECOVERABLE_FAULTS

            known = [*FAULTS, *RECOVERABLE_FAULTS]
            unknown = sorted(set(faults) - set(known))
            if unknown:
                raise typer.BadParameter(f"unknown fault(s) {', '.join(unknown)}; known: "
                                         f"{', '.join(known)}", param_hint="--fault")
        prof, stack_token = _pointed(harness.load_profile(config.profile), base_url,
                                     config.dev is not None)
        if config.shard:
            harness.Shard.parse(config.shard)
        browser = browser_opts.browser_choice(config.browser.executable, config.browser.channel,
                                              browser_cdp_url, browser_ws_endpoint,
                                              config.headed)
        llm = None
        if config.customer == "llm":
            llm = _embedded_grounded(
                LlmSettings.from_options(**(config.llm.model_dump() if config.llm else {})),
                config)
            config = config.model_copy(update={"llm": llm.config()})
        else:
            config = config.model_copy(update={"llm": None})
        run_ctx = harness.RunContext(
            profile=prof, runs_dir=runs_dir,
            run_id=None if resume else (run_id or harness.new_run_id()), resume=resume,
            llm=llm, browser=browser, seed_token=stack_token,
            shard_durations=harness.load_durations(shard_durations) if shard_durations
            else None)
        run_id_now = resume or run_ctx.run_id
        # A corpus that fails `corpus check` is refused before the run starts: at once when
        # every corpus's outcome is kept; a corpus not checked yet is checked while the dev
        # environment starts (the dev environment is stopped again if it is refused).
        check = claims_corpus.PendingCheck(config.corpora, config.allow_unchecked_corpus)
        try:
            with sigterm_as_interrupt(), contextlib.ExitStack() as stack:
                stack.enter_context(check)
                if check.decided or config.dev is None:
                    run_ctx.corpus_fails_check = _checked(check)
                if config.dev is not None:
                    run_ctx.profile, env = stack.enter_context(harness.dev_product(
                        prof, max(1, config.lane_count()), Path(config.corpora[0]),
                        runtime=config.dev.runtime, faults=faults))
                    what = (f"runtime {config.dev.runtime}" if prof.dev and prof.dev.builtin
                            else prof.name)
                    label = f", FAULTS {', '.join(faults)}" if faults else ""
                    typer.echo(f"dev environment: {len(env.lanes)} lane(s), {what}{label}")
                    run_ctx.seed_token = env.seed_token
                    if not check.decided:
                        run_ctx.corpus_fails_check = _checked(check)
                elif config.lanes and config.lanes != len(prof.resolved_lanes()):
                    raise typer.BadParameter(
                        f"the profile lists {len(prof.resolved_lanes())} lane(s); --lanes N "
                        "starts N lanes only with --dev", param_hint="--lanes")
                wanted = config.packs or ([] if resume else _pack_ids(config.corpora))
                run_ctx.progress = stack.enter_context(run_progress(wanted, config.trials))
                record, run_dir = harness.run(config, run_ctx)
        except KeyboardInterrupt:
            hint = (f"finish it with: {harness.resume_command(runs_dir, run_id_now)} "
                    "(finished trials are kept)" if run_id_now and (run_ctx.started or resume)
                    else "nothing was recorded")
            typer.secho(f"interrupted; exit code {ExitCode.INTERRUPTED.value}; {hint}",
                        err=True, fg=typer.colors.YELLOW)
            raise typer.Exit(ExitCode.INTERRUPTED) from None
        except HarnessError as exc:
            # refused before anything was recorded: usage; stopped once it had started: the
            # run could not finish
            code = ExitCode.NO_RESULT if run_ctx.started else ExitCode.USAGE
            typer.secho(harness.stop_line(exc, code, runs_dir, run_id_now, run_ctx.started),
                        err=True, fg=typer.colors.RED)
            raise typer.Exit(code) from exc
        typer.echo(harness.summary_line(record, run_dir))
        code = run_exit_code(record)
        if code != ExitCode.OK:
            typer.secho(harness.no_result_line(record, runs_dir, code), err=True,
                        fg=typer.colors.RED)
            raise typer.Exit(code)


def _embedded_grounded(llm, config):
    """``llm`` in grounded mode when a dev run's customer is the embedded model and no mode
    was chosen (option, configuration or variable): measured, the embedded model completes
    journeys in grounded mode and none in free mode (docs/llm-customer.md)."""
    import os
    from dataclasses import replace

    from claims_dev import LocalModel
    from harness.customers import ENV_PREFIX

    chosen = (config.llm is not None and config.llm.mode is not None) or os.environ.get(
        ENV_PREFIX + "MODE")
    if config.dev is None or chosen or llm.model != LocalModel().model:
        return llm
    typer.echo(f"customer mode grounded: {llm.model} is the embedded model (--llm-mode free "
               "to play it free)")
    return replace(llm, mode="grounded")


def _option_name(field: str) -> str:
    """The command-line option of an LLM setting (``mode`` -> ``llm-mode``)."""
    name = next((n for n, path in _CONFIG_PATH.items() if path == ("llm", field)), field)
    return name.replace("_", "-")


def _checked(check) -> bool:
    """Wait for the corpus check (a refusal raises); warn of each failing corpus the run was
    told to run anyway. True when one fails."""
    import claims_corpus

    failing = check.result()
    for stamp in failing:
        typer.secho(claims_corpus.running_anyway(stamp), err=True, fg=typer.colors.YELLOW)
    return bool(failing)


def _pack_ids(packs: list[str]) -> list[str]:
    """Pack ids for the progress display; the run itself reports a bad corpus folder."""
    import claims_corpus
    import claims_records

    try:
        return [p.name for root in packs for p in claims_corpus.list_packs(root)]
    except claims_records.HarnessError:
        return []
