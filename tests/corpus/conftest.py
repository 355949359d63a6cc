"""Fixtures: a private one-pack corpus (CTL-M-001) that a test may break."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import corpus

REPO = Path(__file__).resolve().parents[2]
PACKS = REPO / "packs"
PACK_ID = "CTL-M-001"


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """packs/ with only CTL-M-001, its baseline and a manifest brought up to date."""
    root = tmp_path / "packs"
    root.mkdir()
    for name in ("baseline.json", "manifest.json"):
        shutil.copy2(PACKS / name, root / name)
    shutil.copytree(PACKS / PACK_ID, root / PACK_ID)
    corpus.update_manifest(root)
    return root


@pytest.fixture
def pack_copy(corpus_copy: Path) -> Path:
    return corpus_copy / PACK_ID
