"""Heron Mutual's tables (SQLAlchemy Core; the same in SQLite and PostgreSQL).

- ``policyholders``, ``policies``, ``claim_history``: who is insured, for what, and their
  earlier claims (seeded; the assistant reads them);
- ``claims``: one row per claim, its number ``HM-<year>-<id, 6 digits>`` made from the row id;
  triage, the review signal and the assistant's decision in columns, the rest in ``details``;
- ``claim_facts``: one row per detail of a claim (``confirmed``, ``not_known``,
  ``to_follow``);
- ``uploads``: one row per file, the file itself in the uploads folder under ``stored_as``;
- ``follow_ups``: customers' questions and call-back requests for a claims handler.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

policyholders = sa.Table(
    "policyholders", metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("email", sa.Text),
    sa.Column("phone", sa.Text),
)

policies = sa.Table(
    "policies", metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("policy_number", sa.Text, nullable=False, unique=True),
    sa.Column("holder_id", sa.Text, sa.ForeignKey("policyholders.id")),
    sa.Column("line", sa.Text, nullable=False),  # motor | home | contents
    sa.Column("start_date", sa.Date),  # a record may not hold it
    sa.Column("end_date", sa.Date),
    sa.Column("status", sa.Text, nullable=False),  # active | lapsed | cancelled
    sa.Column("vehicle_registration", sa.Text),
    sa.Column("property_address", sa.Text),
    sa.Column("excess", sa.Numeric(10, 2)),  # in euros
)

claim_history = sa.Table(
    "claim_history", metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("holder_id", sa.Text),
    sa.Column("policy_number", sa.Text),
    sa.Column("claim_date", sa.Date, nullable=False),
    sa.Column("line", sa.Text),
    sa.Column("status", sa.Text),
)

claims = sa.Table(
    "claims", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("claim_number", sa.Text, nullable=False, unique=True),
    sa.Column("status", sa.Text, nullable=False),  # open
    sa.Column("policy_id", sa.Text),
    sa.Column("policy_number", sa.Text),
    sa.Column("holder_id", sa.Text),
    sa.Column("line", sa.Text),
    sa.Column("incident_type", sa.Text),
    sa.Column("incident_date", sa.Date),
    sa.Column("severity", sa.Text),  # fast_track | standard | complex
    sa.Column("urgency", sa.Text),  # urgent | normal
    sa.Column("review_required", sa.Boolean),
    sa.Column("decision", sa.Text),  # approved | referred
    sa.Column("payable_amount", sa.Numeric(12, 2)),
    sa.Column("payable_currency", sa.Text),
    sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("details", sa.JSON),  # reasons, checks, referral reasons, claimed amount
)

claim_facts = sa.Table(
    "claim_facts", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("claim_id", sa.Integer, sa.ForeignKey("claims.id"), nullable=False),
    sa.Column("fact_key", sa.Text, nullable=False),
    sa.Column("value", sa.Text),  # canonical text; NULL when not known or to follow
    sa.Column("status", sa.Text, nullable=False),  # confirmed | not_known | to_follow
    sa.UniqueConstraint("claim_id", "fact_key"),
)

uploads = sa.Table(
    "uploads", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("claim_id", sa.Integer, sa.ForeignKey("claims.id")),  # NULL until submitted
    sa.Column("file_name", sa.Text, nullable=False),
    sa.Column("stored_as", sa.Text, nullable=False),  # path under the uploads folder
    sa.Column("content_type", sa.Text),
    sa.Column("size", sa.Integer),
    sa.Column("sha256", sa.Text),
    sa.Column("kind", sa.Text),  # photo | repair_quote | receipt | invoice | police_report | …
    sa.Column("document_date", sa.Date),
    sa.Column("pages_total", sa.Integer),
    sa.Column("pages_missing", sa.Text),  # "2,3" or NULL
    sa.Column("total_amount", sa.Numeric(12, 2)),
    sa.Column("total_currency", sa.Text),
    sa.Column("instructions_found", sa.Boolean),
    sa.Column("uploaded_at", sa.DateTime(timezone=True)),
)

follow_ups = sa.Table(
    "follow_ups", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("claim_id", sa.Integer, sa.ForeignKey("claims.id")),  # NULL until submitted
    sa.Column("kind", sa.Text, nullable=False),  # question | callback
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)

# Children before parents: the order a reset empties them in.
TABLES = (follow_ups, uploads, claim_facts, claims, claim_history, policies, policyholders)
