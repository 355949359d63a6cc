"""Inputs a run bounds before anything starts: lanes, model prices and temperature. Each
refusal names its option, says the bound, and starts nothing."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import harness
from claims_cli import app
from claims_records import MAX_LANES

CASES = [
    (["--dev", "--lanes", "500"], "--lanes", f"at most {MAX_LANES} lanes"),
    (["--dev", "--lanes", str(MAX_LANES + 1)], "--lanes", f"at most {MAX_LANES} lanes"),
    (["--dev", "--lanes", "-1"], "--lanes", "greater than or equal to 0"),
    (["--customer", "llm", "--llm-price-prompt", "-5"], "--llm-price-prompt",
     "greater than or equal to 0"),
    (["--customer", "llm", "--llm-price-completion", "-0.01"], "--llm-price-completion",
     "greater than or equal to 0"),
    (["--customer", "llm", "--llm-temperature", "-3"], "--llm-temperature",
     "greater than or equal to 0"),
    (["--customer", "llm", "--llm-temperature", "2.5"], "--llm-temperature",
     "less than or equal to 2"),
]


@pytest.fixture
def nothing_runs(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    started: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        started.append(args)
        raise AssertionError("a refused run must start nothing")

    monkeypatch.setattr(harness, "run", refuse)
    monkeypatch.setattr(harness, "dev_product", refuse)
    return started


@pytest.mark.parametrize(("args", "option", "words"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_out_of_bounds_input_is_refused_naming_the_option(tmp_path, nothing_runs, args, option,
                                                          words):
    result = CliRunner().invoke(app, ["run", "--runs-dir", str(tmp_path), *args])
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.replace("│", " ").split())  # the error box wraps lines
    assert option in said and words in said, result.output
    assert nothing_runs == []
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("given", "read"), [
    ({"lanes": MAX_LANES}, lambda c: c.lanes == MAX_LANES),
    ({"llm": {"temperature": 0.0}}, lambda c: c.llm.temperature == 0.0),
    ({"llm": {"temperature": 2.0}}, lambda c: c.llm.temperature == 2.0),
    ({"llm": {"price_prompt_per_mtok": 0.0}}, lambda c: c.llm.price_prompt_per_mtok == 0.0),
], ids=["lanes-max", "temperature-0", "temperature-2", "price-0"])
def test_values_at_the_bound_are_taken(given, read):
    from claims_records import RunConfig

    assert read(RunConfig().merged(given))


@pytest.mark.parametrize(("variable", "value", "field"), [
    ("CLAIMS_HARNESS_LLM_TEMPERATURE", "-3", "temperature"),
    ("CLAIMS_HARNESS_LLM_TEMPERATURE", "2.5", "temperature"),
    ("CLAIMS_HARNESS_LLM_PRICE_PROMPT_PER_MTOK", "-5", "price_prompt_per_mtok"),
    ("CLAIMS_HARNESS_LLM_PRICE_COMPLETION_PER_MTOK", "-1", "price_completion_per_mtok"),
])
def test_out_of_bounds_variables_are_refused_too(variable, value, field):
    from claims_records import SimulatorError
    from harness.customers import LlmSettings

    with pytest.raises(SimulatorError) as caught:
        LlmSettings.from_options(environ={variable: value}, model="m",
                                 base_url="http://127.0.0.1:9/v1")
    assert caught.value.field == field
