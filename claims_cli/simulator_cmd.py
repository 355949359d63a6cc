"""Commands: selftest simulator — vet a customer before trusting its numbers; selftest
record-screens — record the simulator panel's screens from a run (thin wrappers over
``harness.panel`` and ``scoring.fidelity``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from pathlib import Path
from typing import Any

import typer

from claims_records import RESPONSE_FORMAT_HELP

from ._errors import reported_errors


def register(selftest: typer.Typer) -> None:
    """Add this module's commands to the ``selftest`` group."""
    selftest.command("simulator")(simulator)
    selftest.command("record-screens")(record_screens)


def _factory(customer: str, llm: Any) -> Any:
    from harness import make_customer

    return lambda view, pack_dir: make_customer(customer, view, pack_dir, llm)


def simulator(
    customer: str = typer.Option("llm", help="llm | scripted"),
    stand_in: str | None = typer.Option(
        None, "--stand-in", help="Run against a local stand-in model with this behaviour "
        "instead of a configured endpoint: well_behaved, invents_a_date, "
        "volunteers_a_document, hints, leaves_its_role, gives_up_early, malformed_output, "
        "rate_limited."),
    packs: Path = typer.Option(Path("packs"), help="Corpus folder."),
    pack: list[str] = typer.Option([], "--pack", help="Pack id (repeatable; default all)."),
    screens: Path | None = typer.Option(
        None, help="Folder of recorded screens (default: the shipped recording of the "
        "reference app over the corpus)."),
    llm_base_url: str | None = typer.Option(None, help="OpenAI-compatible endpoint."),
    llm_model: str | None = typer.Option(None, help="Customer model name."),
    prompt_view: str | None = typer.Option(None, help="screen (default) | wide"),
    llm_mode: str | None = typer.Option(
        None, "--llm-mode", metavar="free|grounded", help="How the customer model answers: "
        "free (default) | grounded (it chooses one of the actions permitted on the screen)."),
    llm_response_format: str | None = typer.Option(
        None, help=RESPONSE_FORMAT_HELP),
) -> None:
    """Play the customer through recorded product screens and audit every answer.

    Exit 0 when the customer broke no rule and its endpoint never failed; with --stand-in,
    exit 0 when the panel caught exactly the stand-in's misbehaviour. Other LLM settings
    (key, temperature, seed, timeout, retries) come from CLAIMS_HARNESS_LLM_* and OPENAI_*.
    """
    import claims_corpus
    from harness import panel
    from harness.customers import LlmSettings, probe_dialect
    from scoring.fidelity import audit_trial

    with reported_errors(), contextlib.ExitStack() as stack:
        if customer not in ("llm", "scripted"):
            raise typer.BadParameter("choose llm or scripted", param_hint="--customer")
        if stand_in is not None and stand_in not in panel.STAND_INS:
            raise typer.BadParameter(f"choose one of {', '.join(panel.STAND_INS)}",
                                     param_hint="--stand-in")
        llm = None
        if customer == "llm":
            if stand_in is not None:
                server = stack.enter_context(panel.StandIn(panel.stand_in_behaviour(stand_in)))
                llm_base_url, llm_model = server.base_url, llm_model or f"stand-in-{stand_in}"
            llm = LlmSettings.from_options(base_url=llm_base_url, model=llm_model,
                                           prompt_view=prompt_view, mode=llm_mode,
                                           response_format=llm_response_format)
            llm = asyncio.run(probe_dialect(llm))
            where = (f"{llm.model} @ {llm.info().endpoint_host}, {llm.mode} mode, prompt view "
                     f"{llm.prompt_view}, structured output {_dialect_line(llm)}")
        else:
            where = "the scripted customer"
        recorded = panel.load_screens(screens or panel.SCREENS_DIR)
        typer.echo(f"simulator panel: {where}; {len(pack) or len(recorded)} pack(s) of "
                   "recorded screens")
        version, _ = claims_corpus.corpus_identity(packs)
        older = sorted({s.corpus_version for s in recorded.values()} - {version})
        if older:
            typer.secho(f"note: screens recorded with corpus {', '.join(older)}, the corpus is "
                        f"now {version}; re-record them (docs/llm-customer.md)",
                        fg=typer.colors.YELLOW)
        from ._stop import sigterm_as_interrupt

        try:
            with sigterm_as_interrupt():
                outcomes = panel.run_panel(_factory(customer, llm), packs, recorded,
                                           audit_trial, list(pack) or None)
        except KeyboardInterrupt:
            stack.close()  # the stand-in model, if one was started
            typer.secho("interrupted; exit code 130; nothing was written", err=True,
                        fg=typer.colors.YELLOW)
            raise typer.Exit(130) from None
    seen: set[str] = set()
    findings: Counter[str] = Counter()
    packs_with: Counter[str] = Counter()
    for o in outcomes:
        seen |= o.labels
        findings.update(f.rule for f in o.audit.findings)
        packs_with.update(o.labels)
        t = o.trial
        tail = f" ({t.error_kind})" if t.error_kind else ""
        typer.echo(f"  {t.pack_id}: {len(t.events) - 1} step(s), ended {t.ended}{tail}, "
                   f"{len(t.calls)} model call(s): {', '.join(sorted(o.labels)) or 'clean'}")
        for f in o.audit.findings:
            typer.echo(f"    {f.rule} at step {f.step}: {f.message} — {f.evidence}")
    if stand_in is not None and customer == "llm":
        expected = panel.expected_label(stand_in)
        caught = seen == ({expected} if expected else set())
        typer.echo(f"{'CAUGHT' if caught else 'MISSED'}: stand-in {stand_in} expects "
                   f"{expected or 'no finding'}; the panel saw "
                   f"{', '.join(sorted(seen)) or 'nothing'}")
        raise typer.Exit(0 if caught else 1)
    typer.echo(f"{'TRUSTED' if not seen else 'SUSPECT'}: "
               f"{_counts(findings, packs_with) or 'no finding and no endpoint fault'}")
    raise typer.Exit(0 if not seen else 1)


