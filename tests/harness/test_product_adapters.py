"""The runtime report and the reset adapters against small stand-in products on loopback:
only named runtime fields are kept, the product's own reset endpoint gets its own body, the
product's stores are written and read through the mapping, and a profile without a reset or
a runtime report is refused unless the run says so."""

from __future__ import annotations

from pathlib import Path

import pymongo
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse

import claims_corpus
from claims_dev import BackgroundServer
from claims_records import ProductError, ProfileError, RunConfig, SeedError
from harness import RunContext, check_runtime, make_reset, run
from harness.profile import Profile
from harness.reset import setup_and_files

PACKS = Path(__file__).resolve().parents[2] / "packs"
ABOUT = {"service": {"agent": {"mode": "rules"}}, "build": "2026.11.3",
         "internal": {"db_host": "db-7.internal.example", "ops_key_hint": "k3y"}}


class Product:
    """A stand-in product: a nested runtime report, a text one, and a reset endpoint."""

    def __init__(self) -> None:
        self.resets: list[dict] = []
        self.fail_reset = False
        app = FastAPI()

        @app.get("/ops/about")
        def about(request: Request):
            if request.headers.get("x-ops-key") != "about-key":
                return JSONResponse({"detail": "no"}, status_code=401)
            return ABOUT

        @app.get("/version.txt", response_class=PlainTextResponse)
        def text():
            return "Kestrel build 7 — agent: rules-v2"

        @app.get("/ops/health")
        def health():
            return {"ok": True}

        @app.post("/ops/fixtures")
        async def fixtures(request: Request):
            if request.headers.get("x-ops-key") != "reset-key":
                return JSONResponse({"detail": "bad key"}, status_code=401)
            if self.fail_reset:
                return JSONResponse({"detail": "disk full"}, status_code=500)
            self.resets.append(await request.json())
            return {"loaded": True}

        self.server = BackgroundServer(app).start()
        self.url = self.server.url


@pytest.fixture(scope="module")
def product():
    p = Product()
    yield p
    p.server.stop()


def _profile(url: str, **sections) -> Profile:
    data = {
        "name": "stand-in", "base_url": url,
        "capabilities": {"customer_accounts": False, "staff_side": False},
        "completion": {"busy": ".spinner"},
        "customer_screen": {"conversation": ".c", "agent_message": ".bot",
                            "composer_input": "textarea", "composer_send": "button",
                            "claim_number_pattern": "CLM-\\d+"},
    }
    for key, value in sections.items():
        data[key] = {**data.get(key, {}), **value}
    return Profile.model_validate(data)


def test_only_the_named_runtime_fields_are_kept(product, monkeypatch):
    monkeypatch.setenv("ABOUT_KEY", "about-key")
    prof = _profile(product.url, runtime={
        "path": "/ops/about", "field": "service.agent.mode", "store_fields": ["build"],
        "auth_header": "X-Ops-Key", "auth_env": "ABOUT_KEY"})
    info = check_runtime(prof, prof.resolved_lanes(), self_test=False)
    assert info.runtime == "rules" and info.reported
    assert info.fields == {"build": "2026.11.3"}
    assert "internal" not in repr(info.fields) and "db-7" not in repr(info.fields)


def test_runtime_report_problems_are_product_errors(product, monkeypatch):
    monkeypatch.delenv("ABOUT_KEY", raising=False)
    prof = _profile(product.url, runtime={"path": "/ops/about", "field": "service.agent.mode",
                                          "auth_header": "X-Ops-Key", "auth_env": "ABOUT_KEY"})
    with pytest.raises(ProductError, match="cannot read the runtime report"):
        check_runtime(prof, prof.resolved_lanes(), self_test=False)
    monkeypatch.setenv("ABOUT_KEY", "about-key")
    for field in ("service.agent", "service.nothing", "build.x"):
        prof = _profile(product.url, runtime={"path": "/ops/about", "field": field,
                                              "auth_header": "X-Ops-Key",
                                              "auth_env": "ABOUT_KEY"})
        with pytest.raises(ProductError, match="lacks its runtime field"):
            check_runtime(prof, prof.resolved_lanes(), self_test=False)
    prof = _profile(product.url, runtime={"path": "/ops/about", "field": "service.agent.mode",
                                          "auth_header": "X-Ops-Key", "auth_env": "ABOUT_KEY",
                                          "controlled_values": ["rules"]})
    with pytest.raises(ProductError, match="controlled runtime"):
        check_runtime(prof, prof.resolved_lanes(), self_test=False)
    assert check_runtime(prof, prof.resolved_lanes(), self_test=True).runtime == "rules"


