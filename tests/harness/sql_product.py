"""A claims product's SQL schema, as a team with an ordinary schema writes it, and the profile
mapping the corpus's canonical collections onto it. The same tables in SQLite and PostgreSQL.

- ``holders`` (customers): the id mapped explicitly (``_id`` -> ``id``), a column filled by
  the database (``created``);
- ``cover`` (policies): renamed columns, mapped values, a date column, a decimal column; the
  id lands in the primary key without being mapped;
- ``loss_history`` (prior_claims), ``staff``: plain columns;
- ``claims``: a nested canonical path in a flat column (``triage.class`` -> ``triage_class``),
  a JSON column (``facts``), and a JSON column for the rest (``extra_column = "data"``);
- ``messages`` (a serial id): the product's own, listed in ``stores.collections``;
- ``app_settings``, ``sessions``: the product's own, never named in the profile.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

COMMON = """
CREATE TABLE holders (id TEXT PRIMARY KEY, full_name TEXT NOT NULL, email TEXT, phone TEXT,
                      created {stamp} DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE cover (id TEXT PRIMARY KEY, policy_ref TEXT UNIQUE,
                    holder_id TEXT REFERENCES holders(id), product TEXT, starts DATE,
                    ends DATE, state TEXT, vehicle_reg TEXT, property_address TEXT,
                    excess NUMERIC(10, 2));
CREATE TABLE loss_history (id TEXT PRIMARY KEY, holder_id TEXT REFERENCES holders(id),
                           policy_ref TEXT, claim_date DATE, line TEXT, status TEXT);
CREATE TABLE staff (id TEXT PRIMARY KEY, username TEXT, name TEXT, role TEXT,
                    password_hash TEXT);
CREATE TABLE claims (id TEXT PRIMARY KEY, claim_number TEXT, status TEXT,
                     policy_number TEXT, customer_id TEXT, triage_class TEXT,
                     created_at {created_at}, facts {json}, data {json});
CREATE TABLE messages (id {serial} PRIMARY KEY, claim_id TEXT, body TEXT);
CREATE TABLE app_settings (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE sessions (id TEXT PRIMARY KEY, data TEXT);
"""

TYPES = {
    # SQLite apps keep timestamps as text; PostgreSQL ones in timestamptz
    "sqlite": {"stamp": "DATETIME", "created_at": "TEXT", "json": "JSON",
               "serial": "INTEGER"},
    "postgresql": {"stamp": "TIMESTAMPTZ", "created_at": "TIMESTAMPTZ", "json": "JSONB",
                   "serial": "SERIAL"},
}

MAPPING: dict[str, Any] = {
    "customers": {"collection": "holders", "fields": {"_id": "id", "name": "full_name"}},
    "policies": {"collection": "cover", "fields": {
        "policy_number": "policy_ref", "customer_id": "holder_id", "line": "product",
        "start_date": "starts", "end_date": "ends", "status": "state",
        "vehicle_registration": "vehicle_reg"},
        "values": {"line": {"motor": "MOTOR", "home": "HOME", "contents": "CONTENTS"}}},
    "prior_claims": {"collection": "loss_history", "fields": {
        "customer_id": "holder_id", "policy_number": "policy_ref"}},
    "staff": {"collection": "staff"},
    "claims": {"collection": "claims", "fields": {"_id": "id", "triage.class": "triage_class"},
               "extra_column": "data"},
    "accounts": {"collection": ""},
}


def create_schema(engine: sa.Engine) -> None:
    """The product's tables, and one row in each of its own tables."""
    ddl = COMMON.format(**TYPES[engine.dialect.name])
    with engine.begin() as conn:
        for statement in filter(str.strip, ddl.split(";")):
            conn.execute(sa.text(statement))
        conn.execute(sa.text("INSERT INTO app_settings VALUES ('theme', 'teal')"))
        conn.execute(sa.text("INSERT INTO sessions VALUES ('s-1', 'a conversation')"))
        conn.execute(sa.text("INSERT INTO messages (claim_id, body) VALUES ('x', 'old')"))


def count(engine: sa.Engine, table: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(sa.text(f"SELECT COUNT(*) FROM {table}")).scalar() or 0)


def rows(engine: sa.Engine, table: str) -> list[dict[str, Any]]:
    """The rows of ``table`` as the database gives them (SQLite's JSON as text, decoded)."""
    with engine.connect() as conn:
        found = [dict(r._mapping) for r in conn.execute(sa.text(f"SELECT * FROM {table}"))]
    return [{k: json.loads(v) if isinstance(v, str) and v[:1] in "{[" else v
             for k, v in row.items()} for row in found]
