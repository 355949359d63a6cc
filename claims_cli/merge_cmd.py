"""Commands: merge — the shards of one run, run on several machines, into one run record."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ._errors import reported_errors


def merge(
    runs: Annotated[list[Path], typer.Argument(help="The shards' run folders.", exists=True,
                                               file_okay=False)],
    into: Annotated[Path, typer.Option("--into", help="The merged run's folder (new); its "
                                       "name is the run id.")],
    partial: Annotated[bool, typer.Option(
        "--partial", help="Merge even when shards are missing or unfinished (their trials "
        "are missing or pending; the merged run records which).")] = False,
) -> None:
    """Merge shard runs (run --shard i/n) into one run that scores, reports, compares and
    gates as one. Refuses runs that are not shards of one run, naming what differs."""
    import harness

    with reported_errors():
        record = harness.merge_runs(runs, into, partial=partial)
    merged = record.merged
    assert merged is not None
    missing = (f"; missing shard(s): {', '.join(map(str, merged.missing_shards))}"
               if merged.missing_shards else "")
    typer.echo(f"merged {len(merged.sources)} shard(s), {len(record.trials)} trial(s) into "
               f"{into}{missing}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.command()(merge)
