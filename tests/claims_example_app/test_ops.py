"""Kestrel's operations endpoints: the fixtures reset (off by default, keyed, all-or-nothing),
health, and the runtime report with its nested agent mode."""

from __future__ import annotations

import base64

import pytest

from .conftest import OPS_KEY

KEY = {"X-Ops-Key": OPS_KEY}
FIXTURES = {"cover": [{"_id": "c1", "policyRef": "NWF-POL-1", "product": "MOTOR"}],
            "policyholders": [{"_id": "h1", "fullName": "Sam"}]}
BLOB = {"key": "seed/letter.pdf", "content_type": "application/pdf",
        "base64": base64.b64encode(b"%PDF-1.4 letter").decode()}


def state(k) -> dict:
    """Every document of every collection, and every object key."""
    colls = {n: sorted(k.db[n].find(), key=lambda d: str(d["_id"]))
             for n in sorted(k.db.list_collection_names())}
    return {"collections": colls, "files": sorted(k.apps.store.file_keys())}


@pytest.fixture
def loaded(kestrel):
    kestrel.load("first", {"cover": [{"_id": "old", "policyRef": "NWF-POL-0"}],
                           "anything_else": [{"_id": 1, "x": 1}]},
                 [{"key": "old/file.jpg", "content_type": "image/jpeg",
                   "base64": base64.b64encode(b"\xff\xd8\xffold").decode()}])
    kestrel.client.get("/api/thread")  # a conversation the reset must remove
    return kestrel


def test_reset_empties_every_data_collection_and_the_bucket_then_loads(loaded):
    k = loaded
    r = k.client.post("/ops/fixtures", headers=KEY,
                      json={"label": "CTL-X-001", "fixtures": FIXTURES, "blobs": [BLOB]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["label"] == "CTL-X-001"
    assert body["loaded"] == {"cover": 1, "policyholders": 1} and body["files"] == 1
    assert body["cleared"] == {"documents": 4, "files": 1}  # old cover, x, conversation, event
    assert body["took_ms"] >= 0 and body["at"].endswith("Z")
    after = state(k)
    non_empty = {n: docs for n, docs in after["collections"].items() if docs}
    assert non_empty == {"cover": FIXTURES["cover"], "policyholders": FIXTURES["policyholders"]}
    assert after["files"] == ["seed/letter.pdf"]
    assert k.apps.store.read_file("seed/letter.pdf") == b"%PDF-1.4 letter"


@pytest.mark.parametrize(("headers", "body", "status", "reason"), [
    ({}, {"label": "x"}, 401, "ops_key"),
    ({"X-Ops-Key": "wrong"}, {"label": "x"}, 401, "ops_key"),
    (KEY, {"label": "x", "extra": 1}, 400, "bad_body"),
    (KEY, {"fixtures": {}}, 400, "bad_body"),
    (KEY, {"label": "x", "fixtures": {"cover": [{"policyRef": "no id"}]}}, 400, "missing_id"),
    (KEY, {"label": "x", "fixtures": {"cover": [{"_id": 1}, {"_id": 1}]}}, 400, "duplicate_id"),
    (KEY, {"label": "x", "fixtures": {"system.users": [{"_id": 1}]}}, 400, "bad_collection"),
    (KEY, {"label": "x", "fixtures": {"kestrel_meta": [{"_id": 1}]}}, 400, "bad_collection"),
    (KEY, {"label": "x", "blobs": [{**BLOB, "base64": "not base64!"}]}, 400, "bad_base64"),
    (KEY, {"label": "x", "blobs": [{**BLOB, "key": "../escape"}]}, 400, "bad_key"),
])
def test_a_refused_reset_changes_nothing(loaded, headers, body, status, reason):
    before = state(loaded)
    r = loaded.client.post("/ops/fixtures", headers=headers, json=body)
    assert r.status_code == status, r.text
    assert r.json()["error"]["reason"] == reason and r.json()["error"]["message"]
    assert state(loaded) == before


def test_a_body_that_is_not_json_is_refused(loaded):
    before = state(loaded)
    r = loaded.client.post("/ops/fixtures", headers={**KEY, "content-type": "application/json"},
                           content=b"{not json")
    assert r.status_code == 400 and r.json()["error"]["reason"] == "bad_body"
    assert state(loaded) == before


def test_a_database_marked_production_is_never_reset(loaded):
    loaded.db.kestrel_meta.insert_one({"_id": "environment", "kind": "production"})
    before = state(loaded)
    r = loaded.client.post("/ops/fixtures", headers=KEY, json={"label": "x", "fixtures": FIXTURES})
    assert r.status_code == 409 and r.json()["error"]["reason"] == "production"
    assert state(loaded) == before


def test_reset_is_off_unless_enabled(make_kestrel):
    k = make_kestrel(ops_reset=False)
    k.db.cover.insert_one({"_id": "keep"})
    r = k.client.post("/ops/fixtures", headers=KEY, json={"label": "x", "fixtures": FIXTURES})
    assert r.status_code == 404 and r.json()["error"]["reason"] == "disabled"
    assert list(k.db.cover.find()) == [{"_id": "keep"}]


def test_reset_without_a_configured_key_refuses_every_key(make_kestrel):
    k = make_kestrel(ops_key=None)
    r = k.client.post("/ops/fixtures", headers={"X-Ops-Key": ""}, json={"label": "x"})
    assert r.status_code == 401


def test_health_checks_both_stores(kestrel, make_kestrel):
    assert kestrel.client.get("/ops/health").json() == {
        "status": "ok", "checks": {"database": "ok", "storage": "ok"}}
    broken = make_kestrel(s3_endpoint="http://127.0.0.1:9")
    r = broken.client.get("/ops/health")
    assert r.status_code == 503 and r.json()["checks"]["storage"].startswith("unreachable")


def test_about_reports_the_agent_mode_nested_and_needs_the_key(kestrel, make_kestrel):
    assert kestrel.client.get("/ops/about").status_code == 401
    about = kestrel.client.get("/ops/about", headers=KEY).json()
    assert about["service"]["agent"]["mode"] == "rules"
    assert about["service"]["name"] == "kestrel-claims"
    assert about["build"].startswith("kestrel-claims ")
    assert about["internal"]["node"].endswith(".internal")
    open_about = make_kestrel(ops_key=None).client.get("/ops/about")
    assert open_about.status_code == 200
    assert open_about.json()["service"]["agent"]["mode"] == "rules"


def test_no_state_dump_and_no_api_docs(kestrel):
    for path in ("/ops/state", "/_harness/seed/state", "/docs", "/openapi.json"):
        assert kestrel.client.get(path, headers=KEY).status_code == 404, path
