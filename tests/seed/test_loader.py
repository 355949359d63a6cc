"""reset_and_load against the embedded stores."""

from __future__ import annotations

import hashlib
import io

import pytest

from claims_records import SeedError
from seed import (
    ENVIRONMENT_COLLECTION,
    HARNESS_COLLECTION,
    InvalidSetupError,
    dump_state,
    last_reset,
    reset_and_load,
)
from seed._s3 import client
from seed.stores import BucketStore, MongoStore

from .conftest import PHOTO, QUOTE, make_baseline, make_setup_a, make_setup_b


def _put(lane, key: str, data: bytes) -> None:
    client(lane.s3).put_object(lane.bucket, key, io.BytesIO(data), len(data))


def test_seeding_puts_documents_and_objects_in_place(lane):
    setup, files = make_setup_a()
    result = reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), setup, files)

    assert result.verified is True
    assert result.pack_id == "CTL-M-001"
    assert result.known_ids == {"policy_number": "POL-1"}
    assert result.staff_credentials.username == "handler"  # the baseline's
    assert result.customer_credentials is None
    assert lane.db["policies"].find_one({"_id": "POL-1"})["cover"] == {"excess": 250}
    assert lane.db["customers"].count_documents({}) == 1
    # the override was applied on top of the baseline document
    assert lane.db["staff"].find_one({"_id": "staff-001"})["shift"] == {"active": True}
    dump = dump_state(lane.db, lane.s3, lane.bucket)
    assert dump.objects["policies/POL-1/photo.jpg"].sha256 == hashlib.sha256(PHOTO).hexdigest()
    assert dump.objects["policies/POL-1/quote.pdf"].size == len(QUOTE)
    assert set(dump.collections) == {"counters", "customers", "policies", "staff"}
    assert last_reset(lane.db)["pack_id"] == "CTL-M-001"


def test_seeding_another_pack_leaves_nothing_of_the_first(lane):
    baseline = make_baseline()
    setup_a, files_a = make_setup_a()
    reset_and_load(lane.db, lane.s3, lane.bucket, baseline, setup_a, files_a)
    # the journey creates rows and objects, and edits a baseline document
    lane.db["claims"].insert_one({"_id": "CLM-1", "policy": "POL-1"})
    lane.db["audit_events"].insert_many([{"kind": "created"}, {"kind": "updated"}])
    lane.db["counters"].update_one({"_id": "claim_number"}, {"$set": {"next": 2}})
    _put(lane, "uploads/session-1/photo.jpg", b"uploaded by the customer")

    setup_b, files_b = make_setup_b()
    result = reset_and_load(lane.db, lane.s3, lane.bucket, baseline, setup_b, files_b)

    assert result.claimant_session == "account"
    assert result.customer_credentials.username == "bo@example.test"
    assert result.staff_credentials.username == "senior"  # the setup's wins
    dump = dump_state(lane.db, lane.s3, lane.bucket)
    assert dump.collections == {
        "accounts": {"acct-2": {"_id": "acct-2", "email": "bo@example.test"}},
        "counters": {"claim_number": {"_id": "claim_number", "next": 1}},
        "customers": {"cust-2": {"_id": "cust-2", "name": "Bo Example"}},
        "policies": {"POL-2": {"_id": "POL-2", "customer_id": "cust-2", "line": "home"}},
    }
    assert list(dump.objects) == ["policies/POL-2/receipt.pdf"]


def test_reserved_collections_survive_and_stay_out_of_the_dump(lane):
    lane.db[ENVIRONMENT_COLLECTION].insert_one({"_id": "environment", "kind": "development"})
    setup, files = make_setup_a()
    reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), setup, files)
    assert lane.db[ENVIRONMENT_COLLECTION].count_documents({}) == 1
    assert lane.db[HARNESS_COLLECTION].count_documents({}) == 1
    dump = dump_state(lane.db, lane.s3, lane.bucket)
    assert ENVIRONMENT_COLLECTION not in dump.collections
    assert HARNESS_COLLECTION not in dump.collections


