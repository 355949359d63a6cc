"""Heron Mutual's storage: its SQL tables through SQLAlchemy (SQLite or PostgreSQL) and the
uploads folder."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import shutil
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from . import _schema as T
from ._settings import Settings

CLAIM_NUMBER_PATTERN = r"HM-\d{4}-\d{6}"


def engine_url(url: str) -> str:
    """An app-style PostgreSQL URL (``postgresql://``, ``postgres://``) uses psycopg 3."""
    return re.sub(r"^postgres(?:ql)?://", "postgresql+psycopg://", url)


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class PolicyRecord:
    id: str
    policy_number: str
    holder_id: str | None
    line: str
    start_date: str | None
    end_date: str | None
    status: str
    excess: Decimal | None
    vehicle_registration: str | None


@dataclass(frozen=True)
class StoredFile:
    """A file the customer uploaded, as kept."""

    id: int
    file_name: str
    stored_as: str


@dataclass
class NewClaim:
    """Everything a claim row and its facts need."""

    policy: PolicyRecord | None
    policy_number: str | None
    line: str
    incident_type: str | None
    incident_date: str | None
    facts: dict[str, tuple[str | None, str]]  # key -> (canonical value text, status)
    severity: str
    urgency: str
    review_required: bool
    decision: str
    payable_amount: Decimal | None
    payable_currency: str | None
    details: dict[str, Any] = field(default_factory=dict)
    upload_ids: list[int] = field(default_factory=list)
    follow_up_ids: list[int] = field(default_factory=list)


class Store:
    """The database and the uploads folder of one Heron Mutual instance."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engine = sa.create_engine(engine_url(settings.database_url))
        self.uploads_dir = settings.uploads_dir

    def create_tables(self) -> None:
        """Create the tables that do not exist yet (and a SQLite file's folder), and the
        uploads folder."""
        url = self.engine.url
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            Path(str(url.database)).parent.mkdir(parents=True, exist_ok=True)
        T.metadata.create_all(self.engine)
        self.uploads_dir.mkdir(parents=True, exist_ok=True)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ reading
    def find_policy(self, policy_number: str) -> PolicyRecord | None:
        p = T.policies
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(p).where(
                sa.func.upper(p.c.policy_number) == policy_number.upper())).first()
        if row is None:
            return None
        return PolicyRecord(
            id=row.id, policy_number=row.policy_number, holder_id=row.holder_id,
            line=row.line, start_date=str(row.start_date) if row.start_date else None,
            end_date=str(row.end_date) if row.end_date else None, status=row.status,
            excess=Decimal(str(row.excess)) if row.excess is not None else None,
            vehicle_registration=row.vehicle_registration)

    def prior_claim_dates(self, policy: PolicyRecord) -> list[str]:
        """Dates of the earlier claims of the policy's holder (or on the policy)."""
        h = T.claim_history
        cond = h.c.policy_number == policy.policy_number
        if policy.holder_id:
            cond = sa.or_(cond, h.c.holder_id == policy.holder_id)
        with self.engine.connect() as conn:
            return [str(d) for d in conn.execute(sa.select(h.c.claim_date).where(cond))
                    .scalars()]

    def count(self, table: str) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(
                T.metadata.tables[table])).scalar_one())

    def rows(self, table: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(
                sa.select(T.metadata.tables[table]))]

    # ------------------------------------------------------------------ writing
    def save_upload(self, file_name: str, data: bytes, content_type: str,
                    reading: dict[str, Any]) -> StoredFile:
        """Keep the file in the uploads folder and its row in ``uploads``."""
        safe = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(file_name).name)[-80:] or "file"
        stored_as = f"{utc_now():%Y%m%d}/{uuid.uuid4().hex[:12]}-{safe}"
        path = self.uploads_dir / stored_as
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        row = {"file_name": file_name, "stored_as": stored_as, "content_type": content_type,
               "size": len(data), "sha256": hashlib.sha256(data).hexdigest(),
               "uploaded_at": utc_now(), **reading}
        if row.get("document_date"):
            row["document_date"] = dt.date.fromisoformat(row["document_date"])
        with self.engine.begin() as conn:
            new_id = conn.execute(sa.insert(T.uploads).values(**row)).inserted_primary_key
        assert new_id is not None
        return StoredFile(int(new_id[0]), file_name, stored_as)

    def add_follow_up(self, kind: str, text: str) -> int:
        with self.engine.begin() as conn:
            new_id = conn.execute(sa.insert(T.follow_ups).values(
                kind=kind, text=text, created_at=utc_now())).inserted_primary_key
        assert new_id is not None
        return int(new_id[0])

    def create_claim(self, claim: NewClaim) -> str:
        """Store the claim, its facts, and link its uploads and follow-ups; its number."""
        now = utc_now()
        with self.engine.begin() as conn:
            new_id = conn.execute(sa.insert(T.claims).values(
                claim_number=f"pending-{uuid.uuid4().hex}", status="open",
                policy_id=claim.policy.id if claim.policy else None,
                policy_number=claim.policy_number,
                holder_id=claim.policy.holder_id if claim.policy else None,
                line=claim.line, incident_type=claim.incident_type,
                incident_date=(dt.date.fromisoformat(claim.incident_date)
                               if claim.incident_date else None),
                severity=claim.severity, urgency=claim.urgency,
                review_required=claim.review_required, decision=claim.decision,
                payable_amount=claim.payable_amount, payable_currency=claim.payable_currency,
                created_at=now, details=json.loads(json.dumps(claim.details, default=str)),
            )).inserted_primary_key
            assert new_id is not None
            claim_id = int(new_id[0])
            number = f"HM-{now.year}-{claim_id:06d}"
            conn.execute(sa.update(T.claims).where(T.claims.c.id == claim_id)
                         .values(claim_number=number))
            if claim.facts:
                conn.execute(sa.insert(T.claim_facts), [
                    {"claim_id": claim_id, "fact_key": key, "value": value, "status": status}
                    for key, (value, status) in claim.facts.items()])
            if claim.upload_ids:
                conn.execute(sa.update(T.uploads).where(T.uploads.c.id.in_(claim.upload_ids))
                             .values(claim_id=claim_id))
            if claim.follow_up_ids:
                conn.execute(sa.update(T.follow_ups)
                             .where(T.follow_ups.c.id.in_(claim.follow_up_ids))
                             .values(claim_id=claim_id))
        return number

    # ------------------------------------------------------------------ reset
    def reset(self) -> dict[str, int]:
        """Empty every Heron Mutual table (children first, one transaction) and the uploads
        folder; the rows deleted per table. Tables that do not exist yet are created. Row
        ids start again at 1, so a claim's number is the same after every reset: SQLite
        numbers a row one past the largest id there is, and on PostgreSQL each table's
        sequences are restarted."""
        self.create_tables()
        deleted: dict[str, int] = {}
        with self.engine.begin() as conn:
            for table in T.TABLES:
                deleted[table.name] = conn.execute(sa.delete(table)).rowcount
            if conn.dialect.name == "postgresql":
                self._restart_sequences(conn)
        for entry in list(self.uploads_dir.iterdir()):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        return deleted

    @staticmethod
    def _restart_sequences(conn: sa.Connection) -> None:
        """Restart the sequence behind every integer key of Heron's tables (PostgreSQL)."""
        for table in T.TABLES:
            for column in table.primary_key.columns:
                if not isinstance(column.type, sa.Integer):
                    continue
                sequence = conn.execute(sa.text("SELECT pg_get_serial_sequence(:t, :c)"),
                                        {"t": table.name, "c": column.name}).scalar()
                if sequence:
                    conn.execute(sa.text("SELECT setval(:s, 1, false)"), {"s": sequence})
