"""Bad ``--shard`` specs, table-driven: each is refused with one line naming the option and
the value and a non-zero exit, before any trial runs; good ones still reach the run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import harness
from claims_cli.app import app
from claims_records import HarnessError
from harness import Shard
from harness.runner import MAX_SHARDS
from tests.claims_cli.conftest import bare_record, ran

HUGE = "1/" + "9" * 5000  # past Python's int-from-string digit limit
# (spec, what the one-line message must hold)
BAD = [
    ("", "''"),
    ("   ", "'   '"),
    ("\t", "shard"),
    ("2", "'2'"),
    ("/4", "'/4'"),
    ("2/", "'2/'"),
    ("a/b", "'a/b'"),
    ("0/4", "'0/4'"),
    ("5/4", "'5/4'"),
    ("1/0", "'1/0'"),
    ("-1/4", "'-1/4'"),
    ("1.5/4", "'1.5/4'"),
    ("1/4/8", "'1/4/8'"),
    ("2/4x", "'2/4x'"),
    ("\u0662/\u0664", "shard"),  # Arabic-Indic digits are not i/n
    (f"1/{MAX_SHARDS + 1}", f"at most {MAX_SHARDS}"),
    ("1/18446744073709551617", "at most"),
    ("1/1" + "0" * 30, "at most"),
    ("1" + "0" * 30 + "/4", "at most"),
    (HUGE, "5002 chars"),
]
GOOD = [("1/1", Shard(1, 1)), ("2/4", Shard(2, 4)), (" 3 / 4 ", Shard(3, 4)),
        ("04/04", Shard(4, 4)), ("1/" + "0" * 5000 + "4", Shard(1, 4)),
        (f"{MAX_SHARDS}/{MAX_SHARDS}", Shard(MAX_SHARDS, MAX_SHARDS))]



def _ids(value: object) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 30 else f"{text[:12]}...({len(text)})"


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    calls: list[object] = []

    def fake_run(config: Any, ctx: Any) -> tuple[Any, Path]:
        calls.append(config)
        run_dir = Path(ctx.runs_dir) / (ctx.resume or ctx.run_id)
        return ran(bare_record(run_dir.name, config)), run_dir

    monkeypatch.setattr(harness, "run", fake_run)
    return calls


@pytest.mark.parametrize(("spec", "named"), BAD, ids=_ids)
def test_a_bad_shard_spec_is_a_harness_error_naming_it(spec: str, named: str) -> None:
    with pytest.raises(HarnessError) as err:
        Shard.parse(spec)
    assert err.value.context["field"] == "shard"
    message = str(err.value)
    assert "\n" not in message and len(message) < 300
    if spec.strip() and named != "shard":
        assert named in message


@pytest.mark.parametrize(("spec", "shard"), GOOD, ids=_ids)
def test_good_shard_specs_still_parse(spec: str, shard: Shard) -> None:
    assert Shard.parse(spec) == shard


@pytest.mark.parametrize(("spec", "named"), BAD, ids=_ids)
def test_run_refuses_a_bad_shard_in_one_line_before_running(
        spec: str, named: str, captured: list[Any], tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    result = CliRunner().invoke(app, ["run", "--runs-dir", str(runs), "--run-id", "s1",
                                      "--shard", spec])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert "shard" in result.output and named in result.output
    assert captured == [] and not runs.exists()  # nothing ran, nothing was written


@pytest.mark.parametrize(("spec", "shard"), GOOD[:3], ids=_ids)
def test_run_takes_a_good_shard(spec: str, shard: Shard, captured: list[Any],
                                tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["run", "--runs-dir", str(tmp_path), "--run-id", "s1",
                                      "--shard", spec])
    assert result.exit_code == 0, result.output
    assert Shard.parse(captured[0].shard) == shard


NIGHT_BAD = [("", "''"), ("   ", "'   '"), ("0/2", "'0/2'"), (HUGE, "5002 chars"),
             ("1/1001", "at most 1000")]


@pytest.mark.parametrize(("spec", "named"), NIGHT_BAD, ids=_ids)
def test_nightly_refuses_a_bad_shard_in_one_line_before_running(
        spec: str, named: str, captured: list[object], tmp_path: Path) -> None:
    (tmp_path / "packs").mkdir()
    (tmp_path / "packs" / "manifest.json").write_text("{}\n", encoding="utf-8")
    config = tmp_path / "nightly.toml"
    config.write_text('name = "n"\ncorpora = ["packs"]\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["nightly", str(config), "--night-id", "n1",
                                      "--shard", spec])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert "field=shard" in result.output and named in result.output
    assert captured == [] and not (tmp_path / "runs").exists()
