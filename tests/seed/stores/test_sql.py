"""seed.sql on its own: the URL kept secret and the database's name read from it, values in
and out of typed columns, and a reset's read-back catching what the database did not keep."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.sql.elements import Null

from claims_records import SeedError
from seed.stores import NamePolicy, SqlStore, SqlTarget, TableSpec, plain_documents
from seed.stores.sql._values import NestedValueError, plain, to_column

ANY_NAME = NamePolicy(r".")


def test_the_database_name_comes_from_the_url_or_the_lane():
    pg = SqlTarget.from_text("postgresql://app:pw-1@db.example:5433/claims_dev?sslmode=require",
                             env="DB_URL")
    assert pg.name == "claims_dev" and pg.url.drivername == "postgresql+psycopg"
    assert pg.shown == "postgresql+psycopg://db.example:5433/claims_dev"
    lane = SqlTarget.from_text("postgresql+psycopg://app:pw-1@db/claims", env="DB_URL",
                               database="claims_test_lane2")
    assert lane.name == "claims_test_lane2"
    lite = SqlTarget.from_text("sqlite:////srv/app/claims_dev.sqlite3", env="DB_URL")
    assert lite.name == "claims_dev" and lite.shown == "sqlite:////srv/app/claims_dev.sqlite3"
    assert SqlTarget.from_text("sqlite:///x.db", env="E", database="/tmp/lane_test.db").name \
        == "lane_test"


def test_a_lanes_database_replaces_a_sqlite_files_stem_and_a_servers_database():
    lite = SqlTarget.from_text("sqlite:////srv/heron/heron_dev.sqlite3?timeout=3", env="E",
                               database="heron_dev_lane2")
    assert lite.url.database == "/srv/heron/heron_dev_lane2.sqlite3"  # same folder and suffix
    assert lite.name == "heron_dev_lane2"
    assert lite.shown == "sqlite:////srv/heron/heron_dev_lane2.sqlite3"
    assert lite.environment_value() == "sqlite:////srv/heron/heron_dev_lane2.sqlite3?timeout=3"
    relative = SqlTarget.from_text("sqlite+pysqlite:///data/claims.db", env="E",
                                   database="claims_test_lane1")
    assert (relative.url.database, relative.name) == ("data/claims_test_lane1.db",
                                                       "claims_test_lane1")
    path = SqlTarget.from_text("sqlite:///x.db", env="E", database="/tmp/other/lane_test.db")
    assert path.url.database == "/tmp/other/lane_test.db"  # a path is the lane's whole file
    with pytest.raises(SeedError, match="in-memory"):
        SqlTarget.from_text("sqlite://", env="E", database="claims_test_lane1")
    # A server's database is replaced by name, the rest of the URL unchanged; the value for
    # the product's environment keeps its own driver name and the password, and is redacted.
    text = "postgresql://app:pw-9@db:5432/claims_dev?sslmode=require"
    pg = SqlTarget.from_text(text, env="E", database="claims_dev_lane2")
    assert (pg.name, pg.shown) == ("claims_dev_lane2", "postgresql+psycopg://db:5432/claims_dev_lane2")
    value = pg.environment_value()
    assert value == "postgresql://app:pw-9@db:5432/claims_dev_lane2?sslmode=require"
    assert pg.redact(f"cannot reach {value}") == "cannot reach ***"
    assert SqlTarget.from_text(text, env="E").environment_value() == text


def test_the_url_and_its_password_are_never_shown():
    text = "postgresql://app:s3cr%40t-pw@db:5432/claims_live"
    target = SqlTarget.from_text(text, env="DB_URL")
    with pytest.raises(SeedError) as caught:
        target.check_name(r"(?i)(^|[_-])(test|dev)([_-]|$)")
    assert "s3cr" not in str(caught.value) and caught.value.context["database"] == "claims_live"
    assert target.redact(f"failed for {text} with s3cr@t-pw") == "failed for *** with ***"
    with pytest.raises(SeedError, match="not a SQLAlchemy URL") as caught:
        SqlTarget.from_text("postgresql://app:hunter2@db:notaport/x", env="DB_URL")
    assert "hunter2" not in str(caught.value) and caught.value.context["field"] == "DB_URL"
    with pytest.raises(SeedError, match="not a SQLAlchemy URL") as caught:
        SqlTarget.from_text("hunter2 is not a url", env="DB_URL")
    assert "hunter2" not in str(caught.value)


def test_an_in_memory_or_missing_sqlite_database_is_refused(tmp_path):
    for text in ("sqlite://", "sqlite:///:memory:"):
        with pytest.raises(SeedError, match="in-memory"):
            SqlTarget.from_text(text, env="E")
    missing = tmp_path / "claims_test.db"
    with pytest.raises(SeedError, match="no SQLite database file"):
        SqlTarget.from_text(f"sqlite:///{missing}", env="E").engine()
    assert not missing.exists()  # never created by the harness


def _column(kind: sa.types.TypeEngine) -> sa.Column:
    return sa.Column("c", kind)


def test_values_in_and_out_of_typed_columns():
    naive, zoned = _column(sa.DateTime()), _column(sa.DateTime(timezone=True))
    written = to_column("2025-12-03T10:12:00+01:00", naive)
    assert written == dt.datetime(2025, 12, 3, 9, 12)  # stored in UTC
    assert plain(written) == "2025-12-03T09:12:00"
    aware = to_column("2025-12-03T09:12:00", zoned)
    assert plain(aware) == "2025-12-03T09:12:00+00:00"
    assert to_column("2025-06-01", _column(sa.Date())) == dt.date(2025, 6, 1)
    assert plain(dt.time(17, 40)) == "17:40:00"
    assert plain(Decimal("250.00")) == 250 and plain(Decimal("250.50")) == 250.5
    assert to_column(250, _column(sa.Text())) == "250"
    assert to_column(True, _column(sa.Text())) == "true"  # a text column holds text
    assert to_column(False, _column(sa.String(5))) == "false"
    assert to_column({"a": [1]}, _column(sa.JSON())) == {"a": [1]}
    assert isinstance(to_column(None, _column(sa.JSON())), Null)
    assert to_column(None, _column(sa.Text())) is None
    assert plain(b"\x00\x01") == "AAE="
    with pytest.raises(NestedValueError, match="cannot hold a JSON list"):
        to_column([1, 2], _column(sa.Text()))
    with pytest.raises(ValueError):
        to_column("next Tuesday", _column(sa.Date()))


def test_a_value_the_database_did_not_keep_is_a_difference(tmp_path: Path):
    path = tmp_path / "claims_test.db"
    path.touch()
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT, "
                             "stars NUMERIC(3, 1), extra JSON)"))
        # a product's trigger that rewrites what it is given
        conn.execute(sa.text("CREATE TRIGGER shout AFTER INSERT ON notes WHEN NEW.id = 'n-2' "
                             "BEGIN UPDATE notes SET body = upper(body) WHERE id = NEW.id; END"))
    store = SqlStore(SqlTarget.from_text(f"sqlite:///{path}", env="E"), ANY_NAME,
                     {"notes": TableSpec(key="mapping.notes", extra_column="extra")}, ["notes"])
    docs = plain_documents({"notes": [
        {"_id": "n-1", "body": "kept", "stars": 4.5, "tags": ["a"], "n": None},
        {"_id": "n-2", "body": "quiet"}]})
    try:
        store.guard()
        plan = store.plan(docs, [])
        store.replace(plan)
        assert store.verify(plan) == ["document notes/n-2 differs"]
        # a dump keys each row by its primary key, and shows the key column by its own name
        assert store.dump() == {"notes": {
            "n-1": {"id": "n-1", "body": "kept", "stars": 4.5, "tags": ["a"], "n": None},
            "n-2": {"id": "n-2", "body": "QUIET"}}}
    finally:
        store.close()
        engine.dispose()


def test_reserved_tables_are_never_written(tmp_path: Path):
    path = tmp_path / "claims_test.db"
    path.touch()
    store = SqlStore(SqlTarget.from_text(f"sqlite:///{path}", env="E"), ANY_NAME)
    try:
        with pytest.raises(SeedError, match="reserved tables"):
            store.plan(plain_documents({"_harness": [{"_id": "x"}]}), [])
    finally:
        store.close()


def test_rows_without_keys_are_matched_each_to_a_row_of_its_own():
    """Child rows are compared as a multiset: a row read that holds two meant rows goes to
    the one no other row holds (first fit reported a difference here), and every meant row
    needs a row of its own."""
    from seed.stores.sql._compare import compare

    bare, full = {"body": "x"}, {"body": "x", "author": "ann"}
    assert compare("note", [bare, full], [full, bare], []) == []
    assert compare("note", [bare, bare], [full, bare], []) == []  # the database's default
    assert compare("note", [full, full], [full, bare], []) == [
        "missing or different row in note", "unexpected row in note"]
    assert compare("note", [bare], [bare, bare], []) == ["unexpected row in note"]
    assert compare("note", [bare, bare], [bare], []) == ["missing or different row in note"]
