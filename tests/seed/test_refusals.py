"""A refused reset leaves the lane exactly as it was: every malformed call is a 4xx JSON answer
naming the field, and the state dump afterwards is byte for byte the dump before."""

from __future__ import annotations

import base64
import io
import json

import pytest
from fastapi.testclient import TestClient

from claims_corpus.formats import Setup
from seed import SeedSettings, create_seed_app, dump_state, reset_and_load
from seed import _loader as loader_module
from seed import _s3 as s3_module

from .conftest import make_setup_a, make_setup_b

TOKEN = "refusal-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
LIMIT = 256 * 1024
BASELINE = ('{"version": "0.2", "collections": {"staff": [{"_id": "staff-001", "role": "h"}]},'
            ' "staff_credentials": {"username": "handler", "password": "p"}}')


@pytest.fixture
def route(stores, lane, tmp_path):
    baseline = tmp_path / "baseline.json"
    baseline.write_text(BASELINE)
    settings = SeedSettings(enabled=True, token=TOKEN, mongo_uri=stores.mongo_uri,
                            database=lane.db.name, s3_endpoint=stores.s3.endpoint,
                            s3_access_key=stores.s3.access_key,
                            s3_secret_key=stores.s3.secret_key, bucket=lane.bucket,
                            baseline_path=baseline, max_body_bytes=LIMIT)
    with TestClient(create_seed_app(settings)) as client:
        yield client


def _body(setup: Setup | dict, files: dict[str, bytes]) -> dict:
    data = setup.model_dump(mode="json") if isinstance(setup, Setup) else setup
    return {"setup": data, "files": {k: base64.b64encode(v).decode() for k, v in files.items()}}


def _dump_bytes(lane) -> bytes:
    """The state dump as the harness stores it, without the time it was taken."""
    return dump_state(lane.db, lane.s3, lane.bucket).model_dump_json(exclude={"taken_at"}).encode()


def _seed_and_use(route, lane) -> bytes:
    """Seed pack B, then change the lane the way a journey would; return the dump."""
    setup, files = make_setup_b()
    assert route.post("/_harness/seed/reset", json=_body(setup, files),
                      headers=AUTH).status_code == 200
    lane.db["claims"].insert_one({"_id": "made-during-journey", "note": "keep me"})
    data = b"uploaded by the customer"
    s3_module.client(lane.s3).put_object(lane.bucket, "uploads/s1/photo.jpg", io.BytesIO(data),
                                         len(data))
    return _dump_bytes(lane)


def _good() -> dict:
    setup, files = make_setup_a()
    return _body(setup, files)


def _with(**setup_changes) -> dict:
    body = _good()
    body["setup"] = {**body["setup"], **setup_changes}
    return body


def _doc(**fields) -> dict:
    """A body whose setup adds one customers document holding ``fields``."""
    body = _good()
    customers = [{"_id": "cust-x", **fields}]
    body["setup"]["collections"] = {**body["setup"]["collections"], "customers": customers}
    return body


def _key(key: str) -> dict:
    body = _good()
    body["setup"]["objects"][0]["key"] = key
    return body


def _raw(text: str) -> bytes:
    return text.encode("utf-8")


def _splice(marker: str, replacement: str) -> bytes:
    """The good body as JSON text, with ``"marker"`` replaced by raw JSON ``replacement``."""
    return json.dumps(_doc(value=marker)).replace(f'"{marker}"', replacement).encode()


def _deep(levels: int) -> dict:
    value: object = "bottom"
    for _ in range(levels):
        value = {"next": value}
    return _doc(tree=value)


