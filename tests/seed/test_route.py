"""The seed route's security and contract, through FastAPI's TestClient."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from claims_records import SeedError
from seed import (
    ENVIRONMENT_COLLECTION,
    SeedSettings,
    create_seed_app,
    create_seed_router,
    dump_state,
)

from ..pymongo_threads import pymongo_threads, still_running
from .conftest import LaneStores, make_baseline, make_setup_a, make_setup_b

TOKEN = "route-test-token"


@pytest.fixture(scope="module")
def baseline_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("baseline") / "baseline.json"
    path.write_text(make_baseline().model_dump_json())
    return path


def _settings(stores, database: str, bucket: str, baseline_path: Path | None,
              **extra) -> SeedSettings:
    values = {"enabled": True, "token": TOKEN, **extra}
    return SeedSettings(mongo_uri=stores.mongo_uri, database=database,
                        s3_endpoint=stores.s3.endpoint, s3_access_key=stores.s3.access_key,
                        s3_secret_key=stores.s3.secret_key, bucket=bucket,
                        baseline_path=baseline_path, **values)


def _body(setup, files) -> dict:
    return {"setup": setup.model_dump(mode="json"),
            "files": {k: base64.b64encode(v).decode() for k, v in files.items()}}


AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def route(stores, lane, tmp_path):
    baseline = tmp_path / "baseline.json"
    baseline.write_text('{"version": "0.2", "collections": {"staff": [{"_id": "staff-001"}]},'
                        ' "staff_credentials": {"username": "handler", "password": "p"}}')
    settings = _settings(stores, lane.db.name, lane.bucket, baseline_path=baseline)
    with TestClient(create_seed_app(settings)) as client:
        yield client


def test_reset_answers_what_the_harness_needs(route, lane):
    setup, files = make_setup_a()
    resp = route.post("/_harness/seed/reset", json=_body(setup, files), headers=AUTH)
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert set(body) == {"pack_id", "claimant_session", "customer_credentials",
                         "staff_credentials", "known_ids", "took_ms", "verified"}
    assert body["verified"] is True and body["pack_id"] == "CTL-M-001"
    assert body["staff_credentials"] == {"username": "handler", "password": "p"}
    assert body["known_ids"] == {"policy_number": "POL-1"}
    state = route.get("/_harness/seed/state", headers=AUTH).json()
    assert set(state["collections"]["staff"]) == {"staff-001"}
    assert set(state["objects"]) == {"policies/POL-1/photo.jpg", "policies/POL-1/quote.pdf"}
    health = route.get("/_harness/seed/health", headers=AUTH)
    assert health.json() == {"ok": True, "database": lane.db.name, "bucket": lane.bucket}


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong-token"},
                                     {"Authorization": TOKEN}, {"Authorization": "Bearer "}],
                         ids=["none", "wrong", "no-scheme", "empty"])
def test_missing_or_wrong_token_is_401(route, lane, headers):
    setup, files = make_setup_a()
    for method, path, kw in (("post", "reset", {"json": _body(setup, files)}),
                             ("get", "state", {}), ("get", "health", {})):
        resp = getattr(route, method)(f"/_harness/seed/{path}", headers=headers, **kw)
        assert resp.status_code == 401
        assert resp.json()["detail"]["reason"] == "unauthorized"
    assert lane.db.list_collection_names() == []


def test_database_name_not_allowed_is_refused(stores, mongo, baseline_file):
    db = mongo["claims_live"]
    db["claims"].insert_one({"_id": "keep"})
    settings = _settings(stores, "claims_live", "claims-live", baseline_file)
    with TestClient(create_seed_app(settings)) as client:
        setup, files = make_setup_a()
        resp = client.post("/_harness/seed/reset", json=_body(setup, files), headers=AUTH)
        assert resp.status_code == 403
        assert resp.json()["detail"]["reason"] == "database_not_allowed"
        assert client.get("/_harness/seed/state", headers=AUTH).status_code == 403
    assert [d["_id"] for d in db["claims"].find()] == ["keep"]
    mongo.drop_database("claims_live")


def test_allowed_pattern_is_configurable(stores, mongo, baseline_file):
    settings = _settings(stores, "claims_live", "claims-live", baseline_file,
                         allowed_db_pattern=r"claims_.*")
    with TestClient(create_seed_app(settings)) as client:
        setup, files = make_setup_a()
        resp = client.post("/_harness/seed/reset", json=_body(setup, files), headers=AUTH)
        assert resp.status_code == 200
    mongo.drop_database("claims_live")


def test_production_marker_is_refused(route, lane):
    lane.db["claims"].insert_one({"_id": "REAL-1"})
    lane.db[ENVIRONMENT_COLLECTION].insert_one({"_id": "environment", "kind": "production"})
    setup, files = make_setup_a()
    resp = route.post("/_harness/seed/reset", json=_body(setup, files), headers=AUTH)
    assert resp.status_code == 403
    assert resp.json()["detail"]["reason"] == "production_marker"
    assert [d["_id"] for d in lane.db["claims"].find()] == ["REAL-1"]
    assert "policies" not in lane.db.list_collection_names()


def _malformed_bodies():
    setup, files = make_setup_a()
    good = _body(setup, files)
    no_session = {**good, "setup": {k: v for k, v in good["setup"].items()
                                    if k != "claimant_session"}}
    yield "missing field", no_session, "setup.claimant_session"
    bad_id = {**good, "setup": {**good["setup"], "pack_id": "not-a-pack"}}
    yield "bad pack id", bad_id, "setup.pack_id"
    extra = {**good, "setup": {**good["setup"], "surprise": 1}}
    yield "unknown field", extra, "setup.surprise"
    missing_file = {**good, "files": {}}
    yield "file not supplied", missing_file, "objects[0].file"
    bad_b64 = {**good, "files": {**good["files"], "input/materials/photo.jpg": "***"}}
    yield "not base64", bad_b64, "files.input/materials/photo.jpg"
    yield "not an object", [1, 2], "body"


@pytest.mark.parametrize("case", list(_malformed_bodies()), ids=lambda c: c[0])
def test_malformed_setup_is_422_naming_the_field_and_keeps_state(route, lane, case):
    _, body, field = case
    setup, files = make_setup_b()
    assert route.post("/_harness/seed/reset", json=_body(setup, files),
                      headers=AUTH).status_code == 200
    lane.db["claims"].insert_one({"_id": "made-during-journey"})
    before = dump_state(lane.db, lane.s3, lane.bucket)

    resp = route.post("/_harness/seed/reset", json=body, headers=AUTH)

    assert resp.status_code == 422
    detail = resp.json()["detail"]
    assert detail["reason"] == "invalid_setup"
    assert detail["field"] == field
    assert field in detail["message"]
    after = dump_state(lane.db, lane.s3, lane.bucket)
    assert after.collections == before.collections and after.objects == before.objects


def test_body_that_is_not_json_is_422(route):
    resp = route.post("/_harness/seed/reset", content=b"{nope", headers=AUTH)
    assert resp.status_code == 422 and resp.json()["detail"]["field"] == "body"


def test_disabled_route_is_not_served(stores, lane):
    settings = _settings(stores, lane.db.name, lane.bucket, None, enabled=False)
    app = FastAPI()
    app.include_router(create_seed_router(settings), prefix="/_harness/seed")
    with TestClient(app) as client:
        setup, files = make_setup_a()
        for method, path in (("get", "health"), ("get", "state"), ("post", "reset")):
            kw = {"json": _body(setup, files)} if method == "post" else {}
            resp = getattr(client, method)(f"/_harness/seed/{path}", headers=AUTH, **kw)
            assert resp.status_code == 404
    assert lane.db.list_collection_names() == []


def test_enabled_without_token_is_an_error(stores, lane):
    settings = _settings(stores, lane.db.name, lane.bucket, None, token=None)
    with pytest.raises(SeedError, match="no token"):
        create_seed_router(settings)


def test_invalid_baseline_file_names_file_and_field(stores, lane, tmp_path):
    bad = tmp_path / "baseline.json"
    bad.write_text('{"version": "0.2", "collections": {"staff": "not a list"}}')
    settings = _settings(stores, lane.db.name, lane.bucket, baseline_path=bad)
    with pytest.raises(SeedError) as err:
        create_seed_router(settings)
    assert err.value.context["file"] == str(bad)
    assert err.value.context["field"] == "collections.staff"


def test_settings_from_environment():
    env = {"CLAIMS_HARNESS_SEED_ENABLED": "1", "CLAIMS_HARNESS_SEED_TOKEN": "t",
           "CLAIMS_HARNESS_DATABASE": "claims_dev_lane1", "CLAIMS_HARNESS_BUCKET": "b1"}
    s = SeedSettings.from_env(env, bucket="override")
    assert (s.enabled, s.token, s.database, s.bucket, s.host) == (
        True, "t", "claims_dev_lane1", "override", "127.0.0.1")
    assert SeedSettings.from_env({}).enabled is False
    assert SeedSettings.from_env({"CLAIMS_HARNESS_SEED_ENABLED": "0"}).enabled is False


def test_two_routes_serve_two_lanes(stores, mongo, baseline_file):
    lanes = [LaneStores(mongo[f"claims_test_route_{i}"], stores.s3, f"claims-test-route-{i}")
             for i in (1, 2)]
    packs = [make_setup_a(), make_setup_b()]
    for lane, (setup, files) in zip(lanes, packs, strict=True):
        app = create_seed_app(_settings(stores, lane.db.name, lane.bucket, baseline_file))
        with TestClient(app) as client:
            assert client.post("/_harness/seed/reset", json=_body(setup, files),
                               headers=AUTH).status_code == 200
    assert set(dump_state(lanes[0].db, stores.s3, lanes[0].bucket).collections["policies"]) == {
        "POL-1"}
    assert set(dump_state(lanes[1].db, stores.s3, lanes[1].bucket).collections["policies"]) == {
        "POL-2"}


def test_unreachable_store_is_503_store_error(stores, lane):
    from claims_dev import free_port

    settings = SeedSettings(enabled=True, token=TOKEN, mongo_uri=stores.mongo_uri,
                            database=lane.db.name, bucket=lane.bucket,
                            s3_endpoint=f"http://127.0.0.1:{free_port()}")
    with TestClient(create_seed_app(settings)) as client:
        resp = client.get("/_harness/seed/health", headers=AUTH)
        assert resp.status_code == 503
        assert resp.json()["detail"]["reason"] == "store_error"
        setup, files = make_setup_a()
        setup = setup.model_copy(update={"overrides": []})
        resp = client.post("/_harness/seed/reset", json=_body(setup, files), headers=AUTH)
        assert resp.status_code == 503
        assert "S3" in resp.json()["detail"]["message"]


def test_the_app_that_includes_the_route_closes_its_connection_when_it_stops(stores):
    settings = _settings(stores, "test_seed_lifecycle", "test-seed-lifecycle",
                         baseline_path=None)
    before = pymongo_threads()
    with TestClient(create_seed_app(settings)) as client:
        assert client.get("/_harness/seed/health", headers=AUTH).status_code == 200
        opened = pymongo_threads() - before
        assert opened  # the route connected (its monitor threads run)
    assert still_running(opened) == []
