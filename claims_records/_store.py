"""The one place that reads and writes records: typed, atomic, errors naming file and field.

A run folder holds ``run.json`` (``RunRecord``) and one folder per trial with ``trial.json``
(``TrialResult``), ``sheet.json`` (``Sheet``, written by the scorer), ``journey.jsonl`` and
``decision-journey.jsonl`` (``JourneyEvent`` per line), ``customer-model.jsonl``
(``CustomerModelCall`` per line) and the evidence; the run's ``summary.json`` (``RunSummary``)
sits beside ``run.json``, and a runs folder's ``history.json`` (``HistoryIndex``) indexes its
nights. Code above this floor names
none of these files and parses none of them by hand: it calls the functions here.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from ._atomic import write_model_atomic
from .acceptance import ACCEPTANCE_FILE, AcceptanceConfig
from .errors import HarnessError, PackError, RunRecordError
from .nightly import HistoryIndex
from .run import RunRecord
from .sheet import Sheet
from .summary import RunSummary
from .trial import CustomerModelCall, JourneyEvent, TrialResult

M = TypeVar("M", bound=BaseModel)

RUN_FILE = "run.json"
TRIAL_FILE = "trial.json"
SHEET_FILE = "sheet.json"
SUMMARY_FILE = "summary.json"
HUMAN_FILE = "human.json"
MODEL_CALLS_FILE = "customer-model.jsonl"
JOURNEY_FILE = "journey.jsonl"
DECISION_JOURNEY_FILE = "decision-journey.jsonl"
HISTORY_FILE = "history.json"
_EVENTS = TypeAdapter(list[JourneyEvent])


def field_of(exc: ValidationError) -> str:
    """The first error's location as a dotted path (``trials.0.status``)."""
    err = exc.errors()[0]
    return ".".join(str(p) for p in err["loc"]) or "(root)"


