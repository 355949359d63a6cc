"""``run --replay RUN``: the run configuration a replay starts from, and what it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_records import (
    LlmConfig,
    RunConfig,
    write_run_record,
)

from .conftest import bare_record

PACKS = Path(__file__).resolve().parents[2] / "packs"
runner = CliRunner()


def _said(result) -> str:
    """The command's output as one line (rich's error box wraps and frames it)."""
    return " ".join(result.output.replace("│", " ").split())


@pytest.fixture
def recorded(tmp_path) -> Path:
    """A recorded LLM run 'rec' in tmp_path/runs: two trials of CTL-M-001."""
    options = RunConfig(
        customer="llm", corpora=[str(PACKS)], packs=["CTL-M-001"], trials=2,
        llm=LlmConfig(base_url="http://127.0.0.1:9/v1", model="rec-model", temperature=0.2,
                      seed=7, response_format="auto"))
    run_dir = tmp_path / "runs" / "rec"
    run_dir.mkdir(parents=True)
    write_run_record(run_dir, bare_record("rec", options, trials=2))
    return run_dir


def test_a_replay_takes_the_recorded_customer_packs_and_trials_unless_given(
        recorded, captured, tmp_path):
    runs = str(tmp_path / "runs")
    result = runner.invoke(app, ["run", "--replay", "rec", "--runs-dir", runs,
                                 "--run-id", "again"])
    assert result.exit_code == 0, result.output
    config, ctx = captured[-1]
    assert config.replay == str(recorded.resolve()) and config.customer == "llm"
    assert (config.corpora, config.packs, config.trials) == ([str(PACKS)], ["CTL-M-001"], 2)
    assert (config.llm.model, config.llm.base_url, config.llm.temperature,
            config.llm.seed) == ("rec-model", "http://127.0.0.1:9/v1", 0.2, 7)
    assert ctx.llm.model == "rec-model"

    result = runner.invoke(app, ["run", "--replay", str(recorded), "--runs-dir", runs,
                                 "--run-id", "again2", "--trials", "1",
                                 "--llm-temperature", "0"])
    assert result.exit_code == 0, result.output
    config, _ = captured[-1]
    assert config.trials == 1 and config.llm.temperature == 0.0
    assert config.llm.model == "rec-model" and config.replay == str(recorded.resolve())


@pytest.mark.parametrize("argv, says", [
    (["--replay", "nope"], "no run to replay"),
    (["--replay", "rec", "--customer", "scripted"], "--customer"),
    (["--replay", "rec", "--resume", "rec"], "drop --replay"),
])
def test_a_replay_is_refused_without_a_run_or_with_another_customer(
        recorded, captured, tmp_path, argv, says):
    result = runner.invoke(app, ["run", "--runs-dir", str(tmp_path / "runs"), *argv])
    assert result.exit_code == 2 and says in _said(result), result.output
    assert not captured


def test_a_scripted_run_is_not_replayed(tmp_path, captured):
    run_dir = tmp_path / "runs" / "plain"
    run_dir.mkdir(parents=True)
    write_run_record(run_dir, bare_record("plain", RunConfig(), trials=2))
    result = runner.invoke(app, ["run", "--replay", "plain", "--runs-dir",
                                 str(tmp_path / "runs")])
    assert result.exit_code == 2 and "only an LLM customer" in _said(result), result.output
    assert not captured
