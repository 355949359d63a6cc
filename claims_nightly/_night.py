"""One night: run → score → report → gate → compare with the baseline → history → one exit
code (``ExitCode``: 0 ok, 1 regression or gate failure, 3 the night could not be judged; a
configuration refused before the night starts is 2, from the command line).

On several machines each runs its shard (``--shard i/n``, writing
``<night-id>.shard-i-of-n``) and one of them then merges, judges and records the night
(``--merge-shards``). A night id that already has a run record is finished (if interrupted)
and judged again, never run twice.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from claims_records import (
    AcceptanceOutcome,
    ComparisonOutcome,
    ConfigError,
    ExitCode,
    GateOutcome,
    HarnessError,
    NightEntry,
    NightOutcome,
    RunRecord,
    RunSummary,
    TrialStatus,
    find_run_record,
    is_run_folder,
)

from ._baseline import compare_with, find_baseline, pack_changes
from ._config import Night, check_paths, load_config, run_setup
from ._history import INDEX_FILE, add_night, load_history

EXIT_OK, EXIT_FAILED, EXIT_INFRASTRUCTURE = ExitCode.OK, ExitCode.FAILED, ExitCode.NO_RESULT
Say = Callable[[str], None]


@dataclass
class NightResult:
    exit_code: int
    run_id: str | None = None
    run_dir: Path | None = None
    entry: NightEntry | None = None
    lines: list[str] = field(default_factory=list)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.1f}%"


def new_night_id(night: Night) -> str:
    """<configuration name>-<UTC time>."""
    return f"{night.name}-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}"


def shard_run_id(night_id: str, index: int, total: int) -> str:
    return f"{night_id}.shard-{index}-of-{total}"


def _record(run_dir: Path) -> RunRecord | None:
    return find_run_record(run_dir)


def _execute(night: Night, run_id: str, shard: Any, say: Say) -> list[str]:
    """Run (or finish) the run ``run_id``; returns why it could not finish (empty: it did)."""
    import claims_corpus
    import harness

    if len(night.corpora) > 1:
        raise ConfigError("this harness runs one corpus per run", file=str(night.path),
                           field="corpora")
    existing = _record(night.runs_dir / run_id)
    if existing is not None and not any(t.status == TrialStatus.PENDING
                                        for t in existing.trials):
        say(f"run {run_id} is already recorded and finished: it is not run again")
        return []
    resume = run_id if existing is not None else None

    def progress(event: Any) -> None:
        if event.status is not None:
            say(str(event))

    config, ctx = run_setup(night, run_id, resume, shard, progress)
    try:
        # as `run` does: a corpus failing `corpus check` is refused before anything is recorded
        failing = claims_corpus.failing_corpora(
            config.corpora, config.allow_unchecked_corpus,
            override=f"set allow_unchecked_corpus = true in {night.path.name}")
        for stamp in failing:
            say(claims_corpus.running_anyway(stamp))
        ctx.corpus_fails_check = bool(failing)
        config, choice = harness.resolve_lanes(config)
        if choice is not None:
            say(f"lanes auto: {choice.why}")
        with contextlib.ExitStack() as stack:
            if config.dev is not None:
                ctx.profile, env = stack.enter_context(harness.dev_product(
                    ctx.profile, config.lane_count(), night.corpora[0], runtime=config.dev.runtime,
                    faults=config.dev.faults))
                ctx.seed_token = env.seed_token
            record, run_dir = harness.run(config, ctx)
    except HarnessError as exc:
        return [f"the run could not finish: {exc}"]
    say(harness.summary_line(record, run_dir))
    return [record.stopped.reason] if record.stopped is not None else []


def run_shard(night: Night, night_id: str, shard_text: str, say: Say) -> NightResult:
    """Run one shard of tonight's run; 0 when it finished, 3 when it could not (or stopped
    early)."""
    import harness

    shard = harness.Shard.parse(shard_text)
    if night.config.shards > 1 and shard.total != night.config.shards:
        raise ConfigError(f"the configuration splits the run into {night.config.shards} "
                           f"shards, not {shard.total}", file=str(night.path), field="shards")
    run_id = shard_run_id(night_id, shard.index, shard.total)
    problems = _execute(night, run_id, shard, say)
    for p in problems:
        say(p)
    code = EXIT_INFRASTRUCTURE if problems else EXIT_OK
    say(f"shard {shard} of night {night_id}: {'recorded' if not problems else 'NOT finished'}"
        f" (exit {code}); when every shard is done: claims-harness nightly {night.path} "
        f"--merge-shards --night-id {night_id}")
    return NightResult(code, run_id, night.runs_dir / run_id)


def _merge(night: Night, night_id: str, say: Say) -> list[str]:
    import harness

    into = night.runs_dir / night_id
    if is_run_folder(into):
        say(f"night {night_id} is already merged: judging it again")
        return []
    shards = sorted(p for p in night.runs_dir.glob(f"{night_id}.shard-*-of-*")
                    if is_run_folder(p))
    if not shards:
        return [f"no shard of night {night_id} in {night.runs_dir}"]
    try:
        record = harness.merge_runs(shards, into, partial=True)
    except HarnessError as exc:
        return [f"the shards could not be merged: {exc}"]
    merged = record.merged
    problems = []
    if merged and merged.missing_shards:
        problems.append(f"shard(s) {', '.join(map(str, merged.missing_shards))} missing")
    pending = sum(1 for t in record.trials if t.status == TrialStatus.PENDING)
    if pending:
        problems.append(f"{pending} trial(s) of unfinished shards were never run")
    say(f"merged {len(shards)} shard(s) into {into}")
    return problems


def _share_problem(summary: RunSummary, limit: float) -> str | None:
    errors = len(summary.infrastructure_errors)
    if summary.trials and errors / summary.trials > limit:
        return (f"{errors} of {summary.trials} trial(s) ended in product, simulator or harness "
                f"errors (more than {limit:.0%}): "
                + ", ".join(f"{k} {v}" for k, v in summary.errors_by_category.items()))
    if summary.scorable_trials == 0:
        return "no trial could be scored"
    return None


def judge(night: Night, run_id: str, started_at: str, problems: list[str],
          say: Say) -> NightResult:
    """Score, report, gate, compare and record the night ``run_id``."""
    import scoring

    cfg = night.config
    run_dir = night.runs_dir / run_id
    base_entry: dict[str, Any] = {"config": night.name, "config_digest": night.digest(),
                                  "run_id": run_id, "started_at": started_at}
    record = _record(run_dir)
    if record is None:
        entry = NightEntry(**base_entry, run_path="", finished_at=_now(),
                           outcome="infrastructure", exit_code=EXIT_INFRASTRUCTURE,
                           reasons=problems or ["no run record was written"])
        add_night(night.runs_dir, entry)
        return _finish(night, entry, run_dir, say)
    seed = cfg.compare.seed if cfg.compare.seed is not None else scoring.DEFAULT_SEED
    resamples = cfg.compare.resamples or scoring.DEFAULT_RESAMPLES
    summary = scoring.score_run(run_dir, seed=seed, resamples=resamples)
    report = scoring.write_report(run_dir)
    g = scoring.gate(summary, cfg.gate.min_pass_hat_k, cfg.gate.k)
    accepted = scoring.acceptance_gate(summary.acceptance)
    scoring.write_junit(g, summary, run_dir / "junit.xml",
                        summary.acceptance if cfg.gate.acceptance else None)
    say(f"score: {summary.successes}/{summary.scorable_trials} scorable trial(s) succeeded; "
        f"gate {'PASS' if g.passed else 'FAIL'}: {g.message}")
    say(f"acceptance {'PASS' if accepted.passed else 'FAIL'}"
        f"{'' if cfg.gate.acceptance else ' (not gating)'}: {accepted.message}")
    corpora = list(getattr(record, "corpora", None) or [record.corpus])
    baseline = find_baseline(load_history(night.runs_dir), night.name, run_id, corpora,
                             night.runs_dir, summary.scorer)
    comparison, note = compare_with(summary, baseline, seed, resamples)
    down, up = pack_changes(comparison, cfg.gate.pack_drop) if comparison else ([], [])
    base_id = baseline.entry.run_id if baseline.entry else None
    if comparison is not None:
        say(f"baseline {base_id}: {comparison.verdict.upper()}: {comparison.explanation}"
            + (f" ({note})" if note else ""))
    else:
        say(f"baseline: none ({note})")

    share = _share_problem(summary, cfg.gate.max_infrastructure_share)
    infra = problems + ([share] if share else [])
    failing: list[str] = []
    worse = comparison is not None and comparison.verdict == "worse"
    named = "; ".join(f"{c.pack_id} {_pct(c.baseline_rate)} → {_pct(c.run_rate)}" for c in down)
    if not g.passed:
        failing.append(f"gate: {g.message}")
    if cfg.gate.acceptance and not accepted.passed:
        failing.append(f"acceptance: {accepted.message}")
    if worse and cfg.gate.fail_on_worse:
        assert comparison is not None
        failing.append(f"worse than {base_id}: {comparison.explanation}")
    if down and cfg.gate.fail_on_pack_regression:
        failing.append(f"pack regression(s) since {base_id}")
    notes = [f"regressed since {base_id}: {named}"] if down else []
    outcome: NightOutcome
    if infra:
        outcome, code = "infrastructure", EXIT_INFRASTRUCTURE
    elif failing:
        outcome = "regression" if (down or worse) else "gate_failed"
        code = EXIT_FAILED
    else:
        outcome, code = "ok", EXIT_OK
    durations = {p.pack_id: round(p.mean_duration_s, 3) for p in summary.packs
                 if p.mean_duration_s is not None}
    entry = NightEntry(
        **base_entry, run_path=run_dir.relative_to(night.runs_dir).as_posix(),
        finished_at=_now(), outcome=outcome, exit_code=code, reasons=infra + failing + notes,
        labels=list(summary.labels), corpora=corpora, scorer=summary.scorer,
        trials=summary.trials, scorable_trials=summary.scorable_trials,
        successes=summary.successes, mean_success=summary.mean_success,
        gate=GateOutcome(passed=g.passed, k=g.k, floor=g.floor, value=g.value,
                         interval=scoring.pass_hat_k_interval(
                             [p.pass_hat_k for p in g.packs if p.pass_hat_k is not None],
                             seed, resamples),
                         message=g.message),
        acceptance=AcceptanceOutcome(passed=accepted.passed, gating=cfg.gate.acceptance,
                                     message=accepted.message),
        baseline_run_id=base_id if comparison is not None else None, baseline_note=note,
        comparison=ComparisonOutcome(
            verdict=comparison.verdict, mean_difference=comparison.mean_difference,
            low=comparison.low, high=comparison.high, explanation=comparison.explanation)
        if comparison is not None else None,
        regressions=down, improvements=up, failure_modes=dict(summary.failure_modes),
        errors_by_category=dict(summary.errors_by_category), pack_durations=durations,
        report=Path(report).relative_to(night.runs_dir).as_posix())
    add_night(night.runs_dir, entry)
    return _finish(night, entry, run_dir, say)


def _finish(night: Night, entry: NightEntry, run_dir: Path, say: Say) -> NightResult:
    say(f"history: {night.runs_dir / INDEX_FILE}")
    head = {"ok": "OK", "regression": "REGRESSION", "gate_failed": "GATE FAILED",
            "infrastructure": "INFRASTRUCTURE FAILURE"}[entry.outcome]
    reasons = f": {' | '.join(entry.reasons)}" if entry.reasons else ""
    say(f"night {entry.run_id}: {head} (exit {entry.exit_code}){reasons}")
    return NightResult(entry.exit_code, entry.run_id, run_dir, entry)


def _checked_night(config: Path | str) -> Night:
    """The night's configuration, its paths and its history checked: what refuses a night
    before it starts (a ``HarnessError``; the command line exits ``ExitCode.USAGE``)."""
    night = load_config(config)
    check_paths(night)
    load_history(night.runs_dir)  # an unreadable history stops the night before it runs
    return night


def _needs_night_id(night: Night, night_id: str | None) -> None:
    """A sharded night is named by every machine alike: ``--night-id`` is required."""
    if not night_id:
        raise ConfigError("--shard and --merge-shards need --night-id: every machine of "
                          "the night must name the same night", file=str(night.path))


def run_night(config: Path | str, *, night_id: str | None = None, shard: str | None = None,
              merge_shards: bool = False, say: Say = print) -> NightResult:
    """The whole night for ``config`` (see the module docstring)."""
    night = _checked_night(config)
    started = _now()
    if shard is not None or merge_shards:
        _needs_night_id(night, night_id)
        assert night_id is not None
        if shard is not None:
            return run_shard(night, night_id, shard, say)
        problems = _merge(night, night_id, say)
        return judge(night, night_id, started, problems, say)
    run_id = night_id or new_night_id(night)
    problems = _execute(night, run_id, None, say)
    return judge(night, run_id, started, problems, say)
