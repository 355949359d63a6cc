"""Nightly configurations: paths resolved against the file, every mistake named with the
file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from claims_nightly import load_config
from claims_records import ConfigError

REPO = Path(__file__).resolve().parents[2]


def _write(tmp_path, text: str) -> Path:
    path = tmp_path / "conf" / "nightly.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_paths_are_resolved_against_the_file(tmp_path):
    night = load_config(_write(tmp_path, 'name = "ref"\nruns_dir = "../runs"\n'
                               'corpora = ["../packs"]\nprofile = "my.toml"\n'))
    assert night.runs_dir == tmp_path / "runs"
    assert night.corpora == [tmp_path / "packs"]
    assert night.profile == str(tmp_path / "conf" / "my.toml")
    assert load_config(_write(tmp_path, 'name = "ref"\n')).profile == "reference"
    assert len(night.digest()) == 64


@pytest.mark.parametrize(("text", "field", "words"), [
    ('name = "bad name!"\n', "name", "pattern"),
    ('name = "x"\ntrials = 2\n[gate]\nk = 3\n', "(top level)", "gate.k = 3"),
    ('name = "x"\nunknown = 1\n', "unknown", "Extra inputs"),
    ('name = "x"\ncustomer = "llm"\n', "(top level)", "[llm]"),
    ('name = "x"\n[browser]\nchannel = "chrome"\nexecutable = "/x"\n', "(top level)",
     "one way"),
    ('name = "x"\ntracing = "sometimes"\n', "tracing", "on"),
])
def test_mistakes_name_file_and_key(tmp_path, text, field, words):
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError, match="invalid nightly configuration") as err:
        load_config(path)
    assert err.value.context["file"] == str(path)
    assert err.value.context["field"] == field
    assert words in str(err.value)


def test_unreadable_or_missing_files_are_clear(tmp_path):
    with pytest.raises(ConfigError, match="no such nightly configuration"):
        load_config(tmp_path / "none.toml")
    with pytest.raises(ConfigError, match="not readable TOML"):
        load_config(_write(tmp_path, "name = \n"))


def test_the_shipped_example_is_valid():
    night = load_config(REPO / "scripts" / "schedule" / "nightly.toml")
    assert night.corpora == [REPO / "packs"]
