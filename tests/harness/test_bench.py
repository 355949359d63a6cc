"""The bench runs (one pack, one round) and measures what it says: a harness journey with
full evidence, one with evidence off, and a bare replay of the same actions."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.bench import MODES, BenchOptions, run_bench

pytestmark = [pytest.mark.slow, pytest.mark.browser]

PACKS = Path(__file__).resolve().parents[2] / "packs"


def test_bench_one_round_of_one_pack(tmp_path: Path):
    lines: list[str] = []
    report = run_bench(BenchOptions(packs_root=PACKS, pack_ids=["CTL-M-001"], repeats=1,
                                    keep=tmp_path / "kept", progress=lines.append))
    assert report["problems"] == []  # every journey ended as recorded, evidence complete
    pack = report["packs"]["CTL-M-001"]
    assert pack["recording"]["status"] == "completed" and pack["recording"]["actions"] >= 5
    samples = report["samples"]
    # CTL-M-001 has a staff script: its decision phase is measured apart ("decide")
    assert sorted(s["mode"] for s in samples) == sorted((*MODES, "decide"))
    for s in samples:  # the same journey four ways, each reaching the claim number
        assert s["actions"] == pack["recording"]["actions"], s
        assert s["claim_number"] == pack["recording"]["claim_number"], s
        assert s["wall_s"] > 0 and (s["harness_cpu_s"] is None or s["harness_cpu_s"] > 0)
    for mode in ("full", "off", "full_to_bare_ev"):
        ratio = pack["ratios_to_bare"][mode]["wall"]
        assert ratio is not None and ratio["n"] == 1 and ratio["median"] > 0
    # the kept records: evidence on in full, off in off
    kept = tmp_path / "kept" / "CTL-M-001"
    assert (kept / "full-1" / "network.har").is_file()
    assert list((kept / "full-1" / "screens").glob("*.png"))
    assert not (kept / "off-1" / "network.har").exists()
    assert not list((kept / "off-1" / "screens").glob("*.png"))
    assert not (kept / "full-1" / "decision.json").exists()
    assert (kept / "decide-1" / "decision.json").is_file()
    assert "decide" in pack["medians"] and "decide" not in pack["ratios_to_bare"]
    assert any(line.startswith("CTL-M-001 round 1 bare") for line in lines)
    # the bare replay that keeps the customer side's evidence kept it: the HAR, a screenshot
    # after every reply
    bare_ev = tmp_path / "kept" / "bare-evidence" / "CTL-M-001"
    assert (bare_ev / "network.har").is_file()
    assert len(list((bare_ev / "screens").glob("*.png"))) == pack["recording"]["actions"] + 1
