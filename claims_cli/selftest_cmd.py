"""Commands: selftest defects — the planted-defect panel.

Runs the corpus (or the packs given) against the reference app once per fault switch, on the
packs the fault can show on (a fault of the review signal only where review is or is not
needed), and once clean on all of them; each is an ordinary run record in one panel folder.
Scores every run and prints the detection matrix (``scoring.defect_panel``): fault -> packs
detected -> label matches, and false alarms on the clean run.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from ._errors import reported_errors

selftest_app = typer.Typer(help="Self-tests of the harness against planted defects.",
                           no_args_is_help=True)
PANEL_FILE = "defect-panel.json"
MATRIX_FILE = "defect-panel.md"


@selftest_app.command("defects")
def defects(
    packs: Annotated[Path, typer.Option(help="Corpus folder.")] = Path("packs"),
    pack: Annotated[list[str], typer.Option(
        "--pack", help="Pack id to run (repeatable; default all).")] = [],  # noqa: B006
    fault: Annotated[list[str], typer.Option(
        "--fault", help="Fault switch to test (repeatable; default every one).")] = [],  # noqa: B006
    runs_dir: Annotated[Path, typer.Option(help="Where the panel folder goes.")] = Path("runs"),
    panel_id: Annotated[str | None, typer.Option(help="Panel folder name.")] = None,
    packs_per_fault: Annotated[int | None, typer.Option(
        min=1, help="Run each fault on at most this many of the packs it can show on "
        "(default: all of them).")] = None,
    lanes: Annotated[int, typer.Option(min=1, help="Lanes per run.")] = 1,
    turn_limit: Annotated[int, typer.Option(min=1, help="Most customer actions per trial.")]
    = 40,
    browser_executable: Annotated[str | None, typer.Option(
        help="Chromium to launch (default: as for run).")]
    = None,
) -> None:
    """Run the planted-defect panel; exit 1 unless every fault is caught with its own label
    on at least one pack and the clean run has no false alarm."""
    import claims_corpus
    import claims_dev
    import claims_records
    import harness
    import scoring
    from claims_records import BrowserConfig, DevConfig, RunConfig
    from claims_reference_app import FAULTS

    unknown = sorted(set(fault) - set(FAULTS))
    if unknown:
        raise typer.BadParameter(f"unknown fault(s) {', '.join(unknown)}; known: "
                                 f"{', '.join(FAULTS)}", param_hint="--fault")
    chosen = list(dict.fromkeys(fault)) or list(FAULTS)
    panel_id = panel_id or "defects-" + harness.new_run_id()
    panel_dir = runs_dir / panel_id
    with reported_errors():
        if panel_dir.exists():
            raise claims_records.RunRecordError("a panel with this id exists", file=str(panel_dir))
        version, _ = claims_corpus.corpus_identity(packs)
        selected = list(dict.fromkeys(pack)) or [p.name for p in claims_corpus.list_packs(packs)]
        manifest = claims_corpus.load_manifest(packs)
        targets = {f: _applicable(manifest, selected, FAULTS[f], packs_per_fault,
                                  _with_decision(packs, selected, FAULTS[f].decisions))
                   for f in chosen}
        idle = [f for f, ps in targets.items() if not ps]
        if idle:
            raise typer.BadParameter(f"no selected pack can show {', '.join(idle)}",
                                     param_hint="--pack")
        profile = harness.load_profile("reference")
        with claims_dev.start_stores(log_dir=_mkdir(panel_dir / "logs")) as stores:
            def one(name: str, faults: list[str], run_packs: list[str]) -> scoring.PanelRun:
                t0 = time.monotonic()
                with claims_dev.start_dev(lanes=lanes, app=True, faults=faults,
                                    mongo_uri=stores.mongo_uri, s3=stores.s3,
                                    baseline_path=packs / "baseline.json",
                                    log_dir=_mkdir(panel_dir / "logs" / name)) as env:
                    config = RunConfig(
                        corpora=[str(packs)], packs=run_packs, trials=1, turn_limit=turn_limit,
                        dev=DevConfig(faults=faults), panel=panel_id,
                        browser=BrowserConfig(executable=browser_executable))
                    ctx = harness.RunContext(
                        profile=profile.with_lanes([
                            harness.Lane(name=ln.name, base_url=ln.base_url or "",
                                         seed_url=ln.seed_url, database=ln.database)
                            for ln in env.lanes]),
                        runs_dir=panel_dir, run_id=name, seed_token=env.seed_token)
                    _, run_dir = harness.run(config, ctx)
                scoring.score_run(run_dir, packs)
                seconds = round(time.monotonic() - t0, 1)
                typer.echo(f"{name}: scored in {seconds:.0f} s")
                return scoring.PanelRun(name, scoring.load_sheets(run_dir), seconds)

            clean = one("clean", [], sorted(set().union(*targets.values())))
            rows = [(f, FAULTS[f].effect, FAULTS[f].failure_mode, one(f, [f], targets[f]))
                    for f in chosen]
        panel = scoring.defect_panel(panel_id, version, clean, rows)
        (panel_dir / PANEL_FILE).write_text(panel.model_dump_json(indent=2) + "\n",
                                            encoding="utf-8")
        lines = scoring.matrix_lines(panel)
        (panel_dir / MATRIX_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    for line in lines:
        typer.echo(line)
    typer.echo(f"wrote {panel_dir / PANEL_FILE}")
    if not panel.passed:
        raise typer.Exit(1)


def _applicable(manifest, selected: list[str], fault, limit: int | None,
                decided: list[str] | None = None) -> list[str]:
    """The selected packs a fault can show on (by the manifest's review_required, pressure
    kinds, has_not_checked and has_explanation, and for a fault of staff decisions,
    ``decided``: the packs whose staff script takes one of its decisions), at most ``limit``
    of them."""
    def fits(p: str) -> bool:
        entry = manifest.packs.get(p)
        if entry is None:
            return (fault.needs_pressure is None and not fault.needs_not_checked
                    and not fault.needs_explanation)
        return ((fault.needs_review is None or entry.review_required == fault.needs_review)
                and (fault.needs_pressure is None or fault.needs_pressure in entry.pressure)
                and (not fault.needs_not_checked or entry.has_not_checked)
                and (not fault.needs_explanation or entry.has_explanation))
    fit = [p for p in selected if fits(p)]
    if decided is not None:
        fit = [p for p in fit if p in decided]
    return fit[:limit] if limit else fit


def _with_decision(packs: Path, selected: list[str], decisions: tuple[str, ...] | None
                   ) -> list[str] | None:
    """The selected packs whose staff script takes one of ``decisions`` (None: any pack)."""
    import claims_corpus

    if decisions is None:
        return None
    out = []
    for p in selected:
        script = claims_corpus.load_setup(packs / p).staff_script
        if script is not None and script.decision in decisions:
            out.append(p)
    return out


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def register(app: typer.Typer) -> None:
    """Add this module's commands to the application."""
    app.add_typer(selftest_app, name="selftest")
