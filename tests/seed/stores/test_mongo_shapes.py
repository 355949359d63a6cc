"""The mapping's shapes in MongoDB: a reference is written as the referred document's _id and
read back; the shapes MongoDB cannot hold (rows the store numbers, child tables) are refused
when the reset is planned, naming the profile key, before anything is emptied."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from claims_records import ProfileError
from seed.stores import CollectionMap, MongoStore, NamePolicy, StoreSet

COLLECTIONS: dict[str, list[dict[str, Any]]] = {
    "customers": [{"_id": "c-1", "name": "Ann"}],
    "policies": [{"_id": "p-1", "customer_id": "c-1", "policy_number": "P-1",
                  "status": "active"}],
    "claims": [{"_id": "CLM-1", "policy_id": "p-1",
                "facts": {"incident_type": {"value": "theft", "state": "confirmed"}}}],
}
MAPPING = {"customers": CollectionMap(collection="holders"),
           "policies": CollectionMap(collection="cover", refs={"customer_id": "customers"},
                                     fields={"customer_id": "holder"}, fixed={"v": 2},
                                     derived={"label": "{policy_number}"}, drop=["status"]),
           "claims": CollectionMap(collection="cases", refs={"policy_id": "policies"})}


def _stores(lane: Any, mapping: dict[str, CollectionMap]) -> StoreSet:
    return StoreSet(MongoStore(lane.db, NamePolicy("_test_"), ("holders", "cover", "cases")),
                    None, mapping)


def test_references_fixed_derived_and_dropped_fields_round_trip(lane):
    stores = _stores(lane, MAPPING)
    stores.apply(stores.prepare(copy.deepcopy(COLLECTIONS), []))
    assert lane.db["cover"].find_one({"_id": "p-1"}) == {
        "_id": "p-1", "holder": "c-1", "policy_number": "P-1", "v": 2, "label": "P-1"}
    policies = {"p-1": {"_id": "p-1", "customer_id": "c-1", "policy_number": "P-1"}}
    assert stores.dump().collections == {"customers": {"c-1": COLLECTIONS["customers"][0]},
                                         "policies": policies,
                                         "claims": {"CLM-1": COLLECTIONS["claims"][0]}}


@pytest.mark.parametrize(("changes", "field"), [
    ({"customers": CollectionMap(collection="holders", key="assigned")},
     "mapping.customers.key"),
    ({"claims": CollectionMap.model_validate({
        "collection": "cases", "children": {"facts": {
            "table": "facts", "parent_key": "case_id", "item_key": "name"}}})},
     "mapping.claims.children.facts"),
], ids=["key = assigned", "children"])
def test_the_shapes_of_sql_tables_are_refused_before_anything_is_emptied(lane, changes, field):
    stores = _stores(lane, MAPPING)
    stores.apply(stores.prepare(copy.deepcopy(COLLECTIONS), []))
    before = stores.dump().collections
    refused = _stores(lane, {**MAPPING, **changes})
    with pytest.raises(ProfileError, match="MongoDB keeps every document by its _id") as err:
        refused.prepare(copy.deepcopy(COLLECTIONS), [])
    assert err.value.context["field"] == field
    assert stores.dump().collections == before
