"""Fixtures: a private one-pack corpus (CTL-M-001) that a test may break."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKS = REPO / "packs"
PACK_ID = "CTL-M-001"


@pytest.fixture
def pack_copy(corpus_copy: Path) -> Path:
    return corpus_copy / PACK_ID
