"""The ``claims-harness`` command line: a thin typer layer over the packages.

Each sub-module registers its commands; none holds logic of its own beyond parsing
options, calling the library and turning ``HarnessError`` into a clear message and exit code.
"""

from __future__ import annotations

from .app import app, main

__all__ = ["app", "main"]
