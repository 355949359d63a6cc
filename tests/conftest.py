"""Fixtures shared by every test package: the embedded stores (started once per session) and
a private copy of the corpus that a test may break."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pymongo
import pytest

import corpus
from seed import Stores, open_stores

PACKS = Path(__file__).resolve().parents[1] / "packs"


@pytest.fixture(scope="session")
def stores() -> Iterator[Stores]:
    """Embedded MongoDB (SecantusDB) and S3 (moto) on free loopback ports."""
    with open_stores() as s:
        yield s


@pytest.fixture(scope="session")
def mongo(stores: Stores) -> Iterator[pymongo.MongoClient]:
    client = pymongo.MongoClient(stores.mongo_uri)
    yield client
    client.close()


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """packs/ with only CTL-M-001, its baseline and a manifest brought up to date."""
    root = tmp_path / "packs"
    root.mkdir()
    for name in ("baseline.json", "manifest.json"):
        shutil.copy2(PACKS / name, root / name)
    shutil.copytree(PACKS / "CTL-M-001", root / "CTL-M-001")
    corpus.update_manifest(root)
    return root
