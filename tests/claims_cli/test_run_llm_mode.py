"""``run --llm-mode``: the customer mode option, and the embedded model's default in a dev run."""

from __future__ import annotations

from typer.testing import CliRunner

from claims_cli import app
from claims_cli.run_cmd import _embedded_grounded
from claims_records import DevConfig, LlmConfig, RunConfig
from harness.customers import LlmSettings

URL = "http://127.0.0.1:1/v1"


def test_a_dev_run_of_the_embedded_model_plays_it_grounded_unless_a_mode_is_chosen(monkeypatch):
    monkeypatch.delenv("CLAIMS_HARNESS_LLM_MODE", raising=False)
    embedded = LlmSettings(model="smollm2", base_url=URL)
    dev = RunConfig(customer="llm", dev=DevConfig())
    assert _embedded_grounded(embedded, dev).mode == "grounded"
    chosen = dev.model_copy(update={"llm": LlmConfig(mode="free")})
    assert _embedded_grounded(embedded, chosen).mode == "free"
    assert _embedded_grounded(embedded, RunConfig(customer="llm")).mode == "free"  # no --dev
    other = LlmSettings(model="qwen2.5-7b-instruct", base_url=URL)
    assert _embedded_grounded(other, dev).mode == "free"
    monkeypatch.setenv("CLAIMS_HARNESS_LLM_MODE", "free")
    assert _embedded_grounded(embedded, dev).mode == "free"


def test_a_mode_for_the_scripted_customer_or_an_unknown_one_is_refused(tmp_path):
    result = CliRunner().invoke(app, ["run", "--customer", "scripted", "--llm-mode", "grounded",
                                      "--runs-dir", str(tmp_path)])
    assert result.exit_code == 2 and "--llm-mode" in result.output, result.output
    result = CliRunner().invoke(app, ["run", "--customer", "llm", "--llm-mode", "clever",
                                      "--llm-model", "m", "--runs-dir", str(tmp_path)])
    assert result.exit_code == 2 and "--llm-mode" in result.output, result.output
    assert not list(tmp_path.iterdir())  # refused before anything was recorded
