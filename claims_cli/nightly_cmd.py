"""Commands: nightly (the scheduled job) and runs archive (old runs into archives)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from claims_records import ExitCode, HarnessError

from ._errors import reported_errors
from ._stop import sigterm_as_interrupt

runs_app = typer.Typer(help="Run folders: archive old runs.", no_args_is_help=True)


def nightly(
    config: Annotated[Path, typer.Argument(help="The nightly configuration (TOML).",
                                           exists=True, dir_okay=False)],
    night_id: Annotated[str | None, typer.Option(
        "--night-id", help="Name of tonight's run (default: <name>-<UTC time>). Every machine "
        "of a sharded night gives the same one; a night id that already has a run is finished "
        "and judged, never run twice.")] = None,
    shard: Annotated[str | None, typer.Option(
        "--shard", help="Only run shard i/n of tonight's trials (one machine of a sharded "
        "night); no scoring.")] = None,
    merge_shards: Annotated[bool, typer.Option(
        "--merge-shards", help="Merge tonight's shards, then score, report, compare, gate "
        "and record the night.")] = False,
) -> None:
    """Run → score → report → compare with the last good night → gate → history.

    Exit 0: ok; 1: a regression against the baseline or a failed gate; 2: the configuration,
    the command line or the profile was refused, nothing ran; 3: the night could not be judged (the
    product, the environment or the run failed, the run stopped early, too many
    infrastructure errors, no trial scorable); 130: interrupted (docs/running.md, "Exit
    codes")."""
    import claims_nightly as job

    if shard and merge_shards:
        raise typer.BadParameter("a machine either runs a shard or merges them",
                                 param_hint="--shard")
    # a refusal (configuration, profile, shard, history) is ExitCode.USAGE; a failure of the
    # night itself is recorded and judged by run_night; anything else unexpected means the
    # night could not be judged, never a regression
    with reported_errors():
        if not (shard or merge_shards):
            night_id = night_id or job.new_night_id(job.load_config(config))
        try:
            with sigterm_as_interrupt():
                result = job.run_night(config, night_id=night_id, shard=shard,
                                       merge_shards=merge_shards, say=typer.echo)
        except KeyboardInterrupt:
            again = [str(config.resolve())] + (["--night-id", night_id] if night_id else [])
            again += ["--shard", shard] if shard else []
            again += ["--merge-shards"] if merge_shards else []
            typer.secho(f"interrupted; exit code {ExitCode.INTERRUPTED.value}; finished "
                        "trials are kept; finish the night with: claims-harness nightly "
                        f"{shlex.join(again)}", err=True, fg=typer.colors.YELLOW)
            raise typer.Exit(ExitCode.INTERRUPTED) from None
        except Exception as exc:
            if isinstance(exc, HarnessError):
                raise
            import traceback

            traceback.print_exc()
            typer.secho(f"error: the night could not be judged: {type(exc).__name__}: {exc}; "
                        f"exit code {ExitCode.NO_RESULT.value}", err=True, fg=typer.colors.RED)
            raise typer.Exit(ExitCode.NO_RESULT) from exc
    raise typer.Exit(result.exit_code)


@runs_app.command("archive")
def archive(
    older_than: Annotated[str, typer.Option("--older-than", help="Age of runs to archive: "
                                            "30d, 12h, 2w.")],
    runs_dir: Annotated[Path, typer.Option(help="The runs folder.", exists=True,
                                           file_okay=False)] = Path("runs"),
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Only say what would be "
                                          "archived.")] = False,
) -> None:
    """Pack finished runs older than --older-than into <runs>/archive/<run-id>.tar.gz.

    A run is removed only after its archive was read back and checked file by file;
    `claims-harness report ARCHIVE` still opens it. Runs in use or unfinished are left."""
    import claims_nightly as job

    with reported_errors():
        done = job.archive_runs(runs_dir, job.parse_age(older_than), dry_run=dry_run)
        if not dry_run:
            job.mark_archived(runs_dir, {a.run_id: a.archive.relative_to(runs_dir).as_posix()
                                         for a in done if a.archive is not None})
    for a in done:
        what = a.note or f"archived ({a.files} files)"
        typer.echo(f"  {a.run_id}: {what}" + (f" -> {a.archive}" if a.archive else ""))
    typer.echo(f"{sum(1 for a in done if a.archive and not a.note)} run(s) archived")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.command()(nightly)
    app.add_typer(runs_app, name="runs")
