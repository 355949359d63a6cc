"""Fixtures: a private copy of the committed corpus that a test may break."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKS = REPO / "packs"
PACK_ID = "CTL-M-001"


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """A copy of packs/ (manifest, baseline, every pack) under tmp."""
    root = tmp_path / "packs"
    shutil.copytree(PACKS, root, ignore=shutil.ignore_patterns("schema"))
    return root


@pytest.fixture
def pack_copy(corpus_copy: Path) -> Path:
    return corpus_copy / PACK_ID