def test_unset_and_integer_ids(lane):
    baseline = make_baseline()
    setup, files = make_setup_a()
    data = setup.model_dump()
    data["collections"]["branches"] = [{"_id": 7, "name": "North"}]
    data["overrides"] = [
        {"collection": "staff", "id": "staff-001", "unset": ["role", "missing.x"]},
        {"collection": "branches", "id": "7", "set": {"open": False}},
    ]
    setup = type(setup).model_validate(data)
    reset_and_load(lane.db, lane.s3, lane.bucket, baseline, setup, files)
    assert "role" not in lane.db["staff"].find_one({"_id": "staff-001"})
    assert lane.db["branches"].find_one({"_id": 7}) == {"_id": 7, "name": "North", "open": False}


def _bad_setups():
    setup, files = make_setup_a()
    dump = setup.model_dump()

    def variant(**changes):
        data = {**dump, **changes}
        return type(setup).model_validate(data)

    yield ("duplicate id", variant(collections={
        "customers": [{"_id": "c"}, {"_id": "c"}]}), files, "collections.customers[1]._id")
    yield ("clashes with baseline", variant(collections={
        "staff": [{"_id": "staff-001"}]}), files, "collections.staff[0]._id")
    yield ("override of unknown doc", variant(overrides=[
        {"collection": "claims", "id": "nope", "set": {"a": 1}}]), files, "overrides[0].id")
    yield ("missing file", setup, {}, "objects[0].file")
    yield ("dollar key", variant(collections={
        "customers": [{"_id": "c", "$where": 1}]}), files, "collections.customers[0].$where")
    yield ("integer too large", variant(collections={
        "customers": [{"_id": "c", "n": {"big": 2**64}}]}), files, "collections.customers[0].n.big")
    yield ("reserved collection", variant(collections={
        HARNESS_COLLECTION: [{"_id": "x"}]}), files, f"collections.{HARNESS_COLLECTION}")
    yield ("set through a scalar", variant(overrides=[
        {"collection": "staff", "id": "staff-001", "set": {"role.level": 2}}]), files,
        "overrides[0].set.role.level")


@pytest.mark.parametrize("case", list(_bad_setups()), ids=lambda c: c[0])
def test_invalid_setup_changes_nothing(lane, case):
    _, bad_setup, bad_files, field = case
    setup, files = make_setup_b()
    reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), setup, files)
    before = dump_state(lane.db, lane.s3, lane.bucket)

    with pytest.raises(InvalidSetupError) as err:
        reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), bad_setup, bad_files)

    assert err.value.context["field"] == field
    assert err.value.context["file"] == "setup.json"
    assert err.value.context["pack"] == bad_setup.pack_id
    after = dump_state(lane.db, lane.s3, lane.bucket)
    assert after.collections == before.collections
    assert after.objects == before.objects


def test_production_marker_is_refused_and_nothing_changes(lane):
    lane.db["claims"].insert_one({"_id": "REAL-1"})
    lane.db[ENVIRONMENT_COLLECTION].insert_one({"_id": "environment", "kind": "production"})
    setup, files = make_setup_a()
    with pytest.raises(SeedError) as err:
        reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), setup, files)
    assert err.value.context["reason"] == "production_marker"
    assert lane.db["claims"].count_documents({}) == 1
    assert lane.db["policies"].count_documents({}) == 0


def test_verification_catches_a_store_that_did_not_take_the_state(lane, monkeypatch):
    real_load, real_put = MongoStore.load, BucketStore.load

    def lossy_load(store, plan):
        real_load(store, plan)
        store.db["policies"].delete_one({"_id": "POL-1"})

    def stray_put(store, plan):
        real_put(store, plan)
        _put(lane, "stray/object.bin", b"left over")

    monkeypatch.setattr(MongoStore, "load", lossy_load)
    monkeypatch.setattr(BucketStore, "load", stray_put)
    setup, files = make_setup_a()
    with pytest.raises(SeedError) as err:
        reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), setup, files)
    assert err.value.context["reason"] == "verify_failed"
    assert "missing document policies/POL-1" in err.value.message
    assert "unexpected object stray/object.bin" in err.value.message


def test_product_indexes_survive_a_reset(lane):
    lane.db["claims"].create_index("claim_number", unique=True, name="claim_number_unique")
    setup, files = make_setup_a()
    reset_and_load(lane.db, lane.s3, lane.bucket, make_baseline(), setup, files)
    assert "claim_number_unique" in lane.db["claims"].index_information()
