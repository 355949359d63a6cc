"""Reviewer overrides applied to mechanical sheets (pure): the reviewer's value becomes the
criterion's status, the scorer's stays beside it, and the trial's success follows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from claims_records import (
    AppliedOverride,
    ComponentResult,
    OverrideCounts,
    RunSummary,
    ScoreOverride,
    ScoringError,
    Sheet,
    add_override,
    read_model,
    read_run_record,
    sheet_path,
)

SCORED = ("pass", "fail")

Effective = dict[tuple[str, int, str], ScoreOverride]
CorpusRoots = Path | str | Sequence[Path | str] | None


def _applied(c: ComponentResult, o: ScoreOverride) -> ComponentResult:
    mechanical = c.override.mechanical if c.override is not None else c.status
    return c.model_copy(update={
        "status": o.value,
        "override": AppliedOverride(mechanical=mechanical, by=o.by, at=o.at, why=o.why)})


def apply_overrides(sheet: Sheet, effective: Effective) -> Sheet:
    """``sheet`` with the overrides in effect for its trial applied. Only a scorable trial's
    pass/fail criteria are overridden (an error or a damaged record has nothing to judge);
    success is recomputed from the criteria, and ``mechanical_success`` keeps the scorer's."""
    mine = {name: o for (pid, trial, name), o in effective.items()
            if pid == sheet.pack_id and trial == sheet.trial}
    if not mine or not sheet.scorable:
        return sheet
    components = [_applied(c, mine[c.name]) if c.name in mine and c.status in SCORED else c
                  for c in sheet.components]
    applied = [c for c in components if c.override is not None]
    if not applied:
        return sheet
    scored = [c for c in components if c.status in SCORED]
    failed = [c for c in scored if c.status == "fail"]
    success = bool(scored) and not failed
    note = "; ".join(f"{c.name} {c.override.mechanical} -> {c.status} by {c.override.by}: "
                     f"{c.override.why}" for c in applied if c.override is not None)
    if failed:
        because = " | ".join(f"{c.name}: {c.explanation}" if c.override is None
                             else f"{c.name}: failed by reviewer override" for c in failed)
    else:
        because = f"all {len(scored)} scored components passed"
    modes = sorted({m for c in components if c.status != "pass" for m in c.failure_modes})
    return sheet.model_copy(update={
        "components": components, "success": success,
        "mechanical_success": sheet.success if sheet.mechanical_success is None
        else sheet.mechanical_success,
        "failure_modes": modes,
        "explanation": f"{because} (overridden: {note})"})


def override_counts(sheets: Iterable[Sheet], effective: Effective) -> OverrideCounts:
    """How many overrides the sheets include, and the ones that match no scored criterion."""
    sheets = list(sheets)
    applied = [c for s in sheets for c in s.components if c.override is not None]
    matched = {(s.pack_id, s.trial, c.name) for s in sheets for c in s.components
               if c.override is not None}
    return OverrideCounts(
        applied=len(applied),
        changed=sum(1 for c in applied if c.override is not None
                    and c.override.mechanical != c.status),
        trials_changed=sum(1 for s in sheets if s.mechanical_success is not None
                           and s.mechanical_success != s.success),
        unmatched=[f"{pid}/{trial}/{name}" for (pid, trial, name) in sorted(effective)
                   if (pid, trial, name) not in matched])


def record_override(run_dir: Path | str, pack_id: str, trial: int, component: str,
                    value: str, by: str, why: str, corpus_root: CorpusRoots = None
                    ) -> tuple[ScoreOverride, RunSummary]:
    """Record a reviewer's override of one criterion of one scored trial in the run's
    overrides.json, then score the run again so its sheets and summary include it. Refused
    (``ScoringError``) for a trial not scored yet, a criterion its sheet does not score
    pass/fail, a trial kept out of the rates, and an unusable name, value or reason."""
    from ._summary import score_run

    run_dir = Path(run_dir)
    run = read_run_record(run_dir)
    entry = next((t for t in run.trials if t.pack_id == pack_id and t.trial == trial), None)
    where = {"run": run.run_id, "pack": pack_id, "trial": trial}
    if entry is None:
        raise ScoringError("the run has no such trial", **where)
    path = sheet_path(run_dir / entry.path)
    if not path.is_file():
        raise ScoringError("the trial is not scored yet; run `claims-harness score` first",
                           **where, file=str(path))
    sheet = read_model(Sheet, path, ScoringError, **where)
    if not sheet.scorable:
        raise ScoringError(f"the trial is kept out of the rates ({sheet.error_category}); "
                           "only a scored trial's criteria can be overridden", **where)
    found = next((c for c in sheet.components if c.name == component), None)
    mechanical = (found.override.mechanical if found is not None and found.override is not None
                  else found.status if found is not None else None)
    if found is None or mechanical not in SCORED:
        scored = [c.name for c in sheet.components
                  if (c.override.mechanical if c.override else c.status) in SCORED]
        raise ScoringError(f"the sheet does not score this criterion pass/fail; it scores: "
                           f"{', '.join(scored) or 'none'}", **where, field=component)
    try:
        override = ScoreOverride.model_validate({
            "pack_id": pack_id, "trial": trial, "component": component, "value": value,
            "mechanical": mechanical, "by": by, "why": why,
            "at": datetime.now(UTC).isoformat(timespec="milliseconds")})
    except ValidationError as exc:
        err = exc.errors()[0]
        raise ScoringError(f"override refused: {err['msg']}", **where,
                           field=".".join(str(x) for x in err["loc"])) from None
    add_override(run_dir, run.run_id, override)
    return override, score_run(run_dir, corpus_root)
