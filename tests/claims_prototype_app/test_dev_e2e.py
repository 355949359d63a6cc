"""``claims-harness run --dev --lanes 2 --profile harness/profiles/heron.toml`` in-process, in
Chromium: the dev environment starts one Heron per lane, each on a SQLite file of its own
(heron_dev_lane1, heron_dev_lane2: names Heron's allowed_database takes) and an uploads
folder of its own in a data folder it removes afterwards. Every trial is reset through SQL by
Heron's own command and the harness's loading, each lane on its own database, and completes
with a claim number in Heron's format. ``profile check --dev`` finds no problem."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli.app import app
from claims_prototype_app import CLAIM_NUMBER_PATTERN
from claims_records import RunRecord, StateDump, read_model

from ..conftest import CHROMIUM
from ..records import first_trial

pytestmark = [pytest.mark.slow, pytest.mark.browser]

REPO = Path(__file__).resolve().parents[2]
PACKS = REPO / "packs"
PROFILE = REPO / "harness" / "profiles" / "heron.toml"
# A claim Heron refers to a handler and a fast-track one it settles itself: one per lane.
PACK_IDS = ["CTL-C-001", "CTL-M-004"]


@pytest.fixture(scope="module")
def dev_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The scored run, and the temporary folder its dev environment made its folders in."""
    import scoring

    temp = tmp_path_factory.mktemp("dev-temp")
    runs = tmp_path_factory.mktemp("runs")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tempfile, "tempdir", str(temp))  # where start_dev makes its data folder
        mp.delenv("HERON_DATABASE_URL", raising=False)
        mp.delenv("HERON_UPLOADS_DIR", raising=False)
        result = CliRunner().invoke(app, [
            "run", "--dev", "--lanes", "2", "--profile", str(PROFILE), "--packs", str(PACKS),
            *[a for p in PACK_IDS for a in ("--pack", p)], "--runs-dir", str(runs),
            "--run-id", "heron-dev", "--browser-executable", CHROMIUM])
    assert result.exit_code == 0, result.output
    assert "dev environment: 2 lane(s), heron" in result.output
    scoring.score_run(runs / "heron-dev", PACKS)
    return runs / "heron-dev", temp


def test_both_lanes_ran_a_trial_to_completion(dev_run: tuple[Path, Path]) -> None:
    run_dir, _ = dev_run
    run = read_model(RunRecord, run_dir / "run.json")
    assert run.product.profile == "heron" and run.product.reset_adapter == "command+stores"
    assert [t.status.value for t in run.trials] == ["completed"] * len(PACK_IDS)
    assert sorted(t.lane or "" for t in run.trials) == ["lane1", "lane2"]


@pytest.mark.parametrize("pack_id", PACK_IDS)
def test_each_trial_is_reset_through_sql_on_its_own_lanes_database(
        dev_run: tuple[Path, Path], pack_id: str) -> None:
    run_dir, _ = dev_run
    trial, result, sheet = first_trial(run_dir, pack_id)
    assert result.status == "completed" and result.stop_reason == "claim_number", result.detail
    assert re.fullmatch(CLAIM_NUMBER_PATTERN, result.claim_number or "")
    assert result.reset is not None
    assert (result.reset.adapter, result.reset.verified) == ("command+stores", True)
    for name in ("state-before.json", "state-after.json"):
        dump = read_model(StateDump, trial / name)
        assert dump.database == f"heron_dev_{result.lane}"  # the lane's own SQLite file
    after = read_model(StateDump, trial / "state-after.json")
    assert result.claim_number in after.collections["claims"]
    status = {c.name: c.status for c in sheet.components}
    for name in ("journey", "state", "assertions_state"):
        assert status[name] == "pass", (name, sheet.explanation)


def test_the_data_folder_is_gone_after_the_run(dev_run: tuple[Path, Path]) -> None:
    _, temp = dev_run
    assert list(temp.glob("claims-harness-data-*")) == []


def test_profile_check_dev_finds_no_problem(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(REPO)
    monkeypatch.delenv("HERON_DATABASE_URL", raising=False)
    result = CliRunner().invoke(app, ["profile", "check", str(PROFILE), "--dev", "--reset",
                                      "CTL-M-001", "--browser-executable", CHROMIUM])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "command+stores: stores reachable (database heron_dev_lane1," in out
    assert re.search(r"CTL-M-001 loaded: reset by command\+stores took [\d.]+ ms, verified", out)
    assert out.rstrip().endswith("0 problem(s)")
