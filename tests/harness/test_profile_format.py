"""Profile format versions: the keys format 3 brought need version = "3", those format 4
brought version = "4"; older formats still load without them."""

from __future__ import annotations

from pathlib import Path

import pytest

from claims_records import ProfileError
from harness import load_profile
from harness.profile import PROFILE_FORMAT_VERSION, Profile
from harness.profile._format import format_3_keys, format_4_keys

from .test_profile_v2 import MINIMAL

SQL = {"sql_url_env": "APP_DB_URL", "files_dir_env": "APP_UPLOADS",
       "allowed_database": "^app_test$"}
# One profile change per key format 3 brought, and the key as the refusal names it.
FORMAT_3 = [
    ({"locale": "de_DE"}, "locale"),
    ({"currency": "EUR"}, "currency"),
    ({"conversation": {"scope": "process", "new": {"by": "url", "url": "/new"}},
      "customer_screen": {"customer_message": ".me"}}, "conversation"),
    ({"agent_decision": {"approved": ["Decision: approved"]}}, "agent_decision"),
    ({"capabilities": {"runtime_report": False}, "runtime": {"declared": {"model": "rules"}}},
     "runtime.declared"),
    ({"reset": {"adapter": "command+stores", "command": {"argv": ["clear"]}}, "stores": SQL},
     "reset.adapter = 'command+stores'"),
    ({"stores": SQL}, "stores.sql_url_env"),
    ({"stores": SQL}, "stores.files_dir_env"),
    ({"stores": SQL, "mapping": {"claims": {"collection": "claims", "extra_column": "details"}}},
     "mapping.claims.extra_column"),
    ({"dev": {"command": ["app"], "database": "app_dev"}}, "dev.database"),
    ({"dev": {"command": ["app"], "env": {"APP_DB_URL": "{sql_url}"}}},
     "dev placeholder {sql_url}"),
]


MONGO = {"mongo_uri_env": "APP_MONGO"}
# One profile change per key format 4 brought, and the key as the refusal names it.
FORMAT_4 = [
    ({"mapping": {"customers": {"collection": "customer", "key": "assigned"}}},
     "mapping.customers.key = 'assigned'"),
    ({"mapping": {"policies": {"collection": "policy", "refs": {"customer_id": "customers"}}}},
     "mapping.policies.refs"),
    ({"mapping": {"policies": {"collection": "policy", "fixed": {"sum_insured": 0}}}},
     "mapping.policies.fixed"),
    ({"mapping": {"policies": {"collection": "policy", "derived": {"label": "{line}"}}}},
     "mapping.policies.derived"),
    ({"mapping": {"claims": {"collection": "claim", "drop": ["materials"]}}},
     "mapping.claims.drop"),
    ({"mapping": {"claims": {"collection": "claim", "children": {"facts": {
        "table": "claim_fact", "parent_key": "claim_id", "item_key": "fact_key"}}}}},
     "mapping.claims.children"),
    ({"stores": {"database_kind": "mongo", "database_env": "APP_MONGO"}},
     "stores.database_kind"),
    ({"stores": {"database_kind": "mongo", "database_env": "APP_MONGO"}},
     "stores.database_env"),
    ({"stores": {"database_kind": "mongo", "database_env": "APP_MONGO",
                 "database_options": {}}}, "stores.database_options"),
    ({"stores": {**MONGO, "files_kind": "folder", "files_env": "APP_FILES"}},
     "stores.files_kind"),
    ({"stores": {**MONGO, "files_kind": "folder", "files_env": "APP_FILES"}},
     "stores.files_env"),
    ({"stores": {**MONGO, "files_kind": "s3", "files_env": "APP_S3",
                 "files_options": {"region": "eu-west-2"}}}, "stores.files_options"),
    ({"stores": MONGO, "state": {"source": "stores"}, "staff_stores": {}}, "staff_stores"),
    ({"stores": MONGO, "state": {"source": "stores"}, "staff_stores": {"urgency": ""}},
     "staff_stores"),
]


def _data(version: str, changes: dict) -> dict:
    data = {**MINIMAL, "version": version}
    for key, value in changes.items():
        data[key] = {**data.get(key, {}), **value} if isinstance(value, dict) else value
    return data


