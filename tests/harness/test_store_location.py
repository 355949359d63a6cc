"""Store refusals name the setting that decides them, and a SQLite database is shown by its
file, a relative URL's path resolved and the folder it was resolved from named — in the
refusal and in the reset's health line (``profile check``'s store line). Table-driven."""

from __future__ import annotations

from pathlib import Path

import pytest

from claims_records import SeedError, StoreRefusal
from harness.reset import make_reset
from seed import check_database_allowed
from seed.stores import SqlTarget

from .guarded_product import PACKS, SQL_ENV, environment, make_product, profile_for

# (case, how the URL names the file: absolute | relative | missing-relative | production name)
CASES = ["absolute", "relative", "missing relative", "production name"]


@pytest.mark.parametrize("case", CASES)
def test_a_sqlite_store_is_shown_by_its_file_and_refusals_name_the_setting(
        case: str, request: pytest.FixtureRequest, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    product = make_product(request, tmp_path / "product", "sqlite",
                           database="heron_prod" if case == "production name" else None)
    environment(product, monkeypatch)
    file = tmp_path / "product" / f"{product.database}.sqlite3"
    monkeypatch.chdir(tmp_path)
    if case == "relative":
        monkeypatch.setenv(SQL_ENV, f"sqlite:///product/{product.database}.sqlite3")
    if case == "missing relative":
        file = tmp_path / "gone" / "claims_test.sqlite3"
        monkeypatch.setenv(SQL_ENV, "sqlite:///gone/claims_test.sqlite3")
    profile = profile_for(product, "stores")
    reset = make_reset(profile, profile.resolved_lanes()[0], PACKS)
    try:
        if case in ("absolute", "relative"):
            line = reset.health()
            assert f"file {file}" in line, line
            said = f"resolved from the working folder {tmp_path}"
            assert (said in line) == (case == "relative"), line
            assert f"database {product.database}" in line
            return
        with pytest.raises(StoreRefusal) as err:
            reset.health()
    finally:
        reset.close()
    text = str(err.value)
    if case == "missing relative":
        assert text.startswith(f"no SQLite database file {file} (the URL's relative path "
                               f"'gone/claims_test.sqlite3' resolved from the working folder "
                               f"{tmp_path})"), text
        assert f"setting={SQL_ENV}" in text
    else:
        assert "'heron_prod' is not allowed for resets: it does not match " \
               "stores.allowed_database" in text
        assert "setting=stores.allowed_database" in text


# (case, the check, the setting its refusal names)
NAMED = [
    ("seed route", lambda: check_database_allowed("claims_live"),
     "CLAIMS_HARNESS_ALLOWED_DB_PATTERN"),
    ("SQL target", lambda: SqlTarget.from_text("postgresql://db/claims_live", env="E"
                                               ).check_name(r"(^|_)(test|dev)(_|$)"),
     "stores.allowed_database"),
    ("SQL target, own setting", lambda: SqlTarget.from_text(
        "postgresql://db/claims_live", env="E").check_name(r"_dev$", "APP_DB_PATTERN"),
     "APP_DB_PATTERN"),
]


@pytest.mark.parametrize(("case", "check", "setting"), NAMED, ids=[c[0] for c in NAMED])
def test_every_name_refusal_names_its_setting(case, check, setting) -> None:
    with pytest.raises(SeedError) as err:
        check()
    assert err.value.message.endswith(setting), err.value.message
    assert err.value.context["setting"] == setting
    assert err.value.context["reason"] == "database_not_allowed"
