"""Direct resets and state dumps through SQL stores, against SQLite and a real PostgreSQL
server: the setup lands in the mapped tables, reads back as the canonical documents that were
loaded, only the mapped and listed tables are touched, the guards refuse a database not meant
for tests and one carrying the production marker, uploads land as files in a folder, and a
reset composed of the product's own clearing step and the stores' loading is verified."""

from __future__ import annotations

import itertools
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.responses import JSONResponse

from claims_corpus.formats import Setup
from claims_dev import BackgroundServer
from claims_records import ProfileError, SeedError
from harness import make_reset
from harness.profile import Profile
from harness.reset import corpus_baseline, setup_and_files
from seed import build_plan

from .profiles import stand_in
from .sql_product import MAPPING, count, create_schema, rows

PACKS = Path(__file__).resolve().parents[2] / "packs"
_numbers = itertools.count(1)


@dataclass
class Database:
    """One fresh product database with the schema of ``sql_product``."""

    dialect: str
    url: str
    engine: sa.Engine
    lane_database: str  # what a lane's ``database`` says for it


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    n = next(_numbers)
    if request.param == "sqlite":
        path = tmp_path / f"claims_test_{n}.db"
        path.touch()  # an empty file is an empty SQLite database
        url = f"sqlite:///{path}"
        lane_database = str(path)
    else:
        server = request.getfixturevalue("postgres")
        lane_database = f"claims_test_{n}"
        url = server.create_database(lane_database)
    engine = sa.create_engine(url)
    create_schema(engine)
    try:
        yield Database(request.param, url, engine, lane_database)
    finally:
        engine.dispose()


def profile(**sections: Any) -> Profile:
    data: dict[str, Any] = {
        **stand_in("sql product", base_url="http://127.0.0.1:9"),
        "reset": {"adapter": "stores"},
        "stores": {"sql_url_env": "T_SQL_URL", "collections": ["messages"]},
        "mapping": MAPPING,
    }
    data.update(sections)
    return Profile.model_validate(data)


def reset_for(prof: Profile) -> Any:
    return make_reset(prof, prof.resolved_lanes()[0], PACKS)


def expected(setup: Setup, files: dict[str, bytes]) -> dict[str, dict[str, Any]]:
    """baseline + setup in canonical terms, keyed like a state dump."""
    plan = build_plan(corpus_baseline(PACKS), setup, files)
    return {name: {doc["_id"]: doc for doc in docs} for name, docs in plan.collections.items()
            if docs and name != "accounts"}


def test_a_reset_writes_the_setup_into_the_mapped_tables_and_reads_it_back(db, monkeypatch):
    monkeypatch.setenv("T_SQL_URL", db.url)
    reset = reset_for(profile())
    setup, files = setup_and_files(PACKS / "CTL-M-001")
    try:
        outcome = reset.reset(setup, files)
        assert outcome.adapter == "stores" and outcome.verified is True
        cover = {r["id"]: r for r in rows(db.engine, "cover")}
        assert cover["pol-m001"]["policy_ref"] == "NWF-POL-100234"
        assert cover["pol-m001"]["product"] == "MOTOR"  # mapped value
        assert str(cover["pol-m001"]["starts"]) == "2025-06-01"  # a DATE column
        claim = rows(db.engine, "claims")[0]
        assert claim["triage_class"] == "standard"  # a nested path in its own column
        assert claim["facts"]["incident_date"]["value"] == "2025-12-02"  # a JSON column
        assert claim["data"]["triage"] == {"reasons": ["escape_of_water"], "urgency": "normal"}
        state = reset.state()
        want = expected(setup, files)
        created = {doc_id: doc.pop("created") for doc_id, doc in
                   state.collections["customers"].items()}
        assert all(created.values())  # filled by the database: no difference
        assert state.collections == want  # the round trip: what was loaded reads back
        assert state.database == db.lane_database.rsplit("/", 1)[-1].removesuffix(".db")
    finally:
        reset.close()


def test_only_mapped_and_listed_tables_are_touched(db, monkeypatch):
    monkeypatch.setenv("T_SQL_URL", db.url)
    reset = reset_for(profile())
    try:
        reset.reset(*setup_and_files(PACKS / "CTL-M-001"))
        assert count(db.engine, "messages") == 0  # listed: emptied
        assert rows(db.engine, "app_settings") == [{"key": "theme", "value": "teal"}]
        assert count(db.engine, "sessions") == 1  # neither mapped nor listed
        dumped = reset.state().collections
        assert "app_settings" not in dumped and "sessions" not in dumped
    finally:
        reset.close()


