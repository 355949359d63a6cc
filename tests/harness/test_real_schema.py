"""A product with the schema teams really have (``real_schema``: integer keys everywhere,
foreign keys by them, NOT NULL columns no pack fills, the claim's facts in a child table, no
JSON column), reset through its profile (``real_schema.toml``) by the ``stores`` adapter, in
SQLite and PostgreSQL: every pack of the corpus is seeded, verified and read back as the
canonical documents it planned, with the same keys on every reset; and a claim the product
adds afterwards is, in a state diff, exactly that claim in canonical terms."""

from __future__ import annotations

import copy
import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import claims_corpus
from harness import load_profile, make_reset
from harness.reset import StoresReset, corpus_baseline, setup_and_files
from seed import build_plan, diff_states
from seed.stores.mapping._paths import pop_path

from .real_schema import CLAIM_DROPPED, PROFILE, TABLES, URL_ENV, create_schema, rows

PACKS = Path(__file__).resolve().parents[2] / "packs"
_numbers = itertools.count(1)


@pytest.fixture(params=["sqlite", "postgresql"])
def product_db(request: pytest.FixtureRequest, tmp_path: Path,
               monkeypatch: pytest.MonkeyPatch) -> Iterator[sa.Engine]:
    """A fresh database of the product's schema; the profile's variable points at it."""
    n = next(_numbers)
    if request.param == "sqlite":
        path = tmp_path / f"real_schema_test_{n}.sqlite3"
        path.touch()
        url = f"sqlite:///{path}"
    else:
        url = request.getfixturevalue("postgres").create_database(f"real_schema_test_{n}")
    engine = sa.create_engine(url)
    create_schema(engine)
    monkeypatch.setenv(URL_ENV, url)
    try:
        yield engine
    finally:
        engine.dispose()


@pytest.fixture
def reset(product_db: sa.Engine) -> Iterator[StoresReset]:
    prof = load_profile(PROFILE)
    adapter = make_reset(prof, prof.resolved_lanes()[0], PACKS)
    assert isinstance(adapter, StoresReset)
    try:
        yield adapter
    finally:
        adapter.close()


def expected(pack: str) -> dict[str, dict[str, Any]]:
    """baseline + the pack's setup in canonical terms, as a dump gives them back: keyed by
    id, the claim's dropped paths gone, a null field absent (a NULL column), accounts and
    staff (the product has neither) left out."""
    setup, files = setup_and_files(PACKS / pack)
    plan = build_plan(corpus_baseline(PACKS), setup, files)
    out: dict[str, dict[str, Any]] = {}
    for name, docs in plan.collections.items():
        if name in ("accounts", "staff") or not docs:
            continue
        out[name] = {}
        for doc in copy.deepcopy(docs):
            for path in CLAIM_DROPPED if name == "claims" else ():
                pop_path(doc, path)
            out[name][doc["_id"]] = {k: v for k, v in doc.items() if v is not None}
    return out


def _keys(engine: sa.Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table but the timestamp the database fills: keys included."""
    return {table: [tuple(v for k, v in row.items() if k != "created_at")
                    for row in rows(engine, table)] for table in TABLES}


def test_every_pack_is_seeded_verified_and_read_back_with_the_same_keys(reset, product_db):
    packs = claims_corpus.open_corpora([PACKS]).pack_ids
    assert len(packs) == 100
    started = time.perf_counter()
    first: dict[str, list[tuple[Any, ...]]] = {}
    for pack in packs:
        outcome = reset.reset(*setup_and_files(PACKS / pack))
        assert outcome.verified is True, pack
        state = reset.state()
        assert state is not None
        dumped = state.collections
        for doc in dumped["customers"].values():
            assert doc.pop("created_at")  # filled by the database: not the pack's
        assert dumped == expected(pack), pack
        # the baseline's rows come first, numbered alike in every pack: its policy is row 1
        # (customer 1), its claim row 1 (policy 1, customer 1)
        policy = rows(product_db, "policy")[0]
        claim = rows(product_db, "claim")[0]
        assert (policy["id"], policy["customer_id"], policy["policy_number"]) == (
            1, 1, "NWF-POL-907731"), pack
        assert (claim["id"], claim["policy_id"], claim["customer_id"], claim["channel"]) == (
            1, 1, 1, "chat"), pack
        assert all(row["sum_insured"] == 0 for row in rows(product_db, "policy"))
        if not first:
            first = _keys(product_db)
    took = time.perf_counter() - started
    reset.reset(*setup_and_files(PACKS / packs[0]))
    assert _keys(product_db) == first  # the same pack again: the same rows, keys and all
    print(f"{len(packs)} packs seeded, verified and dumped in {took:.1f} s "
          f"({product_db.dialect.name})")


def test_a_claim_the_product_adds_is_exactly_that_claim_in_a_state_diff(reset, product_db):
    reset.reset(*setup_and_files(PACKS / "CTL-M-001"))
    before = reset.state()
    policy = next(r for r in rows(product_db, "policy")
                  if r["policy_number"] == "NWF-POL-100234")
    with product_db.begin() as conn:  # what the product does when a customer files a claim
        claim_id = conn.execute(sa.text(
            "INSERT INTO claim (claim_number, policy_id, customer_id, status, line, "
            "triage_class, urgency, review_required, channel) VALUES ('NWF-2026-000001', "
            ":policy, :customer, 'submitted', 'motor', 'fast_track', 'normal', :no, 'chat') "
            "RETURNING id"), {"policy": policy["id"], "customer": policy["customer_id"],
                              "no": False}).scalar()
        for key, value, state in (("incident_date", "2025-12-01", "confirmed"),
                                  ("incident_type", "collision", "confirmed"),
                                  ("third_party_involved", "no", "reported")):
            conn.execute(sa.text("INSERT INTO claim_fact (claim_id, fact_key, value, state) "
                                 "VALUES (:c, :k, :v, :s)"),
                         {"c": claim_id, "k": key, "v": value, "s": state})
    after = reset.state()
    assert before is not None and after is not None
    diff = diff_states(before, after)
    assert claim_id == 2  # numbered after the baseline's claim, the one the reset wrote
    assert [(d.collection, d.id, d.change) for d in diff.documents] == [
        ("claims", "2", "added")]
    assert diff.documents[0].document == {
        "_id": "2", "claim_number": "NWF-2026-000001", "policy_id": "pol-m001",
        "customer_id": "cust-m001", "status": "submitted", "line": "motor",
        "triage": {"class": "fast_track", "urgency": "normal"},
        "review": {"review_required": False}, "facts": {
            "incident_date": {"value": "2025-12-01", "state": "confirmed"},
            "incident_type": {"value": "collision", "state": "confirmed"},
            "third_party_involved": {"value": "no", "state": "reported"}}}
    assert diff.objects == [] and diff.ignored_fields == []
