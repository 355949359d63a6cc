"""What the seed route refuses to touch: database names, production markers, bucket names."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from claims_records import SeedError
from seed import (
    ENVIRONMENT_COLLECTION,
    SeedSettings,
    check_bucket_name,
    check_database_allowed,
    create_seed_app,
    dump_state,
    reset_and_load,
)

from .conftest import make_baseline, make_setup_a

ALLOWED = ["claims_dev_lane1", "claims-test", "harness", "claims_e2e2", "TEST_claims",
           "claims_test_17", "ci", "claims-sandbox", "dev2"]
REFUSED = ["latest_claims", "contest", "devices", "claims_live", "production", "testimony",
           "claims_prod", "devtest", "claims.test", "claims test", "admin", "local", "config",
           "", "x" * 64, "claims/dev", "dev$"]


@pytest.mark.parametrize("name", ALLOWED)
def test_test_database_names_are_allowed(name):
    check_database_allowed(name)


@pytest.mark.parametrize("name", REFUSED)
def test_other_database_names_are_refused(name):
    with pytest.raises(SeedError) as err:
        check_database_allowed(name)
    assert err.value.context["reason"] == "database_not_allowed"


def test_a_custom_pattern_matches_the_whole_name():
    check_database_allowed("claims_live", r"claims_.*")
    with pytest.raises(SeedError):
        check_database_allowed("old_claims_live", r"claims_.*")
    with pytest.raises(SeedError):  # a pattern cannot unlock a system database
        check_database_allowed("admin", r".*")


@pytest.mark.parametrize("bucket", ["192.168.5.4", "10.0.0.1", "999.1.1.1", "ab", "Claims-dev",
                                    "claims_dev", "a..b", "a.-b", "a-.b", "-claims", "claims-",
                                    "xn--claims", "sthree-claims", "claims-s3alias",
                                    "claims--ol-s3", "claims.mrap", "c" * 64, ""])
def test_bucket_names_s3_refuses_are_refused(bucket):
    with pytest.raises(SeedError) as err:
        check_bucket_name(bucket)
    assert err.value.context["field"] == "bucket"


@pytest.mark.parametrize("bucket", ["claims-dev-lane1", "abc", "claims.dev", "1claims"])
def test_valid_bucket_names_pass(bucket):
    check_bucket_name(bucket)


@pytest.mark.parametrize("marker", [
    {"_id": "environment", "kind": "production"},
    {"_id": "environment", "kind": "Production"},
    {"_id": "environment", "kind": " PRODUCTION "},
    {"_id": "environment", "kind": "prod"},
    {"_id": "environment", "kind": "Live"},
    {"_id": "environment", "kind": ["staging", "production"]},
    {"_id": "env-marker", "kind": "production"},
], ids=lambda m: repr(m["kind"]) + ("" if m["_id"] == "environment" else " other id"))
def test_production_markers_are_refused_in_any_spelling(lane, marker):
    lane.db["claims"].insert_one({"_id": "REAL-1"})
    lane.db[ENVIRONMENT_COLLECTION].insert_one(marker)
    before = dump_state(lane.db, lane.s3, lane.bucket).collections
    setup, files = make_setup_a()
    with pytest.raises(SeedError) as err:
        reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), setup, files)
    assert err.value.context["reason"] == "production_marker"
    assert dump_state(lane.db, lane.s3, lane.bucket).collections == before


def test_a_marker_in_a_differently_cased_collection_counts(lane):
    lane.db["_Environment"].insert_one({"_id": "environment", "kind": "production"})
    setup, files = make_setup_a()
    with pytest.raises(SeedError) as err:
        reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), setup, files)
    assert err.value.context["reason"] == "production_marker"


@pytest.mark.parametrize("kind", ["development", "test", "productionish", None])
def test_other_environment_kinds_do_not_block(lane, kind):
    lane.db[ENVIRONMENT_COLLECTION].insert_one({"_id": "environment", "kind": kind})
    setup, files = make_setup_a()
    assert reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), setup,
                          files).verified


@pytest.mark.parametrize("bucket", ["192.168.5.4", "xn--lane"])
def test_route_on_an_invalid_bucket_answers_4xx_json(stores, lane, bucket):
    settings = SeedSettings(enabled=True, token="guard-token", mongo_uri=stores.mongo_uri,
                            database=lane.db.name, s3_endpoint=stores.s3.endpoint,
                            bucket=bucket)
    auth = {"Authorization": "Bearer guard-token"}
    setup, _ = make_setup_a()
    body = {"setup": setup.model_copy(update={"objects": []}).model_dump(mode="json")}
    with TestClient(create_seed_app(settings)) as client:
        for resp in (client.post("/_harness/seed/reset", json=body, headers=auth),
                     client.get("/_harness/seed/state", headers=auth)):
            assert resp.status_code == 403
            assert resp.json()["detail"]["reason"] == "invalid_settings"
            assert resp.json()["detail"]["field"] == "bucket"
    assert lane.db.list_collection_names() == []


@pytest.mark.parametrize("database", ["latest_claims", "Production"])
def test_route_on_a_database_not_named_for_tests_answers_403(stores, mongo, database):
    db = mongo[database]
    db["claims"].insert_one({"_id": "keep"})
    settings = SeedSettings(enabled=True, token="guard-token", mongo_uri=stores.mongo_uri,
                            database=database, s3_endpoint=stores.s3.endpoint,
                            bucket="claims-guard")
    auth = {"Authorization": "Bearer guard-token"}
    setup, _ = make_setup_a()
    body = {"setup": setup.model_copy(update={"objects": []}).model_dump(mode="json")}
    with TestClient(create_seed_app(settings)) as client:
        resp = client.post("/_harness/seed/reset", json=body, headers=auth)
    assert resp.status_code == 403 and resp.json()["detail"]["reason"] == "database_not_allowed"
    assert [d["_id"] for d in db["claims"].find()] == ["keep"]
    mongo.drop_database(database)


@pytest.mark.parametrize("token", [None, "", "   ", "tök", "two words", "tab\there"])
def test_a_route_without_a_usable_token_does_not_start(stores, token):
    from seed import create_seed_router

    settings = SeedSettings(enabled=True, token=token, mongo_uri=stores.mongo_uri)
    with pytest.raises(SeedError, match="token"):
        create_seed_router(settings)


HEALTH_CASES = [
    # (what is wrong, the lane's database, a change to the settings, production-marked,
    #  status, reason, words of the message)
    ("nothing", None, {}, False, 200, None, []),
    ("a database not named for tests", "claims_live", {}, False, 403, "database_not_allowed",
     ["'claims_live'", "CLAIMS_HARNESS_ALLOWED_DB_PATTERN"]),
    ("the production marker", None, {}, True, 403, "production_marker",
     ["production marker"]),
    ("a bucket S3 would not take", None, {"bucket": "xn--lane"}, False, 403,
     "invalid_settings", ["bucket"]),
]


@pytest.mark.parametrize(("wrong", "database", "change", "marked", "status", "reason", "words"),
                         HEALTH_CASES, ids=[c[0] for c in HEALTH_CASES])
def test_health_runs_the_lanes_guards(stores, mongo, lane, wrong, database, change, marked,
                                      status, reason, words):
    """``/health`` refuses what a reset would (403 with the reason), so the harness's
    pre-flight, which asks it, stops a run before it starts; and it writes nothing."""
    db = mongo[database] if database else lane.db
    db["claims"].insert_one({"_id": "keep"})
    if marked:
        db[ENVIRONMENT_COLLECTION].insert_one({"_id": "environment", "kind": "production"})
    settings = SeedSettings(enabled=True, token="guard-token", mongo_uri=stores.mongo_uri,
                            database=db.name, s3_endpoint=stores.s3.endpoint,
                            s3_access_key=stores.s3.access_key,
                            s3_secret_key=stores.s3.secret_key,
                            bucket=change.get("bucket", lane.bucket))
    collections = sorted(db.list_collection_names())
    try:
        with TestClient(create_seed_app(settings)) as client:
            resp = client.get("/_harness/seed/health",
                              headers={"Authorization": "Bearer guard-token"})
        assert resp.status_code == status, resp.text
        if reason is None:
            assert resp.json() == {"ok": True, "database": db.name, "bucket": settings.bucket}
        else:
            detail = resp.json()["detail"]
            assert detail["reason"] == reason
            assert all(word in detail["message"] for word in words), detail["message"]
        assert sorted(db.list_collection_names()) == collections  # nothing written
        assert [d["_id"] for d in db["claims"].find()] == ["keep"]
    finally:
        mongo.drop_database(db.name)
