"""The mapping's shapes for the schemas teams have, without a database: keys the product
numbers (``key = "assigned"``), references by those keys (``refs``), columns no pack fills
(``fixed``, ``derived``), fields kept nowhere (``drop``) and child tables (``children``) —
each written forward and read back, and each misfit refused naming the profile key, the
table and the column."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from claims_records import ProfileError
from seed.stores import (
    PRODUCT_PREFIX,
    CollectionMap,
    Ref,
    canonical_collections,
    fill_template,
    to_product,
)

CUSTOMER = {"_id": "c-1", "name": "Ann Lee", "email": "ann@example.org"}
POLICY = {"_id": "p-1", "policy_number": "P-100", "customer_id": "c-1", "line": "motor",
          "excess": 250, "internal": {"flag": True, "note": "x"}}
CLAIM = {"_id": "CLM-1", "claim_number": "CLM-1", "policy_id": "p-1", "status": "submitted",
         "facts": {"incident_date": {"value": "2025-12-02", "state": "confirmed"},
                   "incident_type": {"value": "theft", "state": "reported"}},
         "notes": [{"body": "first", "by": "ann", "secret": 1},
                   {"body": "second", "by": "bo", "secret": 2}],
         "tags": ["a", "b"], "materials": []}

MAPPING = {
    "customers": CollectionMap(collection="person", key="assigned",
                               fields={"name": "full_name"}),
    "policies": CollectionMap(collection="cover", key="assigned",
                              refs={"customer_id": "customers"},
                              fields={"customer_id": "person_id", "policy_number": "number"},
                              fixed={"sum_insured": 0, "currency": "GBP"},
                              derived={"label": "{policy_number} ({line}, {excess})",
                                       "owner_ref": "{customer_id}"},
                              drop=["internal.flag", "internal.note"]),
    "claims": CollectionMap.model_validate({
        "collection": "claim", "key": "assigned", "refs": {"policy_id": "policies"},
        "fields": {"claim_number": "number", "policy_id": "cover_id"},
        "values": {"status": {"submitted": "OPEN"}}, "drop": ["materials"],
        "children": {
            "facts": {"table": "fact", "parent_key": "claim_id", "item_key": "name",
                      "fields": {"state": "status"},
                      "values": {"state": {"confirmed": "C", "reported": "R"}},
                      "fixed": {"source": "chat"}},
            "notes": {"table": "note", "parent_key": "claim_id", "fields": {"by": "author"},
                      "drop": ["secret"]},
            "tags": {"table": "tag", "parent_key": "claim_id", "value": "label"}}}),
    "accounts": CollectionMap(collection=""),
}


def _forward(collections: dict[str, list[dict[str, Any]]], mapping: dict[str, CollectionMap]
             = MAPPING) -> dict[str, list[Any]]:
    return {name: [(d.values, d.canonical_id, d.source) for d in docs]
            for name, docs in to_product(copy.deepcopy(collections), mapping).items()}


def test_each_shape_is_written_in_the_products_terms():
    out = _forward({"customers": [CUSTOMER], "policies": [POLICY], "claims": [CLAIM],
                    "accounts": [{"_id": "a-1"}]})
    assert out["person"] == [({"full_name": "Ann Lee", "email": "ann@example.org"}, "c-1",
                              "mapping.customers")]  # no _id: the product numbers the row
    assert out["cover"] == [({
        "number": "P-100", "person_id": Ref("person", "c-1", "mapping.policies.refs.customer_id"),
        "line": "motor", "excess": 250, "sum_insured": 0, "currency": "GBP",
        "label": "P-100 (motor, 250)", "owner_ref": "c-1"}, "p-1", "mapping.policies")]
    claim_ref = Ref("claim", "CLM-1", "mapping.claims.children.facts.parent_key")
    assert out["claim"] == [({"number": "CLM-1", "cover_id": Ref(
        "cover", "p-1", "mapping.claims.refs.policy_id"), "status": "OPEN"}, "CLM-1",
        "mapping.claims")]
    assert out["fact"] == [
        ({"value": "2025-12-02", "status": "C", "name": "incident_date", "claim_id": claim_ref,
          "source": "chat"}, None, "mapping.claims.children.facts"),
        ({"value": "theft", "status": "R", "name": "incident_type", "claim_id": claim_ref,
          "source": "chat"}, None, "mapping.claims.children.facts")]
    note_ref = Ref("claim", "CLM-1", "mapping.claims.children.notes.parent_key")
    assert [row for row, _, _ in out["note"]] == [
        {"body": "first", "author": "ann", "claim_id": note_ref},
        {"body": "second", "author": "bo", "claim_id": note_ref}]
    tag_ref = Ref("claim", "CLM-1", "mapping.claims.children.tags.parent_key")
    assert [row for row, _, _ in out["tag"]] == [{"label": "a", "claim_id": tag_ref},
                                                  {"label": "b", "claim_id": tag_ref}]
    assert "accounts" not in out and "" not in out  # kept nowhere, written nowhere


def _dumped() -> dict[str, dict[str, dict[str, Any]]]:
    """What a SQL store would dump after writing the three documents above, keys 1, 1, 7."""
    return {
        "person": {"1": {"id": 1, "full_name": "Ann Lee", "email": "ann@example.org"}},
        "cover": {"1": {"id": 1, "number": "P-100", "person_id": 1, "line": "motor",
                        "excess": 250, "sum_insured": 0, "currency": "GBP",
                        "label": "P-100 (motor, 250)", "owner_ref": "c-1"}},
        "claim": {"7": {"id": 7, "number": "CLM-1", "cover_id": 1, "status": "OPEN"}},
        # child rows in another order than written: read back in key order
        "fact": {"12": {"id": 12, "claim_id": 7, "name": "incident_type", "value": "theft",
                        "status": "R", "source": "chat"},
                 "11": {"id": 11, "claim_id": 7, "name": "incident_date",
                        "value": "2025-12-02", "status": "C", "source": "chat"}},
        "note": {"2": {"id": 2, "claim_id": 7, "body": "first", "author": "ann"},
                 "10": {"id": 10, "claim_id": 7, "body": "second", "author": "bo"}},
        "tag": {"3": {"id": 3, "claim_id": 7, "label": "a"},
                "4": {"id": 4, "claim_id": 7, "label": "b"}},
    }


KEYS = {name: "id" for name in ("person", "cover", "claim", "fact", "note", "tag")}
ASSIGNED = {("person", "1"): "c-1", ("cover", "1"): "p-1", ("claim", "7"): "CLM-1"}


def test_each_shape_is_read_back_as_the_canonical_document():
    back = canonical_collections(_dumped(), MAPPING, key_fields=KEYS, assigned=ASSIGNED)
    assert back == {
        "customers": {"c-1": CUSTOMER},
        # fixed and derived columns are not read back; dropped paths are not expected back
        "policies": {"p-1": {k: v for k, v in POLICY.items() if k != "internal"}},
        "claims": {"CLM-1": {**{k: v for k, v in CLAIM.items() if k != "materials"},
                             "notes": [{"body": "first", "by": "ann"},
                                       {"body": "second", "by": "bo"}]}},
    }


def test_a_row_the_product_numbered_itself_reads_back_by_its_key_and_refers_by_id():
    dumped = _dumped()
    dumped["claim"]["8"] = {"id": 8, "number": "CLM-2", "cover_id": 1, "status": "draft"}
    dumped["fact"]["13"] = {"id": 13, "claim_id": 8, "name": "incident_type",
                            "value": "fire", "status": "C", "source": "chat"}
    dumped["cover"]["2"] = {"id": 2, "number": "P-200", "person_id": 1, "line": "home"}
    back = canonical_collections(dumped, MAPPING, key_fields=KEYS, assigned=ASSIGNED)
    # not seeded: its own key is its id; its references to seeded rows are canonical ids
    assert back["claims"]["8"] == {"_id": "8", "claim_number": "CLM-2", "policy_id": "p-1",
                                   "status": "draft", "facts": {"incident_type": {
                                       "value": "fire", "state": "confirmed"}}}
    assert back["policies"]["2"] == {"_id": "2", "policy_number": "P-200",
                                     "customer_id": "c-1", "line": "home"}
    # a reference to a row the dump does not hold keeps the product's key
    dumped["claim"]["9"] = {"id": 9, "number": "CLM-3", "cover_id": 99}
    again = canonical_collections(dumped, MAPPING, key_fields=KEYS, assigned=ASSIGNED)
    assert again["claims"]["9"]["policy_id"] == 99


def test_canonical_names_are_read_only_where_mapped():
    """A product table named like a canonical collection the profile maps elsewhere, or to
    nothing, is the product's own: shown as product.<name>, never read as canonical."""
    mapping = {"claims": CollectionMap(collection=""),
               "policies": CollectionMap(collection="cover"),
               "customers": CollectionMap(collection="customers")}
    dumped = {"claims": {"x": {"_id": "x", "status": "submitted"}},
              "policies": {"p": {"_id": "p", "policy_number": "P-1"}},
              "cover": {"p-1": {"_id": "p-1", "policy_number": "P-100"}},
              "customers": {"c-1": {"_id": "c-1", "name": "Ann"}},
              "sessions": {"s": {"_id": "s"}}}
    back = canonical_collections(dumped, mapping)
    assert back == {f"{PRODUCT_PREFIX}claims": {"x": {"_id": "x", "status": "submitted"}},
                    f"{PRODUCT_PREFIX}policies": {"p": {"_id": "p", "policy_number": "P-1"}},
                    "policies": {"p-1": {"_id": "p-1", "policy_number": "P-100"}},
                    "customers": {"c-1": {"_id": "c-1", "name": "Ann"}},
                    "sessions": {"s": {"_id": "s"}}}


