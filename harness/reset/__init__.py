"""Resetting a product before each trial and reading its state: the adapters a profile
chooses (``_adapters``), the product's own clearing command (``_command``) and endpoint body
(``_template``), and its own stores as the profile names them, through the store layer
(``_stores``)."""

from pathlib import Path

import claims_corpus
from claims_corpus.formats import Setup

from ._adapters import (
    CommandThenStores,
    Credentials,
    EndpointResetAdapter,
    EndpointThenStores,
    ResetAdapter,
    ResetOutcome,
    SeedRouteReset,
    StoresReset,
    corpus_baseline,
    make_reset,
)
from ._command import run_clear_command
from ._errors import ProductResetError
from ._stores import lane_variables, open_stores, redact_lane_secrets
from ._template import fill_template


def setup_and_files(pack_dir: Path) -> tuple[Setup, dict[str, bytes]]:
    """The pack's setup and the files it loads (read through ``corpus``)."""
    setup = claims_corpus.load_setup(pack_dir)
    return setup, claims_corpus.setup_files(pack_dir, setup)


__all__ = [
    "CommandThenStores",
    "Credentials",
    "EndpointResetAdapter",
    "EndpointThenStores",
    "ProductResetError",
    "ResetAdapter",
    "ResetOutcome",
    "SeedRouteReset",
    "StoresReset",
    "corpus_baseline",
    "fill_template",
    "lane_variables",
    "make_reset",
    "open_stores",
    "redact_lane_secrets",
    "run_clear_command",
    "setup_and_files",
]
