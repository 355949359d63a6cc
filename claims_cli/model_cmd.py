"""Commands: model serve — the embedded model (SmolLM2-135M-Instruct), served
OpenAI-compatibly on loopback until interrupted (a thin wrapper over ``seed``)."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import typer

from ._errors import reported_errors

model_app = typer.Typer(help="The embedded model: a small real model behind a real "
                        "OpenAI-compatible server, for tests and first use.",
                        no_args_is_help=True)


@model_app.command("serve")
def serve(
    port: int = typer.Option(0, min=0, help="Port on 127.0.0.1 (0: a free one)."),
    model_path: Path | None = typer.Option(
        None, "--model-file", help="A GGUF file instead of the packaged SmolLM2."),
    instances: int | None = typer.Option(
        None, min=1, help="Model servers behind the one address, each answering one request "
        "at a time: one per lane of the runs that share it (default: one per CPU core; "
        "docs/llm-customer.md, \"Model time\")."),
    threads: int | None = typer.Option(None, min=1, help="CPU threads per server (default: "
                                       "the cores shared out between the servers; one "
                                       "server: the server's own choice)."),
    log: Path | None = typer.Option(None, help="Keep the server's log in this file."),
    chat_format: str | None = typer.Option(
        None, help="llama-cpp-python's chat format (default: the model file's own template, "
        "which answers OpenAI tools in prose); chatml-function-calling makes tool calls, for "
        "a product agent such as the reference app's model runtime."),
) -> None:
    """Start the model's server, print its base URL and model name, stop it on Ctrl-C."""
    from claims_dev import cpu_cores, signals_ignored_while_stopping, start_model_server

    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        with reported_errors():
            server = start_model_server(instances=instances or cpu_cores(), port=port or None,
                                        model_path=model_path, threads=threads, log=log,
                                        chat_format=chat_format)
        model = server.model
        try:
            typer.echo(f"model     {model.model} ({model.model_file})")
            typer.echo(f"servers   {server.instances}"
                       + (f", {server.threads} thread(s) each" if server.threads else ""))
            typer.echo(f"base URL  {model.base_url}")
            typer.echo(f"use it    claims-harness run --customer llm --llm-base-url "
                       f"{model.base_url} --llm-model {model.model}")
            typer.echo("ready; press Ctrl-C to stop")
            try:
                while not stop.wait(0.5):
                    if server.ended() is not None:
                        typer.secho("error: a model server ended", err=True,
                                    fg=typer.colors.RED)
                        raise typer.Exit(1)
            except KeyboardInterrupt:
                pass
        finally:
            with signals_ignored_while_stopping():
                server.stop()
            typer.echo("stopped")
    finally:
        signal.signal(signal.SIGTERM, previous)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.add_typer(model_app, name="model")
