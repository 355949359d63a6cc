"""Shard plans: deterministic, complete, balanced by count or by recorded durations; merging
refuses runs that are not shards of one run, naming what differs."""

from __future__ import annotations

import pytest

from claims_records import (
    CorpusInfo,
    CustomerInfo,
    HarnessError,
    HarnessInfo,
    HistoryIndex,
    NightEntry,
    ProductInfo,
    RunConfig,
    RunRecord,
    RunRecordError,
    TrialEntry,
    TrialResult,
    TrialStatus,
    write_model_atomic,
)
from harness import Shard, load_durations, merge_runs
from harness.runner import apply_shard
from harness.runner._shard import plan

PACKS = [f"CTL-M-00{i}" for i in range(1, 6)]
TRIALS = [(p, n) for p in PACKS for n in (1, 2)]


def test_shard_syntax():
    assert Shard.parse("2/4") == Shard(2, 4) and str(Shard.parse(" 1 / 3 ")) == "1/3"
    for bad in ("0/4", "5/4", "2", "a/b", "1/0", ""):
        with pytest.raises(HarnessError, match="i/n"):
            Shard.parse(bad)


def test_plan_by_count_is_complete_disjoint_balanced_and_repeatable():
    assign, method, digest = plan(TRIALS, 3)
    assert method == "count"
    assert sorted({a for a in assign}) == [1, 2, 3]
    sizes = [assign.count(k) for k in (1, 2, 3)]
    assert max(sizes) - min(sizes) <= 1 and sum(sizes) == len(TRIALS)
    assert plan(TRIALS, 3) == (assign, method, digest)  # every machine computes the same
    assert plan(TRIALS, 2)[2] != digest


def test_plan_by_duration_balances_time_not_count():
    durations = {"CTL-M-001": 100.0, "CTL-M-002": 10.0, "CTL-M-003": 10.0,
                 "CTL-M-004": 10.0, "CTL-M-005": 10.0}
    trials = [(p, 1) for p in PACKS]
    assign, method, _ = plan(trials, 2, durations)
    assert method == "duration"
    assert assign[0] != assign[1] == assign[2] == assign[3] == assign[4]  # the long one alone
    unknown = plan([*trials, ("CTL-X-009", 1)], 2, durations)[0]  # unknown pack: the median
    assert len(unknown) == 6


def test_apply_shard_keeps_the_whole_plan_in_the_record():
    entries = [TrialEntry(pack_id=p, trial=n, path=f"{p}/trial-{n}") for p, n in TRIALS]
    parts = [apply_shard(entries, Shard(i, 3), None) for i in (1, 2, 3)]
    kept = [(e.pack_id, e.trial) for mine, _ in parts for e in mine]
    assert sorted(kept) == sorted(TRIALS)
    infos = [info for _, info in parts]
    assert {i.plan_digest for i in infos} == {infos[0].plan_digest}
    assert infos[0].plan_trials == len(TRIALS) and infos[0].pack_order == PACKS


def _shard_run(tmp_path, index, total, **changes):
    entries = [TrialEntry(pack_id=p, trial=n, path=f"{p}/trial-{n}") for p, n in TRIALS]
    mine, info = apply_shard(entries, Shard(index, total), None)
    finished = []
    run_dir = tmp_path / f"s{index}"
    for e in mine:
        result = TrialResult(pack_id=e.pack_id, trial=e.trial, status=TrialStatus.COMPLETED,
                             stop_reason="claim_number", started_at="a", ended_at="b",
                             duration_s=3.0)
        write_model_atomic(run_dir / e.path / "trial.json", result)
        (run_dir / e.path / "sheet.json").write_text("{}")
        finished.append(e.model_copy(update={"status": TrialStatus.COMPLETED,
                                             "duration_s": 3.0}))
    record = RunRecord(
        run_id=f"s{index}", created_at=f"2026-03-0{index}T00:00:00+00:00",
        finished_at=f"2026-03-0{index}T01:00:00+00:00",
        harness=HarnessInfo(version="1", git_commit="abc"),
        corpus=CorpusInfo(version="0.2.2", hash="h", path="packs"),
        product=ProductInfo(profile="reference", base_urls=[f"http://m{index}:1"],
                            runtime="reference"),
        customer=CustomerInfo(kind="scripted"), options=RunConfig(trials=2), trials=finished,
        shard=info)
    record = record.model_copy(update=changes)
    write_model_atomic(run_dir / "run.json", record)
    return run_dir


