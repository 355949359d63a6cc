"""``claims-harness profile check <profile> --reset CTL-M-001`` on the product with a real
schema (tests/harness/real_schema.py: integer keys, foreign keys, NOT NULL columns no pack
fills, a child table, no JSON column), in-process: its profile (format 4) loads, its stores
pass their guards, the pack is planned, reset through the stores adapter into a SQLite file
and verified, the customer screen (a small chat page on loopback) is read, and the check
reports no problem. The same profile with the facts' child table missing is a reported
problem naming the profile key, and the database is left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from claims_cli.app import app
from tests.harness.real_schema import PROFILE, URL_ENV, create_schema, rows

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def _product(tmp_path: Path, base_url: str, monkeypatch: pytest.MonkeyPatch,
             replace: tuple[str, str] = ("", "")) -> tuple[Path, sa.Engine]:
    """The profile pointed at the chat page, and a SQLite database of the schema."""
    database = tmp_path / "real_schema_test.sqlite3"
    database.touch()
    engine = sa.create_engine(f"sqlite:///{database}")
    create_schema(engine)
    monkeypatch.setenv(URL_ENV, f"sqlite:///{database}")
    text = PROFILE.read_text(encoding="utf-8").replace(
        'base_url = "http://127.0.0.1:9"', f'base_url = "{base_url}"', 1)
    path = tmp_path / "real-schema.toml"
    path.write_text(text.replace(*replace) if replace[0] else text, encoding="utf-8")
    return path, engine


def test_profile_check_resets_the_real_schema_with_no_problem(server, tmp_path, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    path, engine = _product(tmp_path, server.url, monkeypatch)
    try:
        result = CliRunner().invoke(app, ["profile", "check", str(path), "--reset",
                                          "CTL-M-001"])
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert lines[0] == "Profile real-schema" and lines[-1] == "0 problem(s)"
        assert "FAIL" not in result.output
        resets = [ln for ln in lines if ln.startswith("ok   reset")]
        assert resets[0].endswith("stores: stores reachable (database real_schema_test, "
                                  f"file {tmp_path / 'real_schema_test.sqlite3'}, "
                                  "0 non-empty collection(s))")
        assert "pre-flight of CTL-M-001: stores ready (database real_schema_test)" in resets[1]
        assert "CTL-M-001 loaded: reset by stores took" in resets[2]
        assert ", verified, session=anonymous" in resets[2]
        assert any(ln.startswith("ok   start page") for ln in lines)
        # the pack is in the product's tables, numbered and referred to by the product's keys
        policies = {r["policy_number"]: r for r in rows(engine, "policy")}
        customers = {r["id"]: r for r in rows(engine, "customer")}
        assert customers[policies["NWF-POL-100234"]["customer_id"]]["full_name"] == \
            "Daniel Carter"
        assert [r["fact_key"] for r in rows(engine, "claim_fact")] == [
            "incident_date", "incident_type", "incident_location"]
    finally:
        engine.dispose()


def test_a_profile_that_does_not_fit_the_schema_is_a_reported_problem(server, tmp_path,
                                                                      monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    path, engine = _product(tmp_path, server.url, monkeypatch,
                            ('table = "claim_fact"', 'table = "claim_facts"'))
    try:
        with engine.begin() as conn:  # the product's own data, to be left alone
            conn.execute(sa.text("INSERT INTO customer (full_name) VALUES ('kept')"))
        result = CliRunner().invoke(app, ["profile", "check", str(path), "--reset",
                                          "CTL-M-001"])
        assert result.exit_code == 1, result.output
        fails = [ln for ln in result.output.splitlines() if ln.startswith("FAIL")]
        assert len(fails) == 1, result.output
        assert "FAIL reset" in fails[0] and "no table 'claim_facts'" in fails[0]
        assert "field=mapping.claims.children.facts" in fails[0]
        assert result.output.splitlines()[-1] == "1 problem(s)"
        assert [r["full_name"] for r in rows(engine, "customer")] == ["kept"]
    finally:
        engine.dispose()
