"""Tonight's baseline: the latest earlier night of the same configuration that passed its
gate, on the same corpora; comparing with it, and naming the packs that moved."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from claims_records import (
    Comparison,
    HarnessError,
    HistoryIndex,
    NightEntry,
    PackChange,
    RunSummary,
    is_run_folder,
)

from ._archive import archived_summary


@dataclass
class Baseline:
    entry: NightEntry | None
    summary: RunSummary | None = None
    note: str = ""
    notes: list[str] = field(default_factory=list)


def _identity(corpora) -> list[tuple[str, str]]:
    return [(c.version, c.hash) for c in corpora]


def find_baseline(history: HistoryIndex, config: str, run_id: str, corpora, runs_dir: Path,
                  current_scorer) -> Baseline:
    """The baseline entry and its summary (re-scored with this scorer when it was scored by
    another and its folder is still there)."""
    import scoring

    earlier = [n for n in history.nights if n.config == config and n.run_id != run_id]
    passed = [n for n in earlier if n.gate is not None and n.gate.passed]
    if not passed:
        why = ("first night of this configuration" if not earlier else
               f"no earlier night passed its gate ({len(earlier)} earlier)")
        return Baseline(None, note=why)
    same = [n for n in passed if _identity(n.corpora) == _identity(corpora)]
    if not same:
        last = passed[-1]
        return Baseline(None, note=f"no earlier passing night used these corpora (the latest, "
                        f"{last.run_id}, used {', '.join(c.version for c in last.corpora)})")
    entry = same[-1]
    folder = Path(runs_dir) / entry.run_path
    if is_run_folder(folder):
        summary = scoring.load_summary(folder)
        if summary.scorer != current_scorer:
            was = summary.scorer.label() if summary.scorer else "an unrecorded scorer"
            return Baseline(entry, scoring.score_run(folder),
                            note=f"baseline re-scored with this scorer (it was scored by {was};"
                            " its previous summary is kept beside it)")
        return Baseline(entry, summary)
    if entry.archive:
        archived = archived_summary(Path(runs_dir) / entry.archive)
        if archived is not None:
            return Baseline(entry, archived, note="baseline read from its archive")
    return Baseline(None, note=f"the baseline {entry.run_id} is gone from {runs_dir}")


def compare_with(summary: RunSummary, baseline: Baseline, seed: int | None,
                 resamples: int | None) -> tuple[Comparison | None, str]:
    import scoring

    if baseline.summary is None:
        return None, baseline.note
    try:
        result = scoring.compare(summary, baseline.summary,
                                 seed=seed if seed is not None else scoring.DEFAULT_SEED,
                                 resamples=resamples or scoring.DEFAULT_RESAMPLES)
    except HarnessError as exc:
        return None, f"not compared with {baseline.summary.run_id}: {exc}"
    return result, baseline.note


def pack_changes(comparison: Comparison, drop: float) -> tuple[list[PackChange],
                                                               list[PackChange]]:
    """Packs whose success rate fell (regressions) or rose (improvements) by >= ``drop``."""
    down, up = [], []
    for d in comparison.packs:
        change = PackChange(pack_id=d.pack_id, baseline_rate=d.baseline_rate,
                            run_rate=d.run_rate)
        if d.difference <= -drop + 1e-9:
            down.append(change)
        elif d.difference >= drop - 1e-9:
            up.append(change)
    return down, up
