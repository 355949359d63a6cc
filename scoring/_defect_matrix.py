"""The planted-defect panel's detection matrix, from scored runs (pure).

For each fault: the packs it ran on, those where a scorable trial failed (detected), and those
where a failing trial carries the failure mode the fault must produce (label matches). For the
clean run: every failing scorable trial is a false alarm.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime

from claims_records import DefectPanel, FaultDetection, Sheet


@dataclass(frozen=True)
class PanelRun:
    """One run of the panel: its id, its scored sheets and how long it took."""

    run_id: str
    sheets: list[Sheet]
    seconds: float | None = None


def _packs(sheets: list[Sheet]) -> list[str]:
    return sorted({s.pack_id for s in sheets if s.scorable})


def fault_detection(fault: str, effect: str, expected_mode: str, run: PanelRun
                    ) -> FaultDetection:
    failing = [s for s in run.sheets if s.scorable and s.success is False]
    return FaultDetection(
        fault=fault, effect=effect, expected_mode=expected_mode, run_id=run.run_id,
        packs=_packs(run.sheets), detected=sorted({s.pack_id for s in failing}),
        labelled=sorted({s.pack_id for s in failing if expected_mode in s.failure_modes}),
        other_modes=dict(sorted(Counter(m for s in failing for m in s.failure_modes
                                        if m != expected_mode).items())),
        errors=sum(1 for s in run.sheets if not s.scorable), seconds=run.seconds)


def defect_panel(panel_id: str, corpus_version: str, clean: PanelRun,
                 faults: list[tuple[str, str, str, PanelRun]]) -> DefectPanel:
    """``faults``: (name, effect, expected failure mode, its run) per fault switch."""
    alarms: dict[str, list[str]] = {}
    for s in clean.sheets:
        if s.scorable and s.success is False:
            alarms.setdefault(s.pack_id, []).extend(s.failure_modes or ["(no label)"])
    rows = [fault_detection(*f) for f in faults]
    clean_errors = sum(1 for s in clean.sheets if not s.scorable)
    packs = sorted({s.pack_id for s in clean.sheets}
                   | {p for r in rows for p in r.packs})
    return DefectPanel(
        panel_id=panel_id, created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        corpus_version=corpus_version, packs=packs, clean_run_id=clean.run_id,
        clean_packs=_packs(clean.sheets),
        false_alarms={p: sorted(set(m)) for p, m in sorted(alarms.items())},
        clean_errors=clean_errors, clean_seconds=clean.seconds, faults=rows,
        passed=all(r.caught for r in rows) and not alarms and not clean_errors
        and bool(_packs(clean.sheets)))


def matrix_lines(panel: DefectPanel) -> list[str]:
    """The matrix as a Markdown table (also readable as plain text)."""
    head = ["| fault | must produce | packs detected | label matches | other labels | time |",
            "|---|---|---|---|---|---|"]
    rows = []
    for r in panel.faults:
        n = len(r.packs)
        others = ", ".join(f"{m} {c}" for m, c in r.other_modes.items()) or "–"
        secs = f"{r.seconds:.0f} s" if r.seconds is not None else "–"
        err = f" ({r.errors} error(s))" if r.errors else ""
        rows.append(f"| `{r.fault}` | `{r.expected_mode}` | {len(r.detected)}/{n} "
                    f"{', '.join(r.detected) or '–'}{err} | {len(r.labelled)}/{n} "
                    f"{'' if r.caught else '**MISSED** '}| {others} | {secs} |")
    alarms = ("none" if not panel.false_alarms else "; ".join(
        f"{p}: {', '.join(m)}" for p, m in panel.false_alarms.items()))
    secs = f" in {panel.clean_seconds:.0f} s" if panel.clean_seconds is not None else ""
    missed = [r.fault for r in panel.faults if not r.caught]
    verdict = ("Panel PASSED: every fault caught with its own label on at least one pack, no "
               "false alarm on the clean run." if panel.passed else
               "Panel FAILED: " + "; ".join(x for x in (
                   f"missed {', '.join(missed)}" if missed else "",
                   "false alarms on the clean run" if panel.false_alarms else "",
                   "errors on the clean run" if panel.clean_errors else "",
                   "nothing scorable on the clean run" if not panel.clean_packs else "") if x)
               + ".")
    return head + rows + ["", f"Clean run ({len(panel.clean_packs)} pack(s){secs}): false "
                          f"alarms: {alarms}; infrastructure errors: {panel.clean_errors}.",
                          verdict]
