"""The static HTML report: an overview page and one page per pack, opened from disk.

Images and evidence are linked by relative paths into the run folder, never inlined. The
report is written to its own folder (default ``<run>/report``); no evidence file is touched.
"""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from claims_records import (
    DECISION_JOURNEY_FILE,
    HUMAN_FILE,
    JOURNEY_FILE,
    MODEL_CALLS_FILE,
    SHEET_FILE,
    SUMMARY_FILE,
    DecisionRecord,
    JourneyEvent,
    RunRecord,
    RunRecordError,
    RunSummary,
    ScoreOverride,
    ScoreSource,
    Sheet,
    StaffReading,
    read_journey,
    read_model,
    read_overrides,
    read_trial_result,
    run_record_path,
    summary_path,
)

from ._acceptance import contact_reasons
from ._blind_agreement import load_agreement
from ._charts import index_charts
from ._compare import load_summary
from ._record import load_run_record
from ._rescore import RESCORED_DIR
from ._stats import degenerate_bound
from ._summary import CorpusRoots, load_sheets
from .components import REGISTRY

TEMPLATES = Path(__file__).parent / "templates"
ASSETS = ("report.css", "human_form.js")
EVIDENCE_LINKS = (("network.har", "HAR network log"), ("trace.zip", "Playwright trace"),
                  ("transcript.md", "transcript"), (JOURNEY_FILE, "journey events"),
                  (MODEL_CALLS_FILE, "customer model calls"), ("staff.json", "staff reading"),
                  ("state-before.json", "state before"), ("state-after.json", "state after"),
                  ("decision.json", "staff decision"),
                  (DECISION_JOURNEY_FILE, "customer's return (events)"),
                  ("state-after-decision.json", "state after the decision"),
                  (SHEET_FILE, "scoring sheet"), (HUMAN_FILE, "human verdicts"))


def _env() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)),
                      autoescape=select_autoescape(["html", "j2"]), trim_blocks=True,
                      lstrip_blocks=True)
    env.filters["pct"] = lambda v: "–" if v is None else f"{100 * v:.1f} %"
    env.filters["num"] = lambda v, nd=2: "–" if v is None else f"{v:.{nd}f}"
    return env


def _rel(target: Path, start: Path) -> str:
    return Path(os.path.relpath(target, start)).as_posix()


def _action_text(ev: JourneyEvent) -> str | None:
    return ev.action.describe() if ev.action is not None else None


def _earlier_attempt_links(tdir: Path, page_dir: Path) -> list[dict[str, str]]:
    """Links to the earlier attempts of a trial run again after an infrastructure error
    (``run --retry-infra``: ``<trial folder>.attempt-<k>``), labelled with how each ended."""
    links = []
    for folder in sorted(tdir.parent.glob(f"{tdir.name}.attempt-*")):
        try:
            ended = read_trial_result(folder)
            how = f"attempt {ended.attempt}: {ended.status.value}"
        except RunRecordError:
            how = f"{folder.name}: unreadable trial.json"
        target = folder / "transcript.md"
        links.append({"href": _rel(target if target.exists() else folder, page_dir),
                      "label": f"earlier {how} (run again)"})
    return links


def _trial_view(run_dir: Path, page_dir: Path, sheet: Sheet, scoring_dir: Path | None = None
                ) -> dict[str, object]:
    """One trial's part of the report page's template context (records and plain values)."""
    tdir = run_dir / sheet.path
    unreadable: list[str] = []  # a damaged record still gets its page (the sheet says why)
    try:
        events = read_journey(tdir / JOURNEY_FILE, pack=sheet.pack_id, trial=sheet.trial)
    except RunRecordError as exc:
        events = []
        unreadable.append(f"{JOURNEY_FILE} could not be shown: {exc.message}")
    steps = []
    for ev in events:
        shot = tdir / ev.screenshot if ev.screenshot else None
        steps.append({
            "step": ev.step,
            "reply": ev.screen.latest_reply if ev.screen else "",
            "chips": ev.screen.chips if ev.screen else [],
            "todo": ev.screen.todo if ev.screen else "",
            "claim_number": ev.screen.claim_number if ev.screen else None,
            "screenshot": _rel(shot, page_dir) if shot and shot.exists() else None,
            "customer": _action_text(ev),
            "note": ev.note,
        })
    staff_path = tdir / "staff.json"
    try:
        staff = read_model(StaffReading, staff_path) if staff_path.exists() else None
    except RunRecordError as exc:
        staff = None
        unreadable.append(f"staff.json could not be shown: {exc.message}")
    staff_shots = [_rel(tdir / s, page_dir) for s in (staff.screenshots if staff else [])
                   if (tdir / s).exists()]
    links = [{"href": _rel(tdir / name, page_dir), "label": label}
             for name, label in EVIDENCE_LINKS if (tdir / name).exists()
             and not (scoring_dir is not None and name == SHEET_FILE)]
    if scoring_dir is not None:
        links.append({"href": _rel(scoring_dir / sheet.path / SHEET_FILE, page_dir),
                      "label": "scoring sheet (re-scored)"})
    links += _earlier_attempt_links(tdir, page_dir)
    decision, decision_shots = None, []
    decision_path = tdir / "decision.json"
    try:
        decision = read_model(DecisionRecord, decision_path) if decision_path.exists() else None
    except RunRecordError as exc:
        unreadable.append(f"decision.json could not be shown: {exc.message}")
    if decision is not None:
        named = [*decision.staff_screenshots,
                 *(decision.customer.screenshots if decision.customer else [])]
        decision_shots = [_rel(tdir / s, page_dir) for s in named if (tdir / s).exists()]
    human = next((c for c in sheet.components if c.name == "assertions_human"), None)
    return {"sheet": sheet, "steps": steps, "staff": staff, "staff_shots": staff_shots,
            "contact": _contact_words(sheet),
            "decision": decision, "decision_shots": decision_shots,
            "links": links, "human": human.details.get("assertions", []) if human else [],
            "human_target": f"{sheet.path}/{HUMAN_FILE}", "unreadable": unreadable}


