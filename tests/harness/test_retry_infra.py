"""``run --retry-infra N``: a trial that ended in an infrastructure error is run again up to N
times; every earlier attempt keeps its evidence in its own folder and is listed in run.json;
the product's own failures are never run again."""

from __future__ import annotations

import json

import pytest

from claims_records import (
    EarlierAttempt,
    RunConfig,
    TrialEntry,
    TrialResult,
    TrialStatus,
    read_run_record,
    read_trial_result,
    write_run_record,
    write_trial_result,
)
from harness import Backoff, RunContext, run
from harness.runner import (
    TrialProgress,
    infrastructure_error,
    keep_attempt,
    prepare_resume,
    summary_line,
)

from ..claims_cli.conftest import bare_record
from .test_reset_failed import PACKS, ResettingProduct, _profile


@pytest.fixture(scope="module")
def product():
    p = ResettingProduct()
    yield p
    p.server.stop()


def _result(status: TrialStatus, kind: str | None = None, attempt: int = 1) -> TrialResult:
    return TrialResult(pack_id="CTL-M-001", trial=1, status=status, simulator_error_kind=kind,
                       attempt=attempt, started_at="2026-12-03T00:00:00+00:00",
                       ended_at="2026-12-03T00:00:01+00:00", duration_s=1.0,
                       detail=f"{status.value} here\nsecond line")


@pytest.mark.parametrize(("status", "kind", "again"), [
    (TrialStatus.HARNESS_ERROR, None, True),
    (TrialStatus.SIMULATOR_ERROR, "timeout", True),
    (TrialStatus.SIMULATOR_ERROR, "connection", True),
    (TrialStatus.SIMULATOR_ERROR, "server", True),
    (TrialStatus.SIMULATOR_ERROR, "rate_limit", True),
    (TrialStatus.SIMULATOR_ERROR, "malformed_output", False),
    (TrialStatus.SIMULATOR_ERROR, "request_rejected", False),
    (TrialStatus.SIMULATOR_ERROR, "replay_miss", False),
    (TrialStatus.SIMULATOR_ERROR, None, False),
    (TrialStatus.RESET_FAILED, None, False),
    (TrialStatus.PRODUCT_ERROR, None, False),
    (TrialStatus.STUCK, None, False),
    (TrialStatus.AGENT_STOPPED, None, False),
    (TrialStatus.COMPLETED, None, False),
    (TrialStatus.NOT_IMPLEMENTED, None, False),
])
def test_which_outcomes_are_run_again(status, kind, again):
    assert infrastructure_error(_result(status, kind)) is again


def test_an_attempt_folder_is_never_overwritten(tmp_path):
    for k in range(3):
        folder = tmp_path / "trial-1"
        folder.mkdir()
        (folder / "trial.json").write_text(str(k))
        kept = keep_attempt(folder, 1)
        assert not folder.exists() and (kept / "trial.json").read_text() == str(k)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "trial-1.attempt-1", "trial-1.attempt-1-2", "trial-1.attempt-1-3"]


def test_attempts_and_earlier_attempts_agree():
    one = EarlierAttempt(attempt=1, status=TrialStatus.HARNESS_ERROR, path="P/trial-1.attempt-1")
    TrialEntry(pack_id="P", trial=1, path="P/trial-1", attempts=2, earlier_attempts=[one])
    with pytest.raises(ValueError, match="attempts is 3 but 1 earlier"):
        TrialEntry(pack_id="P", trial=1, path="P/trial-1", attempts=3, earlier_attempts=[one])
    old = TrialEntry.model_validate({"pack_id": "P", "trial": 1, "path": "P/trial-1"})
    assert old.attempts == 1 and old.earlier_attempts == []  # records made before retries


