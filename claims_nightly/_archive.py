"""Old runs packed into compressed archives (``claims-harness runs archive``), and opened
again for a report.

Archiving never loses a run: the folder is packed into ``<runs>/archive/<run-id>.tar.gz``
next to nothing else, the archive is read back and checked file by file (names and sizes),
and only then is the folder removed. A run in use (locked) or unfinished is left alone.
"""

from __future__ import annotations

import re
import shutil
import tarfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from claims_records import (
    HarnessError,
    RunRecord,
    RunRecordError,
    RunSummary,
    atomic_output,
    find_run_record,
    is_run_folder,
)

ARCHIVE_DIR = "archive"
SUFFIX = ".tar.gz"
SKIPPED_FILES = (".lock", ".lock.pid")
_AGE = re.compile(r"^\s*(\d+)\s*([dhw])\s*$")


def parse_age(text: str) -> timedelta:
    """'30d', '12h', '2w' -> a timedelta."""
    m = _AGE.match(text or "")
    if not m:
        raise HarnessError("an age is a number and d (days), h (hours) or w (weeks), e.g. 30d",
                           field="older_than", value=text)
    n, unit = int(m[1]), m[2]
    return {"d": timedelta(days=n), "h": timedelta(hours=n), "w": timedelta(weeks=n)}[unit]


@dataclass(frozen=True)
class Archived:
    run_id: str
    archive: Path | None  # None: left alone
    files: int = 0
    note: str = ""


def _when(record: RunRecord) -> datetime | None:
    stamp = record.finished_at
    if not stamp:
        return None
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _files(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder.parent).as_posix(): p.stat().st_size
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name not in SKIPPED_FILES}


def _pack(folder: Path, target: Path) -> int:
    """Write the archive, read it back, compare every file's name and size."""
    expected = _files(folder)
    with atomic_output(target) as tmp:
        with tarfile.open(tmp, "w:gz") as tar:
            for rel in expected:
                tar.add(folder.parent / rel, arcname=rel, recursive=False)
        with tarfile.open(tmp, "r:gz") as tar:
            found = {m.name: m.size for m in tar.getmembers() if m.isfile()}
        if found != expected:
            raise RunRecordError("the archive does not hold the run as it is on disk; the run "
                                 "was left in place", file=str(target))
    return len(expected)


def archive_runs(runs_dir: Path, older_than: timedelta, now: datetime | None = None,
                 dry_run: bool = False) -> list[Archived]:
    """Archive every finished run in ``runs_dir`` that finished more than ``older_than``
    ago. Returns what was (or, with ``dry_run``, would be) archived and what was left."""
    import harness

    runs_dir = Path(runs_dir)
    now = now or datetime.now(UTC)
    out: list[Archived] = []
    for folder in sorted(p for p in runs_dir.iterdir() if p.is_dir()):
        if folder.name.startswith(".") or folder.name == ARCHIVE_DIR:
            continue
        record = find_run_record(folder)
        if record is None:
            continue  # not a run folder
        when = _when(record)
        if when is None:
            out.append(Archived(record.run_id, None, note="unfinished: left alone"))
            continue
        if now - when < older_than:
            continue
        target = runs_dir / ARCHIVE_DIR / (folder.name + SUFFIX)
        if target.exists():
            out.append(Archived(record.run_id, None, note=f"{target} exists: left alone"))
            continue
        if dry_run:
            out.append(Archived(record.run_id, target, note="would be archived"))
            continue
        try:
            lock = harness.FolderLock(folder).acquire()
        except harness.RunLockedError:
            out.append(Archived(record.run_id, None, note="in use: left alone"))
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            count = _pack(folder, target)
        finally:
            lock.release()
        shutil.rmtree(folder)
        out.append(Archived(record.run_id, target, count))
    return out


def _safe_members(tar: tarfile.TarFile, run_id: str) -> list[tarfile.TarInfo]:
    members = []
    for m in tar.getmembers():
        parts = Path(m.name).parts
        if (not parts or parts[0] != run_id or ".." in parts or Path(m.name).is_absolute()
                or not (m.isfile() or m.isdir())):
            raise RunRecordError("the archive holds an entry outside its run folder",
                                 entry=m.name)
        members.append(m)
    return members


def run_id_of(archive: Path) -> str:
    name = Path(archive).name
    if not name.endswith(SUFFIX):
        raise RunRecordError(f"not a run archive (*{SUFFIX})", file=str(archive))
    return name[: -len(SUFFIX)]


def open_archive(archive: Path, into: Path | None = None) -> Path:
    """Unpack ``archive`` into ``into`` (default: beside it) and return the run folder. An
    already opened run is reused."""
    archive = Path(archive)
    run_id = run_id_of(archive)
    into = Path(into) if into else archive.parent
    folder = into / run_id
    if is_run_folder(folder):
        return folder
    into.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive, "r:gz") as tar:
        members = _safe_members(tar, run_id)
        if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4
            tar.extractall(into, members=members, filter="data")
        else:
            tar.extractall(into, members=members)  # members checked above
    return folder


def archived_summary(archive: Path) -> RunSummary | None:
    """summary.json read straight out of an archive (None when it has none)."""
    try:
        with tarfile.open(archive, "r:gz") as tar:
            member = tar.extractfile(f"{run_id_of(archive)}/summary.json")
            if member is None:
                return None
            return RunSummary.model_validate_json(member.read())
    except (OSError, KeyError, ValueError, tarfile.TarError):
        return None
