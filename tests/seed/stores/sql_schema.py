"""A small product schema of the shapes teams have (integer keys, foreign keys, NOT NULL
columns no pack fills, child tables, no JSON column), the mapping onto it, and a fresh
database of it in SQLite or PostgreSQL for the store tests."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from seed.stores import CollectionMap, NamePolicy, SqlStore, StoreSet, StoreSource, open_store

DDL = """
CREATE TABLE person (id {serial} PRIMARY KEY, full_name TEXT NOT NULL, email TEXT);
CREATE TABLE cover (id {serial} PRIMARY KEY,
                    person_id INTEGER NOT NULL REFERENCES person(id),
                    number TEXT NOT NULL UNIQUE, line TEXT, excess NUMERIC(10, 2),
                    starts DATE, label TEXT NOT NULL, sum_insured INTEGER NOT NULL);
CREATE TABLE claim (id {serial} PRIMARY KEY, number TEXT NOT NULL,
                    cover_id INTEGER REFERENCES cover(id), status TEXT,
                    review_required BOOLEAN, channel TEXT NOT NULL);
CREATE TABLE fact (id {serial} PRIMARY KEY, claim_id INTEGER NOT NULL REFERENCES claim(id),
                   name TEXT NOT NULL, value TEXT, state TEXT NOT NULL);
CREATE TABLE note (id {serial} PRIMARY KEY, claim_id INTEGER NOT NULL REFERENCES claim(id),
                   body TEXT, author TEXT);
CREATE TABLE claims (id TEXT PRIMARY KEY, body TEXT);
"""
SERIAL = {"sqlite": "INTEGER", "postgresql": "SERIAL"}

MAPPING_DATA: dict[str, Any] = {
    "customers": {"collection": "person", "key": "assigned", "fields": {"name": "full_name"}},
    "policies": {"collection": "cover", "key": "assigned", "refs": {"customer_id": "customers"},
                 "fields": {"customer_id": "person_id", "policy_number": "number",
                            "start_date": "starts"},
                 "fixed": {"sum_insured": 0}, "derived": {"label": "{policy_number} ({line})"},
                 "drop": ["status"]},
    "claims": {"collection": "claim", "key": "assigned", "refs": {"policy_id": "policies"},
               "fields": {"claim_number": "number", "policy_id": "cover_id",
                          "review.review_required": "review_required"},
               "fixed": {"channel": "chat"},
               "drop": ["materials", "review.checks", "session_id"],
               "children": {
                   "facts": {"table": "fact", "parent_key": "claim_id", "item_key": "name"},
                   "notes": {"table": "note", "parent_key": "claim_id",
                             "fields": {"by": "author"}}}},
    "accounts": {"collection": ""},
    "staff": {"collection": ""},
}

CUSTOMERS = [{"_id": "c-1", "name": "Ann Lee", "email": "ann@example.org"},
             {"_id": "c-2", "name": "Bo Chan", "email": None}]
POLICIES = [{"_id": "p-1", "policy_number": "P-100", "customer_id": "c-1", "line": "motor",
             "excess": 250, "start_date": "2025-06-01", "status": "active"},
            {"_id": "p-2", "policy_number": "P-200", "customer_id": "c-2", "line": "home",
             "excess": 99.5, "start_date": "2025-01-01", "status": "lapsed"},
            {"_id": "p-3", "policy_number": "P-300", "customer_id": "c-1", "line": "home",
             "excess": 0, "start_date": "2024-03-02", "status": "active"}]
CLAIMS = [{"_id": "CLM-1", "claim_number": "CLM-1", "policy_id": "p-3", "status": "submitted",
           "session_id": None, "materials": [],
           "review": {"review_required": False, "checks": {}},
           "facts": {"incident_date": {"value": "2025-12-02", "state": "confirmed"},
                     "incident_type": {"value": "theft", "state": "reported"}},
           "notes": [{"body": "same", "by": "ann"}, {"body": "same", "by": "ann"},
                     {"body": "other", "by": "bo"}]}]
COLLECTIONS = {"customers": CUSTOMERS, "policies": POLICIES, "claims": CLAIMS,
               "staff": [{"_id": "s-1", "name": "Priya"}]}
DROPPED = {"policies": ["status"], "claims": ["materials", "review.checks", "session_id"]}

_numbers = itertools.count(1)


def mapping(**changes: Any) -> dict[str, CollectionMap]:
    """The mapping, with some collections' maps replaced (None: left out)."""
    data = {**MAPPING_DATA, **changes}
    return {k: CollectionMap.model_validate(v) for k, v in data.items() if v is not None}


@dataclass
class Database:
    """One fresh database with the schema above."""

    dialect: str
    url: str
    engine: sa.Engine
    password: str = ""

    def count(self, table: str) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(sa.text(f"SELECT COUNT(*) FROM {table}")).scalar() or 0)

    def execute(self, statement: str, **params: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(sa.text(statement), params)

    @contextmanager
    def stores(self, monkeypatch: pytest.MonkeyPatch, the_mapping: dict[str, CollectionMap],
               listed: tuple[str, ...] = ()) -> Iterator[StoreSet]:
        """A ``StoreSet`` on this database through ``the_mapping``, opened as a profile's
        stores are (``StoreSource`` -> ``open_store``)."""
        monkeypatch.setenv("T_SQL_URL", self.url)
        source = StoreSource(kind="sql", env="T_SQL_URL", names=NamePolicy("_test_"),
                             mapping=the_mapping, listed=listed, setting="stores.sql_url_env")
        store = open_store(source)
        assert isinstance(store, SqlStore)
        stores = StoreSet(store, None, the_mapping)
        try:
            yield stores
        finally:
            stores.close()


def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A fresh database of the schema, SQLite or PostgreSQL as ``request.param`` says."""
    n = next(_numbers)
    password = ""
    if request.param == "sqlite":
        path = tmp_path / f"shapes_test_{n}.sqlite3"
        path.touch()
        url = f"sqlite:///{path}"
    else:
        server = request.getfixturevalue("postgres")
        url = server.create_database(f"shapes_test_{n}")
        password = server.password
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        for statement in filter(str.strip, DDL.format(serial=SERIAL[request.param]).split(";")):
            conn.execute(sa.text(statement))
    try:
        yield Database(request.param, url, engine, password)
    finally:
        engine.dispose()