def read_model(model: type[M], path: Path, error: type[HarnessError] = RunRecordError,
               **context: object) -> M:
    """Read ``path`` as ``model``; problems raise ``error`` naming the file and the field."""
    path = Path(path)
    try:
        data = path.read_bytes()  # pydantic checks the UTF-8 itself
    except OSError as exc:
        raise error(f"cannot read {path.name}: {exc.strerror}", file=str(path),
                    **context) from exc
    try:
        return model.model_validate_json(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        if first["type"] == "json_invalid":  # not JSON at all (cut short, overwritten)
            raise error(f"{path.name} is unreadable: {first['msg']}", file=str(path),
                        **context) from exc
        raise error(f"invalid {path.name}: {first['msg']}", file=str(path),
                    field=field_of(exc), **context) from exc


def read_acceptance(corpus_root: Path) -> tuple[AcceptanceConfig, str]:
    """``<corpus>/acceptance.toml`` and where it came from; the standard's defaults when the
    corpus has none."""
    path = Path(corpus_root) / ACCEPTANCE_FILE
    if not path.exists():
        return AcceptanceConfig(), "defaults from the standard"
    try:
        return AcceptanceConfig.from_toml(path.read_text(encoding="utf-8")), str(path)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PackError(f"unreadable {ACCEPTANCE_FILE}: {exc}", file=str(path),
                        field="<file>") from exc
    except ValidationError as exc:
        raise PackError(f"invalid {ACCEPTANCE_FILE}: {exc.errors()[0]['msg']}",
                        file=str(path), field=field_of(exc)) from exc


def read_optional(model: type[M], path: Path, **context: object) -> M | None:
    """``read_model`` of a file that may be absent (None then)."""
    return read_model(model, path, RunRecordError, **context) if Path(path).exists() else None


def is_run_folder(folder: Path) -> bool:
    """Whether ``folder`` holds a run record (its ``run.json``)."""
    return (Path(folder) / RUN_FILE).is_file()


def run_record_path(run_dir: Path) -> Path:
    """Where a run folder's ``run.json`` is (for messages and links)."""
    return Path(run_dir) / RUN_FILE


def read_run_record(run_dir: Path, **context: object) -> RunRecord:
    """The run record of ``run_dir``; a missing or invalid ``run.json`` raises
    ``RunRecordError`` naming the file (and the field)."""
    path = run_record_path(run_dir)
    if not path.is_file():
        raise RunRecordError("no run.json in the run folder", file=str(path), **context)
    return read_model(RunRecord, path, RunRecordError, **context)


def find_run_record(folder: Path) -> RunRecord | None:
    """The run record of ``folder``, or None when it holds none or an unreadable one (for
    listings that pass over anything that is not a run)."""
    try:
        return read_run_record(folder)
    except RunRecordError:
        return None


def _read_lines(path: Path, **context: object) -> list[tuple[int, str]]:
    """The non-blank lines of a JSON-lines record file with their numbers."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RunRecordError(f"cannot read {path.name}: {exc}", file=str(path),
                             **context) from exc
    return [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]


def read_model_calls(trial_dir: Path, **context: object) -> list[CustomerModelCall]:
    """The customer model's calls a trial folder records (``customer-model.jsonl``), in
    order; none when the file is absent. A line that is not one call raises
    ``RunRecordError`` naming the file, the line and the field."""
    path = Path(trial_dir) / MODEL_CALLS_FILE
    if not path.is_file():
        return []
    calls: list[CustomerModelCall] = []
    for n, line in _read_lines(path, **context):
        try:
            calls.append(CustomerModelCall.model_validate_json(line))
        except ValidationError as exc:
            raise RunRecordError(f"invalid {path.name}: {exc.errors()[0]['msg']}",
                                 file=str(path), line=n, field=field_of(exc),
                                 **context) from exc
    return calls


def read_journey(path: Path, **context: object) -> list[JourneyEvent]:
    """The events of a journey file (``journey.jsonl`` or ``decision-journey.jsonl``: a trial
    folder's ``JOURNEY_FILE`` unless a file is given), in order; none when it is absent. A
    line that is not one event raises ``RunRecordError`` naming the file and the line."""
    path = Path(path)
    if path.is_dir():
        path = path / JOURNEY_FILE
    if not path.exists():
        return []
    lines = _read_lines(path, **context)
    try:  # one parse for the whole file; line by line only to say which line is at fault
        return _EVENTS.validate_json("[" + ",".join(line for _, line in lines) + "]")
    except ValidationError:
        pass
    events: list[JourneyEvent] = []
    for lineno, line in lines:
        try:
            events.append(JourneyEvent.model_validate_json(line))
        except ValidationError as exc:
            raise RunRecordError(
                f"invalid journey event on line {lineno}: {exc.errors()[0]['msg']}",
                file=str(path), field=f"line {lineno}: {field_of(exc)}", **context,
            ) from exc
    return events


def history_path(runs_dir: Path) -> Path:
    """Where a runs folder's history index (``history.json``) is."""
    return Path(runs_dir) / HISTORY_FILE


def read_history(runs_dir: Path) -> HistoryIndex | None:
    """The history index of a runs folder, or None when it has none; an unreadable one
    raises ``RunRecordError`` naming the file (and the field)."""
    path = history_path(runs_dir)
    if not path.exists():
        return None
    try:
        return read_model(HistoryIndex, path, RunRecordError)
    except RunRecordError as exc:
        raise RunRecordError(f"the history index is unreadable: {exc.message}",
                             file=str(path), field=exc.field) from exc


def write_run_record(run_dir: Path, record: RunRecord) -> Path:
    """Write ``run.json`` atomically (readers see the old record or the whole new one)."""
    path = run_record_path(run_dir)
    write_model_atomic(path, record)
    return path


@dataclass(frozen=True)
class RecordFile(Generic[M]):
    """One record file of a run or trial folder: its name and its format."""

    name: str
    model: type[M]

    def path(self, folder: Path) -> Path:
        return Path(folder) / self.name

    def exists(self, folder: Path) -> bool:
        return self.path(folder).is_file()

    def read(self, folder: Path, **context: object) -> M:
        return read_model(self.model, self.path(folder), RunRecordError, **context)

    def write(self, folder: Path, record: M) -> Path:
        path = self.path(folder)
        write_model_atomic(path, record)
        return path


TRIAL = RecordFile(TRIAL_FILE, TrialResult)
SHEET = RecordFile(SHEET_FILE, Sheet)
SUMMARY = RecordFile(SUMMARY_FILE, RunSummary)

# A trial is finished once its trial.json is written (its last file).
trial_result_path, is_finished_trial = TRIAL.path, TRIAL.exists
read_trial_result, write_trial_result = TRIAL.read, TRIAL.write
sheet_path, read_sheet, write_sheet = SHEET.path, SHEET.read, SHEET.write
summary_path, read_summary, write_summary = SUMMARY.path, SUMMARY.read, SUMMARY.write
