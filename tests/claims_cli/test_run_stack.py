"""`claims-harness run` without --dev or --base-url, where no stack file is: it says which URL it
uses and how to reach a stack `dev up` runs elsewhere, instead of falling back silently."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from claims_cli import app

PACKS = Path(__file__).resolve().parents[2] / "packs"


def test_run_from_another_folder_without_a_stack_file_says_how_to_reach_one(
        tmp_path, monkeypatch, captured):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CLAIMS_HARNESS_STACK_FILE", raising=False)
    result = CliRunner().invoke(app, ["run", "--packs", str(PACKS), "--pack", "CTL-M-001",
                                      "--runs-dir", str(tmp_path / "runs")])
    assert result.exit_code == 0, result.output
    (note,) = [ln for ln in result.output.splitlines() if ln.startswith("note: no dev stack")]
    assert str(tmp_path / ".claims-harness.stack.json") in note
    assert "running against the profile's http://127.0.0.1:8000" in note
    assert "CLAIMS_HARNESS_STACK_FILE=<its stack file>" in note and "--base-url URL" in note
    (config, ctx), = captured
    assert [ln.base_url for ln in ctx.profile.resolved_lanes()] == ["http://127.0.0.1:8000"]


def test_run_with_a_stack_file_variable_naming_no_file_is_refused(tmp_path, monkeypatch,
                                                                  captured):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CLAIMS_HARNESS_STACK_FILE", str(tmp_path / "gone.stack.json"))
    result = CliRunner().invoke(app, ["run", "--packs", str(PACKS), "--pack", "CTL-M-001",
                                      "--runs-dir", str(tmp_path / "runs")])
    assert result.exit_code == 2, result.output
    assert "CLAIMS_HARNESS_STACK_FILE names no file" in result.output
    assert captured == []
