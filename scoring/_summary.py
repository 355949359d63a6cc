"""``score_run``: score every trial of a run, write sheet.json per trial and summary.json."""

from __future__ import annotations

import os
import random
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from claims_corpus import corpus_identity, load_manifest, pack_file_hashes, pack_hash
from claims_corpus.formats import Labels, Manifest, id_prefix_of
from claims_records import (
    SHEET_FILE,
    SUMMARY_FILE,
    UNSCORABLE,
    AcceptanceConfig,
    ComponentCounts,
    CorpusSummary,
    ErrorCategory,
    InfraError,
    Interval,
    KStat,
    PackError,
    PackSummary,
    ReadingItem,
    RetriedTrial,
    ReviewCounts,
    RunRecord,
    RunRecordError,
    RunSummary,
    Sheet,
    SliceStat,
    read_acceptance,
    read_model,
    read_overrides,
    write_sheet,
    write_summary,
)

from ._acceptance import evaluate_acceptance, with_modelled_time
from ._overrides import apply_overrides, override_counts
from ._provenance import scorer_info
from ._record import (
    PackContext,
    load_human,
    load_labels,
    load_other_customer,
    load_pack_context,
    load_run_record,
    load_trial,
    session_mode_of,
)
from ._rescore import plan_rescore, rescored_dir
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

CorpusRoots = Path | str | Sequence[Path | str] | None


def _recorded_path(run_dir: Path, path: str) -> Path:
    root = Path(path)
    if not root.is_absolute() and not root.exists():
        root = Path(run_dir) / root
    return root


def corpus_roots_of(run: RunRecord, run_dir: Path, given: CorpusRoots = None
                    ) -> dict[str | None, Path]:
    """Each corpus's folder by id prefix, main corpus first: the folders given (their
    manifests name their prefixes), else those recorded in run.json. A run recorded with one
    corpus and no prefix maps None to it."""
    roots = [Path(given)] if isinstance(given, str | Path) else [Path(g) for g in given or ()]
    if roots:
        out: dict[str | None, Path] = {}
        for root in roots:
            manifest = Path(root) / "manifest.json"
            prefix = (read_model(Manifest, manifest, error=PackError).id_prefix
                      if manifest.is_file() else None)
            out[prefix] = root
        return out
    infos = run.corpora or [run.corpus]
    return {c.id_prefix: _recorded_path(run_dir, c.path) for c in infos}


def corpus_root_of(run: RunRecord, run_dir: Path, given: CorpusRoots = None
                   ) -> Callable[[str], Path]:
    """The corpus folder of each pack of a run, as a function of the pack id (the folders
    given, else those recorded in run.json; see ``corpus_roots_of``)."""
    roots = corpus_roots_of(run, run_dir, given)
    return lambda pack_id: _root_for(roots, pack_id)[1]


def _root_for(roots: dict[str | None, Path], pack_id: str) -> tuple[str | None, Path]:
    prefix = id_prefix_of(pack_id)
    if prefix in roots:
        return prefix, roots[prefix]
    if len(roots) == 1:
        return next(iter(roots.items()))
    raise PackError(f"no corpus folder for this pack's prefix {prefix!r}; give each corpus "
                    "with --corpus", pack=pack_id, field="corpus")


def score_run(run_dir: Path | str, corpus_root: CorpusRoots = None, *,
              seed: int = DEFAULT_SEED, resamples: int = DEFAULT_RESAMPLES,
              strict_fidelity: bool = False, packs: CorpusRoots = None) -> RunSummary:
    """Score a run folder. Writes only ``sheet.json`` per trial and ``summary.json``, with
    the reviewer overrides of the run's overrides.json applied.

    ``corpus_root``: the corpus folder(s) to read oracles from (default: those in run.json);
    ``strict_fidelity``: any fidelity finding makes the run invalid (for CI); ``packs``:
    re-score against these packs folders instead (a corrected oracle, see ``_rescore``): the
    sheets and summary then go to ``<run>/rescored/<oracle-id>/`` and the run's own stay.
    """
    run_dir = Path(run_dir)
    run = load_run_record(run_dir)
    roots = corpus_roots_of(run, run_dir, packs if packs else corpus_root)
    rescored = plan_rescore(run, run_dir, roots) if packs else None
    out_dir = rescored_dir(run_dir, rescored) if rescored is not None else run_dir
    effective = read_overrides(run_dir, run.run_id).effective()
    scorer = scorer_info()
    hashes = {c.id_prefix: c.hash for c in run.corpora}
    labels_cache: dict[str, Labels] = {}
    modes_cache: dict[str, str | None] = {}
    packs_cache: dict[str, PackContext] = {}
    main_root = next(iter(roots.values()))  # the main corpus: its baseline and acceptance
    other_customer = load_other_customer(main_root)
    acceptance, source = read_acceptance(main_root)
    sheets: list[Sheet] = []
    for entry in run.trials:
        pid = entry.pack_id
        prefix, root = _root_for(roots, pid)
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
        sheet = score_trial(record, labels_cache[pid], human, packs_cache[pid]).model_copy(
            update={"corpus": prefix, "scorer": scorer,
                    "corpus_hash": hashes.get(prefix, run.corpus.hash),
                    "oracle_hash": (pack_hash(pack_file_hashes(root / pid))
                                    if rescored is not None else None)})
        sheet = apply_overrides(with_modelled_time(sheet, acceptance), effective)
        if tdir.is_dir():  # a trial that never got a folder keeps none
            (out_dir / entry.path).mkdir(parents=True, exist_ok=True)
            write_sheet(out_dir / entry.path, sheet)
        sheets.append(sheet)
    summary = summarise(run, sheets, seed=seed, resamples=resamples, acceptance=acceptance,
                        acceptance_source=source, strict_fidelity=strict_fidelity).model_copy(
        update={"scorer": scorer, "scored_at": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "overrides": override_counts(sheets, effective), "rescored": rescored})
    summary = with_pack_hashes(summary, run, roots)
    keep_previous_summary(out_dir, summary)
    write_summary(out_dir, summary)
    return summary


