"""Commands: seed (serve the seed route standalone beside any product).

Secrets (the seed token, the S3 secret key) come only from the environment: a command line is
visible to every user of the machine.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
from pathlib import Path

import typer

from ._errors import no_password_in_uri, reported_errors

_P = "CLAIMS_HARNESS_"

seed_app = typer.Typer(help="The seed route: reset a lane to a pack's setup, dump its state.",
                       no_args_is_help=True)


@seed_app.command("serve")
def serve(
    mongo_uri: str | None = typer.Option(None, help="MongoDB URI without a password (default: "
                                  "CLAIMS_HARNESS_MONGO_URI, else an embedded store is started).",
                                  callback=no_password_in_uri),
    s3_endpoint: str | None = typer.Option(None, help="S3 endpoint URL (default: "
                                    "CLAIMS_HARNESS_S3_ENDPOINT, else an embedded store)."),
    s3_access_key: str | None = typer.Option(None, help="S3 access key (the secret key comes from "
                                      "CLAIMS_HARNESS_S3_SECRET_KEY)."),
    database: str | None = typer.Option(None, help="Database of this lane (default claims_dev)."),
    bucket: str | None = typer.Option(None, help="Bucket of this lane (default claims-dev)."),
    baseline: Path | None = typer.Option(None, help="Baseline JSON restored before every pack."),
    allowed_db_pattern: str | None = typer.Option(None, help="Regex a database name must match."),
    host: str = typer.Option("127.0.0.1", help="Interface to bind (loopback by default)."),
    port: int = typer.Option(8790, help="Port to listen on."),
) -> None:
    """Serve the seed route at /_harness/seed until interrupted.

    The bearer token is CLAIMS_HARNESS_SEED_TOKEN; without it a random token is printed."""
    import uvicorn

    from claims_dev import start_stores
    from seed import S3Config, SeedSettings, create_seed_app

    env = os.environ
    mongo_uri = mongo_uri or env.get("CLAIMS_HARNESS_MONGO_URI") or None
    s3_endpoint = s3_endpoint or env.get("CLAIMS_HARNESS_S3_ENDPOINT") or None
    token = env.get(_P + "SEED_TOKEN") or None
    generated = token is None
    with reported_errors():
        s3 = None
        if s3_endpoint:
            s3 = S3Config(endpoint=s3_endpoint)
            s3.access_key = s3_access_key or env.get(_P + "S3_ACCESS_KEY") or s3.access_key
            s3.secret_key = env.get(_P + "S3_SECRET_KEY") or s3.secret_key
        stores = start_stores(mongo_uri, s3)
        try:
            settings = SeedSettings.from_env(
                enabled=True, token=secrets.token_urlsafe(24) if generated else token,
                mongo_uri=stores.mongo_uri, s3_endpoint=stores.s3.endpoint,
                s3_access_key=stores.s3.access_key, s3_secret_key=stores.s3.secret_key,
                database=database, bucket=bucket, baseline_path=baseline,
                allowed_db_pattern=allowed_db_pattern, host=host,
            )
            app = create_seed_app(settings)
            if host not in ("127.0.0.1", "localhost", "::1"):
                typer.secho(f"warning: the seed route listens on {host}, not only on loopback",
                            err=True, fg=typer.colors.YELLOW)
            typer.echo(f"seed route  http://{host}:{port}/_harness/seed")
            typer.echo(f"MongoDB     {settings.mongo_uri} (database {settings.database})")
            typer.echo(f"S3          {settings.s3_endpoint} (bucket {settings.bucket})")
            if generated:
                typer.echo(f"token       {settings.token}")
            # uvicorn re-raises the stop signal after its graceful shutdown; turn it into an
            # exception here so the stores started above are stopped too.
            previous = signal.signal(signal.SIGTERM, _raise_interrupt)
            try:
                uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)
            except KeyboardInterrupt:
                pass
            finally:
                signal.signal(signal.SIGTERM, previous)
        finally:
            stores.close()
        typer.echo("stopped")


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _route(url: str | None):
    from claims_records import SeedError
    from seed import SeedClient

    url = url or os.environ.get(_P + "LANE1_SEED_URL")
    if not url:
        raise SeedError("give --url (or CLAIMS_HARNESS_LANE1_SEED_URL, as written by "
                        "`claims-harness dev up`)")
    return SeedClient(url, os.environ.get(_P + "SEED_TOKEN"))


_URL = typer.Option(None, help="Seed route URL (default: CLAIMS_HARNESS_LANE1_SEED_URL). The "
                    "token is CLAIMS_HARNESS_SEED_TOKEN.")


@seed_app.command("reset")
def reset(pack_dir: Path = typer.Argument(..., help="Pack folder holding setup.json."),
          url: str = _URL) -> None:
    """Reset a lane to the baseline and load one pack's setup through its seed route."""
    from claims_corpus import load_setup, setup_files

    with reported_errors():
        setup = load_setup(pack_dir)
        with _route(url) as client:
            result = client.reset(setup.model_dump(mode="json"), setup_files(pack_dir, setup))
    typer.echo(json.dumps(result, indent=2, sort_keys=True))


@seed_app.command("state")
def state(url: str = _URL,
          out: Path = typer.Option(None, help="Write the dump here instead of printing it.")
          ) -> None:
    """Dump a lane's state (every collection and object) as JSON."""
    with reported_errors(), _route(url) as client:
        text = client.state().model_dump_json(indent=2) + "\n"
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {out}")


@seed_app.command("diff")
def diff(before: Path = typer.Argument(..., help="Earlier state dump (JSON)."),
         after: Path = typer.Argument(..., help="Later state dump (JSON)."),
         vary: list[str] = typer.Option([], "--vary",
                                        help="Field pattern allowed to change (repeatable).")
         ) -> None:
    """Print what changed between two state dumps."""
    from seed import diff_states, load_state_dump

    with reported_errors():
        result = diff_states(load_state_dump(before), load_state_dump(after), vary=vary)
    typer.echo(result.model_dump_json(indent=2))


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.add_typer(seed_app, name="seed")