def test_a_text_runtime_report_is_read_by_its_pattern(product):
    prof = _profile(product.url, runtime={"path": "/version.txt",
                                          "pattern": r"agent: ([\w-]+)"})
    assert check_runtime(prof, prof.resolved_lanes(), self_test=False).runtime == "rules-v2"
    prof = _profile(product.url, runtime={"path": "/version.txt", "pattern": r"model: (\w+)"})
    with pytest.raises(ProductError, match="pattern does not match"):
        check_runtime(prof, prof.resolved_lanes(), self_test=False)


def test_no_runtime_report_needs_an_explicit_flag(product):
    prof = _profile(product.url, capabilities={"runtime_report": False})
    with pytest.raises(ProductError, match="--allow-unreported-runtime"):
        check_runtime(prof, prof.resolved_lanes(), self_test=False)
    info = check_runtime(prof, prof.resolved_lanes(), self_test=False, allow_unreported=True)
    assert not info.reported and info.runtime == "not reported"


ENDPOINT = {"adapter": "endpoint", "endpoint": {
    "path": "/ops/fixtures", "auth_header": "X-Ops-Key", "auth_env": "RESET_KEY",
    "health_path": "/ops/health",
    "body": {"label": "{{pack_id}}", "fixtures": "{{collections}}", "blobs": "{{objects}}",
             "note": "pack {{pack_id}} as {{claimant_session}}"}}}
MAPPING = {"policies": {"collection": "cover", "fields": {"policy_number": "policyRef"}},
           "customers": {"collection": "policyholders"}}


def test_the_products_own_reset_endpoint_gets_its_own_body(product, monkeypatch):
    monkeypatch.setenv("RESET_KEY", "reset-key")
    prof = _profile(product.url, reset=ENDPOINT, mapping=MAPPING)
    reset = make_reset(prof, prof.resolved_lanes()[0], PACKS)
    setup, files = setup_and_files(PACKS / "CTL-M-001")
    outcome = reset.reset(setup, files)
    body = product.resets[-1]
    assert body["label"] == "CTL-M-001" and body["note"] == "pack CTL-M-001 as anonymous"
    cover = {d["_id"]: d for d in body["fixtures"]["cover"]}
    assert cover["pol-m001"]["policyRef"] == "NWF-POL-100234"
    assert "policy_number" not in cover["pol-m001"]
    assert "policyholders" in body["fixtures"] and "staff" in body["fixtures"]  # baseline too
    assert outcome.adapter == "endpoint" and outcome.verified is None  # state not readable
    assert outcome.staff_credentials["username"] == "handler"  # from the corpus baseline
    assert reset.state() is None
    assert "healthy" in reset.health()


def test_a_failing_or_unauthorised_reset_endpoint_is_a_seed_error(product, monkeypatch):
    prof = _profile(product.url, reset=ENDPOINT)
    reset = make_reset(prof, prof.resolved_lanes()[0], PACKS)
    setup, files = setup_and_files(PACKS / "CTL-M-001")
    monkeypatch.delenv("RESET_KEY", raising=False)
    with pytest.raises(SeedError, match="RESET_KEY"):
        reset.reset(setup, files)
    monkeypatch.setenv("RESET_KEY", "wrong")
    with pytest.raises(SeedError, match="HTTP 401"):
        reset.reset(setup, files)
    monkeypatch.setenv("RESET_KEY", "reset-key")
    product.fail_reset = True
    try:
        with pytest.raises(SeedError, match="HTTP 500"):
            reset.reset(setup, files)
    finally:
        product.fail_reset = False
    bad = _profile(product.url, reset={**ENDPOINT, "endpoint": {
        **ENDPOINT["endpoint"], "body": {"x": "{{nope}}"}}})
    with pytest.raises(ProfileError, match="unknown placeholder"):
        make_reset(bad, bad.resolved_lanes()[0], PACKS).reset(setup, files)


