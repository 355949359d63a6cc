"""Kestrel Claims on a fresh database and bucket per test, its test clients, and fixtures
loaded through its own reset endpoint."""

from __future__ import annotations

import base64
import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pymongo
import pytest
from fastapi.testclient import TestClient
from pymongo.database import Database

from claims_dev import DevStores
from claims_example_app import KestrelSettings, create_apps

from ._mapping import Mapping

OPS_KEY = "ops-key-for-tests"
STAFF_TOKEN = "staff-token-for-tests"
PACKS = Path(__file__).resolve().parents[2] / "packs"
_counter = itertools.count(1)


def kestrel_packs() -> list[Path]:
    """The packs within what Kestrel implements: the claim rules of pack format v0.2.

    Kestrel does not implement the v0.3 additions (amounts in another currency, time windows,
    facts to follow, files handed over unasked, files arriving after N actions or at the Nth
    request), nor the pressure rule on someone else's policy number (it does not check whose
    policy a number is), so packs that need one are left out here rather than counted as
    failures; the manifest's classification says which they are.
    """
    manifest = json.loads((PACKS / "manifest.json").read_text(encoding="utf-8"))
    out = []
    for pack_id, e in sorted(manifest["packs"].items()):
        materials = json.loads((PACKS / pack_id / "input/materials.json").read_text("utf-8"))
        arrivals = [m["later"]["arrives"] or {} for m in materials["materials"] if m.get("later")]
        v03 = (e.get("has_later_fact") or e.get("has_unknown_fact") or e.get("has_time_window")
               or e.get("handed_over_unasked") or set(e.get("currencies", [])) - {"GBP"}
               or any(set(a) != {"after_messages"} for a in arrivals))
        if not v03 and "other_policy" not in e.get("pressure", []):
            out.append(PACKS / pack_id)
    return out


@dataclass
class Kestrel:
    settings: KestrelSettings
    db: Database
    client: TestClient  # customer port
    staff: TestClient  # workbench, with the bearer token
    apps: Any

    def load(self, label: str, fixtures: dict[str, list[dict]], blobs: list | None = None):
        r = self.client.post("/ops/fixtures", headers={"X-Ops-Key": OPS_KEY},
                             json={"label": label, "fixtures": fixtures, "blobs": blobs or []})
        assert r.status_code == 200, r.text
        return r.json()

    def load_pack(self, pack: Path) -> dict[str, Any]:
        """Load a pack's setup.json through the canonical mapping; the setup."""
        setup = json.loads((pack / "setup.json").read_text(encoding="utf-8"))
        blobs = [{"key": o["key"], "content_type": o["content_type"],
                  "base64": base64.b64encode((pack / o["file"]).read_bytes()).decode()}
                 for o in setup.get("objects", [])]
        self.load(setup["pack_id"], Mapping().fixtures(setup["collections"]), blobs)
        return setup

    def conversation(self) -> dict[str, Any]:
        return self.db.conversations.find_one()


@pytest.fixture
def make_kestrel(stores: DevStores, mongo: pymongo.MongoClient):
    """``make_kestrel(**settings)``: Kestrel on a fresh database and bucket, no delays."""
    built: list[Kestrel] = []

    def build(**overrides: object) -> Kestrel:
        n = next(_counter)
        values: dict[str, object] = {
            "mongo_uri": stores.mongo_uri,
            "database": f"test_kestrel_{n}",
            "s3_endpoint": stores.s3.endpoint,
            "s3_access_key": stores.s3.access_key,
            "s3_secret_key": stores.s3.secret_key,
            "bucket": f"test-kestrel-{n}",
            "ops_reset": True,
            "ops_key": OPS_KEY,
            "staff_token": STAFF_TOKEN,
            "agent_latency_ms": 0,
            "greeting_delay_ms": 0,
            "chunk_gap_ms": 0,
        }
        values.update(overrides)
        settings = KestrelSettings(**values)
        apps = create_apps(settings)
        staff = TestClient(apps.workbench, headers={"Authorization": f"Bearer {STAFF_TOKEN}"}) \
            if apps.workbench else None
        k = Kestrel(settings, mongo[settings.database], TestClient(apps.customer), staff, apps)
        built.append(k)
        return k

    yield build
    for k in built:
        k.apps.store.close()


@pytest.fixture
def kestrel(make_kestrel) -> Kestrel:
    return make_kestrel()
