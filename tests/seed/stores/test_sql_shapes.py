"""The mapping's shapes in a real database, SQLite and PostgreSQL: rows the harness numbers,
foreign keys by those numbers, NOT NULL columns filled by the profile, child tables, fields
dropped — written, verified and read back as the canonical documents; the product's own rows
read back by their keys; PostgreSQL's sequences moved past the numbers written; and every
misfit refused when the reset is planned, naming the profile key, the table and the column,
before anything is emptied."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from claims_records import ProfileError, SeedError, StoreRefusal
from seed.stores import PRODUCT_PREFIX
from seed.stores.mapping._paths import pop_path

from .sql_schema import COLLECTIONS, DROPPED, Database, mapping, new_database

_roles = itertools.count(1)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    yield from new_database(request, tmp_path)


def expected(collections: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """What a dump gives back of ``collections``: dropped paths gone, a null field absent
    (a NULL column), staff (kept nowhere) left out."""
    out: dict[str, Any] = {}
    for name, docs in collections.items():
        if name == "staff":
            continue
        out[name] = {}
        for doc in copy.deepcopy(docs):
            for path in DROPPED.get(name, []):
                pop_path(doc, path)
            out[name][doc["_id"]] = {k: v for k, v in doc.items() if v is not None}
    return out


def _rows(db: Database, table: str) -> list[dict[str, Any]]:
    with db.engine.connect() as conn:
        return [dict(r._mapping) for r in
                conn.execute(sa.text(f"SELECT * FROM {table} ORDER BY id"))]


def test_every_shape_is_written_verified_and_read_back(db, monkeypatch):
    with db.stores(monkeypatch, mapping()) as stores:
        prepared = stores.prepare(copy.deepcopy(COLLECTIONS), [])
        stores.apply(prepared)  # verified: raises on any difference
        assert stores.verify(prepared) == []
        assert stores.dump().collections == expected(COLLECTIONS)
    people = _rows(db, "person")
    assert [(r["id"], r["full_name"]) for r in people] == [(1, "Ann Lee"), (2, "Bo Chan")]
    cover = _rows(db, "cover")
    assert [(r["id"], r["person_id"], r["label"], r["sum_insured"]) for r in cover] == [
        (1, 1, "P-100 (motor)", 0), (2, 2, "P-200 (home)", 0), (3, 1, "P-300 (home)", 0)]
    (claim,) = _rows(db, "claim")
    assert (claim["id"], claim["cover_id"], claim["channel"]) == (1, 3, "chat")
    assert sorted((r["claim_id"], r["name"], r["value"], r["state"])
                  for r in _rows(db, "fact")) == [
        (1, "incident_date", "2025-12-02", "confirmed"), (1, "incident_type", "theft",
                                                           "reported")]
    assert [(r["claim_id"], r["body"], r["author"]) for r in _rows(db, "note")] == [
        (1, "same", "ann"), (1, "same", "ann"), (1, "other", "bo")]


def test_a_canonical_id_in_a_column_of_its_own_beside_an_integer_key(db, monkeypatch):
    """The claim's canonical id in ``number`` (fields._id), its integer key numbered by the
    harness only because the fact and note rows refer to it: read back by the id column,
    also for a claim the product adds."""
    claims = {**CLAIMS_MAP, "key": "canonical",
              "fields": {**CLAIMS_MAP["fields"], "_id": "number"},
              "drop": [*CLAIMS_MAP["drop"], "claim_number"]}
    claims["fields"].pop("claim_number")
    with db.stores(monkeypatch, mapping(claims=claims)) as stores:
        stores.apply(stores.prepare(copy.deepcopy(COLLECTIONS), []))
        db.execute("INSERT INTO claim (number, cover_id, channel) VALUES ('CLM-9', 1, 'x')")
        db.execute("INSERT INTO fact (claim_id, name, value, state) "
                   "VALUES (2, 'incident_type', 'fire', 'reported')")
        dumped = stores.dump().collections["claims"]
    (seeded,) = [{k: v for k, v in doc.items() if k != "claim_number"}
                 for doc in expected(COLLECTIONS)["claims"].values()]
    assert dumped == {"CLM-1": seeded, "CLM-9": {
        "_id": "CLM-9", "policy_id": "p-1",
        "facts": {"incident_type": {"value": "fire", "state": "reported"}}}}
    assert [(r["id"], r["number"]) for r in _rows(db, "claim")] == [(1, "CLM-1"), (2, "CLM-9")]


def test_a_row_changed_behind_the_resets_back_is_a_difference(db, monkeypatch):
    with db.stores(monkeypatch, mapping()) as stores:
        prepared = stores.prepare(copy.deepcopy(COLLECTIONS), [])
        stores.apply(prepared)
        db.execute("UPDATE note SET body = 'changed' WHERE id = 2")  # one of two equal rows
        db.execute("UPDATE cover SET label = 'x' WHERE id = 1")
        assert stores.verify(prepared) == ["document cover/1 differs",
                                           "missing or different row in note",
                                           "unexpected row in note"]
        db.execute("INSERT INTO fact (claim_id, name, value, state) "
                   "VALUES (1, 'extra', 'x', 'reported')")
        assert "unexpected row in fact" in stores.verify(prepared)


def test_every_reset_gives_the_same_keys(db, monkeypatch):
    first, other = copy.deepcopy(COLLECTIONS), copy.deepcopy(COLLECTIONS)
    other["customers"] = [*other["customers"], {"_id": "c-3", "name": "Cy"}]
    other["policies"] = other["policies"][:1]
    other["claims"] = []
    with db.stores(monkeypatch, mapping()) as stores:
        stores.apply(stores.prepare(copy.deepcopy(first), []))
        keys = [r["id"] for r in _rows(db, "person")], [r["id"] for r in _rows(db, "cover")]
        stores.apply(stores.prepare(other, []))
        assert [r["id"] for r in _rows(db, "person")] == [1, 2, 3]  # the same rows first
        assert stores.dump().collections["policies"] == {
            "p-1": expected(first)["policies"]["p-1"]}
        stores.apply(stores.prepare(copy.deepcopy(first), []))
        assert ([r["id"] for r in _rows(db, "person")],
                [r["id"] for r in _rows(db, "cover")]) == keys
        assert stores.dump().collections == expected(first)


def test_the_product_numbers_its_next_rows_alike_after_every_reset(db, monkeypatch):
    """Rows the database numbers (child rows) and the product's next rows get the same
    numbers after every reset of the same setup, whatever was added in between: the
    numbering (a PostgreSQL sequence or identity, a SQLite AUTOINCREMENT) restarts after
    what the reset wrote."""
    def numbers() -> tuple[list[int], list[int]]:
        return [r["id"] for r in _rows(db, "fact")], [r["id"] for r in _rows(db, "note")]

    with db.stores(monkeypatch, mapping()) as stores:
        stores.apply(stores.prepare(copy.deepcopy(COLLECTIONS), []))
        first = numbers()
        for _ in range(3):  # the product adds rows between resets
            db.execute("INSERT INTO note (claim_id, body) VALUES (1, 'later')")
            db.execute("INSERT INTO fact (claim_id, name, state) VALUES (1, 'x', 'reported')")
        stores.apply(stores.prepare(copy.deepcopy(COLLECTIONS), []))
        assert numbers() == first == ([1, 2], [1, 2, 3])
        db.execute("INSERT INTO note (claim_id, body) VALUES (1, 'next')")
        assert [r["id"] for r in _rows(db, "note")] == [1, 2, 3, 4]


def test_a_schema_changed_between_resets_is_read_as_it_is_now(db, monkeypatch):
    """The store reuses the tables it reflected only while the schema is unchanged."""
    with db.stores(monkeypatch, mapping()) as stores:
        stores.apply(stores.prepare(copy.deepcopy(COLLECTIONS), []))
        assert "nickname" not in stores.dump().collections["customers"]["c-1"]
        db.execute("ALTER TABLE person ADD COLUMN nickname TEXT DEFAULT 'none'")
        assert stores.dump().collections["customers"]["c-1"]["nickname"] == "none"
        stores.apply(stores.prepare(copy.deepcopy(COLLECTIONS), []))
        db.execute("ALTER TABLE person DROP COLUMN email")
        with pytest.raises(ProfileError, match=r"no column for \['email'\]"):
            stores.prepare(copy.deepcopy(COLLECTIONS), [])


def test_the_products_own_rows_read_back_by_their_keys_after_the_seeded_ones(db, monkeypatch):
    """The product numbers its next rows past the seeded ones (PostgreSQL: its sequences were
    moved), and they read back under their own keys, referring to seeded rows by their
    canonical ids."""
    with db.stores(monkeypatch, mapping()) as stores:
        stores.apply(stores.prepare(copy.deepcopy(COLLECTIONS), []))
        before = stores.dump()
        db.execute("INSERT INTO person (full_name) VALUES ('Dee')")
        db.execute("INSERT INTO cover (person_id, number, label, sum_insured) "
                   "VALUES (3, 'P-400', 'new', 10)")
        db.execute("INSERT INTO claim (number, cover_id, status, channel) "
                   "VALUES ('CLM-2', 2, 'draft', 'phone')")
        db.execute("INSERT INTO fact (claim_id, name, value, state) "
                   "VALUES (2, 'incident_type', 'fire', 'confirmed')")
        assert [r["id"] for r in _rows(db, "person")] == [1, 2, 3]
        assert [r["id"] for r in _rows(db, "claim")] == [1, 2]
        after = stores.dump()
    assert after.collections["customers"]["3"] == {"_id": "3", "name": "Dee"}
    assert after.collections["policies"]["4"] == {"_id": "4", "policy_number": "P-400",
                                                  "customer_id": "3"}
    assert after.collections["claims"]["2"] == {
        "_id": "2", "claim_number": "CLM-2", "policy_id": "p-2", "status": "draft",
        "facts": {"incident_type": {"value": "fire", "state": "confirmed"}}}
    assert {k: v for k, v in after.collections.items()} != before.collections
    for name, docs in before.collections.items():  # the seeded ones unchanged
        assert {k: after.collections[name][k] for k in docs} == docs


def _only(*names: str) -> dict[str, Any]:
    return {n: copy.deepcopy(COLLECTIONS[n]) for n in names}


def _claim(**changes: Any) -> dict[str, Any]:
    data = _only("customers", "policies", "claims")
    data["claims"][0].update(changes)
    return data


POLICIES_MAP = mapping()["policies"].model_dump(exclude_defaults=True)
CLAIMS_MAP = mapping()["claims"].model_dump(exclude_defaults=True)

# (case, mapping changes, collections, error, message, context the error carries)
REFUSED: list[tuple[str, dict[str, Any], dict[str, Any], type[Exception], str,
                    dict[str, Any]]] = [
    ("a reference to a row the reset does not write", {},
     {**_only("customers"), "policies": [{**COLLECTIONS["policies"][0], "customer_id": "c-9"}]},
     ProfileError, "refers to person/c-9, which this reset does not write",
     {"field": "mapping.policies.refs.customer_id", "table": "cover", "column": "person_id",
      "refers_to": "person"}),
    ("a reference to a collection not written", {}, _only("policies"),
     ProfileError, "refers to person/c-1, which this reset does not write",
     {"field": "mapping.policies.refs.customer_id", "table": "cover", "column": "person_id"}),
    ("a reference to a collection kept nowhere", {"customers": {"collection": ""}},
     _only("customers", "policies"), ProfileError,
     "refers to 'customers', which the product does not keep",
     {"field": "mapping.policies.refs.customer_id", "table": "cover", "column": "person_id"}),
    ("a template naming a missing path",
     {"policies": {**POLICIES_MAP, "derived": {"label": "{policy_number} ({colour})"}}},
     _only("customers", "policies"), ProfileError, r"names \{colour\}",
     {"field": "mapping.policies.derived.label", "table": "cover", "column": "label"}),
    ("a child field that is neither object nor list", {}, _claim(facts="none"),
     ProfileError, "not an object or a list",
     {"field": "mapping.claims.children.facts", "table": "fact"}),
    ("item_key on a list", {}, _claim(facts=[{"value": "x", "state": "reported"}]),
     ProfileError, "item_key is only for an object's entries",
     {"field": "mapping.claims.children.facts.item_key", "table": "fact", "column": "name"}),
    ("a NOT NULL column no row fills",
     {"policies": {k: v for k, v in POLICIES_MAP.items() if k != "fixed"}},
     _only("customers", "policies"), ProfileError, "may not be empty and 3 row",
     {"field": "mapping.policies.fixed", "table": "cover", "column": "sum_insured"}),
    ("a NOT NULL child column no row fills", {}, _claim(facts={"x": {"value": "1"}}),
     ProfileError, "column 'state' of 'fact' may not be empty and 1 row",
     {"field": "mapping.claims.children.facts.fixed", "table": "fact", "column": "state"}),
    ("text for an integer key",
     {"customers": {"collection": "person", "fields": {"name": "full_name"}}},
     _only("customers"), ProfileError, "is INTEGER and cannot hold 'c-1'",
     {"field": "mapping.customers.key", "table": "person", "column": "id"}),
    ("a canonical id in a foreign key without refs",
     {"policies": {k: v for k, v in POLICIES_MAP.items() if k != "refs"}},
     _only("customers", "policies"), ProfileError, "declare the reference",
     {"field": "mapping.policies.refs", "table": "cover", "column": "person_id"}),
    ("a value that is no number", {},
     {**_only("customers"), "policies": [{**COLLECTIONS["policies"][0], "excess": "lots"}]},
     SeedError, "cannot hold 'lots'",
     {"field": "mapping.policies", "table": "cover", "column": "excess"}),
    ("a field without a column",
     {"claims": {**CLAIMS_MAP, "drop": ["review.checks", "session_id"]}},
     _claim(), ProfileError, r"no column for \['materials'\]",
     {"field": "mapping.claims.fields", "table": "claim"}),
    ("a child table that is not there",
     {"claims": {**CLAIMS_MAP, "children": {**CLAIMS_MAP["children"], "facts": {
         "table": "facts_of_claims", "parent_key": "claim_id", "item_key": "name"}}}},
     _claim(), StoreRefusal, "no table 'facts_of_claims'",
     {"field": "mapping.claims.children.facts", "table": "facts_of_claims"}),
    ("rows to number in a table without an integer key",
     {"customers": {"collection": "claims", "key": "assigned", "fields": {"name": "body"},
                    "drop": ["email"]}}, _only("customers"),
     ProfileError, "no one-column integer key",
     {"field": "mapping.customers.key", "table": "claims"}),
]


@pytest.mark.parametrize(("case", "changes", "collections", "error", "message", "context"),
                         REFUSED, ids=[r[0] for r in REFUSED])
def test_a_misfit_is_refused_when_planned_naming_key_table_and_column(
        case, changes, collections, error, message, context, db, monkeypatch):
    with db.stores(monkeypatch, mapping()) as seeded:
        seeded.apply(seeded.prepare(copy.deepcopy(COLLECTIONS), []))
        before = seeded.dump().collections
        with db.stores(monkeypatch, mapping(**changes)) as stores, \
                pytest.raises(error, match=message) as err:
            stores.prepare(copy.deepcopy(collections), [])
        assert {k: err.value.context.get(k) for k in context} == context, case
        assert "\n" not in str(err.value)
        assert seeded.dump().collections == before  # nothing was emptied


def test_a_database_error_while_writing_names_table_and_column_and_undoes_the_reset(
        db, monkeypatch):
    """What only the database can tell (a UNIQUE column) fails the write: one transaction,
    so the previous state stays, and the error names the table, the column and the profile
    key, never the URL or its password."""
    twice = _only("customers", "policies")
    twice["policies"][1]["policy_number"] = "P-100"
    with db.stores(monkeypatch, mapping()) as stores:
        stores.apply(stores.prepare(copy.deepcopy(COLLECTIONS), []))
        before = stores.dump().collections
        prepared = stores.prepare(twice, [])
        with pytest.raises(SeedError, match="the database failed during a reset") as err:
            stores.apply(prepared)
        assert {k: err.value.context.get(k) for k in ("table", "column", "field")} == {
            "table": "cover", "column": "number", "field": "mapping.policies"}
        assert db.url not in str(err.value) and "\n" not in str(err.value)
        if db.password:
            assert db.password not in str(err.value)
        assert stores.dump().collections == before


def test_canonical_names_are_read_only_where_mapped(db, monkeypatch):
    """The product's own table ``claims`` (listed in stores.collections) is not where the
    canonical claims are: with mapping.claims = '' none is written there and a dump shows it
    as product.claims; mapped elsewhere, the same."""
    for claims_map in ({"collection": ""}, CLAIMS_MAP):
        db.execute("DELETE FROM claims")
        with db.stores(monkeypatch, mapping(claims=claims_map), listed=("claims",)) as stores:
            stores.apply(stores.prepare(copy.deepcopy(COLLECTIONS), []))
            assert db.count("claims") == 0  # emptied (listed), nothing canonical written
            db.execute("INSERT INTO claims VALUES ('x-1', 'the product''s own')")
            dumped = stores.dump().collections
        assert dumped[PRODUCT_PREFIX + "claims"] == {"x-1": {"_id": "x-1",
                                                            "body": "the product's own"}}
        canonical = dumped.get("claims", {})
        assert "x-1" not in canonical
        assert canonical == ({} if not claims_map["collection"] else
                             expected(COLLECTIONS)["claims"])


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_a_value_its_column_type_cannot_read_is_read_as_the_text_stored(db, monkeypatch):
    """SQLite keeps whatever a product writes into a DATE column: a dump shows that text,
    where reading the column's type would fail; the other rows read as dates."""
    with db.stores(monkeypatch, mapping()) as stores:
        stores.apply(stores.prepare(copy.deepcopy(COLLECTIONS), []))
        db.execute("UPDATE cover SET starts = 'next Tuesday' WHERE id = 2")
        policies = stores.dump().collections["policies"]
    assert policies["p-2"]["start_date"] == "next Tuesday"
    assert policies["p-1"]["start_date"] == "2025-06-01"


