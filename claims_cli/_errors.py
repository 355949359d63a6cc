"""Turn library errors into a clear message and an exit code; refuse secrets on the command
line."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from urllib.parse import urlsplit

import typer

from claims_records import HarnessError


@contextlib.contextmanager
def reported_errors(exit_code: int = 2) -> Iterator[None]:
    """Print a ``HarnessError`` as one readable line on stderr and exit with ``exit_code``."""
    try:
        yield
    except HarnessError as exc:
        typer.secho(f"error: {exc}", err=True, fg=typer.colors.RED)
        raise typer.Exit(exit_code) from exc


def no_password_in_uri(uri: str | None) -> str | None:
    """Typer callback: a URI holding a password is refused (a command line is visible to every
    user of the machine); such a URI belongs in CLAIMS_HARNESS_MONGO_URI."""
    if uri and urlsplit(uri).password:
        raise typer.BadParameter("a URI holding a password is not taken on the command line; "
                                 "set CLAIMS_HARNESS_MONGO_URI instead")
    return uri
