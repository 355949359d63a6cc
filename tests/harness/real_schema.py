"""A claims product with the schema teams really have, in SQLite and PostgreSQL, and its
profile (``real_schema.toml``).

- every table numbers its own rows: an integer primary key (``INTEGER PRIMARY KEY`` in
  SQLite, ``SERIAL`` in PostgreSQL), no column for the corpus's text ids (``key =
  "assigned"``);
- foreign keys by those integers: a policy's customer, a prior claim's customer, a claim's
  policy and customer (``refs``);
- columns no pack fills: ``policy.sum_insured`` and ``claim.channel`` (NOT NULL, ``fixed``),
  ``policy.label`` (NOT NULL, ``derived`` from the policy number and line), and one the
  database fills (``customer.created_at``);
- a claim's facts in a child table, one row per fact (``claim_fact``: the claim's key, the
  fact's key, its value as text, its state; ``children``);
- no JSON column anywhere: the canonical fields it has no column for are ``drop``ped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa

PROFILE = Path(__file__).with_name("real_schema.toml")
URL_ENV = "REAL_SCHEMA_DB_URL"

DDL = """
CREATE TABLE customer (
    id {serial} PRIMARY KEY,
    full_name TEXT NOT NULL,
    email TEXT,
    phone TEXT,
    created_at {stamp} NOT NULL DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE policy (
    id {serial} PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customer(id),
    policy_number TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    line TEXT NOT NULL,
    start_date DATE,
    end_date DATE,
    status TEXT NOT NULL,
    excess NUMERIC(10, 2),
    vehicle_registration TEXT,
    property_address TEXT,
    sum_insured INTEGER NOT NULL);
CREATE TABLE claim_history (
    id {serial} PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customer(id),
    policy_number TEXT NOT NULL,
    claim_date DATE,
    line TEXT,
    status TEXT);
CREATE TABLE claim (
    id {serial} PRIMARY KEY,
    claim_number TEXT NOT NULL UNIQUE,
    policy_id INTEGER NOT NULL REFERENCES policy(id),
    customer_id INTEGER NOT NULL REFERENCES customer(id),
    status TEXT NOT NULL,
    line TEXT,
    triage_class TEXT,
    urgency TEXT,
    review_required BOOLEAN,
    channel TEXT NOT NULL,
    created_at {created_at});
CREATE TABLE claim_fact (
    id {serial} PRIMARY KEY,
    claim_id INTEGER NOT NULL REFERENCES claim(id),
    fact_key TEXT NOT NULL,
    value TEXT,
    state TEXT NOT NULL,
    UNIQUE (claim_id, fact_key));
"""

TYPES = {
    # SQLite apps keep timestamps as text; PostgreSQL ones in timestamptz
    "sqlite": {"serial": "INTEGER", "stamp": "TEXT", "created_at": "TEXT"},
    "postgresql": {"serial": "SERIAL", "stamp": "TIMESTAMPTZ", "created_at": "TIMESTAMPTZ"},
}

TABLES = ("customer", "policy", "claim_history", "claim", "claim_fact")

# What the profile drops of a canonical claim (the product has no column for it).
CLAIM_DROPPED = ("policy_number", "session_id", "materials", "triage.reasons",
                 "review.checks", "runtime")


def create_schema(engine: sa.Engine) -> None:
    """The product's tables, empty."""
    ddl = DDL.format(**TYPES[engine.dialect.name])
    with engine.begin() as conn:
        for statement in filter(str.strip, ddl.split(";")):
            conn.execute(sa.text(statement))


def rows(engine: sa.Engine, table: str) -> list[dict[str, Any]]:
    """The rows of ``table`` as the database gives them, in key order."""
    with engine.connect() as conn:
        return [dict(r._mapping) for r in
                conn.execute(sa.text(f"SELECT * FROM {table} ORDER BY id"))]
