"""`claims-harness run --packs A --packs B`: several corpora in one run (checked before any
product is contacted)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from claims_cli import app

from ..conftest import PACKS, make_held_out

runner = CliRunner()


def test_packs_is_repeatable_and_corpora_are_checked_first(tmp_path: Path) -> None:
    twin = make_held_out(tmp_path / "twin", {"CTL-M-001": "CTL-M-901"}, prefix="CTL")
    result = runner.invoke(app, ["run", "--packs", str(PACKS), "--packs", str(twin),
                                 "--runs-dir", str(tmp_path / "runs")])
    assert result.exit_code == 2, result.output  # a bad input, not a failed run
    assert "two corpora use the id prefix 'CTL'" in result.output
    assert not (tmp_path / "runs").exists()  # nothing was started or recorded
