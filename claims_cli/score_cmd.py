"""Commands: score, compare, gate, report (thin wrappers over ``scoring``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

import claims_records

if TYPE_CHECKING:
    from claims_records import RunSummary

from ._errors import reported_errors

RunArg = Annotated[Path, typer.Argument(help="Run folder (holds run.json).", exists=True,
                                        file_okay=False)]
CorpusOpt = Annotated[list[Path] | None, typer.Option(
    "--corpus", help="Corpus folder (repeat it for a run over several corpora); default: the "
    "folders recorded in run.json.")]
SeedOpt = Annotated[int | None, typer.Option(help="Bootstrap seed (default: fixed, recorded).")]
ResamplesOpt = Annotated[int | None, typer.Option(help="Bootstrap resamples.")]
StrictOpt = Annotated[bool, typer.Option(
    "--strict-fidelity", help="Any fidelity finding of the simulated customer makes the run "
    "invalid (exit 1); for CI.")]


def _pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.1f}%"


def _fidelity(summary: RunSummary) -> None:
    f = summary.fidelity
    typer.echo(f"simulator fidelity: {f.explanation}")
    for item in f.suspects:
        typer.echo(f"  SUSPECT {item.pack_id} trial {item.trial}: {item.first}")


def _labels(summary) -> None:
    """Say loudly when the run is not an ordinary one: a self-test or a defect run."""
    if summary.self_test:
        typer.secho("SELF-TEST run (controlled runtime)", fg=typer.colors.RED, bold=True)
    if summary.faults:
        typer.secho(f"FAULTS switched on in the product: {', '.join(summary.faults)} "
                    "(a defect run)", fg=typer.colors.RED, bold=True)
    for label in (x for x in summary.labels if x != "self-test"):
        typer.secho(f"run labelled: {label}", fg=typer.colors.RED, bold=True)


def _acceptance(report) -> None:
    if report is None:
        return
    verdict = "met" if report.met else "NOT met"
    typer.echo(f"acceptance ({report.source}): {verdict}")
    for c in report.criteria:
        mark = {"met": "ok  ", "not_met": "FAIL", "not_measurable": "N/M "}[c.status]
        typer.echo(f"  {mark} {c.title} ({c.threshold}): {c.explanation}")


PacksOpt = Annotated[list[Path] | None, typer.Option(
    "--packs", help="Re-score the run's stored evidence against these packs (a corrected "
    "oracle; repeat for several corpora) instead of the ones it ran with: refused when a "
    "pack's input or setup differs from the run's; written to <RUN>/rescored/<oracle-id>/, "
    "the run's own sheets and summary stay.", exists=True, file_okay=False)]


def _rescored(s: RunSummary, run: Path) -> None:
    info = s.rescored
    if info is None:
        return
    import scoring

    typer.secho(f"RE-SCORED against {', '.join(info.packs_dirs)} (oracle "
                f"{info.oracle_hash[:12]}), not the run's own packs (corpus "
                f"{', '.join(h[:12] for h in info.run_corpora.values())})",
                fg=typer.colors.YELLOW, bold=True)
    typer.echo(f"  {len(info.changed)} pack(s) differ from the run's, "
               f"{info.unchanged_packs} identical")
    for p in info.changed:
        typer.echo(f"  changed {p.pack_id}: {', '.join(p.changed_files)}")
    typer.echo(f"  the run's own sheets and summary are untouched; report: claims-harness "
               f"report {run} --rescored {scoring.rescored_dir(run, info).name}")


def _overrides(s: RunSummary) -> None:
    o = s.overrides
    if o.applied:
        typer.echo(f"includes {o.applied} reviewer override(s): {o.changed} changed a "
                   f"criterion, {o.trials_changed} changed a trial's success")
    for key in o.unmatched:
        typer.echo(f"  override not applied (no such scored criterion): {key}")


def score(run: RunArg, corpus: CorpusOpt = None, seed: SeedOpt = None,
          resamples: ResamplesOpt = None, strict_fidelity: StrictOpt = False,
          packs: PacksOpt = None) -> None:
    """Score every trial of RUN: writes sheet.json per trial and summary.json (with --packs:
    against a corrected oracle, into their own folder).

    Exit 0: scored; 1: --strict-fidelity found the run invalid; 2: refused (bad option, run
    or corpus); 3: no trial could be scored (docs/running.md, "Exit codes")."""
    import scoring

    if packs and corpus:
        raise typer.BadParameter("give --packs (a corrected oracle, scored into its own "
                                 "folder) or --corpus (where the run's own packs now are), "
                                 "not both", param_hint="--packs")
    with reported_errors():
        s = scoring.score_run(run, corpus, seed=seed or scoring.DEFAULT_SEED,
                              resamples=resamples or scoring.DEFAULT_RESAMPLES,
                              strict_fidelity=strict_fidelity, packs=packs)
    _labels(s)
    _rescored(s, run)
    _overrides(s)
    if s.not_implemented_trials:
        typer.echo(f"not implemented by the product (shown, not counted): "
                   f"{len(s.not_implemented_trials)} trial(s): "
                   + ", ".join(sorted({t.pack_id for t in s.not_implemented_trials})))
    ms = s.mean_success
    ci = ("too thin for an interval" if ms.too_thin
          else f"95% CI [{_pct(ms.low)}, {_pct(ms.high)}] (seed {ms.seed}, {ms.resamples} "
               "resamples)")
    typer.echo(f"{s.run_id}: {s.successes}/{s.scorable_trials} scorable trials succeeded; "
               f"mean success {_pct(ms.estimate)} over {ms.packs} pack(s), {ci}")
    if len(s.corpora) > 1:
        for c in s.corpora:
            cm = c.mean_success
            typer.echo(f"  corpus {c.id_prefix} {c.version}: {c.successes}/{c.scorable_trials} "
                       f"succeeded; mean success {_pct(cm.estimate)} over {cm.packs} pack(s)")
    if s.infrastructure_errors:
        typer.echo(f"infrastructure errors (not in the rates): {len(s.infrastructure_errors)} "
                   + ", ".join(f"{k} {v}" for k, v in s.errors_by_category.items()
                               if k != "unscorable"))
    if s.retried:
        earlier = sum(r.attempts - 1 for r in s.retried)
        typer.echo(f"run again after an infrastructure error: {len(s.retried)} trial(s), "
                   f"{earlier} earlier attempt(s) kept apart (only the last attempt is scored)")
    if s.unscorable:
        typer.echo(f"unscorable (damaged records, not in the rates): {len(s.unscorable)}")
        for u in s.unscorable:
            typer.echo(f"  UNSCORABLE {u.pack_id} trial {u.trial}: {u.detail}")
    for item in s.reading_list:
        typer.echo(f"  FAIL {item.pack_id} trial {item.trial}: {item.explanation}")
    _acceptance(s.acceptance)
    _fidelity(s)
    out = scoring.rescored_dir(run, s.rescored) if s.rescored is not None else run
    typer.echo(f"wrote {claims_records.summary_path(out)}")
    code = claims_records.score_exit_code(s, s.fidelity.valid)
    if code == claims_records.ExitCode.NO_RESULT:
        typer.secho(f"no trial could be scored: nothing to judge; exit code {code.value}",
                    err=True, fg=typer.colors.RED)
    raise typer.Exit(code)


def compare(run: RunArg,
            baseline: Annotated[Path, typer.Option(help="Baseline run folder.", exists=True,
                                                   file_okay=False)],
            allow_different_corpus: Annotated[bool, typer.Option(
                help="Compare even when the corpus versions differ.")] = False,
            allow_different_corpus_content: Annotated[bool, typer.Option(
                help="Compare even when the corpus hashes differ (packs edited under one "
                "version); the comparison is labelled with the packs that differ.")] = False,
            allow_different_scorer: Annotated[bool, typer.Option(
                help="Compare even when the runs were scored by different scorers (the "
                "usual way is to re-score the older run).")] = False,
            out: Annotated[Path | None, typer.Option(help="Write the comparison JSON here.")]
            = None,
            corpus: CorpusOpt = None, seed: SeedOpt = None,
            resamples: ResamplesOpt = None,
            difference: Annotated[float, typer.Option(
                min=0.001, max=1.0, help="A difference of success rates to size the run for: "
                "prints how many paired packs would detect it.")] = 0.1) -> None:
    """Paired per-pack comparison of RUN against a baseline run: says too thin below the
    minimum of packs and trials, corrects the per-pack tests for many packs (Holm–Bonferroni)
    and prints the smallest difference the run could have detected.

    Exit 0: better, or no difference found (the interval includes zero); 1: WORSE; 2: refused
    (bad option, runs of different corpora or scorers); 3: TOO THIN for a verdict, or no pack
    scored in both runs (docs/running.md, "Exit codes")."""
    import scoring

    with reported_errors():
        mine, theirs = scoring.load_summary(run, corpus), scoring.load_summary(baseline, corpus)
        result = scoring.compare(
            mine, theirs,
            allow_different_corpus, seed=seed or scoring.DEFAULT_SEED,
            resamples=resamples or scoring.DEFAULT_RESAMPLES,
            allow_different_scorer=allow_different_scorer,
            allow_different_content=allow_different_corpus_content)
    for d in result.packs:
        tested = ("" if d.adjusted_p_value is None
                  else f", adjusted p {d.adjusted_p_value:.3g}: {d.verdict}")
        typer.echo(f"  {d.pack_id}: {_pct(d.run_rate)} vs {_pct(d.baseline_rate)} "
                   f"({d.difference:+.3f}{tested})")
    head = "TOO THIN" if result.too_thin else result.verdict.upper()
    typer.echo(f"{head}: {result.explanation}")
    for name, summary in (("run", mine), ("baseline", theirs)):
        if summary.overrides.applied:
            typer.echo(f"  the {name}'s numbers include {summary.overrides.applied} reviewer "
                       f"override(s) ({summary.overrides.trials_changed} changed a trial's "
                       "success)")
    if result.detectable_difference is not None and result.spread is not None:
        typer.echo(f"smallest difference this run could detect: "
                   f"{result.detectable_difference:.3f} ({result.power:.0%} power, two-sided "
                   f"alpha {result.alpha}, {len(result.packs)} paired pack(s), spread "
                   f"{result.spread:.3f}); a difference of {difference:.2f} needs about "
                   f"{scoring.packs_needed(result.spread, difference, result.alpha, result.power)}"
                   " paired pack(s) at this spread")
    if out is not None:
        out.write_text(result.model_dump_json(indent=2) + "\n", encoding="utf-8")
        typer.echo(f"wrote {out}")
    code = claims_records.compare_exit_code(result)
    if code != claims_records.ExitCode.OK:
        typer.echo(f"exit code {code.value}: {code.meaning}")
    raise typer.Exit(code)


def gate(run: RunArg,
         min_pass_hat_k: Annotated[float | None, typer.Option(
             "--min-pass-hat-k", help="Floor for the run's pass^k.")] = None,
         k: Annotated[int, typer.Option("--k", help="k of pass^k.")] = 3,
         acceptance: Annotated[bool, typer.Option(
             "--acceptance", help="Also require every acceptance criterion (acceptance.toml) "
             "to be met; one not met or not measurable fails the gate.")] = False,
         junit: Annotated[Path | None, typer.Option(
             help="JUnit XML path; default <RUN>/junit.xml.")] = None,
         corpus: CorpusOpt = None, strict_fidelity: StrictOpt = False) -> None:
    """Exit 1 when the run's pass^k is below the floor, (with --acceptance) when an
    acceptance criterion is not met, or (with --strict-fidelity, or a summary scored strict)
    when any trial is simulator-suspect; write JUnit XML either way. The simulator-suspect
    trials are always shown. Exit 0: passed; 2: refused; 3: no trial could be scored, nothing
    to gate (docs/running.md, "Exit codes")."""
    import scoring

    if min_pass_hat_k is None and not acceptance:
        raise typer.BadParameter("give --min-pass-hat-k, --acceptance or both",
                                 param_hint="--min-pass-hat-k")
    with reported_errors():
        summary = scoring.load_summary(run, corpus)
        result = (scoring.gate(summary, min_pass_hat_k, k) if min_pass_hat_k is not None
                  else None)
        accepted = scoring.acceptance_gate(summary.acceptance) if acceptance else None
        fidelity = scoring.fidelity_gate(summary, strict_fidelity)
        path = scoring.write_junit(result, summary, junit or run / "junit.xml",
                                   summary.acceptance if acceptance else None, fidelity)
    _labels(summary)
    _overrides(summary)
    passed = True
    if result is not None:
        for p in result.packs:
            typer.echo(f"  {'ok  ' if p.passed else 'FAIL'} {p.pack_id}: {p.message}")
        typer.echo(f"{'PASS' if result.passed else 'FAIL'}: {result.message}")
        passed = result.passed
    if accepted is not None:
        _acceptance(summary.acceptance)
        typer.echo(f"{'PASS' if accepted.passed else 'FAIL'}: acceptance: {accepted.message}"
                   f"{scoring.run_label(summary)}")
        passed = passed and accepted.passed
    for item in summary.fidelity.suspects:
        typer.echo(f"  SUSPECT {item.pack_id} trial {item.trial}: {item.first}")
    typer.echo(f"{'PASS' if fidelity.ok else 'FAIL'}: {fidelity.message}")
    passed = passed and fidelity.ok
    typer.echo(f"wrote {path}")
    code = claims_records.gate_exit_code(summary, passed)
    if code == claims_records.ExitCode.NO_RESULT:
        typer.secho(f"no trial could be scored: nothing to gate; exit code {code.value}",
                    err=True, fg=typer.colors.RED)
    raise typer.Exit(code)


def report(run: Annotated[Path, typer.Argument(
               help="Run folder (holds run.json), or a run archive (<run-id>.tar.gz from "
               "`runs archive`: opened beside it first).", exists=True)],
           out: Annotated[Path | None, typer.Option(help="Output folder; default <RUN>/report "
                                                    "(with --rescored: that folder's report).")]
           = None,
           corpus: CorpusOpt = None,
           rescored: Annotated[str | None, typer.Option(
               help="The report of a re-scored version (the oracle id `score --packs` "
               "printed, a folder of <RUN>/rescored/).")] = None) -> None:
    """Write the static HTML report of RUN (scores it first if it has no summary)."""
    import scoring

    with reported_errors():
        if run.is_file():
            import claims_nightly

            run = claims_nightly.open_archive(run)
            typer.echo(f"opened the archive into {run}")
        index = scoring.write_report(run, out, corpus, rescored=rescored)
    typer.echo(f"wrote {index}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.command()(score)
    app.command()(compare)
    app.command()(gate)
    app.command()(report)
