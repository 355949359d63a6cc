"""The run configuration: one strict type the command line builds, run.json records, and
``--resume`` reads back with the options given on its command line applied over it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

import harness
from claims_cli import app
from claims_nightly import load_config, run_config
from claims_records import (
    RUN_FORMAT_VERSION,
    DevConfig,
    NightlyConfig,
    RunConfig,
    RunSettings,
    read_run_record,
    write_run_record,
)

from .conftest import bare_record

REPO = Path(__file__).resolve().parents[2]
PACKS = REPO / "packs"
runner = CliRunner()

# options as a format-1 run.json recorded them (a loose dict of option names)
FORMAT_1_OPTIONS = {
    "profile": "reference", "packs": [str(PACKS)], "pack": ["CTL-M-001"], "trials": 2,
    "lanes": 0, "dev": False, "customer": "scripted", "tracing": "retain-on-failure",
    "turn_limit": 12, "stuck_after": 4, "headed": False, "runtime": None, "no_reset": False,
    "allow_unreported_runtime": False, "self_test": False, "browser_executable": "/opt/chr",
    "browser_channel": None, "shard": None,
}


def _format_1(run_dir: Path, options: dict) -> None:
    data = json.loads(bare_record(run_dir.name).model_dump_json())
    data.update(version="1", options=options)
    run_dir.mkdir(parents=True)
    (run_dir / "run.json").write_text(json.dumps(data), encoding="utf-8")


def test_the_configuration_is_strict():
    with pytest.raises(ValidationError, match="Extra inputs"):
        RunConfig(trails=3)
    with pytest.raises(ValidationError):
        RunConfig(tracing="sometimes")
    with pytest.raises(ValidationError):
        RunConfig(llm={"model": "m", "api_key": "secret"})  # a key is never a setting
    assert RunConfig.model_fields["turn_limit"].description


def test_run_json_records_the_configuration_as_that_type(tmp_path):
    config = RunConfig(corpora=[str(PACKS)], packs=["CTL-M-001"], trials=3,
                       dev=DevConfig(runtime="model", faults=["ask_twice"]), shard="1/2")
    write_run_record(tmp_path, bare_record("r", config))
    back = read_run_record(tmp_path)
    assert back.version == RUN_FORMAT_VERSION
    assert isinstance(back.options, RunConfig) and back.options == config
    assert json.loads((tmp_path / "run.json").read_text())["options"]["dev"] == {
        "runtime": "model", "faults": ["ask_twice"]}


def test_a_format_1_run_json_is_read_as_the_configuration(tmp_path):
    _format_1(tmp_path / "old", {**FORMAT_1_OPTIONS, "dev": True, "runtime": "model",
                                 "faults": ["ask_twice"], "customer": "llm",
                                 "llm_base_url": "http://u:pw@llm.example:8080/v1?k=1",
                                 "llm_model": "m", "llm_timeout": 60.0, "prompt_view": "wide",
                                 "nightly": "night", "packs": str(PACKS)})
    config = read_run_record(tmp_path / "old").options
    assert config.corpora == [str(PACKS)] and config.packs == ["CTL-M-001"]
    assert (config.trials, config.tracing, config.turn_limit) == (2, "retain-on-failure", 12)
    assert config.dev == DevConfig(runtime="model", faults=["ask_twice"])
    assert config.browser.executable == "/opt/chr" and config.nightly == "night"
    assert config.llm.base_url == "http://llm.example:8080/v1"  # never credentials
    assert (config.llm.model, config.llm.timeout_s, config.llm.prompt_view) == (
        "m", 60.0, "wide")
    _format_1(tmp_path / "empty", {})  # records of runs that gave no options
    assert read_run_record(tmp_path / "empty").options == RunConfig()


def test_resume_takes_the_recorded_options_and_an_option_given_wins(tmp_path, captured):
    runs = tmp_path / "runs"
    _format_1(runs / "old", FORMAT_1_OPTIONS)
    result = runner.invoke(app, ["run", "--resume", "old", "--runs-dir", str(runs),
                                 "--turn-limit", "20"])
    assert result.exit_code == 0, result.output
    config, ctx = captured[-1]
    assert ctx.resume == "old" and ctx.run_id is None
    assert config.turn_limit == 20  # given here
    assert (config.tracing, config.stuck_after, config.trials) == ("retain-on-failure", 4, 2)
    assert config.corpora == [str(PACKS)] and config.browser.executable == "/opt/chr"
    assert ctx.browser.executable == "/opt/chr"

    write_run_record(runs / "old", bare_record("old", config))  # now a format-2 record
    result = runner.invoke(app, ["run", "--resume", "old", "--runs-dir", str(runs),
                                 "--tracing", "off"])
    assert result.exit_code == 0, result.output
    again, _ = captured[-1]
    assert again == config.model_copy(update={"tracing": "off"})


def test_resume_refuses_faults_for_a_run_without_dev(tmp_path, captured):
    runs = tmp_path / "runs"
    _format_1(runs / "old", FORMAT_1_OPTIONS)
    result = runner.invoke(app, ["run", "--resume", "old", "--runs-dir", str(runs),
                                 "--fault", "ask_twice"])
    assert result.exit_code == 2 and "--dev" in result.output
    assert not captured


def test_a_new_run_records_every_option_and_no_secret(tmp_path, captured):
    result = runner.invoke(
        app, ["run", "--runs-dir", str(tmp_path), "--run-id", "r", "--pack", "CTL-M-001",
              "--trials", "2", "--customer", "llm", "--llm-model", "m", "--llm-timeout", "9",
              "--llm-base-url", "http://llm.example:8080/v1?token=QUERY-CANARY",
              "--llm-price-prompt", "0.5", "--browser-cdp-url", "http://127.0.0.1:9/x"],
        env={"CLAIMS_HARNESS_LLM_API_KEY": "KEY-CANARY"})
    assert result.exit_code == 0, result.output
    config, ctx = captured[-1]
    assert config.corpora == [str(Path("packs").resolve())]
    assert (config.packs, config.trials, config.customer) == (["CTL-M-001"], 2, "llm")
    assert config.llm.base_url == "http://llm.example:8080/v1"
    assert (config.llm.timeout_s, config.llm.max_retries) == (9, 2)  # settings in force
    assert config.llm.price_prompt_per_mtok == 0.5
    text = config.model_dump_json()
    assert "CANARY" not in text and "9/x" not in text  # no key, query or remote endpoint
    assert ctx.llm.api_key == "KEY-CANARY" and ctx.browser.cdp_url == "http://127.0.0.1:9/x"


def test_nightly_run_keys_are_the_run_configuration():
    assert set(RunSettings.model_fields) <= set(NightlyConfig.model_fields)
    night = load_config(REPO / "scripts" / "schedule" / "nightly.toml")
    config = run_config(night, "2/3")
    assert config.corpora == [str(PACKS)] and config.nightly == night.name
    assert (config.trials, config.lanes, config.tracing) == (3, 2, "retain-on-failure")
    assert config.dev == DevConfig(runtime="reference") and config.shard == "2/3"


def test_a_format_1_run_is_prepared_for_resume_and_written_as_format_2(tmp_path):
    _format_1(tmp_path / "old", FORMAT_1_OPTIONS)
    record = harness.prepare_resume(tmp_path / "old")
    assert record.version == RUN_FORMAT_VERSION and record.options.turn_limit == 12
    write_run_record(tmp_path / "old", record)
    assert read_run_record(tmp_path / "old") == record