def test_integer_ids_and_sequences(db, monkeypatch):
    """A serial id written by the reset does not collide with the product's next row."""
    monkeypatch.setenv("T_SQL_URL", db.url)
    setup = Setup.model_validate({
        **_setup_json("CTL-M-001"),
        "collections": {"messages": [{"_id": 7, "claim_id": "c-1", "body": "hello"}]}})
    reset = reset_for(profile())
    try:
        reset.reset(setup, {})
        assert reset.state().collections["messages"] == {
            "7": {"_id": 7, "claim_id": "c-1", "body": "hello"}}
        with db.engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO messages (claim_id, body) VALUES ('c-1', 'next')"))
        assert sorted(r["id"] for r in rows(db.engine, "messages")) == [7, 8]
    finally:
        reset.close()


def _setup_json(pack: str) -> dict[str, Any]:
    return Setup.model_validate_json((PACKS / pack / "setup.json").read_bytes()).model_dump()


def test_a_database_not_named_for_tests_is_refused(db, monkeypatch, tmp_path):
    monkeypatch.setenv("T_SQL_URL", db.url)
    if db.dialect == "sqlite":
        live = tmp_path / "claims_live.db"
        live.touch()
        lane_database = str(live)
    else:
        lane_database = "claims_live"
    prof = profile(lanes=[{"name": "l1", "base_url": "http://127.0.0.1:9",
                           "database": lane_database}], base_url=None)
    with pytest.raises(SeedError, match="not allowed") as caught:
        reset_for(prof).reset(*setup_and_files(PACKS / "CTL-M-001"))
    assert caught.value.context["database"] == "claims_live"
    with pytest.raises(SeedError, match="not allowed"):
        reset_for(prof).state()


def test_a_database_carrying_the_production_marker_is_refused(db, monkeypatch):
    monkeypatch.setenv("T_SQL_URL", db.url)
    with db.engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE _Environment (id TEXT PRIMARY KEY, kind TEXT)"))
        conn.execute(sa.text("INSERT INTO _Environment VALUES ('environment', 'Production')"))
        conn.execute(sa.text("INSERT INTO holders (id, full_name) VALUES ('h-1', 'Kept')"))
    reset = reset_for(profile())
    try:
        with pytest.raises(SeedError, match="production marker"):
            reset.reset(*setup_and_files(PACKS / "CTL-M-001"))
    finally:
        reset.close()
    assert [r["id"] for r in rows(db.engine, "holders")] == ["h-1"]  # nothing touched
    assert count(db.engine, "messages") == 1


def test_the_url_is_never_shown(postgres, monkeypatch):
    url = postgres.create_database("claims_test_secret")
    secret = "wrong-pass-Zq81"
    monkeypatch.setenv("T_SQL_URL", postgres.url("claims_test_secret", password=secret))
    reset = reset_for(profile())
    with pytest.raises(SeedError) as caught:
        reset.reset(*setup_and_files(PACKS / "CTL-M-001"))
    assert secret not in str(caught.value) and "claims_test_secret" in str(caught.value)
    monkeypatch.setenv("T_SQL_URL", f"postgresql+psycopg://harness:{secret}@[::1")
    with pytest.raises(SeedError, match="not a SQLAlchemy URL") as caught:
        reset_for(profile()).state()
    assert secret not in str(caught.value)
    monkeypatch.setenv("T_SQL_URL", url)
    engine = sa.create_engine(url)
    create_schema(engine)
    engine.dispose()
    reset = reset_for(profile())
    try:
        outcome = reset.reset(*setup_and_files(PACKS / "CTL-M-001"))
        state = reset.state()
    finally:
        reset.close()
    for text in (outcome.describe(), state.model_dump_json()):
        assert postgres.password not in text and "postgresql" not in text


def test_a_driverless_postgresql_url_uses_psycopg(postgres, monkeypatch):
    url = postgres.create_database("claims_test_driverless")
    engine = sa.create_engine(url)
    create_schema(engine)
    engine.dispose()
    monkeypatch.setenv("T_SQL_URL", url.replace("postgresql+psycopg://", "postgresql://"))
    reset = reset_for(profile())
    try:
        assert reset.reset(*setup_and_files(PACKS / "CTL-M-001")).verified is True
    finally:
        reset.close()