def _cases():
    # (id, body as dict or raw bytes, status, field named; "*" ends a path prefix)
    k = "input/materials/photo.jpg"
    yield "nul in object key", _key("policies/a\x00b.jpg"), 422, "objects[0].key"
    yield "dot-dot segment", _key("policies/../photo.jpg"), 422, "objects[0].key"
    yield "dot segment", _key("./photo.jpg"), 422, "objects[0].key"
    yield "leading slash", _key("/photo.jpg"), 422, "objects[0].key"
    yield "trailing slash", _key("policies/"), 422, "objects[0].key"
    yield "doubled slash", _key("policies//photo.jpg"), 422, "objects[0].key"
    yield "backslash", _key("policies\\photo.jpg"), 422, "objects[0].key"
    yield "escape character", _key("policies/\x1b[31mred.jpg"), 422, "objects[0].key"
    yield "DEL character", _key("policies/a\x7f.jpg"), 422, "objects[0].key"
    yield "C1 control", _key("policies/a\x85.jpg"), 422, "objects[0].key"
    yield "key over 1024 bytes", _key("k" * 1025), 422, "objects[0].key"
    yield "key over 1024 bytes of UTF-8", _key("€" * 342), 422, "objects[0].key"
    folder = _good()
    folder["setup"]["objects"][1]["key"] = folder["setup"]["objects"][0]["key"] + "/inner"
    yield "object is also a folder", folder, 422, "objects[1].key"
    ctype = _good()
    ctype["setup"]["objects"][0]["content_type"] = "image/jpeg\r\nX-Evil: 1"
    yield "content type with CRLF", ctype, 422, "objects[0].content_type"
    yield "surrogate in a value", _splice("S", '"a\\ud800b"'), 422, "body"
    yield "surrogate in an object key", json.dumps(_key("K")).replace(
        '"K"', '"\\udc00"').encode(), 422, "body"
    yield "surrogate in _id", json.dumps(_doc()).replace('"cust-x"', '"\\ud83d"').encode(), \
        422, "body"
    yield "NaN", _splice("N", "NaN"), 422, "body"
    yield "Infinity", _splice("N", "Infinity"), 422, "body"
    yield "-Infinity", _splice("N", "-Infinity"), 422, "body"
    yield "overflowing number", _splice("N", "1e400"), 422, "body"
    yield "integer over 64 bits", _doc(n=2**64), 422, "collections.customers[0].n"
    yield "document nested 55 deep", _deep(55), 422, "collections.customers[0].tree.next*"
    yield "body nested 50k deep", _raw('{"setup": ' + "[" * 50_000 + "]" * 50_000 + "}"), \
        422, "body"
    yield "body nested 100 deep", _deep(100), 422, "setup.collections.customers[0].tree*"
    yield "repeated JSON key", _raw('{"setup": {"pack_id": "CTL-M-001", "pack_id": "x"}}'), \
        422, "body"
    yield "invalid UTF-8", b'{"setup": "\xff"}', 422, "body"
    yield "not JSON", b"{nope", 422, "body"
    yield "reserved collection", _with(collections={"_harness": [{"_id": "x"}]}), 422, \
        "collections._harness"
    yield "reserved collection in other case", _with(collections={
        "_Environment": [{"_id": "x"}]}), 422, "collections._Environment"
    yield "system collection", _with(collections={"system.users": [{"_id": "x"}]}), 422, \
        "collections.system.users"
    yield "dollar field", _doc(**{"$where": "1"}), 422, "collections.customers[0].$where"
    yield "dotted field", _doc(**{"a.b": 1}), 422, "collections.customers[0].a.b"
    yield "nested NUL field name", _doc(inner={"a\x00": 1}), 422, \
        "collections.customers[0].inner.a\x00"
    yield "duplicate _id", _with(collections={"customers": [{"_id": "c"}, {"_id": "c"}]}), 422, \
        "collections.customers[1]._id"
    yield "redefines a baseline document", _with(collections={
        "staff": [{"_id": "staff-001"}]}), 422, "collections.staff[0]._id"
    yield "boolean _id", _with(collections={"customers": [{"_id": True}]}), 422, \
        "collections.customers[0]._id"
    yield "object _id", _with(collections={"customers": [{"_id": {"$oid": "1"}}]}), 422, \
        "collections.customers[0]._id"
    yield "control character in _id", _with(collections={"customers": [{"_id": "a\nb"}]}), \
        422, "collections.customers[0]._id"
    yield "override sets _id", _with(overrides=[{"collection": "staff", "id": "staff-001",
                                                 "set": {"_id": "x"}}]), 422, \
        "overrides[0].set._id"
    yield "override with $ path", _with(overrides=[{"collection": "staff", "id": "staff-001",
                                                    "set": {"a.$b": 1}}]), 422, \
        "overrides[0].set.a.$b"
    yield "override of a reserved collection", _with(overrides=[{
        "collection": "_environment", "id": "environment", "delete": True}]), 422, \
        "overrides[0].collection"
    yield "file not supplied", {**_good(), "files": {}}, 422, "objects[0].file"
    bad_b64 = _good()
    bad_b64["files"][k] = "***"
    yield "not base64", bad_b64, 422, f"files.{k}"
    # a file no object uses is still part of the body: refused, not skipped
    for name, encoded in (("unused file not base64", "***"),
                          ("unused file with a stray character", "QUJD!"),
                          ("unused file cut short", "QUJDRA="),
                          ("unused file as a number", 12),
                          ("unused file as null", None),
                          ("unused file as a list", ["QUJD"])):
        body = _good()
        body["files"]["input/unused.bin"] = encoded
        yield name, body, 422, "files.input/unused.bin"
    yield "body over the limit", {"setup": _good()["setup"],
                                  "files": {k: "A" * (LIMIT + 10)}}, 413, "body"


CASES = list(_cases())


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_refused_reset_is_4xx_json_and_leaves_the_dump_byte_identical(route, lane, case):
    _, body, status, field = case
    before = _seed_and_use(route, lane)
    content = body if isinstance(body, bytes) else json.dumps(body).encode()

    resp = route.post("/_harness/seed/reset", content=content, headers=AUTH)

    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"] == "application/json"
    detail = resp.json()["detail"]
    assert detail["reason"] == ("too_large" if status == 413 else "invalid_setup")
    if field.endswith("*"):  # a deep path: where it starts is enough
        assert detail["field"].startswith(field[:-1]), detail
    else:
        assert detail["field"] == field, detail
    assert _dump_bytes(lane) == before
    # and the lane still takes a good reset afterwards
    assert route.post("/_harness/seed/reset", json=_good(), headers=AUTH).status_code == 200


