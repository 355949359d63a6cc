"""Fuzzing the seed route: whatever the body holds, the answer is JSON, never a 5xx, and a
refused reset changes nothing."""

from __future__ import annotations

import base64
import json

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims_corpus.formats import Baseline, Setup
from claims_corpus.plan import plan_setup
from seed import SeedSettings, create_seed_app, dump_state

from .conftest import PHOTO, make_setup_a

TOKEN = "fuzz-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}

# Every code point, lone surrogates included; JSON-escaped they reach the route as "\udXXX".
_text = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=12)
_scalars = (st.none() | st.booleans() | _text
            | st.integers(min_value=-(2**70), max_value=2**70)
            | st.floats(allow_nan=True, allow_infinity=True))
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(_text, inner, max_size=3), max_leaves=12)
_keys = st.one_of(_text, st.lists(st.sampled_from(["a", "..", ".", "", "b\x00", "é", "\\"]),
                                  min_size=1, max_size=4).map("/".join))


def _body(fields: dict, key: str) -> bytes:
    setup, files = make_setup_a()
    data = setup.model_dump(mode="json")
    data["collections"]["customers"] = [{"_id": "fuzz-1", **fields}]
    data["objects"] = [{"key": key, "file": "input/materials/photo.jpg",
                        "content_type": "image/jpeg"}]
    files = {"input/materials/photo.jpg": base64.b64encode(PHOTO).decode()}
    return json.dumps({"setup": data, "files": files}).encode()


@pytest.fixture
def route(stores, lane):
    s = SeedSettings(enabled=True, token=TOKEN, mongo_uri=stores.mongo_uri,
                     database=lane.db.name, s3_endpoint=stores.s3.endpoint,
                     s3_access_key=stores.s3.access_key, s3_secret_key=stores.s3.secret_key,
                     bucket=lane.bucket)
    with TestClient(create_seed_app(s)) as client:
        yield client


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(fields=st.dictionaries(_text, _values, max_size=4), key=_keys)
def test_route_answers_json_and_never_half_applies(route, lane, fields, key):
    before = dump_state(lane.db, lane.s3, lane.bucket).model_dump_json(exclude={"taken_at"})
    resp = route.post("/_harness/seed/reset", content=_body(fields, key), headers=AUTH)
    assert resp.status_code in (200, 422), resp.text
    assert resp.headers["content-type"] == "application/json"
    after = dump_state(lane.db, lane.s3, lane.bucket)
    if resp.status_code == 422:
        assert resp.json()["detail"]["field"]
        assert after.model_dump_json(exclude={"taken_at"}) == before
    else:
        assert resp.json()["verified"] is True
        assert list(after.objects) == [key]
        assert set(after.collections["customers"]) == {"fuzz-1"}


@settings(max_examples=120, deadline=None)
@given(doc=st.dictionaries(_text, _values, max_size=5), key=_keys,
       path=st.lists(_text, min_size=1, max_size=3).map(".".join), value=_values)
def test_plan_never_raises_whatever_the_setup_holds(doc, key, path, value):
    setup = Setup.model_construct(
        pack_id="CTL-M-001", claimant_session="anonymous",
        collections={"customers": [{"_id": "c", **doc}]},
        objects=[Setup.model_fields["objects"].annotation.__args__[0].model_construct(
            key=key, file="f", content_type="image/jpeg")],
        overrides=[Setup.model_fields["overrides"].annotation.__args__[0].model_construct(
            collection="customers", id="c", set={path: value}, unset=[], delete=False)],
        customer_credentials=None, staff_credentials=None, known_ids={})
    plan, problems = plan_setup(Baseline(), setup, {"f": b"x"})
    assert (plan is None) == bool(problems)
    for p in problems:
        assert p.file == "setup.json" and p.field and p.message
