"""`claims-harness nightly` twice against the reference app: the second night finds the first
as its baseline, the history index shows both with a trend, and a fault on the second night
turns the exit code to 1 with the regression named. A product that is not there is an
infrastructure failure (exit 3)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_nightly import load_history

REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()
PACKS = ["CTL-M-001", "CTL-H-001"]


def _config(tmp_path: Path, faults: list[str]) -> Path:
    path = tmp_path / "nightly.toml"
    path.write_text(
        'name = "ref-nightly"\nruns_dir = "runs"\n'
        f'corpora = ["{REPO / "packs"}"]\npacks = {PACKS!r}\n'
        'trials = 1\nlanes = 1\ntracing = "off"\n'
        f'[dev]\nruntime = "reference"\nfaults = {faults!r}\n'
        '[gate]\nmin_pass_hat_k = 0.8\nk = 1\n', encoding="utf-8")
    return path


@pytest.mark.slow
@pytest.mark.browser
def test_two_nights_baseline_history_trend_and_a_regression(tmp_path):
    first = runner.invoke(app, ["nightly", str(_config(tmp_path, [])), "--night-id", "night-1"])
    assert first.exit_code == 0, first.output
    assert "baseline: none (first night of this configuration)" in first.output
    assert "night night-1: OK (exit 0)" in first.output

    second = runner.invoke(app, ["nightly", str(_config(tmp_path, ["flag_everything"])),
                                 "--night-id", "night-2"])
    assert second.exit_code == 1, second.output
    last = second.output.strip().splitlines()[-1]
    assert last.startswith("night night-2: REGRESSION (exit 1)")
    assert "regressed since night-1:" in last
    for pack in PACKS:  # flag_everything breaks both: each regression is named
        assert f"{pack} 100.0% → 0.0%" in last
    # two packs, one trial each: each pack's regression is named, but too few for a verdict
    # on the whole run
    assert "baseline night-1: INCONCLUSIVE" in second.output and "too thin" in second.output

    runs = tmp_path / "runs"
    history = load_history(runs)
    assert [n.run_id for n in history.nights] == ["night-1", "night-2"]
    one, two = history.nights
    assert one.outcome == "ok" and one.gate.passed and one.baseline_run_id is None
    assert two.baseline_run_id == "night-1" and two.comparison.verdict == "inconclusive"
    assert {c.pack_id for c in two.regressions} == set(PACKS)
    assert two.failure_modes and two.scorer == one.scorer
    assert set(one.pack_durations) == set(PACKS)
    assert (runs / two.report).is_file() and (runs / "night-2" / "junit.xml").is_file()

    html = (runs / "index.html").read_text(encoding="utf-8")
    assert html.index('data-run="night-2"') < html.index('data-run="night-1"')
    assert "<polyline" in html  # the pass^k line over both nights
    assert "Trend: -1.000 since the previous night" in html
    assert 'href="night-1/report/index.html"' in html


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_product_that_is_not_there_is_an_infrastructure_failure(tmp_path):
    profile = (REPO / "harness" / "profiles" / "reference.toml").read_text(encoding="utf-8")
    profile = profile.replace('base_url = "http://127.0.0.1:8000"',
                              f'base_url = "http://127.0.0.1:{_closed_port()}"')
    (tmp_path / "down.toml").write_text(profile, encoding="utf-8")
    config = tmp_path / "nightly.toml"
    config.write_text(f'name = "down"\nprofile = "down.toml"\ncorpora = ["{REPO / "packs"}"]\n'
                      'packs = ["CTL-M-001"]\n', encoding="utf-8")
    result = runner.invoke(app, ["nightly", str(config), "--night-id", "n"],
                           env={"CLAIMS_HARNESS_SEED_TOKEN": "t"})
    assert result.exit_code == 3, result.output
    assert "night n: INFRASTRUCTURE FAILURE (exit 3): the run could not finish" in result.output
    entry = load_history(tmp_path / "runs").nights[0]
    assert entry.outcome == "infrastructure" and entry.run_path == ""
