"""`run --retry-infra N` is part of the run configuration: recorded in run.json, read back by
`--resume` (an option given there wins) and taken by a nightly configuration."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from claims_cli import app
from claims_nightly import load_config, run_config
from claims_records import RunConfig, write_run_record

from .conftest import bare_record

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()


def test_the_option_goes_into_the_configuration(tmp_path, captured):
    result = runner.invoke(app, ["run", "--runs-dir", str(tmp_path), "--pack", "CTL-M-001",
                                 "--retry-infra", "2"])
    assert result.exit_code == 0, result.output
    config, _ = captured[-1]
    assert config.retry_infra == 2
    result = runner.invoke(app, ["run", "--runs-dir", str(tmp_path), "--pack", "CTL-M-001"])
    assert captured[-1][0].retry_infra == 0  # by default nothing is run again


def test_out_of_range_is_refused_naming_the_option(tmp_path, captured):
    for value in ("-1", "11"):
        result = runner.invoke(app, ["run", "--runs-dir", str(tmp_path), "--retry-infra",
                                     value])
        assert result.exit_code == 2 and "--retry-infra" in result.output
    assert not captured


def test_a_resume_reads_it_back_and_an_option_given_wins(tmp_path, captured):
    runs = tmp_path / "runs"
    write_run_record(runs / "old", bare_record("old", RunConfig(retry_infra=1)))
    result = runner.invoke(app, ["run", "--resume", "old", "--runs-dir", str(runs)])
    assert result.exit_code == 0, result.output
    assert captured[-1][0].retry_infra == 1
    result = runner.invoke(app, ["run", "--resume", "old", "--runs-dir", str(runs),
                                 "--retry-infra", "3"])
    assert result.exit_code == 0, result.output
    assert captured[-1][0].retry_infra == 3


def test_a_nightly_configuration_takes_it(tmp_path):
    text = (REPO / "scripts" / "schedule" / "nightly.toml").read_text(encoding="utf-8")
    text = text.replace('"../../', f'"{REPO}/').replace(
        'tracing = "retain-on-failure"', 'tracing = "retain-on-failure"\nretry_infra = 1')
    (tmp_path / "nightly.toml").write_text(text, encoding="utf-8")
    night = load_config(tmp_path / "nightly.toml")
    assert night.config.retry_infra == 1
    assert run_config(night).retry_infra == 1