# (case, statements (the last one fails), the column told: SQLite's, PostgreSQL's)
DATABASE_ERRORS = [
    ("NOT NULL", ["INSERT INTO cover (person_id, number, label) VALUES (1, 'P', 'L')"],
     ("sum_insured", "sum_insured")),
    ("UNIQUE", ["INSERT INTO person (id, full_name) VALUES (1, 'A')",
                "INSERT INTO cover (person_id, number, label, sum_insured) "
                "VALUES (1, 'P', 'L', 0)",
                "INSERT INTO cover (person_id, number, label, sum_insured) "
                "VALUES (1, 'P', 'L', 0)"], ("number", "number")),
    ("FOREIGN KEY", ["INSERT INTO cover (person_id, number, label, sum_insured) "
                     "VALUES (99, 'P', 'L', 0)"], (None, "person_id")),
    ("text in the integer key", ["INSERT INTO person (id, full_name) VALUES ('abc', 'A')"],
     ("id", None)),
]


@pytest.mark.parametrize(("case", "statements", "columns"), DATABASE_ERRORS,
                         ids=[c[0] for c in DATABASE_ERRORS])
def test_the_column_of_a_database_error_is_told_where_it_can_be(case, statements, columns, db):
    """What each database says of a failed write, read for its column: SQLite names the
    column of a NOT NULL or UNIQUE failure and its datatype mismatch can only be the integer
    key; PostgreSQL names it in its diagnostics, a foreign key's in "Key (column)=…"."""
    from seed.stores.sql._errors import failed_column

    table = sa.Table(statements[-1].split()[2], sa.MetaData(), autoload_with=db.engine)
    with db.engine.connect() as conn:
        if db.dialect == "sqlite":
            conn.execute(sa.text("PRAGMA foreign_keys = ON"))
        for statement in statements[:-1]:
            conn.execute(sa.text(statement))
        with pytest.raises(sa.exc.DBAPIError) as caught:
            conn.execute(sa.text(statements[-1]))
        conn.rollback()
    want = columns[0] if db.dialect == "sqlite" else columns[1]
    assert failed_column(caught.value, table) == want, str(caught.value.orig)


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
def test_a_database_error_while_reading_or_writing_names_its_table(db, monkeypatch):
    """A harness database user without rights on one table (the facts' child table): the
    dump and the reset fail naming that table and the profile key that fills it, never the
    URL or the user's password; the reset changes nothing."""
    role, password = f"limited_{next(_roles)}", "pw-limited-7Q2"
    tables = "person, cover, claim, note, claims"
    db.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
    db.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {tables} TO {role}")
    db.execute(f"GRANT SELECT ON fact TO {role}")  # reads it, may not empty it
    db.execute(f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {role}")
    with db.stores(monkeypatch, mapping()) as owner:
        owner.apply(owner.prepare(copy.deepcopy(COLLECTIONS), []))
    before = {table: _rows(db, table) for table in ("person", "cover", "claim", "fact", "note")}
    limited = Database(db.dialect, sa.make_url(db.url).set(
        username=role, password=password).render_as_string(hide_password=False), db.engine)
    with limited.stores(monkeypatch, mapping()) as stores:
        with pytest.raises(SeedError, match="the database failed during a reset: permission "
                                            "denied for table fact") as err:
            stores.apply(stores.prepare(copy.deepcopy(COLLECTIONS), []))
        assert err.value.context["table"] == "fact"
        assert err.value.context["field"] == "mapping.claims.children.facts"
        assert password not in str(err.value) and limited.url not in str(err.value)
        db.execute(f"REVOKE SELECT ON fact FROM {role}")
        with pytest.raises(SeedError, match="cannot read the database: permission denied "
                                            "for table fact") as err:
            stores.dump()
        assert err.value.context["table"] == "fact" and password not in str(err.value)
    assert {table: _rows(db, table) for table in before} == before  # rolled back


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
def test_a_key_the_database_always_numbers_itself_is_refused_when_planned(db, monkeypatch):
    """PostgreSQL's GENERATED ALWAYS AS IDENTITY takes no value: the numbers key = 'assigned'
    gives are refused when the reset is planned, naming the key and column, not by the
    database once the table is emptied (whose message the column is read from too)."""
    from seed.stores.sql._errors import failed_column

    db.execute("CREATE TABLE holder (id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
               "full_name TEXT NOT NULL, email TEXT)")
    db.execute("INSERT INTO holder (full_name) VALUES ('kept')")
    changes = {"customers": {"collection": "holder", "key": "assigned",
                             "fields": {"name": "full_name"}}}
    with db.stores(monkeypatch, mapping(**changes)) as stores, \
            pytest.raises(ProfileError, match="GENERATED ALWAYS AS IDENTITY") as err:
        stores.prepare(_only("customers"), [])
    assert {k: err.value.context[k] for k in ("field", "table", "column")} == {
        "field": "mapping.customers.key", "table": "holder", "column": "id"}
    assert [r["full_name"] for r in _rows(db, "holder")] == ["kept"]
    # by default the database takes the harness's numbers
    db.execute("ALTER TABLE holder ALTER COLUMN id SET GENERATED BY DEFAULT")
    with db.stores(monkeypatch, mapping(**changes)) as stores:
        stores.apply(stores.prepare(_only("customers"), []))
        assert stores.dump().collections["customers"] == expected(_only("customers"))[
            "customers"]
    with db.engine.connect() as conn, pytest.raises(sa.exc.DBAPIError) as caught:
        conn.execute(sa.text("ALTER TABLE holder ALTER COLUMN id SET GENERATED ALWAYS"))
        conn.execute(sa.text("INSERT INTO holder (id, full_name) VALUES (9, 'x')"))
    assert failed_column(caught.value, None) == "id"
