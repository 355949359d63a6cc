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
    name: str = typer.Option(None, "--name", help="Start a stack beside another one in this "
                             "folder: its files are .claims-harness-NAME.env (+ .ps1) and "
                             ".claims-harness-NAME.stack.json, its databases "
                             "claims_dev_NAME_lane<N>."),
    env_file: Path = typer.Option(None, help="Where to write the environment variables (and "
                                  "their PowerShell form, the same name + .ps1); default "
                                  ".claims-harness.env (.claims-harness-NAME.env with --name)."),
    stack_file: Path = typer.Option(None, help="Where to write the running stack for "
                                    "`claims-harness run` (default: .claims-harness.stack.json "
                                    "beside the env file, .claims-harness-NAME.stack.json with "
                                    "--name; removed on stop, kept marked dead when a process "
                                    "of the stack died)."),
    mongo_uri: str = typer.Option(None, help="Use this MongoDB instead of an embedded one."),
    s3_endpoint: str = typer.Option(None, help="Use this S3 endpoint instead of an embedded one."),
    s3_access_key: str = typer.Option(None, help="S3 access key (with --s3-endpoint; the "
                                      "secret key comes from CLAIMS_HARNESS_S3_SECRET_KEY)."),
    baseline: Path = typer.Option(None, help="Baseline JSON (default packs/baseline.json)."),
    log_dir: Path = typer.Option(None, help="Keep the logs of started processes in this "
                                 "folder (default: a temporary one, removed on stop; kept "
                                 "when a process died)."),
) -> None:
    """Start what is missing, print every URL, write the env file, stop all on Ctrl-C.

    One stack per stack file: a second `dev up` for the same file is refused while the first
    runs. A process of the stack that ends is reported at once (which one, how); the stack
    file is marked dead, the rest stopped, and the exit code is 3.
    """
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        with reported_errors():
            died = _up(stop, lanes, no_app, runtime, model, fault, name, env_file, stack_file,
                       mongo_uri, s3_endpoint, s3_access_key, baseline, log_dir)
    finally:
        signal.signal(signal.SIGTERM, previous)
    if died:
        raise typer.Exit(DIED_EXIT_CODE)


DIED_EXIT_CODE = 3  # a process of the stack ended while dev up served it


def _up(stop: threading.Event, lanes: int, no_app: bool, runtime: str, model: str,
        fault: list[str], name: str | None, env_file: Path | None, stack_file: Path | None,
        mongo_uri: str | None, s3_endpoint: str | None, s3_access_key: str | None,
        baseline: Path | None, log_dir: Path | None) -> bool:
    """Claim the stack file, start the stack, serve it until ``stop`` (or Ctrl-C) or until
    one of its processes ends; True in that last case."""
    import harness
    from claims_dev import DEFAULT_DATABASE, check_dev_options, start_dev
    from seed import S3Config

    env_file, stack_file = harness.stack_paths(name, env_file, stack_file)
    s3 = None
    if s3_endpoint:
        s3 = S3Config(endpoint=s3_endpoint)
        s3.access_key = s3_access_key or s3.access_key
        s3.secret_key = os.environ.get("CLAIMS_HARNESS_S3_SECRET_KEY") or s3.secret_key
    kwargs: dict[str, Any] = {} if baseline is None else {"baseline_path": baseline}
    if name is not None:  # its own databases, in case the stores are shared
        kwargs["database"] = f"{DEFAULT_DATABASE}_{name}"
    check_dev_options(lanes, not no_app, runtime, model=model,
                      database=kwargs.get("database", DEFAULT_DATABASE))
    # The claim comes before anything starts: a second dev up for this file stops here,
    # having started and overwritten nothing.
    harness.claim_stack_file(harness.starting_record(env_file, not no_app, runtime),
                             stack_file)
    try:
        env = start_dev(lanes=lanes, app=not no_app, runtime=runtime, faults=fault,
                        mongo_uri=mongo_uri, s3=s3, log_dir=log_dir, model=model, **kwargs)
    except BaseException:
        harness.remove_stack_file(stack_file)
        raise
    ended: list[str] = []
    try:
        path = env.write_env_file(env_file)
        ps1 = harness.write_powershell_env(env.env_vars(), f"{env_file}.ps1")
        record = harness.stack_record(env, path)
        harness.write_stack_file(record, stack_file)
        for line in env.describe():
            typer.echo(line)
        typer.echo(f"env file  {path.resolve()}")
        typer.echo(f"          {ps1.resolve()} (PowerShell)")
        typer.echo(f"stack     {stack_file.resolve()}")
        for line in harness.next_steps(sys.argv[0], Path.cwd(), stack_file):
            typer.echo(line)
        typer.echo("ready; press Ctrl-C to stop", err=False)
        try:
            while not ended and not stop.wait(0.5):
                ended = env.ended()
        except KeyboardInterrupt:
            pass
        if ended:
            env.keep_logs = True
            harness.mark_stack_dead(record, "; ".join(ended), stack_file)
            typer.secho(f"error: {'; '.join(ended)}: the stack is dead, stopping the rest; "
                        f"{stack_file.resolve()} says so (run refuses it); logs kept in "
                        f"{env.log_dir}; exit code {DIED_EXIT_CODE}", err=True,
                        fg=typer.colors.RED)
    finally:
        if not ended:
            harness.remove_stack_file(stack_file)
        env.close()
        typer.echo("stopped")
    return bool(ended)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.add_typer(dev_app, name="dev")