def test_the_schema_not_fitting_the_mapping_names_the_profile_key(db, monkeypatch):
    monkeypatch.setenv("T_SQL_URL", db.url)
    setup, files = setup_and_files(PACKS / "CTL-M-001")
    cases = [
        # a canonical collection the product has no table for
        ({k: v for k, v in MAPPING.items() if k != "prior_claims"},
         "mapping.prior_claims.collection", "no table 'prior_claims'"),
        # fields without a column and no extra column
        ({**MAPPING, "claims": {"collection": "claims", "fields": {"_id": "id"}}},
         "mapping.claims.fields", "no column for"),
        # a JSON object for a text column
        ({**MAPPING, "claims": {"collection": "claims", "fields": {
            "_id": "id", "triage": "triage_class"}, "extra_column": "data"}},
         "mapping.claims.fields", "cannot hold a JSON object"),
        # the extra column is no JSON column
        ({**MAPPING, "claims": {**MAPPING["claims"], "extra_column": "status"}},
         "mapping.claims.extra_column", "not a JSON column"),
    ]
    for mapping, key, message in cases:
        reset = reset_for(profile(mapping=mapping))
        refusal = SeedError if "no table" in message else ProfileError  # the store refuses
        try:
            with pytest.raises(refusal, match=message) as caught:
                reset.reset(setup, files)
            assert caught.value.context["field"] == key
        finally:
            reset.close()
    assert count(db.engine, "messages") == 1  # refused before anything was emptied


# --------------------------------------------------------------------------- uploads


def _setup_with_uploads(tmp_path: Path) -> tuple[Setup, dict[str, bytes]]:
    data = _setup_json("CTL-M-001")
    data["objects"] = [
        {"key": "claims/c-1/photo.jpg", "file": "input/photo.jpg", "content_type": "image/jpeg"},
        {"key": "quote.pdf", "file": "input/quote.pdf", "content_type": "application/pdf"}]
    files = {"input/photo.jpg": b"\xff\xd8\xff photo" * 50, "input/quote.pdf": b"%PDF-1.4 q"}
    return Setup.model_validate(data), files


def test_uploads_land_as_files_in_the_folder(db, monkeypatch, tmp_path):
    uploads = tmp_path / "uploads"
    (uploads / "old").mkdir(parents=True)
    (uploads / "old" / "left-over.png").write_bytes(b"from another trial")
    monkeypatch.setenv("T_SQL_URL", db.url)
    monkeypatch.setenv("T_UPLOADS", str(uploads))
    prof = profile(stores={"sql_url_env": "T_SQL_URL", "files_dir_env": "T_UPLOADS"})
    setup, files = _setup_with_uploads(tmp_path)
    reset = reset_for(prof)
    try:
        assert reset.reset(setup, files).verified is True
        assert (uploads / "claims" / "c-1" / "photo.jpg").read_bytes() == files["input/photo.jpg"]
        assert (uploads / "quote.pdf").read_bytes() == files["input/quote.pdf"]
        assert not (uploads / "old").exists()
        state = reset.state()
        assert sorted(state.objects) == ["claims/c-1/photo.jpg", "quote.pdf"]
        assert state.objects["quote.pdf"].size == len(files["input/quote.pdf"])
        (uploads / "_environment").write_text('{"kind": "live"}')
        with pytest.raises(SeedError, match="production marker"):
            reset.reset(setup, files)
        assert (uploads / "quote.pdf").exists()  # refused before anything was emptied
    finally:
        reset.close()


# --------------------------------------------------------------------------- composition


class ClearingProduct:
    """A product whose own reset endpoint empties its tables (all of them, its sessions too),
    noting what it found."""

    def __init__(self, engine: sa.Engine) -> None:
        self.calls: list[dict[str, int]] = []
        self.fail = False
        self.clears = True
        app = FastAPI()

        @app.post("/admin/reset")
        def clear() -> Any:
            if self.fail:
                return JSONResponse({"detail": "busy"}, status_code=503)
            if not self.clears:
                return {"cleared": False}
            with engine.begin() as conn:
                self.calls.append({t: int(conn.execute(sa.text(
                    f"SELECT COUNT(*) FROM {t}")).scalar() or 0) for t in ("holders", "sessions")})
                for table in ("claims", "loss_history", "cover", "holders", "staff", "messages",
                              "sessions"):
                    conn.execute(sa.text(f"DELETE FROM {table}"))
            return {"cleared": True}

        @app.get("/admin/health")
        def health() -> Any:
            return {"ok": True}

        self.server = BackgroundServer(app).start()


