"""The exit codes of run, score, gate, compare and nightly, one table row per outcome, run
in-process (docs/running.md, "Exit codes"): a scheduler can tell a good run from a failed one
and from one with nothing to judge."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import harness
from claims_cli.app import app
from claims_records import (
    EarlyStop,
    ExitCode,
    RunConfig,
    RunRecordError,
    TrialStatus,
    read_run_record,
)
from tests.scoring.builders import Variant, make_labels, write_corpus, write_run

from .conftest import bare_record

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]
S = TrialStatus


def _record(run_id: str, config: RunConfig, statuses: list[TrialStatus],
            stopped: bool = False):
    record = bare_record(run_id, config, trials=len(statuses))
    record.trials = [t.model_copy(update={"status": s}) for t, s in zip(record.trials, statuses,
                                                                         strict=True)]
    if stopped:
        record.stopped = EarlyStop(
            reason="stopped early: 5 trials in a row ended in an infrastructure error",
            errors_in_a_row=5, limit=5, last_status=S.PRODUCT_ERROR, not_run=1,
            stopped_at="2026-03-12T00:00:00+00:00")
    return record


RUN_CASES = [
    ("all completed", [S.COMPLETED, S.COMPLETED], False, ExitCode.OK, None),
    ("mixed outcomes and errors", [S.COMPLETED, S.STUCK, S.PRODUCT_ERROR, S.HARNESS_ERROR],
     False, ExitCode.OK, None),
    ("only agent failures", [S.AGENT_STOPPED, S.STUCK], False, ExitCode.OK, None),
    ("every trial an infrastructure error",
     [S.PRODUCT_ERROR, S.HARNESS_ERROR, S.RESET_FAILED, S.SIMULATOR_ERROR], False,
     ExitCode.NO_RESULT, "no trial reached an outcome of the product's agent (1 harness_error"),
    ("every trial not implemented", [S.NOT_IMPLEMENTED], False, ExitCode.NO_RESULT,
     "1 not_implemented"),
    ("stopped early", [S.COMPLETED, S.PRODUCT_ERROR, S.PENDING], True, ExitCode.NO_RESULT,
     "stopped early: 5 trials in a row"),
]


@pytest.mark.parametrize(("case", "statuses", "stopped", "code", "words"), RUN_CASES,
                         ids=[c[0] for c in RUN_CASES])
def test_run(case, statuses, stopped, code, words, tmp_path, monkeypatch):
    def fake_run(config, ctx):
        run_dir = Path(ctx.runs_dir) / ctx.run_id
        return _record(ctx.run_id, config, statuses, stopped), run_dir

    monkeypatch.setattr(harness, "run", fake_run)
    result = runner.invoke(app, ["run", "--runs-dir", str(tmp_path), "--pack", "CTL-M-001",
                                 "--run-id", "r"])
    assert result.exit_code == code, result.output
    if words:
        assert words in result.output and f"exit code {code.value}" in result.output
    if stopped:  # the command that runs the trials left
        assert "claims-harness run --resume r" in result.output


@pytest.mark.parametrize("argv", [
    ["--packs", "no/such/corpus"],          # a corpus folder that is not there
    ["--customer", "robot"],                # a value the option refuses
    ["--no-such-option"],                   # usage
    ["--stop-after-errors", "-1"],
])
def test_run_refused_input_is_2_and_nothing_runs(argv, tmp_path, captured):
    result = runner.invoke(app, ["run", "--runs-dir", str(tmp_path), *argv])
    assert result.exit_code == ExitCode.USAGE, result.output
    assert not captured


@pytest.mark.parametrize(("started", "code"), [(False, ExitCode.USAGE),
                                               (True, ExitCode.NO_RESULT)])
def test_run_stopped_by_an_error_before_and_after_it_started(started, code, tmp_path,
                                                             monkeypatch):
    def fake_run(config, ctx):
        ctx.started = started
        raise RunRecordError("the run folder went away", file="x")

    monkeypatch.setattr(harness, "run", fake_run)
    result = runner.invoke(app, ["run", "--runs-dir", str(tmp_path), "--pack", "CTL-M-001"])
    assert result.exit_code == code, result.output
    assert f"exit code {code.value}" in result.output


def _scored_run(tmp_path: Path, name: str, variants: dict[int, Variant | None],
                packs: int = 3, trials: int = 2) -> Path:
    labels = [make_labels(f"CTL-M-{i:03d}") for i in range(1, packs + 1)]
    corpus = write_corpus(tmp_path / "packs", labels)
    spec = [(lab, n, variants.get(n)) for lab in labels for n in range(1, trials + 1)]
    return write_run(tmp_path / name, corpus, spec, run_id=name)


ERRORS = {1: Variant(status="product_error", detail="HTTP 502"),
          2: Variant(status="harness_error", detail="browser died")}
FAILING = {1: Variant(ask_twice=True), 2: Variant(ask_twice=True)}


@pytest.mark.parametrize(("case", "variants", "code"), [
    ("scored", {}, ExitCode.OK),
    ("every trial an infrastructure error", ERRORS, ExitCode.NO_RESULT),
])
def test_score(case, variants, code, tmp_path):
    run_dir = _scored_run(tmp_path, "r", variants)
    result = runner.invoke(app, ["score", str(run_dir), "--resamples", "100"])
    assert result.exit_code == code, result.output
    if code == ExitCode.NO_RESULT:
        assert "no trial could be scored" in result.output


def test_score_of_a_folder_without_a_run_is_refused(tmp_path):
    result = runner.invoke(app, ["score", str(tmp_path)])
    assert result.exit_code == ExitCode.USAGE, result.output


@pytest.mark.parametrize(("case", "variants", "code"), [
    ("pass", {}, ExitCode.OK),
    ("fail", FAILING, ExitCode.FAILED),
    ("nothing to gate", ERRORS, ExitCode.NO_RESULT),
])
def test_gate(case, variants, code, tmp_path):
    run_dir = _scored_run(tmp_path, "r", variants)
    result = runner.invoke(app, ["gate", str(run_dir), "--min-pass-hat-k", "0.8", "--k", "2"])
    assert result.exit_code == code, result.output


@pytest.mark.parametrize(("case", "mine", "theirs", "packs", "head", "code"), [
    ("BETTER", {}, FAILING, 3, "BETTER:", ExitCode.OK),
    ("SAME (no difference found)", {}, {}, 3, "INCONCLUSIVE:", ExitCode.OK),
    ("WORSE", FAILING, {}, 3, "WORSE:", ExitCode.FAILED),
    ("TOO THIN", FAILING, {}, 1, "TOO THIN:", ExitCode.NO_RESULT),
])
def test_compare(case, mine, theirs, packs, head, code, tmp_path):
    run = _scored_run(tmp_path, "run", mine, packs=packs)
    baseline = _scored_run(tmp_path, "baseline", theirs, packs=packs)
    for folder in (run, baseline):
        assert runner.invoke(app, ["score", str(folder), "--resamples", "100"]).exit_code in (
            0, 1)
    result = runner.invoke(app, ["compare", str(run), "--baseline", str(baseline),
                                 "--resamples", "200"])
    assert result.exit_code == code, result.output
    assert head in result.output
    if code != ExitCode.OK:
        assert f"exit code {code.value}: {code.meaning}" in result.output


# nightly: the real night (run → score → report → gate → compare → history) with the run
# itself replaced by one that writes a run record of the given trials
def _night(tmp_path: Path, variants: dict[int, Variant | None], monkeypatch) -> Path:
    labels = [make_labels(f"CTL-M-{i:03d}") for i in range(1, 4)]
    corpus = write_corpus(tmp_path / "packs", labels)
    shutil.copy(REPO / "packs" / "manifest.json", corpus)  # a corpus folder, as checked

    def fake_run(config, ctx):
        run_dir = Path(ctx.runs_dir) / ctx.run_id
        spec = [(lab, n, variants.get(n)) for lab in labels for n in (1, 2)]
        write_run(run_dir, corpus, spec, run_id=ctx.run_id)
        return read_run_record(run_dir), run_dir

    monkeypatch.setattr(harness, "run", fake_run)
    config = tmp_path / "nightly.toml"
    config.write_text(f'name = "n"\nruns_dir = "runs"\ncorpora = ["{corpus}"]\n'
                      "allow_unchecked_corpus = true\ntrials = 2\n"
                      "[gate]\nmin_pass_hat_k = 0.8\nk = 2\n", encoding="utf-8")
    return config


@pytest.mark.parametrize(("case", "variants", "code", "head"), [
    ("ok", {}, ExitCode.OK, "OK"),
    ("gate failed", FAILING, ExitCode.FAILED, "GATE FAILED"),
    ("every trial an infrastructure error", ERRORS, ExitCode.NO_RESULT,
     "INFRASTRUCTURE FAILURE"),
])
def test_nightly(case, variants, code, head, tmp_path, monkeypatch):
    config = _night(tmp_path, variants, monkeypatch)
    result = runner.invoke(app, ["nightly", str(config), "--night-id", "night-1"])
    assert result.exit_code == code, result.output
    assert f"night night-1: {head} (exit {code.value})" in result.output


def test_nightly_refused_configuration_is_2(tmp_path, monkeypatch):
    config = _night(tmp_path, {}, monkeypatch)
    config.write_text(config.read_text() + "no_such_key = 1\n", encoding="utf-8")
    result = runner.invoke(app, ["nightly", str(config)])
    assert result.exit_code == ExitCode.USAGE, result.output
    assert not (tmp_path / "runs" / "history.json").exists()


def test_nightly_an_unexpected_failure_is_no_result_never_a_regression(tmp_path,
                                                                        monkeypatch):
    import claims_nightly

    config = _night(tmp_path, {}, monkeypatch)

    def broken(*args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(claims_nightly, "run_night", broken)
    result = runner.invoke(app, ["nightly", str(config)])
    assert result.exit_code == ExitCode.NO_RESULT, result.output
    assert "the night could not be judged: ValueError: a bug" in result.output
