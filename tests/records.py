"""Reading a finished run in the end-to-end tests: a pack's first trial, through the records
floor's reader."""

from __future__ import annotations

from pathlib import Path

from claims_records import Sheet, TrialResult, read_model


def first_trial(run_dir: Path, pack_id: str) -> tuple[Path, TrialResult, Sheet]:
    """The folder, result and sheet of ``pack_id``'s first trial in ``run_dir``."""
    trial = run_dir / pack_id / "trial-1"
    return (trial, read_model(TrialResult, trial / "trial.json"),
            read_model(Sheet, trial / "sheet.json"))