def test_the_products_endpoint_clears_then_the_stores_load(db, monkeypatch):
    monkeypatch.setenv("T_SQL_URL", db.url)
    product = ClearingProduct(db.engine)
    prof = profile(base_url=product.server.url, reset={
        "adapter": "endpoint+stores",
        "endpoint": {"path": "/admin/reset", "health_path": "/admin/health"}})
    reset = reset_for(prof)
    setup, files = setup_and_files(PACKS / "CTL-M-001")
    try:
        reset.reset(setup, files)  # a first pack: the tables now hold its state
        outcome = reset.reset(setup, files)
        assert outcome.adapter == "endpoint+stores" and outcome.verified is True
        assert any("cleared by the product's endpoint" in n for n in outcome.notes)
        # the endpoint ran first (it found the previous pack's rows), then the stores loaded
        assert product.calls[-1]["holders"] == 2
        assert count(db.engine, "holders") == 2 and count(db.engine, "sessions") == 0
        state = reset.state()
        state.collections["customers"] = {k: {f: v for f, v in d.items() if f != "created"}
                                          for k, d in state.collections["customers"].items()}
        assert state.collections == expected(setup, files)
        assert "healthy" in reset.health() and "stores reachable" in reset.health()
        product.fail = True
        with db.engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO sessions VALUES ('s-2', 'kept')"))
        with pytest.raises(SeedError, match="HTTP 503"):
            reset.reset(setup, files)
        assert count(db.engine, "sessions") == 1 and count(db.engine, "holders") == 2
    finally:
        reset.close()
        product.server.stop()


CLEAR_SESSIONS = ("import sqlalchemy as sa, sys\n"
                  "e = sa.create_engine(sys.argv[1])\n"
                  "with e.begin() as c: c.execute(sa.text('DELETE FROM sessions'))\n"
                  "sys.exit(int(sys.argv[2]))\n")


def test_a_command_clears_then_the_stores_load(db, monkeypatch):
    monkeypatch.setenv("T_SQL_URL", db.url)
    monkeypatch.setenv("T_CLEAR_URL", db.url)
    argv = [sys.executable, "-c", CLEAR_SESSIONS, db.url, "0"]
    prof = profile(reset={"adapter": "command+stores", "command": {"argv": argv}})
    reset = reset_for(prof)
    setup, files = setup_and_files(PACKS / "CTL-M-001")
    try:
        outcome = reset.reset(setup, files)
        assert outcome.adapter == "command+stores" and outcome.verified is True
        assert count(db.engine, "sessions") == 0 and count(db.engine, "cover") == 2
    finally:
        reset.close()
    failing = profile(reset={"adapter": "command+stores", "command": {
        "argv": [sys.executable, "-c", "import sys; sys.exit('cannot reach the app: {lane}')",
                 "{lane}"]}})
    reset = reset_for(failing)
    try:
        with pytest.raises(SeedError, match="exit code 1: cannot reach the app: lane-1"):
            reset.reset(setup, files)
    finally:
        reset.close()
    stuck = profile(reset={"adapter": "command+stores", "command": {
        "argv": [sys.executable, "-c", "import time; d = {'s': 30}; time.sleep(d['s'])"],
        "timeout_s": 0.5}})
    reset = reset_for(stuck)
    try:
        with pytest.raises(SeedError, match="did not finish in time"):
            reset.reset(setup, files)
    finally:
        reset.close()


WRITE_ENVIRONMENT = ("import json, os, sys\n"
                     "with open(sys.argv[1], 'w') as f: json.dump(dict(os.environ), f)\n")