def test_derived_values_keep_a_lone_placeholders_type_and_never_write_none():
    doc = {"_id": "p", "n": 3, "flag": False, "tags": ["a"], "none": None, "deep": {"x": "y"}}
    assert fill_template("{n}", doc, "f") == 3
    assert fill_template("{none}", doc, "f") is None  # a NOT NULL column refuses it later
    assert fill_template("{deep}", doc, "f") == {"x": "y"}
    assert fill_template("#{n} {flag} {tags} {deep.x}", doc, "f") == '#3 false ["a"] y'
    with pytest.raises(ProfileError, match=r"\{none\}, which is null") as err:
        fill_template("n={none}", doc, "mapping.p.derived.c", table="t", column="c")
    assert err.value.context == {"field": "mapping.p.derived.c", "id": "p", "table": "t",
                                 "column": "c"}


def _with(name: str, **changes: Any) -> dict[str, CollectionMap]:
    mapping = dict(MAPPING)
    mapping[name] = CollectionMap.model_validate(
        {**MAPPING[name].model_dump(exclude_defaults=True), **changes})
    return mapping


# (case, mapping, a document that does not fit, one that does (table, rows written), the
# message, the context the error must carry)
REFUSED: list[tuple[str, dict[str, CollectionMap], dict[str, Any], tuple[dict[str, Any], str,
                                                                          int], str,
                    dict[str, Any]]] = [
    ("a reference to a collection kept nowhere",
     {**MAPPING, "customers": CollectionMap(collection="")}, {"policies": [POLICY]},
     ({"policies": [{**POLICY, "customer_id": None}]}, "cover", 1),
     "refers to 'customers', which the product does not keep",
     {"field": "mapping.policies.refs.customer_id", "table": "cover", "column": "person_id"}),
    ("a reference that holds no id",
     MAPPING, {"policies": [{**POLICY, "customer_id": {"id": "c-1"}}]},
     ({"policies": [POLICY]}, "cover", 1), "holds no id",
     {"field": "mapping.policies.refs.customer_id", "table": "cover", "column": "person_id",
      "id": "p-1"}),
    ("a template naming a missing path",
     _with("policies", derived={"label": "{policy_number} {colour}"}), {"policies": [POLICY]},
     ({"policies": [{**POLICY, "colour": "red"}]}, "cover", 1),
     r"names \{colour\}, which the document does not hold",
     {"field": "mapping.policies.derived.label", "table": "cover", "column": "label",
      "id": "p-1"}),
    ("a child field that is neither object nor list",
     MAPPING, {"claims": [{**CLAIM, "facts": "none yet"}]},
     ({"claims": [{**CLAIM, "facts": {}}]}, "fact", 0),
     "holds a str, not an object or a list",
     {"field": "mapping.claims.children.facts", "table": "fact", "id": "CLM-1"}),
    ("item_key on a list",
     MAPPING, {"claims": [{**CLAIM, "facts": [{"value": 1, "state": "confirmed"}]}]},
     ({"claims": [{**CLAIM, "facts": {"a": {"value": 1, "state": "confirmed"}}}]}, "fact", 1),
     "the field is a list: item_key is only for an object's entries",
     {"field": "mapping.claims.children.facts.item_key", "table": "fact", "column": "name",
      "id": "CLM-1"}),
    ("an object without item_key",
     MAPPING, {"claims": [{**CLAIM, "notes": {"n1": {"body": "x"}}}]},
     ({"claims": [{**CLAIM, "notes": [{"body": "x"}]}]}, "note", 1),
     "name the column holding each entry's key",
     {"field": "mapping.claims.children.notes.item_key", "table": "note", "id": "CLM-1"}),
    ("plain entries without a value column",
     MAPPING, {"claims": [{**CLAIM, "notes": ["plain text"]}]},
     ({"claims": [{**CLAIM, "notes": [{"body": "plain text"}]}]}, "note", 1),
     "the entries are plain values",
     {"field": "mapping.claims.children.notes.value", "table": "note", "id": "CLM-1"}),
]


