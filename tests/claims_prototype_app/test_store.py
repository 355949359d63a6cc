"""Heron Mutual's SQL store on SQLite (its default) and on PostgreSQL (by URL, a server the
tests start), its uploads folder, and the reset command."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import sqlalchemy as sa

from claims_prototype_app import Settings, Store
from claims_prototype_app.__main__ import main
from claims_prototype_app._store import engine_url

from ._packs import PACKS, load_setup

TABLES = {"policyholders", "policies", "claim_history", "claims", "claim_facts", "uploads",
          "follow_ups"}
_DATABASES = itertools.count(1)


@pytest.fixture(params=["sqlite", "postgresql"])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """Heron's settings on a fresh database of each kind (this module's tests run on both)."""
    if request.param == "sqlite":
        return Settings.from_env(db_file=str(tmp_path / "db" / "heron.sqlite3"),
                                 uploads_dir=str(tmp_path / "uploads"), environ={})
    server = request.getfixturevalue("postgres")
    url = server.create_database(f"heron_test_{next(_DATABASES)}")
    return Settings.from_env(database_url=url, uploads_dir=str(tmp_path / "uploads"),
                             environ={})


def test_the_schema_is_ordinary_tables(store: Store) -> None:
    inspector = sa.inspect(store.engine)
    assert set(inspector.get_table_names()) == TABLES
    columns = {c["name"] for c in inspector.get_columns("claims")}
    assert {"claim_number", "status", "policy_number", "severity", "review_required",
            "decision", "payable_amount", "payable_currency", "details"} <= columns
    keys = inspector.get_foreign_keys("claim_facts")
    assert [(k["referred_table"], k["constrained_columns"]) for k in keys] == [
        ("claims", ["claim_id"])]


def test_policies_and_history_are_read(store: Store) -> None:
    load_setup(store, PACKS / "CTL-M-001")
    policy = store.find_policy("nwf-pol-100234")
    assert policy is not None
    assert (policy.line, policy.start_date, str(policy.excess)) == ("motor", "2025-06-01",
                                                                    "250.00")
    assert store.prior_claim_dates(policy) == ["2025-09-18"]
    assert store.find_policy("NWF-POL-000000") is None


def test_uploads_are_files_in_the_folder(store: Store, settings: Settings) -> None:
    kept = store.save_upload("../../etc/my photo.jpg", b"jpeg bytes", "image/jpeg",
                             {"kind": "photo"})
    path = settings.uploads_dir / kept.stored_as
    assert path.read_bytes() == b"jpeg bytes"
    assert path.name.endswith("-my_photo.jpg") and settings.uploads_dir in path.parents
    [row] = store.rows("uploads")
    assert (row["file_name"], row["size"], row["claim_id"]) == ("../../etc/my photo.jpg", 10,
                                                                None)


def test_reset_empties_every_table_and_the_uploads_folder(store: Store,
                                                          settings: Settings) -> None:
    load_setup(store, PACKS / "CTL-M-001")
    store.save_upload("a.jpg", b"x", "image/jpeg", {"kind": "photo"})
    store.add_follow_up("question", "Will my premium go up?")
    (settings.uploads_dir / "loose.txt").write_text("x")
    deleted = store.reset()
    assert deleted["policies"] == 2 and deleted["uploads"] == 1  # the pack's and the baseline's
    assert all(store.count(t) == 0 for t in TABLES)
    assert settings.uploads_dir.is_dir() and list(settings.uploads_dir.iterdir()) == []


def _one_claim(store: Store) -> str:
    """A claim stored with its facts and a follow-up; its number."""
    from claims_prototype_app._store import NewClaim

    follow_up = store.add_follow_up("question", "Will my premium go up?")
    return store.create_claim(NewClaim(
        policy=None, policy_number="NWF-POL-100234", line="motor", incident_type="collision",
        incident_date="2026-03-12", facts={"incident_date": ("2026-03-12", "confirmed")},
        severity="standard", urgency="normal", review_required=False, decision="referred",
        payable_amount=None, payable_currency=None, follow_up_ids=[follow_up]))


def test_after_every_reset_the_first_claim_has_the_same_number(store: Store) -> None:
    """Row ids start again after a reset, on either database (PostgreSQL's sequences are
    restarted), so a pack's claim number is the same on every run."""
    numbers, ids = [], []
    for _ in range(2):
        store.reset()
        numbers.append(_one_claim(store))
        ids.append({t: [r["id"] for r in store.rows(t)] for t in ("claims", "claim_facts",
                                                                  "follow_ups")})
    assert numbers[0] == numbers[1] and numbers[0].endswith("-000001"), numbers
    assert ids[0] == ids[1] == {"claims": [1], "claim_facts": [1], "follow_ups": [1]}


