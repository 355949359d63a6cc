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
from typing import Annotated, Any

import typer

from ._errors import reported_errors
from ._stop import sigterm_as_interrupt

selftest_app = typer.Typer(help="Self-tests of the harness against planted defects.",
                           no_args_is_help=True)
PANEL_FILE = "defect-panel.json"
DEFAULT_PACKS_PER_FAULT = 2
LINE_ORDER = ("motor", "home", "contents")
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
    packs_per_fault: Annotated[int, typer.Option(
        min=1, help="Run each fault on this many of the packs it can show on (packs that "
        "fit many faults first, so the clean run stays small).")] = DEFAULT_PACKS_PER_FAULT,
    all_packs: Annotated[bool, typer.Option(
        "--all-packs", help="Run each fault on every pack it can show on (the whole corpus: "
        "its cost is printed before it starts).")] = False,
    lanes: Annotated[int, typer.Option(min=1, help="Lanes per run.")] = 1,
    turn_limit: Annotated[int, typer.Option(min=1, help="Most customer actions per trial.")]
    = 40,
    browser_executable: Annotated[str | None, typer.Option(
        help="Chromium to launch (default: as for run).")]
    = None,
) -> None:
    """Run the planted-defect panel; exit 1 unless every fault is caught with its own label
    on at least one pack and the clean run has no false alarm. Ctrl-C or SIGTERM stops the
    panel's app and stores and exits 130."""
    import harness
    from claims_reference_app import FAULTS

    unknown = sorted(set(fault) - set(FAULTS))
    if unknown:
        raise typer.BadParameter(f"unknown fault(s) {', '.join(unknown)}; known: "
                                 f"{', '.join(FAULTS)}", param_hint="--fault")
    chosen = list(dict.fromkeys(fault)) or list(FAULTS)
    panel_id = panel_id or "defects-" + harness.new_run_id()
    panel_dir = runs_dir / panel_id
    try:
        with reported_errors(), sigterm_as_interrupt():
            panel, lines = _play(packs, pack, chosen, panel_dir, packs_per_fault, all_packs,
                                 lanes, turn_limit, browser_executable)
    except KeyboardInterrupt:
        typer.secho(f"interrupted; exit code 130; the panel's app and stores are stopped; "
                    f"{panel_dir} keeps the runs that finished", err=True,
                    fg=typer.colors.YELLOW)
        raise typer.Exit(130) from None
    for line in lines:
        typer.echo(line)
    typer.echo(f"wrote {panel_dir / PANEL_FILE}")
    if not panel.passed:
        raise typer.Exit(1)


