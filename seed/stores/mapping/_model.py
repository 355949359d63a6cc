"""How a profile says one canonical collection is kept in a product's store (``[mapping.X]``).

The corpus speaks one canonical schema (``docs/reference-app.md``, "Collections"); products keep
the same things in their own collections and tables, named their own way, with keys they number
themselves, columns no pack fills, child tables and fields they have no place for. A
``CollectionMap`` says all of that for one canonical collection; the forward mapping writes
setups through it and the reverse mapping reads dumps back through its inverse, so the scorer
only ever sees canonical terms.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, model_validator

from claims_records import Strict

TEMPLATE_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.]*)\}")
"""A ``{canonical.path}`` in a derived value's template."""


class ChildMap(Strict):
    """A canonical field kept in a child table, one row per entry (``[mapping.X.children.F]``):
    an object's entries (``facts``: one row per fact key) or a list's items."""

    table: str = Field(description="The product's child table.")
    parent_key: str = Field(description="The child table's column holding the parent row's "
                            "key (a foreign key to the parent table).")
    item_key: str = Field("", description="For an object: the column holding each entry's key "
                          "(e.g. fact_key); '' for a list (its items in row order).")
    value: str = Field("", description="For entries that are plain values: the column holding "
                       "the value; '' when each entry is an object whose fields map by "
                       "'fields'.")
    fields: dict[str, str] = Field(
        default_factory=dict, description="Entry field -> column; fields not named keep their "
        "name (a field the table has no column for is refused, unless dropped).")
    values: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Entry field -> {canonical value: product value}.")
    drop: list[str] = Field(default_factory=list, description="Entry fields not kept.")
    fixed: dict[str, Any] = Field(
        default_factory=dict, description="Column -> a value written on every row (a NOT NULL "
        "column no pack fills); not read back.")

    @model_validator(mode="after")
    def _one_to_one(self) -> ChildMap:
        _check_one_to_one(self.fields, self.values)
        if self.value and self.fields:
            raise ValueError("give 'value' (entries are plain values) or 'fields' (entries "
                             "are objects), not both")
        return self


class CollectionMap(Strict):
    """One canonical collection in the product's terms."""

    collection: str = Field(description="The product's collection name; '' when the product "
                            "has no counterpart (its documents are not written, never read).")
    fields: dict[str, str] = Field(
        default_factory=dict, description="Canonical dotted path -> product dotted path; "
        "fields not named keep their name.")
    values: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Canonical field path -> {canonical value: product "
        "value}; values not named pass unchanged.")
    extra_column: str = Field(
        "", description="SQL stores: a JSON column of the table that takes every top-level "
        "field without a column of its own ('' = such a field is refused, unless dropped).")
    key: Literal["canonical", "assigned"] = Field(
        "canonical", description="canonical: the document's canonical id is kept (in _id's "
        "column, or the column fields._id names). assigned: the product numbers its rows "
        "itself (an integer key) and has no column for the canonical id; the harness gives "
        "each seeded row the next number in plan order and reads the canonical id back from "
        "that number.")
    refs: dict[str, str] = Field(
        default_factory=dict, description="Canonical field -> canonical collection: the field "
        "holds the id of a document of that collection, and the product's column holds that "
        "row's key (an integer key, a foreign key) instead; resolved by the harness both "
        "ways.")
    fixed: dict[str, Any] = Field(
        default_factory=dict, description="Product field (column) -> a value written on every "
        "seeded row: a NOT NULL column no pack fills (sum_insured = 0). Not read back.")
    derived: dict[str, str] = Field(
        default_factory=dict, description="Product field (column) -> a template over the "
        "canonical document, '{policy_number}' or 'Policy {policy_number} ({line})'. Not "
        "read back.")
    drop: list[str] = Field(
        default_factory=list, description="Canonical dotted paths the product keeps nowhere: "
        "not written, and not expected back.")
    children: dict[str, ChildMap] = Field(
        default_factory=dict, description="Canonical field -> the child table holding its "
        "entries, one row each (a normalised schema: claim + fact rows).")

    @model_validator(mode="after")
    def _invertible(self) -> CollectionMap:
        _check_one_to_one(self.fields, self.values)
        if self.key == "assigned" and "_id" in self.fields:
            raise ValueError("key = 'assigned' keeps no canonical id: do not also map '_id' "
                             "to a field")
        clash = sorted(set(self.fixed) & set(self.derived))
        if clash:
            raise ValueError(f"{clash}: a column is either fixed or derived, not both")
        parents = [f for f in self.children if "." in f]
        if parents:
            raise ValueError(f"children are top-level canonical fields, not {parents}")
        renamed = sorted((set(self.fixed) | set(self.derived)) & set(self.fields.values()))
        if renamed:
            raise ValueError(f"{renamed}: a fixed or derived column is also the target of a "
                             "renamed field")
        return self


def _check_one_to_one(fields: dict[str, str], values: dict[str, dict[str, Any]]) -> None:
    targets = list(fields.values())
    if len(set(targets)) != len(targets):
        raise ValueError(f"two canonical fields map to one product field: {targets}")
    for path, table in values.items():
        mapped = [repr(v) for v in table.values()]
        if len(set(mapped)) != len(mapped):
            raise ValueError(f"values of {path!r} are not one-to-one: {mapped}")


Mapping = dict[str, CollectionMap]
"""Canonical collection name -> how the product keeps it."""