@pytest.mark.parametrize(("url", "lane_url"), [
    ("sqlite:///{tmp}/claims_test.sqlite3", "sqlite:///{tmp}/claims_test_lane2.sqlite3"),
    ("postgresql://app:pw%40-9@db.example:5432/claims_test?sslmode=disable",
     "postgresql://app:pw%40-9@db.example:5432/claims_test_lane2?sslmode=disable"),
])
def test_the_reset_command_sees_the_stores_as_its_lane_does(url, lane_url, monkeypatch,
                                                             tmp_path):
    """With two lanes, each lane's command gets its own database URL (the lane's database
    applied: a SQLite file's stem, a server's database; its own driver name and password)
    and its own uploads folder; a lane without a database or bucket gets the environment's."""
    from harness.reset import run_clear_command

    url, lane_url = url.format(tmp=tmp_path), lane_url.format(tmp=tmp_path)
    monkeypatch.setenv("T_SQL_URL", url)
    monkeypatch.setenv("T_UPLOADS", str(tmp_path / "uploads"))
    out = tmp_path / "environment.json"
    prof = profile(
        base_url=None,
        lanes=[{"name": "lane1", "base_url": "http://127.0.0.1:9", "database":
                "claims_test_lane1", "bucket": "claims-dev-lane1"},
               {"name": "lane2", "base_url": "http://127.0.0.1:9", "database":
                "claims_test_lane2", "bucket": "claims-dev-lane2"},
               {"name": "by-hand", "base_url": "http://127.0.0.1:9"}],
        stores={"sql_url_env": "T_SQL_URL", "files_dir_env": "T_UPLOADS"},
        reset={"adapter": "command+stores",
               "command": {"argv": [sys.executable, "-c", WRITE_ENVIRONMENT, str(out)]}})
    seen = {}
    for lane in prof.resolved_lanes():
        run_clear_command(prof, lane, "CTL-M-001")
        got = json.loads(out.read_text("utf-8"))
        seen[lane.name] = (got["T_SQL_URL"], got["T_UPLOADS"])
    assert seen["lane2"] == (lane_url, str(tmp_path / "uploads" / "claims-dev-lane2"))
    assert seen["lane1"] == (lane_url.replace("lane2", "lane1"),
                             str(tmp_path / "uploads" / "claims-dev-lane1"))
    assert seen["by-hand"] == (url, str(tmp_path / "uploads"))  # nothing changes
    assert os.environ["T_SQL_URL"] == url  # the harness's own environment is untouched


def test_the_products_own_reset_is_verified_by_reading_the_sql_database(db, monkeypatch):
    """``endpoint`` alone: the product loads the pack itself; the harness reads the tables and
    compares them with the setup, in the columns' own types."""
    monkeypatch.setenv("T_SQL_URL", db.url)
    setup, files = setup_and_files(PACKS / "CTL-M-001")
    loader = reset_for(profile())
    product = ClearingProduct(db.engine)
    try:
        loader.reset(setup, files)  # stands in for the product loading the pack itself
        product.clears = False
        own = reset_for(profile(base_url=product.server.url, reset={
            "adapter": "endpoint", "endpoint": {"path": "/admin/reset"}}))
        try:
            assert own.reset(setup, files).verified is True
            with db.engine.begin() as conn:
                conn.execute(sa.text("UPDATE cover SET starts = '2025-06-02' "
                                     "WHERE id = 'pol-m001'"))
            with pytest.raises(SeedError, match="document cover/pol-m001 differs"):
                own.reset(setup, files)
        finally:
            own.close()
    finally:
        loader.close()
        product.server.stop()


def test_a_failing_reset_commands_last_line_never_shows_the_database_url(monkeypatch,
                                                                         tmp_path):
    """A command that fails saying the URL it was given (a driver's error often quotes it):
    the line is shown with the URL and its password replaced by ***."""
    from harness.reset import run_clear_command

    url = "postgresql://app:s3cret-pw@db.example:5432/claims_test"
    monkeypatch.setenv("T_SQL_URL", url)
    say_and_fail = ("import os, sys; "
                    "sys.exit('cannot connect to ' + os.environ['T_SQL_URL'] + "
                    "' (password s3cret-pw)')")
    prof = profile(
        base_url=None,
        lanes=[{"name": "lane2", "base_url": "http://127.0.0.1:9",
                "database": "claims_test_lane2"}],
        stores={"sql_url_env": "T_SQL_URL"},
        reset={"adapter": "command+stores",
               "command": {"argv": [sys.executable, "-c", say_and_fail]}})
    with pytest.raises(SeedError) as err:
        run_clear_command(prof, prof.resolved_lanes()[0], "CTL-M-001")
    text = str(err.value)
    assert "failed with exit code 1: cannot connect to *** (password ***)" in text
    assert "s3cret" not in text and "db.example" not in text