def _play(packs: Path, pack: list[str], chosen: list[str], panel_dir: Path,
          packs_per_fault: int, all_packs: bool, lanes: int, turn_limit: int,
          browser_executable: str | None) -> tuple[Any, list[str]]:
    """Pick the packs, run the clean run and one run per fault, score them and write the
    matrix; returns the panel and its lines."""
    import claims_corpus
    import claims_dev
    import claims_records
    import harness
    import scoring
    from claims_records import BrowserConfig, DevConfig, RunConfig
    from claims_reference_app import FAULTS

    panel_id = panel_dir.name
    if panel_dir.exists():
        raise claims_records.RunRecordError("a panel with this id exists",
                                            file=str(panel_dir))
    version, _ = claims_corpus.corpus_identity(packs)
    selected = (list(dict.fromkeys(pack))
                or [p.name for p in claims_corpus.list_packs(packs)])
    manifest = claims_corpus.load_manifest(packs)
    fitting = {f: _applicable(packs, manifest, selected, FAULTS[f],
                              _with_decision(packs, selected, FAULTS[f].decisions))
               for f in chosen}
    idle = [f for f, ps in fitting.items() if not ps]
    if idle:
        raise typer.BadParameter(f"no selected pack can show {', '.join(idle)}",
                                 param_hint="--pack")
    targets = _sample(fitting, None if all_packs else packs_per_fault,
                      {p: e.line for p, e in manifest.packs.items()})
    clean_packs = sorted(set().union(*targets.values()))
    trials = len(clean_packs) + sum(len(ps) for ps in targets.values())
    scope = ("every pack each fault can show on" if all_packs else
             f"{packs_per_fault} pack(s) per fault; --all-packs for every one")
    typer.echo(f"panel: {len(chosen)} fault(s) on {trials - len(clean_packs)} trial(s) "
               f"and a clean run of {len(clean_packs)}: about "
               f"{_minutes(trials, len(chosen) + 1)} min on an idle two-core machine "
               f"({scope})")
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

        clean = one("clean", [], clean_packs)
        rows = [(f, FAULTS[f].effect, FAULTS[f].failure_mode, one(f, [f], targets[f]))
                for f in chosen]
    panel = scoring.defect_panel(panel_id, version, clean, rows)
    (panel_dir / PANEL_FILE).write_text(panel.model_dump_json(indent=2) + "\n",
                                        encoding="utf-8")
    lines = scoring.matrix_lines(panel)
    (panel_dir / MATRIX_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return panel, lines


def _applicable(packs: Path, manifest, selected: list[str], fault,
                decided: list[str] | None = None) -> list[str]:
    """The selected packs a fault can show on: by the manifest (review_required, pressure
    kinds, has_not_checked, has_explanation), by the pack's oracle and customer view (a fact
    the oracle expects, a fact the customer does not know, a check that is clear, a file to
    upload), and for a fault of staff decisions, ``decided`` (the packs whose staff script
    takes one of its decisions)."""
    import claims_corpus

    def fits(p: str) -> bool:
        entry = manifest.packs.get(p)
        if entry is None:
            if (fault.needs_pressure is not None or fault.needs_not_checked
                    or fault.needs_explanation):
                return False
        elif not ((fault.needs_review is None or entry.review_required == fault.needs_review)
                  and (fault.needs_pressure is None or fault.needs_pressure in entry.pressure)
                  and (not fault.needs_not_checked or entry.has_not_checked)
                  and (not fault.needs_explanation or entry.has_explanation)):
            return False
        labels = claims_corpus.load_labels(packs / p)
        view = claims_corpus.load_customer_view(packs / p)
        known = {f.key for f in view.facts}
        return ((fault.needs_expected_fact is None
                 or fault.needs_expected_fact in labels.expected_facts)
                and (fault.needs_fact_unknown_to_customer is None
                     or fault.needs_fact_unknown_to_customer not in known)
                and (fault.needs_check_clear is None
                     or labels.review.checks.get(fault.needs_check_clear) == "clear")
                and (not fault.needs_upload or bool(view.materials)))

    fit = [p for p in selected if fits(p)]
    if decided is not None:
        fit = [p for p in fit if p in decided]
    return fit


def _sample(fitting: dict[str, list[str]], per_fault: int | None,
            line_of: dict[str, str]) -> dict[str, list[str]]:
    """``per_fault`` packs for each fault (all of them when None): one line of business after
    another (motor, home, contents, as ``line_of`` says), and within a line the pack that fits
    the most faults first, so the faults share packs and the clean run stays small."""
    if per_fault is None:
        return fitting
    reach: dict[str, int] = {}
    for ps in fitting.values():
        for p in ps:
            reach[p] = reach.get(p, 0) + 1
    lines = sorted({line_of.get(p, "") for ps in fitting.values() for p in ps},
                   key=lambda line: (line not in LINE_ORDER, LINE_ORDER.index(line)
                                     if line in LINE_ORDER else 0, line))
    out: dict[str, list[str]] = {}
    for fault, ps in fitting.items():
        ranked = {line: sorted((p for p in ps if line_of.get(p, "") == line),
                               key=lambda p: (-reach[p], p)) for line in lines}
        chosen: list[str] = []
        while len(chosen) < min(per_fault, len(ps)):
            for line in lines:
                if ranked[line] and len(chosen) < per_fault:
                    chosen.append(ranked[line].pop(0))
        out[fault] = sorted(chosen)
    return out


def _minutes(trials: int, runs: int) -> int:
    """A rough duration: about 5 s a trial and 10 s to start each run's app, on an idle
    two-core machine (docs/defect-panel.md); at least one minute."""
    return max(1, round((trials * 5 + runs * 10) / 60))


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