def _counts(findings: Counter[str], packs_with: Counter[str]) -> str:
    """Each rule broken with its findings and packs, each endpoint fault with its packs."""
    parts = []
    for label in sorted(packs_with, key=lambda k: (-findings[k], -packs_with[k], k)):
        n, k = findings[label], packs_with[label]
        parts.append(f"{label} {n} finding(s) in {k} pack(s)" if n
                     else f"{label} in {k} pack(s)")
    return ", ".join(parts)


def _dialect_line(llm: Any) -> str:
    """auto and what it settled on, and why each dialect before it was passed over."""
    info = llm.info()
    line = info.response_format or "auto"
    if line == "auto":
        line += f": {info.dialect or 'not settled'}"
    passed = [f"{t.dialect} {t.outcome} ({t.detail})" for t in info.dialect_tries
              if t.outcome != "used"]
    return line + (f"; passed over: {'; '.join(passed)}" if passed else "")


def record_screens(
    run: Path | None = typer.Argument(None, help="Run folder (holds run.json); or --reference.",
                                      exists=True, file_okay=False),
    out: Path | None = typer.Option(
        None, help="Folder to write <pack-id>.json into (with --reference, default: the "
        "shipped screens, harness/panel/screens)."),
    reference: bool = typer.Option(
        False, "--reference", help="Run the corpus on the reference app (dev mode, scripted "
        "customer) and record it; the folder is replaced only once the recording is complete."),
    packs: Path = typer.Option(Path("packs"), help="Corpus folder (with --reference)."),
    pack: list[str] = typer.Option(
        [], "--pack", help="Pack id (repeatable; with --reference; default all): only these "
        "packs' files are replaced, the folder's others are kept."),
    lanes: int = typer.Option(1, min=1, help="Lanes to start (with --reference)."),
) -> None:
    """Record the simulator panel's screens: each pack's first completed trial of RUN, or,
    with --reference, of a fresh run of the corpus on the reference app.

    With --reference the output folder afterwards holds the screens of every pack that
    completed (and, with --pack, the other packs' files as they were); an interrupted or
    failed recording leaves it as it was. Exit 1 when a pack gave no screens.
    """
    from harness import panel

    if reference == (run is not None):
        raise typer.BadParameter("give a run folder, or --reference to record the current "
                                 "corpus on the reference app", param_hint="RUN / --reference")
    if run is not None:
        if out is None:
            raise typer.BadParameter("a folder to write into is needed with RUN",
                                     param_hint="--out")
        if pack or lanes != 1:
            raise typer.BadParameter("--pack and --lanes go with --reference",
                                     param_hint="--pack / --lanes")
        with reported_errors():
            written = panel.record_screens(run, out)
        for path in written:
            typer.echo(f"wrote {path}")
        if not written:
            typer.echo("no completed trial to record", err=True)
            raise typer.Exit(1)
        return
    from ._progress import run_progress
    from ._stop import sigterm_as_interrupt

    target = out or panel.SCREENS_DIR
    try:
        with reported_errors(), sigterm_as_interrupt(), \
                run_progress(list(pack), 1) as progress:
            done = panel.rerecord_screens(packs, target, lanes, list(pack) or None, progress)
    except KeyboardInterrupt:
        typer.secho(f"interrupted; {target} was left as it was", err=True,
                    fg=typer.colors.YELLOW)
        raise typer.Exit(130) from None
    kept = f", {len(done.kept)} other file(s) kept" if done.kept else ""
    typer.echo(f"recorded {len(done.written)} pack(s) of corpus {done.corpus_version} on the "
               f"reference app in {done.seconds:.0f} s{kept} -> {target}")
    if done.missing:
        typer.secho("not recorded: " + ", ".join(f"{p} ({s})" for p, s in
                                                 sorted(done.missing.items())),
                    err=True, fg=typer.colors.YELLOW)
    if not done.swapped:
        typer.echo(f"nothing recorded; {target} was left as it was", err=True)
    if done.missing or not done.swapped:
        raise typer.Exit(1)
