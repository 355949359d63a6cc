"""`claims-harness run` for products that hold one conversation per process or cannot report
their runtime: several lanes refused in one line; a runtime declared on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import harness
from claims_cli import app
from claims_records import (
    CorpusInfo,
    CustomerInfo,
    DeclaredRuntime,
    HarnessInfo,
    ProductInfo,
    RunConfig,
    RunRecord,
    TrialEntry,
    TrialStatus,
)

REPO = Path(__file__).resolve().parents[2]
PACKS = REPO / "packs"
runner = CliRunner()

ONE_CHAT = """
name = "one-chat"

[[lanes]]
name = "lane1"
base_url = "http://127.0.0.1:9"

[[lanes]]
name = "lane2"
base_url = "http://127.0.0.1:10"

[capabilities]
runtime_report = false
staff_side = false
customer_accounts = false

[runtime.declared]
model = "claims-bot-7b"

[reset]
adapter = "none"

[completion]
stable_ms = 300

[customer_screen]
conversation = ".thread"
agent_message = ".bubble.bot"
customer_message = ".bubble.me"
composer_input = "textarea"
composer_send = "button.send"
claim_number_pattern = "CLM-26-[A-Z0-9]{6}"

[conversation]
scope = "process"

[conversation.new]
by = "url"
url = "/new"
"""


def _args(profile: Path, runs: Path, *extra: str) -> list[str]:
    return ["run", "--profile", str(profile), "--packs", str(PACKS), "--pack", "CTL-M-001",
            "--runs-dir", str(runs), "--no-reset", *extra]


def test_two_lanes_on_one_conversation_are_refused_in_one_line(tmp_path):
    profile = tmp_path / "one-chat.toml"
    profile.write_text(ONE_CHAT, encoding="utf-8")
    result = runner.invoke(app, _args(profile, tmp_path / "runs"))
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    line = lines[0]
    assert line.startswith("error: refusing to run 2 lanes: the product holds one "
                           "conversation for its whole process")
    for words in ("conversation.scope = 'process'", "run one lane", "--dev", "[dev]",
                  "conversation.instance_per_lane = true", f"file={profile}",
                  "field=conversation.scope"):
        assert words in line, words
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


@pytest.fixture
def captured(monkeypatch):
    """``harness.run`` replaced by one that keeps the configuration the command line built."""
    calls: list[RunConfig] = []

    def fake_run(config, ctx):
        calls.append(config)
        run_dir = Path(ctx.runs_dir) / ctx.run_id
        return RunRecord(
            run_id=ctx.run_id, created_at="2026-03-12T00:00:00+00:00",
            harness=HarnessInfo(version="0"), corpus=CorpusInfo(version="0", hash="h", path="p"),
            product=ProductInfo(profile="one-chat", base_urls=[], runtime="model m",
                                runtime_reported=False, runtime_source="declared"),
            customer=CustomerInfo(kind="scripted"), options=config,
            labels=["runtime declared, not reported"],
            trials=[TrialEntry(pack_id="CTL-M-001", trial=1, path="CTL-M-001/trial-1",
                               status=TrialStatus.COMPLETED)]), run_dir

    monkeypatch.setattr(harness, "run", fake_run)
    return calls


def test_a_runtime_declared_on_the_command_line_is_in_the_configuration(tmp_path, captured):
    profile = tmp_path / "one-chat.toml"
    profile.write_text(ONE_CHAT, encoding="utf-8")
    result = runner.invoke(app, _args(
        profile, tmp_path / "runs", "--declare-runtime", "model=claims-bot-8b",
        "--declare-runtime", "endpoint=http://ops:pw@10.0.0.5:8000/v1?token=t",
        "--declare-runtime", "version=2026.03"))
    assert result.exit_code == 0, result.output
    assert captured[-1].declared_runtime == DeclaredRuntime(
        model="claims-bot-8b", endpoint="http://10.0.0.5:8000/v1", version="2026.03")
    assert "[labelled: runtime declared, not reported: model m]" in result.output

    result = runner.invoke(app, _args(profile, tmp_path / "runs"))
    assert result.exit_code == 0 and captured[-1].declared_runtime is None


@pytest.mark.parametrize(("given", "message"), [
    ("claims-bot-8b", "is not KEY=VALUE"),
    ("colour=blue", "Extra inputs are not permitted"),
])
def test_a_bad_declaration_names_the_option(tmp_path, captured, given, message):
    profile = tmp_path / "one-chat.toml"
    profile.write_text(ONE_CHAT, encoding="utf-8")
    result = runner.invoke(app, _args(profile, tmp_path / "runs", "--declare-runtime", given))
    assert result.exit_code == 2
    assert "--declare-runtime" in result.output and message in result.output
    assert captured == []