@pytest.mark.parametrize(("case", "mapping", "bad", "good", "message", "context"), REFUSED,
                         ids=[r[0] for r in REFUSED])
def test_a_document_that_does_not_fit_is_refused_naming_key_table_and_column(
        case, mapping, bad, good, message, context):
    with pytest.raises(ProfileError, match=message) as err:
        to_product(copy.deepcopy(bad), mapping)
    assert err.value.context == context, case
    # the same mapping takes a document that fits
    fitting, table, count = good
    assert len(to_product(copy.deepcopy(fitting), mapping).get(table, [])) == count


# (invalid [mapping.X], the message)
INVALID = [
    ({"collection": "c", "key": "assigned", "fields": {"_id": "ref"}},
     "key = 'assigned' keeps no canonical id"),
    ({"collection": "c", "fixed": {"a": 1}, "derived": {"a": "{b}"}}, "either fixed or derived"),
    ({"collection": "c", "children": {"facts.x": {"table": "t", "parent_key": "p"}}},
     "children are top-level canonical fields"),
    ({"collection": "c", "fields": {"x": "a"}, "fixed": {"a": 1}},
     "also the target of a renamed field"),
    ({"collection": "c", "key": "numbered"}, "Input should be 'canonical' or 'assigned'"),
    ({"collection": "c", "children": {"f": {"table": "t", "parent_key": "p", "value": "v",
                                            "fields": {"a": "b"}}}}, "not both"),
    ({"collection": "c", "children": {"f": {"table": "t"}}}, "parent_key"),
]