def test_merge_keeps_every_trial_in_run_order(tmp_path):
    sources = [_shard_run(tmp_path, i, 3) for i in (1, 2, 3)]
    (sources[0] / "CTL-M-001" / "trial-1.interrupted-1").mkdir(parents=True)
    # an attempt run again after an infrastructure error (--retry-infra), beside its trial
    holder = next(s for s in sources if (s / "CTL-M-002" / "trial-1").is_dir())
    (holder / "CTL-M-002" / "trial-1.attempt-1").mkdir(parents=True)
    (holder / "CTL-M-002" / "trial-1.attempt-1" / "journey.jsonl").write_text("{}\n")
    merged = merge_runs(sources, tmp_path / "night")
    assert [(t.pack_id, t.trial) for t in merged.trials] == TRIALS
    assert merged.run_id == "night" and merged.shard is None and merged.merged is not None
    assert [s.shard for s in merged.merged.sources] == [1, 2, 3]
    assert merged.product.base_urls == ["http://m1:1", "http://m2:1", "http://m3:1"]
    assert merged.created_at.startswith("2026-03-01") and merged.finished_at.startswith(
        "2026-03-03")
    for p, n in TRIALS:
        assert (tmp_path / "night" / p / f"trial-{n}" / "trial.json").is_file()
        assert not (tmp_path / "night" / p / f"trial-{n}" / "sheet.json").exists()
    assert (tmp_path / "night" / "CTL-M-001" / "trial-1.interrupted-1").is_dir()
    assert (tmp_path / "night" / "CTL-M-002" / "trial-1.attempt-1" / "journey.jsonl").is_file()
    assert (sources[0] / "run.json").is_file()  # sources are left as they were
    with pytest.raises(RunRecordError, match="exists"):
        merge_runs(sources, tmp_path / "night")


@pytest.mark.parametrize(("change", "what"), [
    ({"corpus": CorpusInfo(version="0.2.2", hash="other", path="packs")}, "corpus"),
    ({"corpus": CorpusInfo(version="0.3.0", hash="h", path="packs")}, "corpus"),
    ({"product": ProductInfo(profile="kestrel", base_urls=["x"], runtime="reference")},
     "product profile"),
    ({"product": ProductInfo(profile="reference", base_urls=["x"], runtime="model")},
     "product runtime"),
    ({"customer": CustomerInfo(kind="llm", model="m", temperature=0.2)},
     "customer settings"),
    ({"harness": HarnessInfo(version="2", git_commit="abc")}, "harness version"),
    ({"harness": HarnessInfo(version="1", git_commit="def")}, "harness commit"),
    ({"labels": ["no reset"]}, "run labels"),
    ({"options": RunConfig(trials=3)}, "trial options"),
])
def test_merge_refuses_runs_that_differ_and_says_in_what(tmp_path, change, what):
    first = _shard_run(tmp_path, 1, 2)
    second = _shard_run(tmp_path, 2, 2, **change)
    with pytest.raises(RunRecordError, match=f"differ in {what}") as err:
        merge_runs([first, second], tmp_path / "night")
    assert "s1" in err.value.context and "s2" in err.value.context  # both values named
    assert not (tmp_path / "night").exists()


def test_merge_refuses_missing_unfinished_duplicate_and_foreign_shards(tmp_path):
    one, two = _shard_run(tmp_path, 1, 3), _shard_run(tmp_path, 2, 3)
    with pytest.raises(RunRecordError, match="shard\\(s\\) 3 of 3 are missing"):
        merge_runs([one, two], tmp_path / "night")
    partial = merge_runs([one, two], tmp_path / "partial", partial=True)
    assert partial.merged.missing_shards == [3]
    with pytest.raises(RunRecordError, match="given twice"):
        merge_runs([one, one, two], tmp_path / "twice")
    other_plan = _shard_run(tmp_path / "b", 2, 2)
    with pytest.raises(RunRecordError, match="shard plan"):
        merge_runs([one, other_plan], tmp_path / "mixed")
    plain = _shard_run(tmp_path / "c", 1, 2, shard=None)
    with pytest.raises(RunRecordError, match="not a shard"):
        merge_runs([plain, other_plan], tmp_path / "plain")
    record = RunRecord.model_validate_json((two / "run.json").read_text())
    record.trials[0].status = TrialStatus.PENDING
    write_model_atomic(two / "run.json", record)
    with pytest.raises(RunRecordError, match="unfinished"):
        merge_runs([one, two, _shard_run(tmp_path, 3, 3)], tmp_path / "night")


def test_a_running_shard_is_not_merged(tmp_path):
    from harness import FolderLock, RunLockedError

    one, two = _shard_run(tmp_path, 1, 2), _shard_run(tmp_path, 2, 2)
    with FolderLock(two), pytest.raises(RunLockedError):
        merge_runs([one, two], tmp_path / "night")
    assert not (tmp_path / "night").exists()


def test_durations_come_from_a_history_or_a_run(tmp_path):
    run_dir = _shard_run(tmp_path, 1, 1)
    assert load_durations(run_dir) == {p: 3.0 for p in PACKS}
    night = dict(config="c", config_digest="d", run_path="r", started_at="a",
                 finished_at="b", outcome="ok", exit_code=0)
    history = HistoryIndex(nights=[
        NightEntry(run_id="n1", pack_durations={"CTL-M-001": 10.0}, **night),
        NightEntry(run_id="n2", pack_durations={"CTL-M-001": 20.0, "CTL-M-002": 4.0},
                   **night)])
    write_model_atomic(tmp_path / "history.json", history)
    assert load_durations(tmp_path / "history.json") == {"CTL-M-001": 15.0, "CTL-M-002": 4.0}
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(RunRecordError, match="pack durations"):
        load_durations(tmp_path / "bad.json")