def with_pack_hashes(summary: RunSummary, run: RunRecord,
                     roots: dict[str | None, Path]) -> RunSummary:
    """The summary with each pack's hash from its corpus manifest, for the corpora whose
    manifest still holds what the run was driven with (its hash equals run.json's)."""
    recorded = {c.id_prefix: c.hash for c in run.corpora or [run.corpus]}
    hashes: dict[str, str] = {}
    for prefix, root in roots.items():
        if not (Path(root) / "manifest.json").is_file():
            continue
        _, now = corpus_identity(root)
        if now == recorded.get(prefix, run.corpus.hash):
            hashes |= {pid: e.hash for pid, e in load_manifest(root).packs.items()}
    packs = [p.model_copy(update={"pack_hash": hashes.get(p.pack_id)}) for p in summary.packs]
    return summary.model_copy(update={"packs": packs})


def keep_previous_summary(run_dir: Path, new: RunSummary) -> Path | None:
    """Before a re-score replaces summary.json, keep the old one beside it as
    ``summary.previous-<n>.json`` (unless it says exactly what the new one says)."""
    path = run_dir / SUMMARY_FILE
    if not path.exists():
        return None
    old_text = path.read_text(encoding="utf-8")
    try:
        old = RunSummary.model_validate_json(old_text)
    except ValueError:
        old = None  # unreadable or of an older format: kept as it is
    if old is not None and old.model_copy(update={"scored_at": None}) == new.model_copy(
            update={"scored_at": None}):
        return None
    n = 1
    while (kept := run_dir / f"summary.previous-{n}.json").exists():
        n += 1
    os.replace(path, kept)
    return kept


def load_sheets(run_dir: Path | str, scoring_dir: Path | str | None = None) -> list[Sheet]:
    """The sheets a previous ``score_run`` wrote, in run.json order (``scoring_dir``: a
    re-scored folder's, ``<run>/rescored/<oracle-id>``; default the run's own)."""
    run_dir = Path(run_dir)
    run = load_run_record(run_dir)
    base = Path(scoring_dir) if scoring_dir is not None else run_dir
    out = []
    for entry in run.trials:
        path = base / entry.path / SHEET_FILE
        if not (run_dir / entry.path).is_dir():  # a trial that never got a folder
            continue
        if not path.exists():
            raise RunRecordError("trial not scored yet; run `claims-harness score` first",
                                 run=run.run_id, pack=entry.pack_id, trial=entry.trial,
                                 file=str(path))
        out.append(read_model(Sheet, path))
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
        rows = ([c for c in checks.values() if isinstance(c, dict)]
                if isinstance(checks, dict) else [])
        rc.not_checked_expected += sum(1 for c in rows if c["expected"] == "not_checked")
        rc.not_checked_read_as_clear += sum(
            1 for c in rows if c["expected"] == "not_checked" and c["shown"] == "clear")
        rc.wrong_check_outcomes += sum(1 for c in rows if not c["ok"])
    return rc


def _pack_summary(pid: str, sheets: list[Sheet]) -> PackSummary:
    first = sheets[0]
    scored = [s for s in sheets if s.scorable]
    n, c = len(scored), sum(1 for s in scored if s.success)
    durations = [s.numbers.duration_s for s in sheets if s.numbers.duration_s is not None]
    costs = [s.numbers.cost_usd for s in sheets if s.numbers.cost_usd is not None]
    turns = [s.numbers.median_turn_s for s in scored if s.numbers.median_turn_s is not None]
    return PackSummary(
        pack_id=pid, corpus=first.corpus, line=first.line, scenario=first.scenario,
        message_style=first.message_style,
        session_mode=first.session_mode, innocent_control=first.innocent_control,
        review_required=first.review_required, trials=len(sheets), n=n, c=c,
        success_rate=c / n if n else None,
        errors=dict(Counter(s.error_category for s in sheets if not s.scorable)),
        k_stats=[KStat(k=k, pass_at_k=pass_at_k(n, c, k), pass_hat_k=pass_hat_k(n, c, k))
                 for k in range(1, n + 1)],
        mean_duration_s=mean(durations),
        mean_report_modelled_s=mean([s.numbers.report_modelled_s for s in scored
                                     if s.numbers.report_modelled_s is not None]),
        mean_cost_usd=mean(costs),
        total_cost_usd=sum(costs) if costs else None,
        median_turn_s=statistics.median(turns) if turns else None,
        failure_modes=dict(sorted(Counter(m for s in scored for m in s.failure_modes).items())),
    )


