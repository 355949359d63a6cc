"""dump_state and diff_states: pure diff rules, and dump + diff on the embedded stores."""

from __future__ import annotations

import datetime as dt
import io

from bson import ObjectId

from claims_records import ObjectInfo, StateDump
from seed import diff_states, dump_state, reset_and_load
from seed._jsonsafe import json_safe
from seed._s3 import client

from .conftest import make_baseline, make_setup_a


def _dump(collections, objects=None) -> StateDump:
    return StateDump(taken_at="2026-01-01T00:00:00.000Z", database="claims_test",
                     bucket="claims-test", collections=collections, objects=objects or {})


def test_json_safe_converts_bson_values():
    oid = ObjectId("6b0ce87211d9b5bf9aa609fa")
    value = {"_id": oid, "at": dt.datetime(2026, 3, 14, 9, 30, 0, 123000),
             "aware": dt.datetime(2026, 3, 14, 10, 30, tzinfo=dt.timezone(dt.timedelta(hours=1))),
             "raw": b"\x00\x01", "n": [1, 2.5, None, True]}
    assert json_safe(value) == {
        "_id": "6b0ce87211d9b5bf9aa609fa", "at": "2026-03-14T09:30:00.123Z",
        "aware": "2026-03-14T09:30:00.000Z", "raw": "AAE=", "n": [1, 2.5, None, True],
    }


def test_diff_reports_fields_with_dotted_paths_in_order():
    before = _dump({"claims": {
        "C1": {"_id": "C1", "status": "open", "notes": [{"body": "a", "by": "x"}], "n": 1},
        "C2": {"_id": "C2"},
    }})
    after = _dump({"claims": {
        "C1": {"_id": "C1", "status": "closed", "notes": [{"body": "b", "by": "x"},
                                                          {"body": "c", "by": "y"}], "n": 1.0},
        "C3": {"_id": "C3", "status": "new"},
    }})
    diff = diff_states(before, after)
    assert [(d.collection, d.id, d.change) for d in diff.documents] == [
        ("claims", "C1", "changed"), ("claims", "C2", "removed"), ("claims", "C3", "added")]
    fields = [(f.field, f.before, f.after) for f in diff.documents[0].fields]
    assert fields == [
        ("n", 1, 1.0),  # an int that became a float is a change
        ("notes.0.body", "a", "b"),
        ("notes.1.body", None, "c"),
        ("notes.1.by", None, "y"),
        ("status", "open", "closed"),
    ]
    assert diff.documents[1].document == {"_id": "C2"}
    assert diff.documents[2].document == {"_id": "C3", "status": "new"}


def test_vary_patterns():
    before = _dump({
        "claims": {"C1": {"_id": "C1", "updated_at": "t1", "meta": {"ts": "1", "by": "a"},
                          "messages": [{"body": "hi", "from": "agent"}], "status": "open"}},
        "audit": {"A1": {"_id": "A1", "updated_at": "t1", "deep": {"x": {"ts": 1}}}},
    })
    after = _dump({
        "claims": {"C1": {"_id": "C1", "updated_at": "t2", "meta": {"ts": "2", "by": "a"},
                          "messages": [{"body": "hello", "from": "agent"}], "status": "open"}},
        "audit": {"A1": {"_id": "A1", "updated_at": "t2", "deep": {"x": {"ts": 2}}}},
    })
    diff = diff_states(before, after, vary=["claims:updated_at", "*.ts", "messages.*.body",
                                            "deep.**.ts"])
    # audit.updated_at is only allowed to vary in claims
    assert [(d.collection, [f.field for f in d.fields]) for d in diff.documents] == [
        ("audit", ["updated_at"])]
    assert diff.ignored_fields == ["audit/A1/deep.x.ts", "claims/C1/messages.0.body",
                                   "claims/C1/meta.ts", "claims/C1/updated_at"]
    # a pattern covers what lies below the path it names
    covered = diff_states(before, after, vary=["messages", "meta", "updated_at", "deep"])
    assert covered.documents == []
    # a pattern naming a different field does not hide the change
    kept = diff_states(before, after, vary=["message.*.body", "*.t"])
    assert {f.field for f in kept.documents[1].fields} == {"messages.0.body", "meta.ts",
                                                           "updated_at"}


def test_diff_objects_by_hash():
    a, b = ObjectInfo(sha256="a" * 64, size=1), ObjectInfo(sha256="b" * 64, size=1)
    diff = diff_states(_dump({}, {"k1": a, "k2": a}), _dump({}, {"k2": b, "k3": a, "k1": a}))
    assert [(o.key, o.change) for o in diff.objects] == [("k2", "changed"), ("k3", "added")]
    assert diff.objects[0].before == a and diff.objects[0].after == b


def test_dump_and_diff_on_the_stores(lane):
    setup, files = make_setup_a()
    reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), setup, files)
    before = dump_state(lane.db, lane.s3, lane.bucket)

    lane.db["claims"].insert_one({"policy": "POL-1", "status": "submitted",
                                  "created_at": dt.datetime(2026, 3, 14, 9, 0)})
    lane.db["policies"].update_one({"_id": "POL-1"}, {"$set": {"cover.excess": 500,
                                                                "updated_at": "now"}})
    lane.db["customers"].delete_one({"_id": "cust-1"})
    data = b"a different photo"
    client(lane.s3).put_object(lane.bucket, "policies/POL-1/photo.jpg", io.BytesIO(data),
                               len(data))
    after = dump_state(lane.db, lane.s3, lane.bucket)

    diff = diff_states(before, after, vary=["updated_at"])
    changes = {(d.collection, d.change): d for d in diff.documents}
    assert set(changes) == {("claims", "added"), ("policies", "changed"),
                            ("customers", "removed")}
    added = changes[("claims", "added")]
    assert ObjectId.is_valid(added.id)  # ObjectId keyed as its hex string
    assert added.document["created_at"] == "2026-03-14T09:00:00.000Z"
    assert [(f.field, f.before, f.after) for f in changes[("policies", "changed")].fields] == [
        ("cover.excess", 250, 500)]
    assert diff.ignored_fields == ["policies/POL-1/updated_at"]
    assert changes[("customers", "removed")].document["name"] == "Ada Example"
    assert [(o.key, o.change) for o in diff.objects] == [("policies/POL-1/photo.jpg", "changed")]
    assert diff.objects[0].after.size == len(data)
    # the dump is JSON and orders collections and ids
    assert list(after.collections) == sorted(after.collections)
    assert StateDump.model_validate_json(after.model_dump_json()) == after
    # identical dumps diff to nothing
    assert diff_states(after, after).documents == [] and diff_states(after, after).objects == []
