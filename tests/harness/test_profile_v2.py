"""Profile v2: capabilities, completion strategies, staff access, reset adapters and the
vocabulary are validated with the file and field named; a v1 profile still loads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from claims_records import ProfileError
from harness import load_profile
from harness.profile import Profile

MINIMAL = {
    "name": "minimal", "base_url": "http://127.0.0.1:9",
    "capabilities": {"customer_accounts": False, "staff_side": False},
    "completion": {"busy": ".spinner"},
    "customer_screen": {"conversation": "role=log", "agent_message": ".bot",
                        "composer_input": "textarea", "composer_send": "role=button[name=Send]",
                        "claim_number_pattern": "CLM-\\d+"},
}


def _profile(**changes) -> Profile:
    data = {**MINIMAL}
    for key, value in changes.items():
        data[key] = {**data.get(key, {}), **value} if isinstance(value, dict) else value
    return Profile.model_validate(data)


def test_a_product_without_accounts_or_staff_side_needs_no_sign_in():
    prof = _profile()
    assert prof.capabilities.absent() == ["customer_accounts", "staff_side"]
    assert prof.customer_sign_in is None and prof.staff_sign_in is None
    assert prof.completion.strategies() == ["busy"]
    assert prof.customer_screen.composer_send == ["role=button[name=Send]"]


def test_selectors_take_alternatives_and_empty_means_absent():
    prof = _profile(customer_screen={"composer_input": ["#start-box", "textarea"], "chips": ""})
    assert prof.customer_screen.composer_input == ["#start-box", "textarea"]
    assert prof.customer_screen.chips == []


@pytest.mark.parametrize("completion,message", [
    ({"busy": [], "selector": ".x"}, "needs selector, attribute and value"),
    ({"busy": []}, "at least one completion strategy"),
    ({"busy": [], "stable_ms": -1}, "greater than or equal"),
])
def test_completion_needs_a_whole_strategy(completion, message):
    with pytest.raises(ValueError, match=message):
        _profile(completion=completion)


def test_capabilities_and_sections_must_agree():
    with pytest.raises(ValueError, match="customer_sign_in"):
        _profile(capabilities={"customer_accounts": True})
    with pytest.raises(ValueError, match="staff_sign_in"):
        _profile(capabilities={"staff_side": True})
    with pytest.raises(ValueError, match="claim_path"):
        _profile(capabilities={"staff_side": True}, staff={"sign_in": "none"})
    with pytest.raises(ValueError, match="token_env"):
        _profile(capabilities={"staff_side": True}, staff={"sign_in": "header", "find": "queue",
                                                           "queue_row": "tr"})
    with pytest.raises(ValueError, match="queue_row"):
        _profile(capabilities={"staff_side": True},
                 staff={"sign_in": "none", "find": "queue"})
    ok = _profile(capabilities={"staff_side": True},
                  staff={"sign_in": "header", "token_env": "T", "find": "queue",
                         "queue_row": "tr"})
    assert ok.staff.find == "queue"


def test_reset_adapters_need_their_sections():
    with pytest.raises(ValueError, match=r"\[reset.endpoint\]"):
        _profile(reset={"adapter": "endpoint"})
    with pytest.raises(ValueError, match=r"\[stores\]"):
        _profile(reset={"adapter": "stores"})
    with pytest.raises(ValueError, match="both auth_header and auth_env"):
        _profile(reset={"adapter": "endpoint",
                        "endpoint": {"path": "/reset", "auth_header": "X-Key"}})
    prof = _profile(reset={"adapter": "stores"}, stores={"mongo_uri_env": "URI"})
    assert prof.state_source() == "stores"
    assert _profile(reset={"adapter": "none"}).state_source() == "none"
    assert _profile().state_source() == "seed_route"


STORES = {"stores": {"mongo_uri_env": "URI"}, "state": {"source": "stores"}}


@pytest.mark.parametrize(("changes", "message"), [
    ({**STORES, "capabilities": {"staff_side": True}, "staff": {"sign_in": "none"},
      "staff_screen": {"claim_path": "/c/{claim_number}"}},
     "for a product without a staff screen"),
    ({"reset": {"adapter": "none"}}, "reads the state dumped after the journey"),
    ({"stores": {"mongo_uri_env": "URI"}, "state": {"source": "none"}},
     "reads the state dumped after the journey"),
], ids=["with-a-staff-screen", "no-state-no-reset", "no-state"])
def test_the_staff_side_from_the_stores_needs_no_staff_screen_and_a_readable_state(
        changes, message):
    with pytest.raises(ValueError, match=message):
        _profile(version="4", staff_stores={}, **changes)


@pytest.mark.parametrize(("changes", "source", "waiting"), [
    ({**STORES}, "stores", "waiting_list"),
    ({}, "stores", "waiting_list"),  # the seed route dumps the state
    ({**STORES, "capabilities": {"waiting_list": False}}, "stores", ""),
], ids=["stores", "seed-route", "no-waiting-list"])
def test_the_staff_side_is_read_from_the_stores_where_the_section_says(changes, source,
                                                                      waiting):
    prof = _profile(version="4", staff_stores={}, **changes)
    side = prof.staff_side()
    assert prof.staff_source() == source and side.reads_stores and not side.present
    assert side.stores is not None and side.stores.waiting_list == waiting
    assert prof.staff_stores is not None and prof.staff_stores.waiting_list == "waiting_list"


def test_without_the_section_there_is_a_staff_screen_or_no_staff_side():
    assert _profile().staff_source() == "none" and not _profile().staff_side().reads_stores
    screen = _profile(capabilities={"staff_side": True}, staff={"sign_in": "none"},
                      staff_screen={"claim_path": "/c/{claim_number}"})
    assert screen.staff_source() == "staff_screen" and not screen.staff_side().reads_stores


def test_profile_check_says_what_is_not_implemented_with_the_staff_side_in_the_stores():
    from harness._profile_check import CONSEQUENCES, not_implemented

    prof = _profile(version="4", staff_stores={"urgency": "", "checks": ""}, **STORES)
    assert not_implemented(prof) == [
        f"customer_accounts: {CONSEQUENCES['customer_accounts']}",
        "staff_side: no staff screen (the staff side is read from the stores): the "
        "explanation component, scored only from a staff screen; what the stores do not "
        "hold: urgency, checks"]
    assert not_implemented(_profile())[1] == f"staff_side: {CONSEQUENCES['staff_side']}"


def test_vocabulary_maps_only_to_canonical_codes():
    prof = _profile(staff_vocabulary={"triage_class": {"Routine": "standard"}})
    assert prof.staff_vocabulary.triage_class == {"Routine": "standard"}
    with pytest.raises(ValueError, match="not a canonical code"):
        _profile(staff_vocabulary={"triage_class": {"Routine": "routine"}})
    with pytest.raises(ValueError, match="not a canonical code"):
        _profile(staff_vocabulary={"check_outcomes": {"Flagged": "flagged"}})


def test_mapping_must_be_invertible():
    with pytest.raises(ValueError, match="one product field"):
        _profile(mapping={"claims": {"collection": "cases",
                                     "fields": {"a": "x", "b": "x"}}})
    with pytest.raises(ValueError, match="not one-to-one"):
        _profile(mapping={"claims": {"collection": "cases",
                                     "values": {"status": {"a": "x", "b": "x"}}}})
    with pytest.raises(ValueError, match="one product collection"):
        _profile(mapping={"claims": {"collection": "c"}, "policies": {"collection": "c"}})


def test_dev_start_keeps_secrets_off_the_command_line():
    with pytest.raises(ValueError, match="secret"):
        _profile(dev={"command": ["app", "--key", "{reset_token}"]})
    with pytest.raises(ValueError, match="sql_url.*secret"):  # a URL may carry a password
        _profile(dev={"command": ["app", "--database-url", "{sql_url}"]})
    files = _profile(dev={"command": ["app", "--uploads", "{files_dir}"],
                          "env": {"DATABASE_URL": "{sql_url}"}})
    assert files.dev.uses("files_dir") and files.dev.uses("sql_url")
    with pytest.raises(ValueError, match="unknown placeholder"):
        _profile(dev={"command": ["app", "--port", "{prot}"]})
    with pytest.raises(ValueError, match="either builtin or command"):
        _profile(dev={})
    prof = _profile(dev={"command": ["app", "--port", "{port}"], "env": {"KEY": "{reset_token}"}})
    assert prof.dev.uses("reset_token")


def test_dev_database_is_the_stem_of_the_lanes_names():
    assert _profile(dev={"command": ["app"]}).dev.database == "claims_dev"
    assert _profile(dev={"command": ["app"], "database": "heron_dev"}).dev.database == (
        "heron_dev")
    for stem in ("", "heron-dev", "heron/dev"):
        with pytest.raises(ValueError, match="database"):
            _profile(dev={"command": ["app"], "database": stem})


def test_runtime_field_pattern_must_be_a_regex():
    with pytest.raises(ValueError, match="not a regular expression"):
        _profile(runtime={"pattern": "(["})


def test_shipped_profiles_load(tmp_path):
    ref = load_profile("reference")
    assert ref.version == "3" and ref.capabilities.absent() == []
    assert ref.dev is not None and ref.dev.builtin == "reference_app"


def test_a_version_1_profile_still_loads(tmp_path):
    text = (Path(__file__).resolve().parents[2] / "harness" / "profiles" / "reference.toml"
            ).read_text(encoding="utf-8")
    # the reference profile without what format 1 did not have: capabilities, and the
    # agent's decision words (format 3)
    text = re.sub(r"\n\[agent_decision\]\n(?:[^\[\n].*\n|\n)*", "\n", text)
    v1 = text.replace('version = "3"', 'version = "1"').replace("[capabilities]",
                                                                "[capabilities_gone]")
    v1 = v1.split("[capabilities_gone]")[0] + "[runtime]" + v1.split("\n[runtime]", 1)[1]
    path = tmp_path / "v1.toml"
    path.write_text(v1, encoding="utf-8")
    prof = load_profile(path)
    assert prof.version == "1" and prof.capabilities.absent() == []


def test_an_invalid_profile_names_file_and_field(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\nbase_url = "http://h"\n[completion]\nbusy = ".b"\n'
                    '[customer_screen]\nconversation = ".c"\n', encoding="utf-8")
    with pytest.raises(ProfileError) as err:
        load_profile(path)
    assert err.value.context["file"] == str(path)
    assert err.value.context["field"].startswith("customer_screen.")