def test_a_resume_keeps_the_earlier_attempts(tmp_path):
    run_dir = tmp_path / "r"
    record = bare_record("r", trials=2)
    one = EarlierAttempt(attempt=1, status=TrialStatus.HARNESS_ERROR, detail="browser crash",
                         path="CTL-M-001/trial-1.attempt-1")
    record.trials[0] = record.trials[0].model_copy(update={"attempts": 2,
                                                           "earlier_attempts": [one]})
    record.trials[1] = record.trials[1].model_copy(update={"attempts": 2,
                                                           "earlier_attempts": [one.model_copy(
                                                               update={"path": "x"})]})
    (run_dir / "CTL-M-001" / "trial-1").mkdir(parents=True)
    write_trial_result(run_dir / "CTL-M-001" / "trial-1",
                       _result(TrialStatus.COMPLETED, attempt=2))
    (run_dir / "CTL-M-001" / "trial-2").mkdir()  # an attempt cut short by the stop
    write_run_record(run_dir, record)
    resumed = prepare_resume(run_dir)
    done, pending = resumed.trials
    assert done.status == TrialStatus.COMPLETED and done.attempts == 2
    assert done.earlier_attempts == [one]
    assert pending.status == TrialStatus.PENDING and pending.attempts == 2
    assert pending.earlier_attempts[0].path == "x"
    assert (run_dir / "CTL-M-001" / "trial-2.interrupted-1").is_dir()


def test_the_summary_line_and_the_progress_say_so(tmp_path):
    record = bare_record("r")
    one = EarlierAttempt(attempt=1, status=TrialStatus.HARNESS_ERROR, path="p")
    record.trials[0] = record.trials[0].model_copy(update={
        "status": TrialStatus.COMPLETED, "attempts": 2, "earlier_attempts": [one]})
    assert "1 run again after an infrastructure error (1 earlier attempt(s) kept)" in \
        summary_line(record, tmp_path)
    event = TrialProgress("lane-1", "CTL-M-001", 1, 0, 3, attempt=2,
                          previous="harness_error: browser crash")
    assert str(event) == ("[lane-1] CTL-M-001 trial 1 ... attempt 2 (attempt 1 ended "
                          "harness_error: browser crash)")


def test_the_option_is_part_of_the_run_configuration():
    assert RunConfig().retry_infra == 0
    assert RunConfig(retry_infra=2).trial_fields()["retry_infra"] == 2
    with pytest.raises(ValueError):
        RunConfig(retry_infra=-1)


@pytest.mark.slow
@pytest.mark.browser
def test_a_harness_error_is_run_again_and_every_attempt_kept(product, tmp_path):
    product.mode, product.calls = "401", 0  # refused token: the harness's error, every time
    try:
        record, run_dir = run(
            RunConfig(corpora=[str(PACKS)], packs=["CTL-M-001"], allow_unreported_runtime=True,
                      retry_infra=2),
            RunContext(profile=_profile(product.url), runs_dir=tmp_path, run_id="again"))
    finally:
        product.mode = "ok"
    assert product.calls == 3  # the first attempt and two more
    trial, = record.trials
    assert trial.status == TrialStatus.HARNESS_ERROR and trial.attempts == 3
    assert [a.attempt for a in trial.earlier_attempts] == [1, 2]
    assert [a.path for a in trial.earlier_attempts] == [
        "CTL-M-001/trial-1.attempt-1", "CTL-M-001/trial-1.attempt-2"]
    for a in trial.earlier_attempts:  # each attempt's own evidence, untouched
        assert a.status == TrialStatus.HARNESS_ERROR and "HTTP 401" in a.detail
        kept = read_trial_result(run_dir / a.path)
        assert kept.attempt == a.attempt and kept.status == TrialStatus.HARNESS_ERROR
        assert (run_dir / a.path / "transcript.md").is_file()
    assert read_trial_result(run_dir / trial.path).attempt == 3
    raw = json.loads((run_dir / "run.json").read_text("utf-8"))
    assert raw["options"]["retry_infra"] == 2 and raw["trials"][0]["attempts"] == 3
    assert read_run_record(run_dir).trials[0].earlier_attempts == trial.earlier_attempts
    import scoring  # the report links each earlier attempt, saying how it ended

    scoring.score_run(run_dir)
    page = (scoring.write_report(run_dir).parent / "packs" / "CTL-M-001.html").read_text(
        encoding="utf-8")
    assert "earlier attempt 1: harness_error (run again)" in page
    assert 'href="../../CTL-M-001/trial-1.attempt-2/transcript.md"' in page


@pytest.mark.slow
@pytest.mark.browser
def test_the_products_failed_reset_is_not_run_again(product, tmp_path):
    product.mode, product.calls = "500", 0
    try:
        record, run_dir = run(
            RunConfig(corpora=[str(PACKS)], packs=["CTL-M-001"], allow_unreported_runtime=True,
                      retry_infra=2),
            RunContext(profile=_profile(product.url), runs_dir=tmp_path, run_id="once"))
    finally:
        product.mode = "ok"
    assert product.calls == 1
    trial, = record.trials
    assert trial.status == TrialStatus.RESET_FAILED and trial.attempts == 1
    assert sorted(p.name for p in (run_dir / "CTL-M-001").iterdir()) == ["trial-1"]


