"""Commands: run — drive packs through the product with a simulated customer."""

from __future__ import annotations

import contextlib
from pathlib import Path

import typer

from claims_records import HarnessError

from . import _browser_opts as browser_opts
from ._errors import reported_errors
from ._progress import run_progress
from ._stop import sigterm_as_interrupt


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.command("run")(run)


def _resume_defaults(ctx: typer.Context, param: typer.CallbackParam, value):
    """``--resume`` and ``--runs-dir`` are read first; once both are known the resumed run's
    recorded options become the defaults of every option not given on the command line."""
    ctx.meta[f"run.{param.name}"] = value
    meta = ctx.meta
    if "run.resume" in meta and "run.runs_dir" in meta and meta["run.resume"]:
        from harness import resume_defaults

        recorded = resume_defaults(Path(meta["run.runs_dir"]) / meta["run.resume"])
        ctx.default_map = {**(ctx.default_map or {}), **recorded}
    return value


def run(
    profile: str = typer.Option("reference", help="Product profile: a TOML path or a shipped "
                                "profile name."),
    packs: list[Path] = typer.Option(
        [Path("packs")], "--packs", help="Corpus folder; repeat it to run several corpora "
        "together (a held-out corpus beside packs/), each with its own manifest and id prefix. "
        "The first is the main corpus: with --dev the product is reset to its baseline."),
    pack: list[str] = typer.Option([], "--pack", help="Pack id to run (repeatable; default all)."),
    trials: int = typer.Option(1, min=1, help="Trials per pack."),
    lanes: int = typer.Option(0, min=0, help="With --dev: number of lanes to start."),
    dev: bool = typer.Option(False, "--dev", help="Start the embedded stores and the profile's "
                             "product ([dev] in the profile) for this run; stop them afterwards."),
    customer: str = typer.Option("scripted", help="scripted | llm"),
    runs_dir: Path = typer.Option(Path("runs"), help="Where run records go.", is_eager=True,
                                  callback=_resume_defaults),
    run_id: str | None = typer.Option(None, help="Run id (default: timestamp + random)."),
    resume: str | None = typer.Option(
        None, is_eager=True, callback=_resume_defaults,
        help="Finish the interrupted run with this id: its packs, trials and options come "
        "from its run.json (an option given here wins); finished trials are kept."),
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
    headed: bool = typer.Option(False, "--headed", help="Show the browser."),
    browser_executable: browser_opts.Executable = None,
    browser_channel: browser_opts.Channel = None,
    browser_cdp_url: browser_opts.CdpUrl = None,
    browser_ws_endpoint: browser_opts.WsEndpoint = None,
    tracing: str = typer.Option("off", help="Playwright tracing: on | off | retain-on-failure."),
    turn_limit: int = typer.Option(40, min=1, help="Most customer actions per trial."),
    stuck_after: int = typer.Option(3, min=2, help="Same screen this many times = stuck."),
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
        None, help="Structured output: auto | json_schema | json_object | off (default auto)."),
    prompt_view: str | None = typer.Option(
        None, help="What the customer model sees: screen (the standard; default) | wide "
        "(whole conversation and panels; labelled in every report)."),
    llm_price_prompt: float | None = typer.Option(None, help="USD per million prompt tokens."),
    llm_price_completion: float | None = typer.Option(
        None, help="USD per million completion tokens."),
) -> None:
    """Run packs end to end through the browser and write a run record."""
    import harness
    from harness.customers import LlmSettings

    with reported_errors():
        if tracing not in harness.TRACING_MODES:
            raise typer.BadParameter(f"choose one of {', '.join(harness.TRACING_MODES)}",
                                     param_hint="--tracing")
        if customer not in ("scripted", "llm"):
            raise typer.BadParameter("choose scripted or llm", param_hint="--customer")
        if fault and not dev:
            raise typer.BadParameter("fault switches belong to the reference app that --dev "
                                     "starts; a product you run yourself reports its own",
                                     param_hint="--fault")
        if fault:
            from claims_reference_app import FAULTS, RECOVERABLE_FAULTS

            known = [*FAULTS, *RECOVERABLE_FAULTS]
            unknown = sorted(set(fault) - set(known))
            if unknown:
                raise typer.BadParameter(f"unknown fault(s) {', '.join(unknown)}; known: "
                                         f"{', '.join(known)}", param_hint="--fault")
        prof = harness.load_profile(profile)
        browser = browser_opts.browser_choice(browser_executable, browser_channel,
                                              browser_cdp_url, browser_ws_endpoint, headed)
        the_shard = harness.Shard.parse(shard) if shard else None
        if the_shard and resume:
            raise typer.BadParameter("a resumed shard keeps its trials; drop --shard",
                                     param_hint="--shard")
        durations = harness.load_durations(shard_durations) if shard_durations else None
        llm = None
        if customer == "llm":
            llm = LlmSettings.from_options(
                base_url=llm_base_url, model=llm_model, temperature=llm_temperature,
                seed=llm_seed, max_tokens=llm_max_tokens, timeout_s=llm_timeout,
                max_retries=llm_max_retries, malformed_retries=llm_malformed_retries,
                response_format=llm_response_format, prompt_view=prompt_view,
                price_prompt_per_mtok=llm_price_prompt,
                price_completion_per_mtok=llm_price_completion)
        elif prompt_view is not None:
            raise typer.BadParameter("only the llm customer reads a prompt",
                                     param_hint="--prompt-view")
        recorded = harness.recorded_options(
            profile=profile, packs=packs, pack=list(pack), trials=trials, lanes=lanes, dev=dev,
            customer=customer, tracing=tracing, turn_limit=turn_limit, stuck_after=stuck_after,
            headed=headed, runtime=runtime, no_reset=no_reset,
            allow_unreported_runtime=allow_unreported_runtime, self_test=self_test,
            browser_executable=browser_executable, browser_channel=browser_channel,
            shard=shard, llm=llm, faults=sorted(set(fault)))
        options = harness.RunOptions(
            profile=prof, packs_root=packs[0], extra_corpora=list(packs[1:]), runs_dir=runs_dir,
            pack_ids=list(pack),
            trials=trials, customer=customer, llm=llm,
            run_id=None if resume else (run_id or harness.new_run_id()), resume=resume,
            self_test=self_test, no_reset=no_reset,
            allow_unreported_runtime=allow_unreported_runtime, headed=headed,
            browser_executable=browser_executable, browser=browser, shard=the_shard,
            shard_durations=durations, tracing=tracing, turn_limit=turn_limit,
            stuck_after=stuck_after,
            recorded_options=recorded,
        )
        run_id_now = resume or options.run_id
        try:
            with sigterm_as_interrupt(), contextlib.ExitStack() as stack:
                if dev:
                    options.profile, env = stack.enter_context(harness.dev_product(
                        prof, max(1, lanes), packs[0], runtime=runtime,
                        faults=sorted(set(fault))))
                    what = f"runtime {runtime}" if prof.dev and prof.dev.builtin else prof.name
                    label = f", FAULTS {', '.join(sorted(set(fault)))}" if fault else ""
                    typer.echo(f"dev environment: {len(env.lanes)} lane(s), {what}{label}")
                    options.seed_token = env.seed_token
                elif lanes and lanes != len(prof.resolved_lanes()):
                    raise typer.BadParameter(
                        f"the profile lists {len(prof.resolved_lanes())} lane(s); --lanes N "
                        "starts N lanes only with --dev", param_hint="--lanes")
                wanted = list(pack) or ([] if resume else _pack_ids(packs))
                options.progress = stack.enter_context(run_progress(wanted, trials))
                record, run_dir = harness.run(options)
        except KeyboardInterrupt:
            hint = (f"finish it with: {harness.resume_command(runs_dir, run_id_now)} "
                    "(finished trials are kept)" if options.started or resume
                    else "nothing was recorded")
            typer.secho(f"interrupted; exit code 130; {hint}", err=True, fg=typer.colors.YELLOW)
            raise typer.Exit(130) from None
        except HarnessError as exc:
            typer.secho(harness.stop_line(exc, 2, runs_dir, run_id_now, options.started),
                        err=True, fg=typer.colors.RED)
            raise typer.Exit(2) from exc
        typer.echo(harness.summary_line(record, run_dir))


def _pack_ids(packs: list[Path]) -> list[str]:
    """Pack ids for the progress display; the run itself reports a bad corpus folder."""
    import claims_corpus
    import claims_records

    try:
        return [p.name for root in packs for p in claims_corpus.list_packs(root)]
    except claims_records.HarnessError:
        return []
