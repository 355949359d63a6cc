"""Two shards of a run, run separately against the reference app and merged, score, report,
compare and gate exactly like one run of the same trials."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import scoring
from claims_cli import app
from claims_records import RunRecord, Sheet

from .conftest import PACKS, profile_for, run_packs

runner = CliRunner()
PACK_IDS = ["CTL-M-001", "CTL-H-001"]
# What necessarily differs between two runs of the same trials: their ids, their clocks, and
# the object keys the product draws at random for uploads.
VOLATILE = {"run_id", "scored_at", "total_duration_s", "mean_duration_s", "median_turn_s",
            "longest_turn_s", "path", "object_changes", "mean_report_modelled_s"}


def _strip(value):
    if isinstance(value, dict):
        # a time measured, how many responses the network log holds (polling varies with
        # timing) and how many audit rows staff page views wrote: only their verdicts
        if value.get("name") in ("report_duration", "privacy", "audit"):
            return {"name": value["name"], "status": value["status"]}
        return {k: _strip(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def _sheets(run_dir: Path) -> dict[tuple[str, int], dict]:
    out = {}
    for s in scoring.load_sheets(run_dir):
        data = s.model_dump(mode="json")
        data.pop("numbers")  # timings, retries: descriptive, not the verdict
        if data.get("grader"):  # the audit's row count, as above: its verdict only
            audit = data["grader"]["audit"]
            data["grader"]["audit"] = {k: audit[k] for k in ("status", "failure_modes")}
        out[(s.pack_id, s.trial)] = _strip(data)
    return out


@pytest.mark.slow
@pytest.mark.browser
def test_two_shards_merged_equal_one_run(dev_env, tmp_path):
    profile = profile_for(dev_env)
    runs = tmp_path / "runs"
    single, _ = run_packs(dev_env, profile, PACKS, runs, packs=PACK_IDS, run_id="single")
    shards = []
    for i in (1, 2):
        record, folder = run_packs(dev_env, profile, PACKS, runs, packs=PACK_IDS,
                                   run_id=f"s{i}", shard=f"{i}/2")
        assert len(record.trials) == 1 and record.shard.index == i
        shards.append(folder)
    assert {(t.pack_id) for s in shards
            for t in RunRecord.model_validate_json((s / "run.json").read_text()).trials} == \
        set(PACK_IDS)

    merged = runner.invoke(app, ["merge", *map(str, shards), "--into", str(runs / "merged")])
    assert merged.exit_code == 0, merged.output
    assert "merged 2 shard(s), 2 trial(s)" in merged.output
    record = RunRecord.model_validate_json((runs / "merged" / "run.json").read_text())
    assert [(t.pack_id, t.trial) for t in record.trials] == \
        [(t.pack_id, t.trial) for t in single.trials]

    one = scoring.score_run(runs / "single")
    both = scoring.score_run(runs / "merged")
    assert _strip(both.model_dump(mode="json")) == _strip(one.model_dump(mode="json"))
    assert _sheets(runs / "merged") == _sheets(runs / "single")
    for run_dir in (runs / "single", runs / "merged"):
        for p in PACK_IDS:  # every trial's evidence is there
            trial = run_dir / p / "trial-1"
            assert (trial / "network.har").is_file() and list((trial / "screens").iterdir())
            assert Sheet.model_validate_json((trial / "sheet.json").read_text()).run_id == \
                run_dir.name

    for c in (scoring.compare(both, one), scoring.compare(one, both)):
        assert [d.difference for d in c.packs] == [0.0] * len(PACK_IDS)
        assert c.mean_difference == 0.0 and c.verdict == "inconclusive"
        assert c.only_in_run == c.only_in_baseline == []
    g_one, g_both = scoring.gate(one, 0.8, 1), scoring.gate(both, 0.8, 1)
    assert (g_one.passed, g_one.value, g_one.message) == (g_both.passed, g_both.value,
                                                          g_both.message)
    for run_dir in (runs / "single", runs / "merged"):
        index = scoring.write_report(run_dir)
        pages = sorted(p.name for p in (index.parent / "packs").iterdir())
        assert pages == sorted(f"{p}.html" for p in PACK_IDS)