def test_the_wait_before_another_attempt_grows_and_is_capped():
    backoff = Backoff()
    assert [backoff.delay(k) for k in range(1, 8)] == [2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0]
    quick = Backoff(first_s=0.5, factor=3.0, most_s=5.0)
    assert [quick.delay(k) for k in (1, 2, 3, 4)] == [0.5, 1.5, 4.5, 5.0]


def test_errors_in_a_row_stop_the_run_and_any_outcome_resets_the_count():
    from harness.runner._attempts import ErrorStreak

    streak = ErrorStreak(3)
    for status in (TrialStatus.PRODUCT_ERROR, TrialStatus.HARNESS_ERROR,
                   TrialStatus.COMPLETED, TrialStatus.RESET_FAILED,
                   TrialStatus.SIMULATOR_ERROR):
        streak.add(_result(status))
    assert streak.stop is None and streak.count == 2  # the completed trial began it again
    streak.add(_result(TrialStatus.PRODUCT_ERROR))
    assert streak.stop is not None and streak.stop.errors_in_a_row == 3
    never = ErrorStreak(0)  # 0: the run never stops
    for _ in range(50):
        never.add(_result(TrialStatus.HARNESS_ERROR))
    assert never.stop is None


def test_the_default_and_the_limits_of_stopping():
    assert RunConfig().stop_after_errors == 5
    assert RunConfig(stop_after_errors=0).stop_after_errors == 0
    with pytest.raises(ValueError):
        RunConfig(stop_after_errors=-1)


class _Sleeps:
    """A sleep that only records how long the run asked to wait."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)


@pytest.mark.slow
@pytest.mark.browser
def test_each_attempt_waits_longer_first(product, tmp_path):
    product.mode, product.calls = "401", 0  # refused token: the harness's error, every time
    sleeps = _Sleeps()
    try:
        record, _ = run(
            RunConfig(corpora=[str(PACKS)], packs=["CTL-M-001"], allow_unreported_runtime=True,
                      retry_infra=3),
            RunContext(profile=_profile(product.url), runs_dir=tmp_path, run_id="waits",
                       backoff=Backoff(first_s=1.0, factor=2.0, most_s=3.0), sleep=sleeps))
    finally:
        product.mode = "ok"
    assert product.calls == 4 and record.trials[0].attempts == 4
    assert sleeps.asked == [1.0, 2.0, 3.0]  # growing, capped


@pytest.mark.slow
@pytest.mark.browser
def test_a_run_stops_after_errors_in_a_row_and_keeps_the_rest_pending(product, tmp_path):
    packs = ["CTL-M-001", "CTL-M-002", "CTL-M-003", "CTL-H-001", "CTL-H-002"]
    product.mode, product.calls = "500", 0  # the product's reset fails for every pack
    try:
        record, run_dir = run(
            RunConfig(corpora=[str(PACKS)], packs=packs, allow_unreported_runtime=True,
                      stop_after_errors=2),
            RunContext(profile=_profile(product.url), runs_dir=tmp_path, run_id="stops"))
    finally:
        product.mode = "ok"
    assert product.calls == 2  # two trials ran, the others were never started
    statuses = [t.status for t in record.trials]
    assert statuses == [TrialStatus.RESET_FAILED] * 2 + [TrialStatus.PENDING] * 3
    stopped = read_run_record(run_dir).stopped  # the record says so, and why
    assert stopped is not None and stopped.not_run == 3 and stopped.errors_in_a_row == 2
    assert stopped.limit == 2 and stopped.last_status == TrialStatus.RESET_FAILED
    assert stopped.reason.startswith("stopped early: 2 trials in a row ended in an "
                                     "infrastructure error")
    assert "3 trial(s) not run, left pending in run.json" in stopped.reason
    assert "HTTP 500" in stopped.last_detail
    assert read_run_record(run_dir).options.stop_after_errors == 2  # in the configuration
    line = summary_line(record, run_dir)
    assert "STOPPED EARLY on infrastructure errors, 3 trial(s) not run" in line
    assert prepare_resume(run_dir).stopped is None  # a resume runs them
