"""Profile format versions: the keys format 3 brought need version = "3" or later, those
format 4 brought version = "4"; formats 1, 2 and 3 still load without them."""

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


# One profile change per key format 4 brought, and the key as the refusal names it.
STATE = {"stores": SQL, "state": {"source": "stores"}}
FORMAT_4 = [
    ({**STATE, "staff_stores": {}}, "staff_stores"),
    ({**STATE, "staff_stores": {"urgency": ""}}, "staff_stores"),
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


@pytest.mark.parametrize("changes,key", FORMAT_4, ids=[str(c) for c, _ in FORMAT_4])
def test_each_format_4_key_needs_version_4(changes, key):
    assert key in format_4_keys(Profile.model_validate(_data("4", changes)))
    for older in ("1", "2", "3"):
        with pytest.raises(ValueError, match="came with profile format 4") as err:
            Profile.model_validate(_data(older, changes))
        assert key in str(err.value) and f'version = "{older}"' in str(err.value)


def test_a_format_3_key_is_any_format_from_3_on():
    changes, key = FORMAT_3[0]
    for version in ("3", "4"):
        assert key in format_3_keys(Profile.model_validate(_data(version, changes)))


def test_a_profile_without_them_is_any_format():
    for version in ("1", "2", "3", "4"):
        prof = Profile.model_validate(_data(version, {}))
        assert prof.version == version and format_3_keys(prof) == format_4_keys(prof) == []
    assert Profile.model_validate(MINIMAL).version == PROFILE_FORMAT_VERSION == "4"


def test_a_format_2_file_using_one_is_refused_naming_file_and_keys(tmp_path):
    heron = (Path(__file__).resolve().parents[2] / "harness" / "profiles" / "heron.toml"
             ).read_text(encoding="utf-8")
    assert 'version = "4"' in heron and "\n[staff_stores]\n" in heron
    path = tmp_path / "heron-v2.toml"
    path.write_text(heron.replace('version = "4"', 'version = "2"', 1), encoding="utf-8")
    with pytest.raises(ProfileError, match="staff_stores came with profile format 4"):
        load_profile(path)  # the newest keys first: version 4 takes them all
    path.write_text(heron.replace('version = "4"', 'version = "2"', 1)
                    .replace("\n[staff_stores]\n", "\n", 1), encoding="utf-8")
    with pytest.raises(ProfileError) as err:
        load_profile(path)
    assert err.value.context["file"] == str(path)
    text = str(err.value)
    for key in ("locale", "currency", "agent_decision", "reset.adapter = 'command+stores'",
                "stores.sql_url_env", "mapping.claims.extra_column", "dev.database"):
        assert key in text, key


def test_the_shipped_profiles_say_their_format():
    for name, version in (("reference", "3"), ("kestrel", "3"), ("heron", "4")):
        assert load_profile(name).version == version, name
