"""Commands: dev (start a local development environment and keep it up until interrupted)."""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

import typer

from ._errors import reported_errors

dev_app = typer.Typer(help="Local development environment: stores, product, seed route.",
                      no_args_is_help=True)


@dev_app.command("up")
def up(
    lanes: int = typer.Option(1, min=1, help="Number of lanes (own database and bucket each)."),
    no_app: bool = typer.Option(False, "--no-app",
                                help="Serve only the seed route per lane, no reference app."),
    runtime: str = typer.Option("reference", help="reference | controlled | model"),
    model: str = typer.Option(
        "auto", help="With --runtime model, where the app's model answers: auto (the embedded "
        "model unless CLAIMS_APP_MODEL_BASE_URL is set) | local (the embedded model, started "
        "and stopped with the rest) | env (the CLAIMS_APP_MODEL_* variables)."),
    fault: list[str] = typer.Option([], "--fault", help="Fault switch for the reference app."),
    env_file: Path = typer.Option(Path(".claims-harness.env"),
                                  help="Where to write the environment variables (and their "
                                  "PowerShell form, the same name + .ps1)."),
    stack_file: Path = typer.Option(None, help="Where to write the running stack for "
                                    "`claims-harness run` (default: .claims-harness.stack.json "
                                    "beside the env file; removed on stop)."),
    mongo_uri: str = typer.Option(None, help="Use this MongoDB instead of an embedded one."),
    s3_endpoint: str = typer.Option(None, help="Use this S3 endpoint instead of an embedded one."),
    s3_access_key: str = typer.Option(None, help="S3 access key (with --s3-endpoint; the "
                                      "secret key comes from CLAIMS_HARNESS_S3_SECRET_KEY)."),
    baseline: Path = typer.Option(None, help="Baseline JSON (default packs/baseline.json)."),
    log_dir: Path = typer.Option(None, help="Keep the logs of started processes in this "
                                 "folder (default: a temporary one, removed on stop)."),
) -> None:
    """Start what is missing, print every URL, write the env file, stop all on Ctrl-C."""
    import harness
    from claims_dev import start_dev
    from claims_records import DEV_STACK_FILE
    from seed import S3Config

    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with reported_errors():
        s3 = None
        if s3_endpoint:
            s3 = S3Config(endpoint=s3_endpoint)
            s3.access_key = s3_access_key or s3.access_key
            s3.secret_key = os.environ.get("CLAIMS_HARNESS_S3_SECRET_KEY") or s3.secret_key
        kwargs: dict[str, Any] = {} if baseline is None else {"baseline_path": baseline}
        env = start_dev(lanes=lanes, app=not no_app, runtime=runtime, faults=fault,
                        mongo_uri=mongo_uri, s3=s3, log_dir=log_dir, model=model, **kwargs)
        try:
            path = env.write_env_file(env_file)
            ps1 = harness.write_powershell_env(env.env_vars(), f"{env_file}.ps1")
            stack_file = stack_file or env_file.parent / DEV_STACK_FILE
            stack = harness.write_stack_file(harness.stack_record(env, path), stack_file)
            for line in env.describe():
                typer.echo(line)
            typer.echo(f"env file  {path.resolve()}")
            typer.echo(f"          {ps1.resolve()} (PowerShell)")
            typer.echo(f"stack     {stack.resolve()}")
            for line in harness.next_steps(sys.argv[0], Path.cwd(), stack):
                typer.echo(line)
            typer.echo("ready; press Ctrl-C to stop", err=False)
            try:
                while not stop.wait(0.5):
                    pass
            except KeyboardInterrupt:
                pass
        finally:
            if stack_file is not None:
                harness.remove_stack_file(stack_file)
            env.close()
            signal.signal(signal.SIGTERM, previous)
            typer.echo("stopped")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.add_typer(dev_app, name="dev")
