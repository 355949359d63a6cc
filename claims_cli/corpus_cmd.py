"""Commands: corpus (check, manifest, migrate, schema, generate, author, review, sign-off,
blind-look)."""

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
    from claims_corpus import check_corpus

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
    from claims_corpus import update_manifest

    with reported_errors():
        result = update_manifest(path)
    typer.echo(f"manifest.json: {len(result.packs)} pack(s), corpus {result.corpus_version}")


@corpus_app.command("migrate")
def migrate(
    path: Path = typer.Argument(DEFAULT_CORPUS, help="Corpus folder (holds manifest.json)."),
) -> None:
    """Rewrite a v0.2 corpus in pack format v0.3 (money with a currency, 'arrives', id prefix)."""
    from claims_corpus import migrate_corpus

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
    from claims_corpus import stale_schemas, write_schemas

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
    from claims_corpus import generate_materials

    with reported_errors():
        written = generate_materials(pack_dir, out)
    for p in written:
        typer.echo(str(p))


@corpus_app.command("author")
def author(
    path: Path = typer.Argument(DEFAULT_CORPUS, help="Corpus folder to write the packs into."),
    table: Path | None = typer.Option(None, "--table", help="Scenario table (default: "
                                      "claims_corpus/authoring/scenarios.toml)."),
    pack: list[str] = typer.Option([], "--pack", help="Only this pack id (repeatable)."),
) -> None:
    """Write the generated packs of the scenario table (one row per pack) into the corpus;
    hand-written rows are left alone. Then run `corpus manifest` and `corpus check`."""
    from claims_corpus.authoring import TABLE, build_corpus, load_table

    with reported_errors():
        written = build_corpus(path, load_table(table or TABLE), only=pack or None)
    typer.echo(f"{len(written)} pack(s) written to {path}")


@corpus_app.command("review")
def review(
    packs: list[Path] = typer.Argument(None, help="Pack folders or corpus folders "
                                       "(default: packs/)."),
    out: Path = typer.Option(..., "--out", help="Folder to write the review page into."),
) -> None:
    """Write a static page showing every image beside what its pack says it shows."""
    from claims_corpus import resolve_packs, write_review_page

    with reported_errors():
        index = write_review_page(resolve_packs(packs or [DEFAULT_CORPUS]), out)
    typer.echo(f"review page: {index}")


@corpus_app.command("sign-off")
def sign_off(
    packs: list[Path] = typer.Argument(..., help="Pack folders (or a corpus folder) whose "
                                       "images you have looked at."),
    by: str = typer.Option(..., "--by", help="Your full name: who looked and signs off."),
    file: list[str] = typer.Option(None, "--file", help="Only this image (repeatable)."),
    remake: bool = typer.Option(False, "--remake", help="Ask for a new image instead."),
    notes: str = typer.Option("", "--notes", help="What you saw, or why it needs remaking."),
) -> None:
    """Record a named person's sign-off of images, tied to each image's sha256."""
    from claims_corpus import resolve_packs
    from claims_corpus import sign_off as record

    with reported_errors():
        signed = record(resolve_packs(packs), by, files=file or None,
                        verdict="remake" if remake else "ok", notes=notes)
    for s in signed:
        was = f" (replaces {s.replaced.name}, {s.replaced.date})" if s.replaced else ""
        typer.echo(f"{s.pack_id}/{s.file}: {'remake' if remake else 'ok'} by {by.strip()} "
                   f"sha256 {s.sha256[:12]}{was}")
    typer.echo(f"{len(signed)} image(s) signed off")


@corpus_app.command("blind-look")
def blind_look(
    packs: list[Path] = typer.Argument(None, help="Pack folders or corpus folders "
                                       "(default: packs/)."),
    base_url: str = typer.Option(None, "--base-url", help="OpenAI-compatible endpoint "
                                 "(or CLAIMS_HARNESS_VISION_BASE_URL)."),
    model: str = typer.Option(None, "--model", help="Vision model, the one the product uses "
                              "(or CLAIMS_HARNESS_VISION_MODEL)."),
    api_key: str = typer.Option(None, "--api-key", help="API key (or "
                                "CLAIMS_HARNESS_VISION_API_KEY); never written anywhere."),
    file: list[str] = typer.Option(None, "--file", help="Only this image (repeatable)."),
    concurrency: int = typer.Option(4, "--concurrency", min=1, help="Images in flight."),
    timeout_s: float = typer.Option(60.0, "--timeout", help="Seconds per request."),
    retries: int = typer.Option(2, "--retries", min=0, help="Retries per image."),
) -> None:
    """Show each image alone to a vision model; list those whose description misses the
    subject. Exit 1 if any does, 2 if the endpoint failed on any image."""
    import asyncio

    from claims_corpus import VisionSettings, resolve_packs
    from claims_corpus import blind_look as look

    with reported_errors():
        settings = VisionSettings.from_options(base_url=base_url, model=model, api_key=api_key,
                                               concurrency=concurrency, timeout_s=timeout_s,
                                               max_retries=retries)
        report = asyncio.run(look(resolve_packs(packs or [DEFAULT_CORPUS]), settings,
                                  files=file or None))
    for item in report.looks:
        where = f"{item.item.pack_id}/{item.item.file}"
        if item.error:
            typer.echo(f"{where}: FAILED {item.error}")
        elif item.remake:
            typer.echo(f"{where}: REMAKE? the description misses {', '.join(item.missing)}: "
                       f"\"{item.seen}\"")
        else:
            typer.echo(f"{where}: mentions the subject")
    n_remake, n_failed = len(report.remake), len(report.failed)
    typer.echo(f"{len(report.looks)} image(s) looked at, {n_remake} to remake, "
               f"{n_failed} failed")
    if n_failed:
        raise typer.Exit(2)
    if n_remake:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.add_typer(corpus_app, name="corpus")
