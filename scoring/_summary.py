"""``score_run``: score every trial of a run, write sheet.json per trial and summary.json."""

from __future__ import annotations

import itertools
import os
import random
import statistics
from collections import Counter, defaultdict
from pathlib import Path

from pydantic import BaseModel

from corpus.errors import RunRecordError
from corpus.formats import (
    UNSCORABLE,
    AcceptanceConfig,
    ErrorCategory,
    Labels,
    RunRecord,
    RunSummary,
    Sheet,
)
from corpus.formats.sheet import (
    ComponentCounts,
    InfraError,
    Interval,
    KStat,
    PackSummary,
    ReadingItem,
    ReviewCounts,
    SliceStat,
)

from ._acceptance import evaluate_acceptance
from ._record import (
    SHEET_FILE,
    SUMMARY_FILE,
    PackContext,
    load_acceptance,
    load_human,
    load_labels,
    load_other_customer,
    load_pack_context,
    load_run_record,
    load_trial,
    parse_model,
    session_mode_of,
)
from ._sheet import score_trial
from ._stats import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MIN_PACKS_FOR_CI,
    cluster_bootstrap_ci,
    mean,
    pass_at_k,
    pass_hat_k,
)
from .fidelity import fidelity_summary

_SERIAL = itertools.count()


def write_json_atomic(path: Path, model: BaseModel) -> None:
    """Write a model as JSON via a temporary file in the same folder and ``os.replace``."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{next(_SERIAL)}.tmp")
    try:
        with open(tmp, "x", encoding="utf-8") as fh:
            fh.write(model.model_dump_json(indent=2))
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def corpus_root_of(run: RunRecord, run_dir: Path, corpus_root: Path | None) -> Path:
    if corpus_root is not None:
        return Path(corpus_root)
    root = Path(run.corpus.path)
    if not root.is_absolute() and not root.exists():
        root = Path(run_dir) / root
    return root


def score_run(run_dir: Path | str, corpus_root: Path | str | None = None, *,
              seed: int = DEFAULT_SEED, resamples: int = DEFAULT_RESAMPLES,
              strict_fidelity: bool = False) -> RunSummary:
    """Score a run folder. Writes only ``sheet.json`` per trial and ``summary.json``.

    ``strict_fidelity``: any fidelity finding makes the run invalid (for CI).
    """
    run_dir = Path(run_dir)
    run = load_run_record(run_dir)
    root = corpus_root_of(run, run_dir, Path(corpus_root) if corpus_root else None)
    labels_cache: dict[str, Labels] = {}
    modes_cache: dict[str, str | None] = {}
    packs_cache: dict[str, PackContext] = {}
    other_customer = load_other_customer(root)
    acceptance, source = load_acceptance(root)
    sheets: list[Sheet] = []
    for entry in run.trials:
        pid = entry.pack_id
        if pid not in labels_cache:
            labels_cache[pid] = load_labels(root, pid)
            modes_cache[pid] = session_mode_of(root, pid)
            packs_cache[pid] = load_pack_context(root, pid, other_customer)
        tdir = run_dir / entry.path
        record = load_trial(run, run_dir, entry, modes_cache[pid])
        try:
            human = load_human(tdir, run=run.run_id, pack=pid, trial=entry.trial)
        except RunRecordError as exc:
            human = None
            record.damage.append(f"human.json is unreadable: {exc.message}")
        sheet = score_trial(record, labels_cache[pid], human, packs_cache[pid])
        if tdir.is_dir():  # a trial that never got a folder keeps none
            write_json_atomic(tdir / SHEET_FILE, sheet)
        sheets.append(sheet)
    summary = summarise(run, sheets, seed=seed, resamples=resamples, acceptance=acceptance,
                        acceptance_source=source, strict_fidelity=strict_fidelity)
    write_json_atomic(run_dir / SUMMARY_FILE, summary)
    return summary


def load_sheets(run_dir: Path | str) -> list[Sheet]:
    """The sheets a previous ``score_run`` wrote, in run.json order."""
    run_dir = Path(run_dir)
    run = load_run_record(run_dir)
    out = []
    for entry in run.trials:
        path = run_dir / entry.path / SHEET_FILE
        if not path.parent.is_dir():
            continue
        if not path.exists():
            raise RunRecordError("trial not scored yet; run `claims-harness score` first",
                                 run=run.run_id, pack=entry.pack_id, trial=entry.trial,
                                 file=str(path))
        out.append(parse_model(Sheet, path))
    return out


def _review_counts(sheets: list[Sheet]) -> ReviewCounts:
    rc = ReviewCounts()
    for s in sheets:
        comp = next((c for c in s.components if c.name == "review"), None)
        if comp is None or comp.status not in ("pass", "fail") or "fired" not in comp.details:
            continue
        fired, expected = comp.details["fired"], comp.details["expected"]
        rc.trials += 1
        if fired and expected:
            rc.true_positive += 1
        elif fired:
            rc.false_positive += 1
        elif expected:
            rc.false_negative += 1
        else:
            rc.true_negative += 1
        checks = comp.details.get("checks", {})
        rc.not_checked_expected += sum(1 for c in checks.values() if c["expected"] == "not_checked")
        rc.not_checked_read_as_clear += sum(
            1 for c in checks.values() if c["expected"] == "not_checked" and c["shown"] == "clear")
        rc.wrong_check_outcomes += sum(1 for c in checks.values() if not c["ok"])
    return rc


def _pack_summary(pid: str, sheets: list[Sheet]) -> PackSummary:
    first = sheets[0]
    scored = [s for s in sheets if s.scorable]
    n, c = len(scored), sum(1 for s in scored if s.success)
    durations = [s.numbers.duration_s for s in sheets if s.numbers.duration_s is not None]
    costs = [s.numbers.cost_usd for s in sheets if s.numbers.cost_usd is not None]
    turns = [s.numbers.median_turn_s for s in scored if s.numbers.median_turn_s is not None]
    return PackSummary(
        pack_id=pid, line=first.line, scenario=first.scenario, message_style=first.message_style,
        session_mode=first.session_mode, innocent_control=first.innocent_control,
        review_required=first.review_required, trials=len(sheets), n=n, c=c,
        success_rate=c / n if n else None,
        errors=dict(Counter(s.error_category for s in sheets if not s.scorable)),
        k_stats=[KStat(k=k, pass_at_k=pass_at_k(n, c, k), pass_hat_k=pass_hat_k(n, c, k))
                 for k in range(1, n + 1)],
        mean_duration_s=mean(durations),
        mean_cost_usd=mean(costs),
        total_cost_usd=sum(costs) if costs else None,
        median_turn_s=statistics.median(turns) if turns else None,
        failure_modes=dict(sorted(Counter(m for s in scored for m in s.failure_modes).items())),
    )


def _slices(packs: list[PackSummary]) -> dict[str, dict[str, SliceStat]]:
    dims = {
        "line": lambda p: p.line,
        "flagged_vs_innocent": lambda p: ("innocent_control" if p.innocent_control else
                                          "review_required" if p.review_required else "plain"),
        "message_style": lambda p: p.message_style,
        "session_mode": lambda p: p.session_mode or "unknown",
    }
    out: dict[str, dict[str, SliceStat]] = {}
    for dim, key in dims.items():
        groups: dict[str, list[PackSummary]] = defaultdict(list)
        for p in packs:
            groups[key(p)].append(p)
        out[dim] = {
            value: SliceStat(
                packs=len(ps), trials=sum(p.n for p in ps), successes=sum(p.c for p in ps),
                mean_success=mean([p.success_rate for p in ps if p.success_rate is not None]),
            )
            for value, ps in sorted(groups.items())
        }
    return out


def run_faults(run: RunRecord) -> list[str]:
    """The fault switches a run's product reported (run.json; older records: the runtime
    report)."""
    if run.product.faults:
        return list(run.product.faults)
    faults = run.product.runtime_report.get("faults")
    return sorted(str(f) for f in faults) if isinstance(faults, list) else []


def summarise(run: RunRecord, sheets: list[Sheet], *, seed: int = DEFAULT_SEED,
              resamples: int = DEFAULT_RESAMPLES, acceptance: AcceptanceConfig | None = None,
              acceptance_source: str = "defaults from the standard",
              strict_fidelity: bool = False) -> RunSummary:
    """Statistics over the sheets of one run (pure); ``acceptance``: the thresholds of
    acceptance.toml (default: the standard's)."""
    by_pack: dict[str, list[Sheet]] = defaultdict(list)
    for s in sheets:
        by_pack[s.pack_id].append(s)
    packs = [_pack_summary(pid, ss) for pid, ss in sorted(by_pack.items())]
    rates = [p.success_rate for p in packs if p.success_rate is not None]
    too_thin = len(rates) < MIN_PACKS_FOR_CI
    low = high = None
    if rates and not too_thin:
        low, high = cluster_bootstrap_ci(rates, random.Random(seed), resamples)
    interval = Interval(estimate=mean(rates), low=low, high=high, seed=seed,
                        resamples=resamples, packs=len(rates), too_thin=too_thin)
    scored = [s for s in sheets if s.scorable]
    components: dict[str, ComponentCounts] = defaultdict(ComponentCounts)
    for s in sheets:
        for c in s.components:
            counts = components[c.name]
            status = c.status if s.scorable else "not_scored"  # suspect trials: shown only
            attr = {"pass": "passed", "fail": "failed"}.get(status, status)
            setattr(counts, attr, getattr(counts, attr) + 1)
    unscored = [InfraError(pack_id=s.pack_id, trial=s.trial, path=s.path,
                           status=s.trial_status, category=s.error_category,
                           detail="; ".join(s.damage) if s.damage else s.explanation)
                for s in sheets if not s.scorable]
    # not implemented, damaged and simulator-suspect trials are shown apart, not as errors
    shown_elsewhere = ("not_implemented", UNSCORABLE, ErrorCategory.SIMULATOR_SUSPECT.value)
    errors = [e for e in unscored if e.category not in shown_elsewhere]
    damaged = [e for e in unscored if e.category == UNSCORABLE]
    durations = [s.numbers.duration_s for s in sheets if s.numbers.duration_s is not None]
    costs = [s.numbers.cost_usd for s in sheets if s.numbers.cost_usd is not None]
    customer = run.customer.kind + (f" {run.customer.model}" if run.customer.model else "")
    if run.customer.prompt_view == "wide":
        customer += " [wide prompt view]"
    return RunSummary(
        run_id=run.run_id, self_test=run.self_test, labels=list(run.labels),
        corpus_version=run.corpus.version,
        corpus_hash=run.corpus.hash, product_runtime=run.product.runtime,
        faults=run_faults(run), customer=customer,
        trials=len(sheets), scorable_trials=len(scored),
        successes=sum(1 for s in scored if s.success),
        infrastructure_errors=errors,
        unscorable=damaged,
        errors_by_category=dict(Counter(e.category for e in errors + damaged)),
        not_implemented_trials=[e for e in unscored if e.category == "not_implemented"],
        mean_success=interval, packs=packs,
        review=_review_counts([s for s in scored if not s.innocent_control]),
        innocent_controls=_review_counts([s for s in scored if s.innocent_control]),
        slices=_slices(packs),
        components={k: components[k] for k in sorted(components)},
        failure_modes=dict(sorted(Counter(m for s in scored for m in s.failure_modes).items())),
        reading_list=[ReadingItem(pack_id=s.pack_id, trial=s.trial, path=s.path,
                                  explanation=s.explanation, failure_modes=s.failure_modes)
                      for s in scored if not s.success],
        total_duration_s=sum(durations) if durations else None,
        total_cost_usd=sum(costs) if costs else None,
        acceptance=evaluate_acceptance(sheets, acceptance or AcceptanceConfig(),
                                       acceptance_source, seed=seed, resamples=resamples),
        fidelity=fidelity_summary(sheets, strict_fidelity),
    )