def test_the_reset_command(store: Store, settings: Settings,
                           capsys: pytest.CaptureFixture[str]) -> None:
    load_setup(store, PACKS / "CTL-C-001")
    assert main(["reset", "--database-url", settings.database_url,
                 "--uploads-dir", str(settings.uploads_dir)]) == 0
    assert "row(s) deleted from 7 tables; uploads folder emptied" in capsys.readouterr().out
    assert store.count("policies") == 0


def test_the_reset_command_takes_a_sqlite_file(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    db, uploads = tmp_path / "heron.sqlite3", tmp_path / "up"
    store = Store(Settings.from_env(db_file=str(db), uploads_dir=str(uploads), environ={}))
    store.create_tables()
    load_setup(store, PACKS / "CTL-C-001")
    assert main(["reset", "--db-file", str(db), "--uploads-dir", str(uploads)]) == 0
    assert "row(s) deleted from 7 tables; uploads folder emptied" in capsys.readouterr().out
    assert store.count("policies") == 0
    store.close()


def test_the_reset_command_reports_a_database_it_cannot_open(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://nobody:secret@127.0.0.1:1/heron_dev?connect_timeout=2"
    assert main(["reset", "--database-url", url, "--uploads-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: reset failed: OperationalError") and "secret" not in err


def test_settings_and_urls(tmp_path: Path) -> None:
    env = {"HERON_DATABASE_URL": "postgresql://u:p@db:5432/heron_dev",
           "HERON_UPLOADS_DIR": str(tmp_path)}
    s = Settings.from_env(environ=env)
    assert (s.database_url, s.uploads_dir) == (env["HERON_DATABASE_URL"], tmp_path)
    assert Settings.from_env(database_url="sqlite:///x.db", environ=env).database_url == \
        "sqlite:///x.db"
    assert Settings.from_env(environ={"HERON_DB_FILE": str(tmp_path / "h.db")}).database_url \
        == f"sqlite:///{tmp_path / 'h.db'}"
    assert engine_url("postgres://u:p@h/d") == "postgresql+psycopg://u:p@h/d"
    assert engine_url("postgresql+psycopg://u:p@h/d") == "postgresql+psycopg://u:p@h/d"


def test_a_claim_is_submitted_settled_and_stored_on_either_database(store: Store) -> None:
    """A whole conversation (CTL-M-004, settled by Heron itself) on each kind of database:
    the claim, its details in the child table and its upload rows, with the same values."""
    from claims_prototype_app import Conversation

    from ._pdf import quote
    from .test_conversation import windscreen

    load_setup(store, PACKS / "CTL-M-004")
    c = Conversation(store)
    windscreen(c, quote(date="19 March 2026", total="462.00", currency="GBP"))
    c.say("Confirm and submit")
    assert "Decision: approved — €443.53 payable." in c.latest.text
    [claim] = store.rows("claims")
    assert (claim["claim_number"], claim["status"], claim["decision"]) == (c.claim_number,
                                                                          "open", "approved")
    assert str(claim["payable_amount"]) == "443.53" and claim["payable_currency"] == "EUR"
    assert claim["details"]["checks"]["quote_before_incident"] == "clear"
    facts = {r["fact_key"]: (r["value"], r["status"]) for r in store.rows("claim_facts")}
    assert facts["incident_time"] == ("08:20", "confirmed")
    assert {u["claim_id"] for u in store.rows("uploads")} == {claim["id"]}
