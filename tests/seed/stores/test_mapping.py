"""The canonical schema <-> a product's names: setups go out mapped, dumps come back."""

from __future__ import annotations

from typing import Any

from claims_records import StateDump
from seed.stores import CollectionMap, canonical_collections
from seed.stores import to_product as _to_product


def to_product(collections: dict[str, list[dict[str, Any]]], mapping: dict[str, CollectionMap]
               ) -> dict[str, list[dict[str, Any]]]:
    """The mapped documents' values (no references in these mappings)."""
    return {name: [d.values for d in docs]
            for name, docs in _to_product(collections, mapping).items()}


def to_canonical(dump: StateDump, mapping: dict[str, CollectionMap],
                 ignore: list[str] | tuple[str, ...] = ()) -> StateDump:
    return dump.model_copy(update={"collections": canonical_collections(
        dump.collections, mapping, ignore=ignore)})

MAPPING = {
    "policies": CollectionMap(collection="cover", fields={"policy_number": "ref.number",
                                                          "customer_id": "holder"},
                              values={"status": {"active": "IN_FORCE"}}),
    "claims": CollectionMap(collection="fnol_cases", fields={"status": "stage"},
                            values={"status": {"submitted": "lodged"}}),
}


def test_setups_are_written_in_the_products_terms():
    out = to_product({"policies": [{"_id": "p1", "policy_number": "NWF-1", "customer_id": "c1",
                                    "status": "active", "line": "motor"}],
                      "staff": [{"_id": "s1"}]}, MAPPING)
    assert out == {"cover": [{"_id": "p1", "ref": {"number": "NWF-1"}, "holder": "c1",
                              "status": "IN_FORCE", "line": "motor"}],
                   "staff": [{"_id": "s1"}]}


def test_state_comes_back_in_canonical_terms_and_round_trips():
    canonical = {"_id": "c1", "policy_number": "NWF-1", "status": "submitted",
                 "triage": {"class": "standard"}}
    product = to_product({"claims": [canonical]}, MAPPING)["fnol_cases"][0]
    assert product["stage"] == "lodged" and "status" not in product
    dump = StateDump(taken_at="t", database="d", bucket="b", objects={}, collections={
        "fnol_cases": {"c1": product}, "events": {"e1": {"_id": "e1"}},
        "sessions_internal": {"x": {"_id": "x"}}})
    back = to_canonical(dump, MAPPING, ignore=["sessions_internal"])
    assert back.collections == {"claims": {"c1": canonical}, "events": {"e1": {"_id": "e1"}}}


def test_values_not_in_the_table_pass_unchanged():
    out = to_product({"claims": [{"_id": "c", "status": "draft"}]}, MAPPING)
    assert out["fnol_cases"][0]["stage"] == "draft"


def test_a_leaf_moves_apart_from_its_renamed_parent_and_lists_map_each_element():
    cmap = {"claims": CollectionMap(
        collection="cases",
        fields={"facts.incident_date": "answers.lossDate",
                "facts.incident_date.state": "answers.lossDate.status",
                "triage.class": "triage.band"},
        values={"facts.incident_date.state": {"confirmed": "CONFIRMED"},
                "triage.reasons": {"theft": "THEFT"}})}
    canonical = {"_id": "c", "facts": {"incident_date": {"value": "2026-03-12",
                                                         "state": "confirmed"}},
                 "triage": {"class": "standard", "reasons": ["theft", "fire"]}}
    product = to_product({"claims": [canonical]}, cmap)["cases"][0]
    assert product == {"_id": "c",
                       "answers": {"lossDate": {"value": "2026-03-12", "status": "CONFIRMED"}},
                       "triage": {"band": "standard", "reasons": ["THEFT", "fire"]}}
    dump = StateDump(taken_at="t", database="d", bucket="b", objects={},
                     collections={"cases": {"c": product}})
    assert to_canonical(dump, cmap).collections == {"claims": {"c": canonical}}


def test_empty_dicts_and_lists_that_are_data_survive_the_round_trip():
    cmap = {"claims": CollectionMap(
        collection="cases",
        fields={"review.review_required": "referral.refer",
                "review.checks.quote_before_incident.outcome": "referral.quote.result",
                "facts.incident_date": "answers.lossDate"},
        values={})}
    canonical = {"_id": "c", "review": {"review_required": False, "checks": {}},
                 "facts": {}, "materials": [], "session_id": None}
    product = to_product({"claims": [canonical]}, cmap)["cases"][0]
    assert product == {"_id": "c", "review": {"checks": {}}, "referral": {"refer": False},
                       "facts": {}, "materials": [], "session_id": None}
    dump = StateDump(taken_at="t", database="d", bucket="b", objects={},
                     collections={"cases": {"c": product}})
    assert to_canonical(dump, cmap).collections == {"claims": {"c": canonical}}
