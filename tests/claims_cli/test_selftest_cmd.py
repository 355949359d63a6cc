"""selftest defects: the planted-defect panel end to end, lean enough for CI.

The faults another end-to-end test already drives through a real run and checks by their label
are left to it: flag_everything, ask_twice, lose_fact (tests/scoring/test_smoke.py),
drop_questions (tests/scoring/test_waiting_list_pressure.py), ignore_corrections
(tests/test_summary_corrections.py) and guess_unchecked (it shows only on packs with a check
that cannot be made: the app's guesses in tests/claims_reference_app/test_packs.py, the label
in tests/scoring/test_checks.py). Every other fault runs here on one pack it can show on,
and the clean run on the same packs. `claims-harness selftest defects` without options runs
the full matrix (docs/defect-panel.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_records import DefectPanel, RunRecord
from claims_reference_app import FAULTS

# The panel is a run per fault: about 9 min of worker time on a quiet two-core machine, far
# longer on a busy one; a generous bound instead of the suite's 600 s per test.
pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(2400)]

PACKS = Path(__file__).resolve().parents[2] / "packs"
COVERED_ELSEWHERE = ("flag_everything", "ask_twice", "lose_fact", "drop_questions",
                     "ignore_corrections", "guess_unchecked")
NEW_FAULTS = [f for f in FAULTS if f not in COVERED_ELSEWHERE]
DECISION_FAULTS = [f for f in FAULTS if FAULTS[f].decisions is not None]


def test_every_fault_is_caught_with_its_own_label_and_the_clean_run_has_no_false_alarm(
        tmp_path):
    args = ["selftest", "defects", "--packs", str(PACKS), "--runs-dir", str(tmp_path),
            "--panel-id", "panel", "--pack", "CTL-M-001", "--pack", "CTL-C-001",
            "--pack", "CTL-H-001", "--packs-per-fault", "1",
            "--turn-limit", "30"]
    for fault in NEW_FAULTS:
        args += ["--fault", fault]
    result = CliRunner().invoke(app, args)
    panel_dir = tmp_path / "panel"
    assert result.exit_code == 0, result.output
    panel = DefectPanel.model_validate_json((panel_dir / "defect-panel.json").read_text())
    assert panel.passed and panel.false_alarms == {} and panel.clean_errors == 0
    assert panel.clean_packs == ["CTL-C-001", "CTL-H-001", "CTL-M-001"]
    rows = {r.fault: r for r in panel.faults}
    assert sorted(rows) == sorted(NEW_FAULTS)
    for name, row in rows.items():
        assert row.expected_mode == FAULTS[name].failure_mode
        assert row.labelled == row.packs and len(row.packs) == 1, row
        assert row.errors == 0
    assert rows["miss_flag"].packs == ["CTL-C-001"]  # the one pack that needs review
    assert rows["amount_not_applied"].packs == ["CTL-H-001"]  # the one amended amount
    for name in DECISION_FAULTS:  # caught by their own label and nothing else
        assert rows[name].other_modes == {}, rows[name]
    assert rows["leak_other_customer"].expected_mode == "data_leak"
    printed = result.output
    assert "| `leak_other_customer` | `data_leak` | 1/1 CTL-M-001 | 1/1 |" in printed
    assert "Panel PASSED" in printed
    assert (panel_dir / "defect-panel.md").read_text().splitlines()[0].startswith("| fault")
    # each row is an ordinary run record that names its fault; the clean one names none
    for name in NEW_FAULTS:
        run = RunRecord.model_validate_json((panel_dir / name / "run.json").read_text())
        assert run.product.faults == [name]
        summary = json.loads((panel_dir / name / "summary.json").read_text())
        assert summary["faults"] == [name]
    clean = RunRecord.model_validate_json((panel_dir / "clean" / "run.json").read_text())
    assert clean.product.faults == []


def test_a_fault_no_selected_pack_can_show_is_refused(tmp_path):
    result = CliRunner().invoke(app, ["selftest", "defects", "--packs", str(PACKS),
                                      "--runs-dir", str(tmp_path), "--pack", "CTL-M-001",
                                      "--fault", "miss_flag"])
    assert result.exit_code == 2 and "no selected pack can show miss_flag" in result.output
    result = CliRunner().invoke(app, ["selftest", "defects", "--fault", "make_it_pass"])
    assert result.exit_code == 2 and "unknown fault" in result.output
    assert not any(tmp_path.iterdir())