def _slices(packs: list[PackSummary]) -> dict[str, dict[str, SliceStat]]:
    dims: dict[str, Callable[[PackSummary], str]] = {
        "line": lambda p: p.line,
        "flagged_vs_innocent": lambda p: ("innocent_control" if p.innocent_control else
                                          "review_required" if p.review_required else "plain"),
        "message_style": lambda p: p.message_style,
        "session_mode": lambda p: p.session_mode or "unknown",
        "corpus": lambda p: p.corpus or "unknown",
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


def _interval(packs: list[PackSummary], seed: int, resamples: int) -> Interval:
    """Mean success over packs with its seeded cluster-bootstrap interval."""
    rates = [p.success_rate for p in packs if p.success_rate is not None]
    too_thin = len(rates) < MIN_PACKS_FOR_CI
    low = high = None
    if rates and not too_thin:
        low, high = cluster_bootstrap_ci(rates, random.Random(seed), resamples)
    return Interval(estimate=mean(rates), low=low, high=high, seed=seed, resamples=resamples,
                    packs=len(rates), too_thin=too_thin)


def _corpus_summaries(run: RunRecord, sheets: list[Sheet], packs: list[PackSummary],
                      seed: int, resamples: int) -> list[CorpusSummary]:
    out = []
    infos = run.corpora or [run.corpus]
    for info in infos:
        def ours(corpus: str | None, prefix: str | None = info.id_prefix) -> bool:
            return len(infos) == 1 or corpus == prefix

        mine = [s for s in sheets if ours(s.corpus)]
        scored = [s for s in mine if s.scorable]
        ps = [p for p in packs if ours(p.corpus)]
        out.append(CorpusSummary(
            id_prefix=info.id_prefix, name=info.name, version=info.version, hash=info.hash,
            path=info.path, packs=len(ps), trials=len(mine), scorable_trials=len(scored),
            successes=sum(1 for s in scored if s.success),
            mean_success=_interval(ps, seed, resamples),
            review=_review_counts([s for s in scored if not s.innocent_control]),
            innocent_controls=_review_counts([s for s in scored if s.innocent_control]),
            failure_modes=dict(sorted(Counter(m for s in scored
                                              for m in s.failure_modes).items()))))
    return out


def summarise(run: RunRecord, sheets: list[Sheet], *, seed: int = DEFAULT_SEED,
              resamples: int = DEFAULT_RESAMPLES, acceptance: AcceptanceConfig | None = None,
              acceptance_source: str = "defaults from the standard",
              strict_fidelity: bool = False) -> RunSummary:
    """Statistics over the sheets of one run (pure): overall and per corpus; ``acceptance``:
    the thresholds of acceptance.toml (default: the standard's)."""
    by_pack: dict[str, list[Sheet]] = defaultdict(list)
    for s in sheets:
        by_pack[s.pack_id].append(s)
    packs = [_pack_summary(pid, ss) for pid, ss in sorted(by_pack.items())]
    interval = _interval(packs, seed, resamples)
    scored = [s for s in sheets if s.scorable]
    components: dict[str, ComponentCounts] = defaultdict(ComponentCounts)
    for s in sheets:
        for c in s.components:
            counts = components[c.name]
            status = c.status if s.scorable else "not_scored"  # suspect trials: shown only
            attr = {"pass": "passed", "fail": "failed"}.get(status, status)
            setattr(counts, attr, getattr(counts, attr) + 1)
            if status in ("pass", "fail") and c.source is not None:
                counts.sources[c.source] = counts.sources.get(c.source, 0) + 1
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
    if run.customer.dialect:
        customer += f", {run.customer.dialect}"
    if run.customer.prompt_view == "wide":
        customer += " [wide prompt view]"
    return RunSummary(
        run_id=run.run_id, self_test=run.self_test, labels=list(run.labels),
        corpus_version=run.corpus.version,
        corpus_hash=run.corpus.hash, product_runtime=run.product.runtime + (
            " (declared, not reported)" if run.product.runtime_source == "declared" else ""),
        faults=run_faults(run), customer=customer,
        trials=len(sheets), scorable_trials=len(scored),
        successes=sum(1 for s in scored if s.success),
        infrastructure_errors=errors,
        unscorable=damaged,
        errors_by_category=dict(Counter(e.category for e in errors + damaged)),
        retried=[RetriedTrial(pack_id=t.pack_id, trial=t.trial, path=t.path,
                              attempts=t.attempts,
                              earlier=[a.status.value for a in t.earlier_attempts])
                 for t in run.trials if t.attempts > 1],
        not_implemented_trials=[e for e in unscored if e.category == "not_implemented"],
        mean_success=interval, packs=packs,
        corpora=_corpus_summaries(run, sheets, packs, seed, resamples),
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
