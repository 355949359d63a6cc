"""Turn library errors into a clear message and an exit code."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import typer

from corpus.errors import HarnessError


@contextlib.contextmanager
def reported_errors(exit_code: int = 2) -> Iterator[None]:
    """Print a ``HarnessError`` as one readable line on stderr and exit with ``exit_code``."""
    try:
        yield
    except HarnessError as exc:
        typer.secho(f"error: {exc}", err=True, fg=typer.colors.RED)
        raise typer.Exit(exit_code) from exc