@pytest.mark.parametrize("changes,key", FORMAT_3, ids=[k for _, k in FORMAT_3])
def test_each_format_3_key_needs_version_3(changes, key):
    assert key in format_3_keys(Profile.model_validate(_data("3", changes)))
    for older in ("1", "2"):
        with pytest.raises(ValueError, match="came with profile format 3") as err:
            Profile.model_validate(_data(older, changes))
        assert key in str(err.value) and f'version = "{older}"' in str(err.value)


@pytest.mark.parametrize("changes,key", FORMAT_4, ids=[k for _, k in FORMAT_4])
def test_each_format_4_key_needs_version_4(changes, key):
    prof = Profile.model_validate(_data("4", changes))
    assert key in format_4_keys(prof) and format_3_keys(prof) == []
    for older in ("1", "2", "3"):
        with pytest.raises(ValueError, match="came with profile format 4") as err:
            Profile.model_validate(_data(older, changes))
        assert key in str(err.value) and f'version = "{older}"' in str(err.value)
        assert 'set version = "4"' in str(err.value)


def test_an_older_profile_is_told_each_formats_keys_and_the_version_they_need():
    changes = {"locale": "de_DE", "mapping": {"claims": {"collection": "claim",
                                                         "drop": ["materials"]}}}
    with pytest.raises(ValueError) as err:
        Profile.model_validate(_data("2", changes))
    assert ("locale came with profile format 3; mapping.claims.drop came with profile "
            'format 4: set version = "4" (the profile says version = "2")') in str(err.value)
    assert Profile.model_validate(_data("4", changes)).version == "4"  # format 4 takes both


def test_a_format_3_key_is_any_format_from_3_on():
    changes, key = FORMAT_3[0]
    for version in ("3", "4"):
        assert key in format_3_keys(Profile.model_validate(_data(version, changes)))


def test_a_profile_without_them_is_any_format():
    for version in ("1", "2", "3", "4"):
        prof = Profile.model_validate(_data(version, {}))
        assert prof.version == version and format_3_keys(prof) == format_4_keys(prof) == []
    # format 4's keys at their defaults are no format 4 keys
    plain = _data("3", {"mapping": {"claims": {"collection": "claim", "key": "canonical",
                                               "refs": {}, "drop": []}}})
    assert format_4_keys(Profile.model_validate(plain)) == []
    assert Profile.model_validate(MINIMAL).version == PROFILE_FORMAT_VERSION == "5"


def test_a_format_2_file_using_one_is_refused_naming_file_and_keys(tmp_path):
    heron = (Path(__file__).resolve().parents[2] / "harness" / "profiles" / "heron.toml"
             ).read_text(encoding="utf-8")
    assert 'version = "4"' in heron and "\n[staff_stores]\n" in heron
    path = tmp_path / "heron-v2.toml"
    path.write_text(heron.replace('version = "4"', 'version = "2"', 1), encoding="utf-8")
    with pytest.raises(ProfileError) as err:
        load_profile(path)
    assert err.value.context["file"] == str(path)
    three, four = str(err.value).split(" came with profile format 3; ")
    for key in ("locale", "currency", "agent_decision", "reset.adapter = 'command+stores'",
                "stores.sql_url_env", "mapping.claims.extra_column", "dev.database"):
        assert key in three, key
    for key in ("staff_stores", "mapping.claims.children"):
        assert key in four.split(" came with profile format 4")[0], key
    assert 'set version = "4"' in four  # the newest format named takes them all


def test_the_shipped_profiles_say_their_format():
    for name, version in (("reference", "3"), ("kestrel", "3"), ("heron", "4")):
        assert load_profile(name).version == version, name


def test_a_format_3_file_using_format_4_keys_is_refused_naming_file_and_keys(tmp_path):
    real = (Path(__file__).resolve().parent / "real_schema.toml").read_text(encoding="utf-8")
    assert load_profile(Path(__file__).resolve().parent / "real_schema.toml").version == "4"
    path = tmp_path / "real-v3.toml"
    path.write_text(real.replace('version = "4"', 'version = "3"', 1), encoding="utf-8")
    with pytest.raises(ProfileError) as err:
        load_profile(path)
    assert err.value.context["file"] == str(path)
    for key in ("mapping.customers.key = 'assigned'", "mapping.policies.refs",
                "mapping.policies.fixed", "mapping.policies.derived", "mapping.claims.drop",
                "mapping.claims.children"):
        assert key in str(err.value), key