@pytest.mark.parametrize(("data", "message"), INVALID, ids=[m for _, m in INVALID])
def test_a_mapping_that_cannot_be_inverted_is_refused_when_the_profile_loads(data, message):
    with pytest.raises(ValueError, match=message):
        CollectionMap.model_validate(data)


def test_the_products_own_key_is_left_out_where_the_id_has_a_column_of_its_own():
    mapping = {"claims": CollectionMap(collection="claim", fields={"_id": "number",
                                                                   "serial": "serial_no"})}
    dumped = {"claim": {"7": {"id": 7, "number": "CLM-1", "status": "open"}},
              "other": {"3": {"id": 3, "status": "x"}}}
    back = canonical_collections(dumped, mapping, key_fields={"claim": "id", "other": "id"})
    assert back == {"claims": {"CLM-1": {"_id": "CLM-1", "status": "open"}},
                    "other": {"3": {"_id": 3, "status": "x"}}}  # unmapped: its key as _id
    # a key column the mapping names is a field like any other
    named = {"claims": CollectionMap(collection="claim", fields={"_id": "number",
                                                                 "serial": "id"})}
    assert canonical_collections(dumped, named, key_fields={"claim": "id"})["claims"] == {
        "CLM-1": {"_id": "CLM-1", "serial": 7, "status": "open"}}
