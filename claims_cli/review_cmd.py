"""Commands: review export / review import — claims staff's blind review of triage; review
override — a reviewer's override of one mechanical score, with who and why."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from ._errors import reported_errors
from .score_cmd import CorpusOpt, ResamplesOpt, RunArg, SeedOpt

review_app = typer.Typer(help="Claims staff's blind review of triage: are the rules right?",
                         no_args_is_help=True)


@review_app.command("export")
def export(run: RunArg,
           out: Annotated[Path, typer.Option(help="New, empty folder for the review pack.")],
           corpus: CorpusOpt = None,
           seed: Annotated[int | None, typer.Option(
               help="Seed of the shuffle (default: random, kept in the run's key).")] = None,
           ) -> None:
    """Write a static, offline review pack of RUN's claims for claims handlers: no product
    triage, no review signal, no oracle; shuffled, neutral ids."""
    import scoring

    with reported_errors():
        key = scoring.export_blind_review(run, out, corpus, seed=seed)
    typer.echo(f"export {key.export_id}: {len(key.items)} claim(s) in {out / 'index.html'}")
    typer.echo(f"key kept in {run / 'blind-review' / f'key-{key.export_id}.json'} (never hand "
               "it to the reviewers)")


@review_app.command("import")
def import_(run: RunArg,
            files: Annotated[list[Path], typer.Argument(help="Handlers' saved files.",
                                                        exists=True, dir_okay=False)],
            corpus: CorpusOpt = None, seed: SeedOpt = None,
            resamples: ResamplesOpt = None) -> None:
    """Read the handlers' files and compute agreement: handler vs product, vs oracle, and
    handler vs handler (Cohen's kappa with a bootstrap interval, confusion matrices)."""
    import scoring
    from claims_records import blind_review

    with reported_errors():
        # Refused before anything is kept: oversized files, one person twice, and kept files
        # that would replace one another.
        blind_review.check_handler_files(
            files, run / blind_review.BLIND_REVIEW_DIR / blind_review.KEPT_HANDLERS_DIR)
        result = scoring.import_blind_reviews(
            run, files, corpus, seed=scoring.DEFAULT_SEED if seed is None else seed,
            resamples=resamples or scoring.DEFAULT_RESAMPLES)
    for a in result.comparisons:
        kappa = "undefined" if a.kappa is None else f"{a.kappa:.2f}"
        ci = ("too thin for an interval" if a.too_thin or a.low is None
              else f"[{a.low:.2f}, {a.high:.2f}]")
        typer.echo(f"  {a.rater_a} vs {a.rater_b}, {a.target}: kappa {kappa} {ci} over "
                   f"{a.n} claim(s)")
    for note in result.notes:
        typer.echo(f"  note: {note}")
    typer.echo(f"wrote {run / 'blind-review' / 'agreement.json'}; run `claims-harness report` "
               "to show it")


@review_app.command("override")
def override(run: RunArg,
             pack: Annotated[str, typer.Option(help="The trial's pack id.")],
             trial: Annotated[int, typer.Option(min=1, help="The trial's number.")],
             criterion: Annotated[str, typer.Option(
                 help="The component to override, as the sheet names it (triage, facts, "
                 "journey, waiting_list, ...).")],
             value: Annotated[Literal["pass", "fail"], typer.Option(
                 help="The reviewer's value.")],
             by: Annotated[str, typer.Option(help="Who overrides it (your name).")],
             why: Annotated[str, typer.Option(help="Why, in a sentence a reader can check.")],
             corpus: CorpusOpt = None) -> None:
    """Override one criterion of one scored trial: kept with who, when, why and the
    mechanical value in <RUN>/overrides.json, then RUN is scored again with it; the report
    shows it beside the mechanical value and the summary counts it. Every later `score`
    applies it again."""
    import scoring
    from claims_records import OVERRIDES_FILE

    with reported_errors():
        o, summary = scoring.record_override(run, pack, trial, criterion, value, by, why,
                                             corpus)
    same = " (the same as the mechanical value)" if o.mechanical == o.value else ""
    typer.echo(f"{o.pack_id} trial {o.trial} {o.component}: {o.mechanical} -> {o.value}{same} "
               f"by {o.by} at {o.at}")
    counts = summary.overrides
    typer.echo(f"re-scored: {summary.successes}/{summary.scorable_trials} scorable trials "
               f"succeeded, including {counts.applied} reviewer override(s) "
               f"({counts.trials_changed} changed a trial's success)")
    typer.echo(f"kept in {run / OVERRIDES_FILE}; re-scored versions (rescored/) apply it "
               "when scored again with `score --packs`")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.add_typer(review_app, name="review")