def test_size_limit_holds_without_a_content_length(route, lane):
    before = _seed_and_use(route, lane)

    def chunks():
        for _ in range(LIMIT // 1024 + 2):
            yield b" " * 1024

    resp = route.post("/_harness/seed/reset", content=chunks(), headers=AUTH)
    assert resp.status_code == 413 and resp.json()["detail"]["reason"] == "too_large"
    assert _dump_bytes(lane) == before


def test_an_unauthenticated_oversized_body_is_not_read(route):
    resp = route.post("/_harness/seed/reset", content=b"x" * (LIMIT * 2),
                      headers={"Content-Type": "application/json"})
    assert resp.status_code == 401


def test_a_nul_key_never_bricks_the_lane(route, lane):
    """Refused up front; and a NUL key the product itself wrote is removed by the next reset."""
    resp = route.post("/_harness/seed/reset", json=_key("a\x00b"), headers=AUTH)
    assert resp.status_code == 422
    for _ in range(2):
        assert route.post("/_harness/seed/reset", json=_good(), headers=AUTH).status_code == 200
    s3_module.client(lane.s3).put_object(lane.bucket, "uploads/x\x00y.jpg", io.BytesIO(b"z"), 1)
    resp = route.post("/_harness/seed/reset", json=_good(), headers=AUTH)
    assert resp.status_code == 200, resp.text
    assert route.post("/_harness/seed/reset", json=_good(), headers=AUTH).status_code == 200
    assert "uploads/x\x00y.jpg" not in route.get("/_harness/seed/state",
                                                 headers=AUTH).json()["objects"]


def test_a_store_failing_half_way_marks_the_lane_and_the_next_reset_heals_it(route, lane,
                                                                             monkeypatch):
    real_put = s3_module.put
    calls = []

    def failing_put(s3, bucket, key, data, content_type):
        calls.append(key)
        if len(calls) == 2:
            raise ValueError("simulated store refusal")
        real_put(s3, bucket, key, data, content_type)

    monkeypatch.setattr(s3_module, "put", failing_put)
    resp = route.post("/_harness/seed/reset", json=_good(), headers=AUTH)
    assert resp.status_code == 503, resp.text
    detail = resp.json()["detail"]
    assert detail["reason"] == "store_error" and "unfinished" in detail["message"]
    state = route.get("/_harness/seed/state", headers=AUTH)
    assert state.status_code == 409 and state.json()["detail"]["reason"] == "lane_dirty"
    assert state.json()["detail"]["unfinished"]["pack_id"] == "CTL-M-001"

    monkeypatch.setattr(s3_module, "put", real_put)
    assert route.post("/_harness/seed/reset", json=_good(), headers=AUTH).status_code == 200
    state = route.get("/_harness/seed/state", headers=AUTH)
    assert state.status_code == 200
    assert set(state.json()["objects"]) == {"policies/POL-1/photo.jpg", "policies/POL-1/quote.pdf"}


def test_a_mongodb_failure_half_way_is_503_json_and_heals(lane, monkeypatch):
    from pymongo.errors import AutoReconnect

    from seed.stores import MongoStore

    from .conftest import make_baseline

    real_load = MongoStore.load

    def broken_load(store, plan):
        store.db["staff"].delete_many({})
        raise AutoReconnect("simulated connection loss")

    monkeypatch.setattr(MongoStore, "load", broken_load)
    setup, files = make_setup_a()
    with pytest.raises(loader_module.SeedError) as err:
        reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), setup, files)
    assert err.value.context["reason"] == "store_error"
    assert loader_module.unfinished_reset(lane.db)["pack_id"] == "CTL-M-001"
    monkeypatch.setattr(MongoStore, "load", real_load)
    assert reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), setup,
                          files).verified
    assert loader_module.unfinished_reset(lane.db) is None


def test_an_unexpected_failure_is_still_json(route, monkeypatch):
    def bug(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("seed._route.reset_and_load", bug)
    resp = route.post("/_harness/seed/reset", json=_good(), headers=AUTH)
    assert resp.status_code == 500
    assert resp.json()["detail"]["reason"] == "internal_error"


def test_a_valid_file_no_object_uses_is_accepted_and_never_written(route, lane):
    body = _good()
    body["files"]["input/unused.bin"] = base64.b64encode(b"spare bytes").decode()
    resp = route.post("/_harness/seed/reset", json=body, headers=AUTH)
    assert resp.status_code == 200, resp.text
    objects = route.get("/_harness/seed/state", headers=AUTH).json()["objects"]
    assert set(objects) == {"policies/POL-1/photo.jpg", "policies/POL-1/quote.pdf"}
