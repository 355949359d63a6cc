"""Assemble the typer application from the command modules."""

from __future__ import annotations

import typer

from . import (
    corpus_cmd,
    dev_cmd,
    merge_cmd,
    model_cmd,
    nightly_cmd,
    profile_cmd,
    review_cmd,
    run_cmd,
    score_cmd,
    seed_cmd,
    selftest_cmd,
    simulator_cmd,
)

app = typer.Typer(
    name="claims-harness",
    help="End-to-end evaluation harness for insurance claims chat agents.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _root() -> None:
    """End-to-end evaluation harness for insurance claims chat agents."""


@app.command()
def version() -> None:
    """Print the harness version."""
    from importlib.metadata import version as _v

    typer.echo(_v("claims-journey-harness"))


corpus_cmd.register(app)
seed_cmd.register(app)
dev_cmd.register(app)
run_cmd.register(app)
merge_cmd.register(app)
model_cmd.register(app)
nightly_cmd.register(app)
profile_cmd.register(app)
score_cmd.register(app)
review_cmd.register(app)
selftest_cmd.register(app)
simulator_cmd.register(selftest_cmd.selftest_app)


def main() -> None:
    app()
