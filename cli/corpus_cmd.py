"""Commands: corpus (check, manifest, migrate, schema, generate)."""

from __future__ import annotations

from pathlib import Path

import typer

from ._errors import reported_errors

DEFAULT_CORPUS = Path("packs")

corpus_app = typer.Typer(help="Check, freeze and maintain the test-pack corpus.",
                         no_args_is_help=True)


@corpus_app.command("check")
def check(
    path: Path = typer.Argument(DEFAULT_CORPUS, help="Corpus folder (holds manifest.json)."),
    freeze: bool = typer.Option(False, "--freeze", help="Also require image sign-offs; on "
                                "success record content hashes and mark the corpus frozen."),
) -> None:
    """Report every problem of every pack; exit 1 if there is any."""
    from corpus import check_corpus

    with reported_errors():
        report = check_corpus(path, freeze=freeze)
    for line in report.lines():
        typer.echo(line)
    for note in report.notes:
        typer.echo(f"note: {note}")
    n = len(report.problems)
    typer.echo(f"{len(report.packs_checked)} pack(s) checked, {n} problem(s)"
               + (", corpus frozen" if report.frozen else ""))
    if n:
        raise typer.Exit(1)


@corpus_app.command("manifest")
def manifest(
    path: Path = typer.Argument(DEFAULT_CORPUS, help="Corpus folder (holds manifest.json)."),
) -> None:
    """Rewrite the manifest's per-pack entries from the packs (non-frozen corpus only)."""
    from corpus import update_manifest

    with reported_errors():
        result = update_manifest(path)
    typer.echo(f"manifest.json: {len(result.packs)} pack(s), corpus {result.corpus_version}")


@corpus_app.command("migrate")
def migrate(
    path: Path = typer.Argument(DEFAULT_CORPUS, help="Corpus folder (holds manifest.json)."),
) -> None:
    """Rewrite a v0.2 corpus in pack format v0.3 (money with a currency, 'arrives', id prefix)."""
    from corpus import migrate_corpus

    with reported_errors():
        changed = migrate_corpus(path)
    for name in changed:
        typer.echo(f"migrated {name}")
    typer.echo(f"{len(changed)} file(s) rewritten; now run `claims-harness corpus manifest` "
               "(or, on a frozen corpus, bump the version and `corpus check --freeze`)")


@corpus_app.command("schema")
def schema(
    directory: Path = typer.Option(DEFAULT_CORPUS / "schema", "--dir",
                                   help="Where the JSON Schemas live."),
    check_only: bool = typer.Option(False, "--check",
                                    help="Write nothing; exit 1 if any schema is out of date."),
) -> None:
    """Write one JSON Schema per file format (or check they are up to date)."""
    from corpus import stale_schemas, write_schemas

    if check_only:
        stale = stale_schemas(directory)
        for name in stale:
            typer.echo(f"{directory / name}: out of date")
        typer.echo(f"{len(stale)} schema(s) out of date")
        if stale:
            raise typer.Exit(1)
        return
    written = write_schemas(directory)
    typer.echo(f"{len(written)} schema(s) in {directory}")


@corpus_app.command("generate")
def generate(
    pack_dir: Path = typer.Argument(..., help="Pack folder whose provenance.json holds the "
                                    "recipes."),
    out: Path | None = typer.Option(None, "--out", help="Write here instead of "
                                    "input/materials/."),
) -> None:
    """Re-create a pack's materials from its provenance.json (same input, same bytes)."""
    from corpus import generate_materials

    with reported_errors():
        written = generate_materials(pack_dir, out)
    for p in written:
        typer.echo(str(p))


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.add_typer(corpus_app, name="corpus")