def _stores_profile(url: str) -> Profile:
    return _profile(url, reset={"adapter": "stores"}, mapping=MAPPING, stores={
        "mongo_uri_env": "T_MONGO", "s3_endpoint_env": "T_S3", "s3_access_key_env": "T_KEY",
        "s3_secret_key_env": "T_SECRET", "collections": ["conversations"]},
        state={"ignore_collections": ["product_config"]})


def _stores_env(monkeypatch, stores) -> None:
    monkeypatch.setenv("T_MONGO", stores.mongo_uri)
    monkeypatch.setenv("T_S3", stores.s3.endpoint)
    monkeypatch.setenv("T_KEY", stores.s3.access_key)
    monkeypatch.setenv("T_SECRET", stores.s3.secret_key)


def test_direct_stores_write_the_setup_and_touch_nothing_else(product, stores, monkeypatch):
    _stores_env(monkeypatch, stores)
    client = pymongo.MongoClient(stores.mongo_uri)
    db = client["kestrel_test_direct"]
    db.product_config.insert_one({"_id": "theme", "colour": "teal"})
    db.conversations.insert_one({"_id": "old", "text": "from another trial"})
    prof = Profile.model_validate({**_stores_profile(product.url).model_dump(), "lanes": [
        {"name": "l1", "base_url": product.url, "database": "kestrel_test_direct",
         "bucket": "kestrel-test-direct"}], "base_url": None})
    reset = make_reset(prof, prof.resolved_lanes()[0], PACKS)
    setup, files = setup_and_files(PACKS / "CTL-M-001")
    outcome = reset.reset(setup, files)
    assert outcome.verified is True and outcome.adapter == "stores"
    assert db.cover.find_one({"_id": "pol-m001"})["policyRef"] == "NWF-POL-100234"
    assert db.conversations.count_documents({}) == 0  # in scope: emptied
    assert db.product_config.find_one({"_id": "theme"})["colour"] == "teal"  # untouched
    state = reset.state()
    assert state.collections["policies"]["pol-m001"]["policy_number"] == "NWF-POL-100234"
    assert "product_config" not in state.collections and "cover" not in state.collections
    reset.close()
    client.close()


def test_direct_stores_refuse_a_database_not_meant_for_tests(product, stores, monkeypatch):
    _stores_env(monkeypatch, stores)
    prof = Profile.model_validate({**_stores_profile(product.url).model_dump(), "lanes": [
        {"name": "l1", "base_url": product.url, "database": "kestrel_live"}], "base_url": None})
    with pytest.raises(SeedError, match="not allowed"):
        make_reset(prof, prof.resolved_lanes()[0], PACKS).reset(
            *setup_and_files(PACKS / "CTL-M-001"))
    prof = Profile.model_validate({**prof.model_dump(), "lanes": [
        {"name": "l1", "base_url": product.url, "database": "latest_claims"}]})
    with pytest.raises(SeedError, match="not allowed"):
        make_reset(prof, prof.resolved_lanes()[0], PACKS).state()
    client = pymongo.MongoClient(stores.mongo_uri)
    client["kestrel_test_prod"]["_environment"].insert_one(
        {"_id": "environment", "kind": "production"})
    client.close()
    prof = Profile.model_validate({**prof.model_dump(), "lanes": [
        {"name": "l1", "base_url": product.url, "database": "kestrel_test_prod"}]})
    with pytest.raises(SeedError, match="production marker"):
        make_reset(prof, prof.resolved_lanes()[0], PACKS).reset(
            *setup_and_files(PACKS / "CTL-M-001"))


def test_a_profile_without_a_reset_is_refused_unless_no_reset(product, tmp_path):
    prof = _profile(product.url, reset={"adapter": "none"},
                    capabilities={"runtime_report": False})
    with pytest.raises(ProfileError, match="--no-reset"):
        run(RunConfig(corpora=[str(PACKS)], packs=["CTL-M-001"], allow_unreported_runtime=True),
            RunContext(profile=prof, runs_dir=tmp_path))
    assert not list(tmp_path.iterdir())  # nothing was recorded
    assert claims_corpus.corpus_identity(PACKS)  # the corpus itself was fine
