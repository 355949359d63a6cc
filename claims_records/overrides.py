"""A reviewer's overrides of mechanical scores, kept beside the run record.

    <run-id>/overrides.json     ScoreOverrides   every override ever recorded, oldest first

An override says that one criterion (component) of one trial is, in a named reviewer's
judgement, ``pass`` or ``fail`` whatever the mechanical scorer said, and why. The file only
grows: a later override of the same criterion takes effect and the earlier one stays in the
history. Scoring applies the file every time it scores (``scoring.apply_overrides``); the
sheet keeps the mechanical status beside the reviewer's (``ComponentResult.override``), and the
summary counts the overrides it includes. ``docs/scoring.md`` ("Reviewer overrides").
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from ._atomic import write_model_atomic
from ._base import Strict
from ._store import read_model
from .blind_review import person_name
from .errors import RunRecordError
from .sheet import COMPONENTS, ComponentStatus

OVERRIDES_FORMAT_VERSION = "1"
OVERRIDES_FILE = "overrides.json"
MAX_OVERRIDE_REASON = 2000


class ScoreOverride(Strict):
    """One reviewer's override of one criterion of one trial."""

    pack_id: str = Field(min_length=1, description="The trial's pack.")
    trial: int = Field(ge=1, description="The trial's number within its pack.")
    component: str = Field(description="The criterion overridden, one of COMPONENTS.")
    value: Literal["pass", "fail"] = Field(description="The reviewer's value.")
    mechanical: ComponentStatus = Field(
        description="What the mechanical scorer said when the override was recorded (the "
        "sheet always shows what it says now).")
    by: str = Field(description="Who overrode it (normalised: Unicode NFKC, spaces "
                    "collapsed, as blind-review handler names).")
    at: str = Field(description="When it was recorded (UTC, ISO 8601).")
    why: str = Field(min_length=1, max_length=MAX_OVERRIDE_REASON,
                     description="The reviewer's reason, in their words.")

    @field_validator("component")
    @classmethod
    def _known_component(cls, v: str) -> str:
        if v not in COMPONENTS:
            raise ValueError(f"unknown criterion {v!r}; known: {list(COMPONENTS)}")
        return v

    @field_validator("by")
    @classmethod
    def _person(cls, v: str) -> str:
        return person_name(v, "a reviewer's name")

    @field_validator("why")
    @classmethod
    def _reason(cls, v: str) -> str:
        text = v.strip()
        if not text:
            raise ValueError("a reason cannot be empty or only spaces")
        return text

    def key(self) -> tuple[str, int, str]:
        """The criterion it overrides: (pack, trial, component)."""
        return self.pack_id, self.trial, self.component


class ScoreOverrides(Strict):
    """overrides.json — every reviewer override of a run, oldest first."""

    version: str = Field(OVERRIDES_FORMAT_VERSION, description="Format version of this file.")
    run_id: str = Field(description="The run the overrides belong to.")
    overrides: list[ScoreOverride] = Field(
        default_factory=list, description="Every override recorded, oldest first; for one "
        "criterion the last one takes effect, the earlier ones stay as history.")

    def effective(self) -> dict[tuple[str, int, str], ScoreOverride]:
        """The override in effect for each criterion (the last one recorded)."""
        return {o.key(): o for o in self.overrides}


def overrides_path(run_dir: Path | str) -> Path:
    return Path(run_dir) / OVERRIDES_FILE


def read_overrides(run_dir: Path | str, run_id: str) -> ScoreOverrides:
    """A run's overrides (none recorded: an empty list). Refuses a file of another run."""
    path = overrides_path(run_dir)
    if not path.exists():
        return ScoreOverrides(run_id=run_id)
    found = read_model(ScoreOverrides, path, RunRecordError, run=run_id)
    if found.run_id != run_id:
        raise RunRecordError("overrides.json belongs to another run", run=run_id,
                             file=str(path), field="run_id", found=found.run_id)
    return found


def add_override(run_dir: Path | str, run_id: str, override: ScoreOverride) -> ScoreOverrides:
    """Append one override to the run's overrides.json (written atomically); return all."""
    current = read_overrides(run_dir, run_id)
    updated = current.model_copy(update={"overrides": [*current.overrides, override]})
    write_model_atomic(overrides_path(run_dir), ScoreOverrides.model_validate(
        updated.model_dump()))
    return updated


__all__ = [
    "MAX_OVERRIDE_REASON",
    "OVERRIDES_FILE",
    "OVERRIDES_FORMAT_VERSION",
    "ScoreOverride",
    "ScoreOverrides",
    "add_override",
    "overrides_path",
    "read_overrides",
]
