"""Resume bookkeeping: finished trials are kept, unfinished folders are moved aside."""

from __future__ import annotations

import pytest

from claims_records import (
    CorpusInfo,
    CustomerInfo,
    HarnessInfo,
    ProductInfo,
    RunRecord,
    RunRecordError,
    TrialEntry,
    TrialResult,
    TrialStatus,
    write_model_atomic,
)
from harness import prepare_resume
from harness.runner import move_aside, summary_line


def _record(run_id: str, n: int) -> RunRecord:
    return RunRecord(
        run_id=run_id, created_at="2026-03-12T00:00:00+00:00",
        harness=HarnessInfo(version="0"), corpus=CorpusInfo(version="0", hash="h", path="p"),
        product=ProductInfo(profile="reference", base_urls=["http://127.0.0.1:1"],
                            runtime="reference"),
        customer=CustomerInfo(kind="scripted"),
        trials=[TrialEntry(pack_id="CTL-M-001", trial=i, path=f"CTL-M-001/trial-{i}")
                for i in range(1, n + 1)],
    )


def _finish(run_dir, n: int) -> TrialResult:
    result = TrialResult(pack_id="CTL-M-001", trial=n, status=TrialStatus.COMPLETED,
                         stop_reason="claim_number", started_at="a", ended_at="b",
                         duration_s=1.0, claim_number="NWF-2026-000001")
    write_model_atomic(run_dir / f"CTL-M-001/trial-{n}/trial.json", result)
    return result


def test_finished_trials_are_kept_and_unfinished_moved_aside(tmp_path):
    run_dir = tmp_path / "r1"
    record = _record("r1", 3)
    write_model_atomic(run_dir / "run.json", record)
    _finish(run_dir, 1)
    unfinished = run_dir / "CTL-M-001/trial-2"
    (unfinished / "screens").mkdir(parents=True)
    (unfinished / "journey.jsonl").write_text("{}\n")
    (run_dir / "CTL-M-001/trial-2.interrupted-1").mkdir()  # an earlier interruption

    resumed = prepare_resume(run_dir)
    statuses = [t.status for t in resumed.trials]
    assert statuses == [TrialStatus.COMPLETED, TrialStatus.PENDING, TrialStatus.PENDING]
    assert not unfinished.exists()
    kept = run_dir / "CTL-M-001/trial-2.interrupted-2"
    assert (kept / "journey.jsonl").read_text() == "{}\n"
    assert (run_dir / "CTL-M-001/trial-2.interrupted-1").is_dir()
    assert (run_dir / "CTL-M-001/trial-1/trial.json").is_file()


def test_resume_needs_a_run(tmp_path):
    with pytest.raises(RunRecordError, match="no run to resume"):
        prepare_resume(tmp_path / "nothing")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "run.json").write_text("{not json")
    with pytest.raises(RunRecordError, match="unreadable"):
        prepare_resume(tmp_path / "bad")


def test_move_aside_never_overwrites(tmp_path):
    a = tmp_path / "trial-1"
    a.mkdir()
    first = move_aside(a)
    a.mkdir()
    second = move_aside(a)
    assert (first.name, second.name) == ("trial-1.interrupted-1", "trial-1.interrupted-2")


def test_summary_line_labels_self_test(tmp_path):
    record = _record("r2", 2)
    record.self_test = True
    line = summary_line(record, tmp_path)
    assert line.startswith("SELF-TEST run r2: 2 trial(s): 2 pending")
    assert str(tmp_path) in line
