"""Fixtures shared by every test package: the embedded stores (started once per session), a
private copy of the corpus that a test may break, and a headless Chromium."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pymongo
import pytest

import claims_corpus
from seed import Stores, open_stores

PACKS = Path(__file__).resolve().parents[1] / "packs"
CHROMIUM = os.environ.get("CLAIMS_HARNESS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


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
    claims_corpus.update_manifest(root)
    return root


def make_held_out(root: Path, packs: dict[str, str], prefix: str = "HLD",
                  name: str = "held-out set") -> Path:
    """A held-out corpus at ``root`` (outside the repository), as a team keeps one: its own
    manifest, id prefix and version, the public baseline, and packs copied from ``packs/``
    under new ids (``packs`` maps public id -> held-out id)."""
    import json

    root.mkdir(parents=True)
    shutil.copy2(PACKS / "baseline.json", root / "baseline.json")
    for source, target in packs.items():
        shutil.copytree(PACKS / source, root / target)
        for file in ("setup.json", "oracle/labels.json"):
            path = root / target / file
            data = json.loads(path.read_text(encoding="utf-8"))
            data["pack_id"] = target
            path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    manifest = {"version": "0.3", "id_prefix": prefix, "name": name, "corpus_version": "1.0.0",
                "frozen": False, "hashes_version": None, "packs": {},
                "changelog": [{"version": "1.0.0", "date": "2026-12-07",
                               "changes": [f"{t}: kept back from the public corpus."
                                           for t in packs.values()]}]}
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    claims_corpus.update_manifest(root)
    return root


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless system Chromium through Playwright's sync API (one per test module)."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM} (set CLAIMS_HARNESS_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
