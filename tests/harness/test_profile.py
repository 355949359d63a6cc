"""Product profiles: the shipped reference profile parses; bad profiles name file and field."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from claims_records import ProfileError
from harness import load_profile
from harness.profile import PROFILES_DIR

CONTRACT = Path(__file__).resolve().parents[2] / "docs" / "product-contract.md"


def test_reference_profile_loads_by_name_and_path():
    by_name = load_profile("reference")
    by_path = load_profile(PROFILES_DIR / "reference.toml")
    assert by_name == by_path
    assert by_name.runtime.controlled_values == ["controlled"]
    lanes = by_name.resolved_lanes()
    assert [ln.name for ln in lanes] == ["lane-1"]
    assert lanes[0].seed_url.endswith("/_harness/seed")


def test_reference_profile_selectors_are_the_contracts():
    prof = load_profile("reference")
    text = CONTRACT.read_text(encoding="utf-8")
    screen = prof.customer_screen.model_dump()
    for key in ("conversation", "agent_message", "composer_input", "composer_send",
                "attach_input", "todo_bar", "claim_number", "sign_in_prompt", "confirm_button"):
        testid = screen[key][0].split("=")[1].split("]")[0]
        assert f"data-testid={testid}" in text, key
    for value in prof.staff_screen.model_dump().values():
        if isinstance(value, list) and value and value[0].startswith("[data-testid="):
            assert value[0] in text


def _write(tmp_path: Path, data: str) -> Path:
    path = tmp_path / "p.toml"
    path.write_text(data, encoding="utf-8")
    return path


def _reference_text() -> str:
    return (PROFILES_DIR / "reference.toml").read_text(encoding="utf-8")


def test_missing_section_names_file_and_field(tmp_path):
    text = _reference_text().replace("[completion]", "[completion_typo]")
    path = _write(tmp_path, text)
    with pytest.raises(ProfileError) as err:
        load_profile(path)
    assert err.value.context["file"] == str(path)
    assert err.value.context["field"] in {"completion", "completion_typo"}


def test_unknown_field_is_refused(tmp_path):
    text = _reference_text().replace('selector = "[data-testid=conversation]"',
                                     'selector = "[data-testid=conversation]"\ncolour = "red"')
    with pytest.raises(ProfileError) as err:
        load_profile(_write(tmp_path, text))
    assert err.value.context["field"] == "completion.colour"


def test_bad_regex_and_missing_placeholder(tmp_path):
    text = _reference_text().replace('claim_number_pattern = "[A-Z]{2,5}-\\\\d{4}-\\\\d{4,8}"',
                                     'claim_number_pattern = "([A-Z"')
    with pytest.raises(ProfileError) as err:
        load_profile(_write(tmp_path, text))
    assert err.value.context["field"] == "customer_screen.claim_number_pattern"
    text = _reference_text().replace("/staff/claims/{claim_number}", "/staff/claims")
    with pytest.raises(ProfileError) as err:
        load_profile(_write(tmp_path, text))
    assert err.value.context["field"] == "staff_screen.claim_path"


def test_not_toml_and_unknown_name(tmp_path):
    with pytest.raises(ProfileError, match="not valid TOML"):
        load_profile(_write(tmp_path, "name = "))
    with pytest.raises(ProfileError, match="no such profile"):
        load_profile("no-such-product")


def test_lanes_instead_of_base_url(tmp_path):
    data = tomllib.loads(_reference_text())
    text = _reference_text().replace('base_url = "http://127.0.0.1:8000"\n', "")
    text += (
        '\n[[lanes]]\nname = "a"\nbase_url = "http://127.0.0.1:9001"\ndatabase = "db_a"\n'
        '\n[[lanes]]\nname = "b"\nbase_url = "http://127.0.0.1:9002"\n'
        'seed_url = "http://127.0.0.1:9102/_harness/seed"\n'
    )
    prof = load_profile(_write(tmp_path, text))
    lanes = prof.resolved_lanes()
    assert data["name"] == prof.name
    assert [ln.seed_url for ln in lanes] == [
        "http://127.0.0.1:9001/_harness/seed", "http://127.0.0.1:9102/_harness/seed"]
    no_lanes = _reference_text().replace('base_url = "http://127.0.0.1:8000"\n', "")
    with pytest.raises(ProfileError, match="base_url or at least one"):
        load_profile(_write(tmp_path, no_lanes))
