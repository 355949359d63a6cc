"""`claims-harness run` checks every lane's reset before its first trial, and `profile check
--reset PACK` before it resets: a store a guard refuses stops either with one line naming the
lane, the pack and the refusal, before the product's own clearing step runs and before anything
is written — no run folder, not a row or a file changed. Exit code 2 for `run` (a setting to
fix before running, as a corpus that fails its check), 1 for `profile check` (a problem
found)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_corpus import _gate as _corpus_gate

from ..harness.guarded_product import (
    GUARDS,
    Clearing,
    ClearingEndpoint,
    assert_one_clear_line,
    guarded,
    make_product,
    profile_data,
    toml_text,
)

runner = CliRunner()


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(_corpus_gate.CACHE_ENV, str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def endpoint():
    e = ClearingEndpoint()
    yield e
    e.server.stop()


def _run(profile: Path, corpus: Path, runs: Path):
    return runner.invoke(app, ["run", "--profile", str(profile), "--packs", str(corpus),
                               "--runs-dir", str(runs), "--allow-unreported-runtime"])


# The stories of the data-loss bug, and the other guards, each through a composed reset.
CASES = [
    ("production-name", "command+stores", "postgresql"),  # heron_prod went from 1 row to 0
    ("marker-database", "endpoint+stores", "sqlite"),  # a production database was emptied
    ("marker-folder", "command+stores", "sqlite"),  # ... and its uploads folder
    ("unset-database-variable", "command+stores", "sqlite"),  # the default file was wiped
    ("unreachable-database", "command+stores", "postgresql"),  # was the product's reset_failed
    ("missing-table", "endpoint+stores", "postgresql"),
    ("home-folder", "endpoint+stores", "mongo"),
]


@pytest.mark.parametrize(("guard", "adapter", "backend"), CASES)
def test_run_refuses_a_store_before_the_first_trial_and_changes_nothing(
        guard, adapter, backend, request, tmp_path, monkeypatch, corpus_copy, endpoint):
    product = make_product(request, tmp_path / "product", backend,
                           database=GUARDS[guard].database, files=GUARDS[guard].files)
    clearing = Clearing.prepare(product, endpoint)
    profile = tmp_path / "profile.toml"
    profile.write_text(toml_text(profile_data(product, adapter, clearing)), encoding="utf-8")
    words = guarded(product, GUARDS[guard], monkeypatch)
    before = product.snapshot()
    result = _run(profile, corpus_copy, tmp_path / "runs")
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: refusing to run: the reset of CTL-M-001 on lane-1 "
                               "would fail: ")
    assert lines[0].endswith("; exit code 2")
    assert_one_clear_line(lines[0], [*words, "lane=lane-1"])
    assert not (tmp_path / "runs").exists()  # no run folder, no record
    assert product.snapshot() == before  # 0 rows, 0 files changed
    assert clearing.runs() == 0 and endpoint.calls == 0  # the product's clearing never ran


@pytest.mark.parametrize("adapter", ["command+stores", "endpoint+stores"])
def test_run_checks_every_lane_before_the_first_trial_of_any(adapter, request, tmp_path,
                                                             monkeypatch, corpus_copy,
                                                             endpoint):
    """Two lanes, the second's database named for production: refused naming that lane, and
    the first lane — whose check passed — is not touched either."""
    first = make_product(request, tmp_path / "first", "sqlite")
    second = make_product(request, tmp_path / "second", "sqlite", database="heron_prod")
    clearing = Clearing.prepare(first, endpoint)
    base_url = endpoint.server.url
    lanes = [{"name": "lane-1", "base_url": base_url, "database": first.url[len("sqlite:///"):]},
             {"name": "lane-2", "base_url": base_url,
              "database": second.url[len("sqlite:///"):]}]
    profile = tmp_path / "profile.toml"
    profile.write_text(toml_text(profile_data(first, adapter, clearing, lanes=lanes)),
                       encoding="utf-8")
    for name, value in first.environ.items():
        monkeypatch.setenv(name, value)
    before = (first.snapshot(), second.snapshot())
    result = _run(profile, corpus_copy, tmp_path / "runs")
    assert result.exit_code == 2, result.output
    [line] = result.stderr.strip().splitlines()
    assert "the reset of CTL-M-001 on lane-2 would fail" in line
    assert_one_clear_line(line, ["'heron_prod'", "stores.allowed_database", "lane=lane-2"])
    assert not (tmp_path / "runs").exists()
    assert (first.snapshot(), second.snapshot()) == before
    assert clearing.runs() == 0 and endpoint.calls == 0


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize(("guard", "backend"), [("production-name", "postgresql"),
                                                ("unreachable-database", "sqlite")])
def test_profile_check_reset_refuses_before_anything_changes(guard, backend, request, tmp_path,
                                                             monkeypatch, corpus_copy,
                                                             endpoint):
    product = make_product(request, tmp_path / "product", backend,
                           database=GUARDS[guard].database)
    clearing = Clearing.prepare(product, endpoint)
    profile = tmp_path / "profile.toml"
    profile.write_text(toml_text(profile_data(product, "command+stores", clearing)),
                       encoding="utf-8")
    words = guarded(product, GUARDS[guard], monkeypatch)
    before = product.snapshot()
    result = runner.invoke(app, ["profile", "check", str(profile), "--reset", "CTL-M-001",
                                 "--packs", str(corpus_copy)])
    assert result.exit_code == 1, result.output
    [line] = [ln for ln in result.stdout.splitlines() if ln.startswith("FAIL reset")]
    assert line.split(None, 2)[2].startswith("command+stores: ")
    assert_one_clear_line(line, words)
    assert "loaded" not in result.stdout
    assert product.snapshot() == before
    assert clearing.runs() == 0
