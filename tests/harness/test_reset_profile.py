"""The profile keys for SQL stores, uploads folders and composed resets: what loads, and the
errors for what cannot work, each naming the profile file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from claims_records import ProfileError
from harness.profile import load_profile

from .profiles import bare_profile

BASE = bare_profile("sql product", base_url="http://127.0.0.1:8000", conversation=".c",
                    send="button")

SQL_STORES = """
[stores]
sql_url_env = "CLAIMS_DB_URL"
files_dir_env = "CLAIMS_UPLOAD_DIR"
collections = ["messages"]
"""


def _load(tmp_path: Path, text: str):
    path = tmp_path / "product.toml"
    path.write_text(BASE + text, encoding="utf-8")
    return load_profile(path)


def test_a_sql_product_with_a_composed_reset_loads(tmp_path):
    prof = _load(tmp_path, """
[reset]
adapter = "endpoint+stores"

[reset.endpoint]
path = "/admin/reset"
""" + SQL_STORES + """
[mapping.claims]
collection = "claims"
fields._id = "id"
fields."triage.class" = "triage_class"
extra_column = "data"
""")
    assert prof.reset.clearing_step() == "endpoint" and prof.reset.loads_through_stores()
    assert prof.stores is not None and prof.stores.kind == "sql"
    assert prof.state_source() == "stores"
    assert prof.mapping["claims"].fields == {"_id": "id", "triage.class": "triage_class"}
    command = _load(tmp_path, """
[reset]
adapter = "command+stores"

[reset.command]
argv = ["python", "manage.py", "flush", "--database", "{database}"]
timeout_s = 30
""" + SQL_STORES)
    assert command.reset.clearing_step() == "command"
    assert command.reset.command is not None and command.reset.command.timeout_s == 30


@pytest.mark.parametrize(("text", "key", "message"), [
    ('[reset]\nadapter = "seed_route+stores"\n' + SQL_STORES, "reset.adapter",
     "resets and loads by itself"),
    ('[reset]\nadapter = "stores+endpoint"\n' + SQL_STORES, "reset.adapter",
     "'<clear>\\+stores'"),
    ('[reset]\nadapter = "none+stores"\n' + SQL_STORES, "reset.adapter",
     "does not clear anything"),
    ('[reset]\nadapter = "command"\n' + SQL_STORES, "reset.adapter", "command\\+stores"),
    ('[reset]\nadapter = "endpoint+stores+stores"\n' + SQL_STORES, "reset.adapter",
     "'<clear>\\+stores'"),
    ('[reset]\nadapter = "command+stores"\n' + SQL_STORES, "reset",
     r"needs \[reset.command\]"),
    ('[reset]\nadapter = "endpoint+stores"\n' + SQL_STORES, "reset",
     r"needs \[reset.endpoint\]"),
    ('[reset]\nadapter = "command+stores"\n[reset.command]\nargv = ["x"]\n', "(profile)",
     r"reset.adapter = 'command\+stores' needs \[stores\]"),
    ('[reset]\nadapter = "command+stores"\n[reset.command]\nargv = []\n' + SQL_STORES,
     "reset.command.argv", "at least 1"),
    ('[reset]\nadapter = "command+stores"\n[reset.command]\nargv = ["reset", "{url}"]\n'
     + SQL_STORES, "reset.command.argv", r"unknown placeholder \{url\}"),
    ('[stores]\nsql_url_env = "A"\nmongo_uri_env = "B"\n', "stores",
     "one of stores.mongo_uri_env"),
    ('[stores]\ncollections = ["x"]\n', "stores", "one of stores.mongo_uri_env"),
    ('[stores]\nsql_url_env = "A"\nfiles_dir_env = "B"\ns3_endpoint_env = "C"\n', "stores",
     "at most one of stores.s3_endpoint_env"),
    ('[stores]\nmongo_uri_env = "A"\n[mapping.claims]\ncollection = "claims"\n'
     'extra_column = "data"\n', "(profile)", "mapping.claims.extra_column is for SQL stores"),
])
def test_what_cannot_work_is_refused_naming_the_key(tmp_path, text, key, message):
    with pytest.raises(ProfileError, match=message) as caught:
        _load(tmp_path, text)
    assert caught.value.context["field"] == key
    assert caught.value.context["file"].endswith("product.toml")