def _contact_words(sheet: Sheet) -> str:
    """The trial's further contact in words, with a reviewer's override carried in (as the
    acceptance criterion counts it) and never a bare "none" beside a trial a reviewer
    failed."""
    reasons, who = contact_reasons(sheet)
    mechanical = sheet.numbers.further_contact
    text = ("cannot be told" if reasons is None
            else ", ".join(r.replace("_", " ") for r in reasons) or "none")
    if who is not None:
        was = ("cannot be told" if mechanical is None
               else ", ".join(mechanical) or "none")
        return f"{text} (reviewer override of the waiting list; mechanical: {was})"
    failed_by = [c.name for c in sheet.components if c.override is not None
                 and c.status == "fail" and c.override.mechanical != "fail"]
    if failed_by and sheet.success is False and not reasons:
        return (f"{text} by the mechanical reading only; a reviewer failed this trial "
                f"({', '.join(failed_by)}), which does not say whether the customer must be "
                "contacted: an override of waiting_list carries that into the acceptance "
                "numbers")
    return text


def late_overrides(run_dir: Path, summary: RunSummary) -> list[ScoreOverride]:
    """Overrides recorded after the summary was scored (so its numbers lack them): each
    criterion's override in effect, when it is later than ``summary.scored_at`` (every one
    when the summary does not say when it was scored)."""
    effective = read_overrides(run_dir, summary.run_id).effective().values()
    if summary.scored_at is None:
        return list(effective) if summary.overrides.applied < len(effective) else []
    scored = _utc(summary.scored_at)
    return sorted((o for o in effective if _utc(o.at) > scored), key=lambda o: o.at)


def _utc(text: str) -> datetime:
    when = datetime.fromisoformat(text)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def staff_sources(summary: RunSummary) -> list[tuple[str, dict[ScoreSource, int]]]:
    """The staff-side components scored in the run, in sheet order, each with how many of its
    scores came from each source (the staff screen, the stores)."""
    return [(c.name, dict(summary.components[c.name].sources)) for c in REGISTRY
            if c.staff_reading and c.name in summary.components
            and summary.components[c.name].sources]


def _rescored_folder(run_dir: Path, name: str) -> Path:
    """``<run>/rescored/<name>``, which must hold a re-scored summary."""
    base = run_dir / RESCORED_DIR
    folder = base / name
    if ("/" in name or "\\" in name or name in ("", ".", "..")
            or not (folder / SUMMARY_FILE).is_file()):
        known = sorted(p.name for p in base.iterdir()) if base.is_dir() else []
        raise RunRecordError("no such re-scored version; known: " + (", ".join(known) or
                             "none (score --packs makes one)"), file=str(folder),
                             field="rescored")
    return folder


def write_report(run_dir: Path | str, out_dir: Path | str | None = None,
                 corpus_root: CorpusRoots = None, *, rescored: str | None = None) -> Path:
    """Write the report; return the path of its index.html. ``rescored``: the report of a
    re-scored version (a folder name of ``<run>/rescored/``; default out: its ``report``)."""
    run_dir = Path(run_dir).resolve()
    scoring_dir = _rescored_folder(run_dir, rescored) if rescored is not None else None
    out = (Path(out_dir).resolve() if out_dir
           else (scoring_dir or run_dir) / "report")
    run: RunRecord = load_run_record(run_dir)
    summary: RunSummary = (load_summary(run_dir, corpus_root) if scoring_dir is None
                           else read_model(RunSummary, scoring_dir / SUMMARY_FILE))
    sheets = load_sheets(run_dir, scoring_dir)
    (out / "packs").mkdir(parents=True, exist_ok=True)
    (out / "assets").mkdir(exist_ok=True)
    for name in ASSETS:
        shutil.copyfile(TEMPLATES / name, out / "assets" / name)
    env = _env()
    by_pack: dict[str, list[Sheet]] = {}
    for s in sheets:
        by_pack.setdefault(s.pack_id, []).append(s)
    common = {"run": run, "summary": summary, "agreement": load_agreement(run_dir)}
    failed = summary.scorable_trials - summary.successes
    ms = summary.mean_success
    verdict = {"failed": failed, "most_failed": failed * 2 > summary.scorable_trials > 0,
               "late_overrides": late_overrides(run_dir, summary),
               "mean_bound": degenerate_bound(ms.estimate, ms.low, ms.high,
                                              summary.scorable_trials)}
    pack_pages = {pid: f"packs/{pid}.html" for pid in by_pack}
    by_source = staff_sources(summary)
    (out / "index.html").write_text(
        env.get_template("index.html.j2").render(
            **common, **verdict, assets="assets",
            run_link=_rel(run_record_path(run_dir), out),
            summary_link=_rel(summary_path(scoring_dir or run_dir), out),
            charts=index_charts(summary, pack_pages, sheets),
            pack_pages=pack_pages, staff_sources=by_source,
            from_stores=any("stores" in counts for _, counts in by_source)),
        encoding="utf-8")
    page_dir = out / "packs"
    for p in summary.packs:
        trials = [_trial_view(run_dir, page_dir, s, scoring_dir)
                  for s in by_pack.get(p.pack_id, [])]
        (page_dir / f"{p.pack_id}.html").write_text(
            env.get_template("pack.html.j2").render(**common, assets="../assets", pack=p,
                                                    trials=trials, index="../index.html"),
            encoding="utf-8")
    return out / "index.html"
