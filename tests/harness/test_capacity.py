"""How many lanes ``--lanes auto`` starts, and the bench's curve over lane counts."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_records import DevConfig, ProfileError, RunConfig
from harness import auto_lanes, resolve_lanes
from harness._capacity import (
    ACTIVE_S_PER_TRIAL,
    ANSWERS_PER_TRIAL,
    CORES_OVERCOMMIT,
    CPU_S_PER_TRIAL,
    LOCAL_MODEL_CORES,
    LOCAL_MODEL_MB,
    MAX_LANES,
    MODEL_THINK_S,
    model_on_this_machine,
    think_time_s,
)
from harness.bench._lanes import _curve


def test_a_customer_that_thinks_longer_gets_more_lanes_up_to_what_the_cores_hold():
    instant = auto_lanes(0.0, cores=2, memory_mb=24_000)
    paced = auto_lanes(2.0, cores=2, memory_mb=24_000)
    slow = auto_lanes(10.0, cores=2, memory_mb=24_000)
    assert instant.lanes == 1 and "limited by cores" in instant.why
    assert instant.lanes < paced.lanes < slow.lanes
    busy = CPU_S_PER_TRIAL / (ACTIVE_S_PER_TRIAL + ANSWERS_PER_TRIAL * 2.0)
    assert paced.lanes == int(2 * CORES_OVERCOMMIT / busy)
    assert auto_lanes(2.0, cores=4, memory_mb=24_000).lanes >= 2 * paced.lanes - 1


def test_a_model_on_this_machine_counts_its_thinking_as_busy_cores_and_its_memory():
    hosted = auto_lanes(25.0, cores=2, memory_mb=24_000)
    local = auto_lanes(25.0, cores=2, memory_mb=24_000, model_cores=LOCAL_MODEL_CORES,
                       model_mb=LOCAL_MODEL_MB)
    assert hosted.lanes == MAX_LANES  # a slow hosted model: lanes only wait
    # the local model keeps a core busy per lane while it thinks: lanes stop near the cores
    assert local.lanes == 2 and "on this machine" in local.why
    assert auto_lanes(25.0, cores=8, memory_mb=24_000, model_cores=1).lanes == 11
    # and a server per lane takes its memory
    tight = auto_lanes(25.0, cores=64, memory_mb=4096, model_cores=1, model_mb=LOCAL_MODEL_MB)
    assert tight.lanes == int((4096 - 2048) / (200 + LOCAL_MODEL_MB))
    assert "limited by memory" in tight.why


def test_a_loopback_endpoint_is_a_model_on_this_machine(monkeypatch):
    from claims_records import LlmConfig

    for var in ("CLAIMS_HARNESS_LLM_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    local = RunConfig(customer="llm", llm=LlmConfig(base_url="http://127.0.0.1:8765/v1"))
    hosted = RunConfig(customer="llm", llm=LlmConfig(base_url="https://api.example.com/v1"))
    assert model_on_this_machine(local) and not model_on_this_machine(hosted)
    assert not model_on_this_machine(RunConfig(customer="llm"))  # the default: hosted
    assert not model_on_this_machine(RunConfig())  # the scripted customer
    monkeypatch.setenv("CLAIMS_HARNESS_LLM_BASE_URL", "http://localhost:9/v1")
    assert model_on_this_machine(RunConfig(customer="llm"))
    config, choice = resolve_lanes(RunConfig(lanes="auto", customer="llm", dev=DevConfig()))
    assert choice is not None and "on this machine" in choice.why


def test_memory_caps_the_lanes_and_never_below_one():
    capped = auto_lanes(10.0, cores=64, memory_mb=4096)
    assert capped.lanes < auto_lanes(10.0, cores=64, memory_mb=64_000).lanes
    assert "limited by memory" in capped.why
    assert auto_lanes(10.0, cores=2, memory_mb=100).lanes == 1
    most = auto_lanes(3600.0, cores=512, memory_mb=10**7)
    assert most.lanes == MAX_LANES and f"the most lanes a run starts ({MAX_LANES})" in most.why


def test_the_think_time_comes_from_the_pace_else_the_kind_of_customer(tmp_path):
    assert think_time_s(2.5, "scripted", str(tmp_path)) == 2.5
    assert think_time_s(None, "scripted", str(tmp_path)) == 0.0
    assert think_time_s(None, "llm", str(tmp_path)) == MODEL_THINK_S
    human = think_time_s("human", "scripted", str(tmp_path))  # reading, typing, deciding
    assert 10 < human < 30
    (tmp_path / "acceptance.toml").write_text(
        "[report_duration.customer_time]\ntyping_wpm = 200\nreading_wpm = 1000\n")
    assert think_time_s("human", "scripted", str(tmp_path)) < human / 3


def test_auto_is_resolved_into_a_number_with_dev_and_refused_without():
    config, choice = resolve_lanes(RunConfig(lanes="auto", pace=2, dev=DevConfig()))
    assert choice is not None and config.lanes == choice.lanes == config.lane_count() >= 1
    same, none = resolve_lanes(RunConfig(lanes=3))
    assert none is None and same.lanes == 3
    with pytest.raises(ProfileError) as err:
        resolve_lanes(RunConfig(lanes="auto"))
    assert err.value.context.get("field") == "lanes" and "--dev" in str(err.value)
    with pytest.raises(ValueError, match="resolved"):
        RunConfig(lanes="auto").lane_count()


@pytest.mark.parametrize("given", ["-1", "many", "2.5"])
def test_a_lane_count_that_is_no_count_is_refused_on_the_command_line(given, tmp_path):
    result = CliRunner().invoke(app, ["run", "--lanes", given, "--runs-dir", str(tmp_path)])
    assert result.exit_code == 2 and "--lanes" in result.output, result.output


def test_lanes_auto_without_dev_is_refused_on_the_command_line(tmp_path):
    result = CliRunner().invoke(app, ["run", "--lanes", "auto", "--runs-dir", str(tmp_path),
                                      "--pack", "CTL-M-001"])
    assert result.exit_code != 0 and "--dev" in result.output, result.output
    assert not any(tmp_path.iterdir())  # nothing recorded


def _row(rate: float, mem: float, startup: float = 10.0) -> dict:
    return {"trials_per_hour": rate, "memory_mb": {"total": mem}, "startup_s": startup}


def test_the_curve_names_the_best_count_the_knee_and_the_nights_estimate():
    rows = {"1": _row(100, 800), "2": _row(195, 1000), "4": _row(380, 1400),
            "8": _row(700, 2200), "16": _row(760, 3800)}
    curve = _curve(rows, night=300, shards=4)
    assert curve["best_lanes"] == 16 and curve["knee_lanes"] == 8
    assert curve["speedup_over_1_lane"]["8"] == 7.0
    assert curve["memory_per_added_lane_mb"] == 200.0
    night = curve["nightly_estimate_min"]
    assert night["one_machine"] == pytest.approx(300 / 760 * 60 + 10 / 60, abs=0.1)
    assert night["4_shards"] == pytest.approx(300 / 760 * 60 / 4 + 10 / 60, abs=0.1)
    falling = _curve({"1": _row(100, 800), "2": _row(120, 900), "4": _row(90, 1000)}, 300, 4)
    assert falling["best_lanes"] == 2 and falling["knee_lanes"] == 1
