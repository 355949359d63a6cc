"""runs archive: old finished runs into checked archives, never losing one; reports still
open them."""

from __future__ import annotations

import io
import json
import tarfile
from datetime import UTC, datetime, timedelta

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_nightly import add_night, archive_runs, archived_summary, load_history, open_archive
from claims_nightly import parse_age as age
from claims_records import HarnessError, RunRecord, RunRecordError
from harness import FolderLock
from scoring import score_run

from ..scoring.builders import make_labels, write_corpus, write_run
from .test_history import _night

runner = CliRunner()


def _run(tmp_path, runs, run_id, finished: str | None):
    labels = [make_labels("CTL-M-001")]
    corpus = write_corpus(tmp_path / "packs", labels)
    run_dir = write_run(runs / run_id, corpus, [(labels[0], 1, None)], run_id=run_id)
    score_run(run_dir, resamples=200)
    record = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    record.finished_at = finished
    (run_dir / "run.json").write_text(record.model_dump_json())
    return run_dir


def test_ages():
    assert age("30d") == timedelta(days=30) and age("12h") == timedelta(hours=12)
    assert age(" 2w ") == timedelta(weeks=2)
    for bad in ("30", "d", "-1d", "1y"):
        with pytest.raises(HarnessError, match="e.g. 30d"):
            age(bad)


def test_old_runs_are_archived_checked_and_still_reported(tmp_path):
    runs = tmp_path / "runs"
    old = (datetime.now(UTC) - timedelta(days=40)).isoformat()
    recent = (datetime.now(UTC) - timedelta(days=2)).isoformat()
    old_dir = _run(tmp_path, runs, "old", old)
    _run(tmp_path, runs, "recent", recent)
    _run(tmp_path, runs, "unfinished", None)
    busy = _run(tmp_path, runs, "busy", old)
    add_night(runs, _night("old", 1.0))
    files = sorted(p.relative_to(runs).as_posix() for p in old_dir.rglob("*") if p.is_file())

    with FolderLock(busy):
        result = runner.invoke(app, ["runs", "archive", "--older-than", "30d", "--runs-dir",
                                     str(runs)])
    assert result.exit_code == 0, result.output
    assert "1 run(s) archived" in result.output
    assert "busy: in use: left alone" in result.output
    assert "unfinished: unfinished: left alone" in result.output
    archive = runs / "archive" / "old.tar.gz"
    assert archive.is_file() and not old_dir.exists()
    assert (runs / "recent").is_dir() and (runs / "busy").is_dir()
    with tarfile.open(archive) as tar:
        assert sorted(m.name for m in tar.getmembers() if m.isfile()) == files
    assert load_history(runs).nights[0].archive == "archive/old.tar.gz"
    assert archived_summary(archive).run_id == "old"
    assert "archived: archive/old.tar.gz" in (runs / "index.html").read_text()

    report = runner.invoke(app, ["report", str(archive)])
    assert report.exit_code == 0, report.output
    assert (runs / "archive" / "old" / "report" / "index.html").is_file()
    assert open_archive(archive) == runs / "archive" / "old"  # reused, not unpacked twice


def test_dry_run_touches_nothing_and_a_foreign_entry_is_refused(tmp_path):
    runs = tmp_path / "runs"
    old_dir = _run(tmp_path, runs, "old", "2020-01-01T00:00:00+00:00")
    listed = archive_runs(runs, timedelta(days=1), dry_run=True)
    assert [(a.run_id, a.note) for a in listed] == [("old", "would be archived")]
    assert old_dir.is_dir() and not (runs / "archive").exists()
    evil = tmp_path / "evil.tar.gz"
    with tarfile.open(evil, "w:gz") as tar:
        info = tarfile.TarInfo("../outside.txt")
        data = json.dumps({}).encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    (tmp_path / "e").mkdir()
    renamed = tmp_path / "e" / "evil.tar.gz"
    evil.rename(renamed)
    with pytest.raises(RunRecordError, match="outside its run folder"):
        open_archive(renamed, tmp_path / "out")
    assert not (tmp_path / "outside.txt").exists()
