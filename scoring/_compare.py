"""Paired comparison of two scored runs, and the gates (pass^k, simulator fidelity) with
their JUnit XML."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from claims_records import (
    SUMMARY_FILE,
    AcceptanceReport,
    Comparison,
    ComparisonVerdict,
    PackDifference,
    RunSummary,
    ScoringError,
    read_model,
)

from ._stats import DEFAULT_RESAMPLES, DEFAULT_SEED, cluster_bootstrap_ci, mean, pass_hat_k
from ._summary import CorpusRoots, score_run


def load_summary(run_dir: Path | str, corpus_root: CorpusRoots = None) -> RunSummary:
    """summary.json of a run, scoring the run first if it has none."""
    path = Path(run_dir) / SUMMARY_FILE
    if path.exists():
        return read_model(RunSummary, path)
    return score_run(run_dir, corpus_root)


def _different_versions(run: RunSummary, baseline: RunSummary) -> str:
    """The corpora both runs hold whose versions differ, as text ('' when none)."""
    def versions(s: RunSummary) -> dict[str | None, str]:
        return {c.id_prefix: c.version for c in s.corpora} or {None: s.corpus_version}

    mine, theirs = versions(run), versions(baseline)
    shared = set(mine) & set(theirs)
    if not shared:  # named differently (a record from before corpora had prefixes)
        mine, theirs = {None: run.corpus_version}, {None: baseline.corpus_version}
        shared = {None}
    return ", ".join(f"{p + ' ' if p else ''}{mine[p]} vs {theirs[p]}"
                     for p in sorted(shared, key=str) if mine[p] != theirs[p])


def compare(run: RunSummary, baseline: RunSummary, allow_different_corpus: bool = False, *,
            seed: int = DEFAULT_SEED, resamples: int = DEFAULT_RESAMPLES,
            allow_different_scorer: bool = False) -> Comparison:
    """Per-pack success-rate differences (run - baseline) with a paired bootstrap CI.

    Refuses runs of different corpus versions, and runs scored by different scorers (or by
    an unrecorded one), unless allowed: re-scoring the older run is the usual way out.
    """
    if not allow_different_scorer and (run.scorer is None or baseline.scorer is None
                                       or run.scorer != baseline.scorer):
        def name(s: RunSummary) -> str:
            return s.scorer.label() if s.scorer else "an unrecorded scorer"

        raise ScoringError(
            f"runs were scored by different scorers ({name(run)} vs {name(baseline)}); "
            "re-score both with this scorer (claims-harness score RUN) or pass "
            "--allow-different-scorer to compare anyway",
            run=run.run_id, baseline=baseline.run_id, field="scorer")
    differ = _different_versions(run, baseline)
    if differ and not allow_different_corpus:
        raise ScoringError(
            f"runs use different corpus versions ({differ}); pass allow_different_corpus to "
            "compare anyway", run=run.run_id, baseline=baseline.run_id, field="corpus_version")
    mine = {p.pack_id: p for p in run.packs if p.success_rate is not None}
    theirs = {p.pack_id: p for p in baseline.packs if p.success_rate is not None}
    shared = sorted(set(mine) & set(theirs))
    diffs: list[PackDifference] = []
    for pid in shared:
        run_rate, baseline_rate = mine[pid].success_rate, theirs[pid].success_rate
        assert run_rate is not None and baseline_rate is not None  # kept above
        diffs.append(PackDifference(pack_id=pid, run_rate=run_rate, baseline_rate=baseline_rate,
                                    difference=run_rate - baseline_rate,
                                    run_n=mine[pid].n, baseline_n=theirs[pid].n))
    values = [d.difference for d in diffs]
    low: float | None = None
    high: float | None = None
    if values:
        low, high = cluster_bootstrap_ci(values, random.Random(seed), resamples)
    est = mean(values)
    verdict: ComparisonVerdict
    if low is None or high is None:
        verdict, why = "inconclusive", "no pack was scored in both runs"
    elif low > 0:
        verdict, why = "better", f"the whole interval [{low:+.3f}, {high:+.3f}] is above zero"
    elif high < 0:
        verdict, why = "worse", f"the whole interval [{low:+.3f}, {high:+.3f}] is below zero"
    else:
        verdict, why = "inconclusive", f"the interval [{low:+.3f}, {high:+.3f}] includes zero"
    return Comparison(
        run_id=run.run_id, baseline_run_id=baseline.run_id,
        corpus_version=run.corpus_version, baseline_corpus_version=baseline.corpus_version,
        different_corpus_allowed=allow_different_corpus, packs=diffs,
        scorer=run.scorer, baseline_scorer=baseline.scorer,
        different_scorer_allowed=allow_different_scorer,
        only_in_run=sorted(set(mine) - set(theirs)),
        only_in_baseline=sorted(set(theirs) - set(mine)),
        mean_difference=est, low=low, high=high, seed=seed, resamples=resamples,
        verdict=verdict,
        explanation=f"{len(diffs)} paired pack(s), mean difference "
                    f"{est:+.3f}: {why}" if est is not None else why,
    )


@dataclass
class PackGate:
    pack_id: str
    n: int
    pass_hat_k: float | None
    passed: bool
    message: str


@dataclass
class GateResult:
    passed: bool
    k: int
    floor: float
    value: float | None = field(default=None)
    message: str = ""
    packs: list[PackGate] = field(default_factory=list)


def gate(summary: RunSummary, min_pass_hat_k: float, k: int) -> GateResult:
    """The run's pass^k (mean over scorable packs) against a floor.

    Fails when the mean is below the floor, when no pack was scorable, or when a scorable pack
    has fewer than k scorable trials (its pass^k cannot be estimated).
    """
    if k < 1:
        raise ScoringError("k must be at least 1", field="k")
    reading: dict[str, list[str]] = {}
    for item in summary.reading_list:
        reading.setdefault(item.pack_id, []).append(f"trial {item.trial}: {item.explanation}")
    packs: list[PackGate] = []
    for p in summary.packs:
        if p.n == 0:
            continue
        if p.n < k:
            packs.append(PackGate(p.pack_id, p.n, None, False,
                                  f"only {p.n} scorable trial(s); pass^{k} needs at least {k}"))
            continue
        value = pass_hat_k(p.n, p.c, k)
        ok = value >= min_pass_hat_k
        msg = f"pass^{k} = {value:.3f} ({p.c}/{p.n} trials succeeded)"
        if not ok:
            msg += f", below the floor {min_pass_hat_k}: " + " | ".join(reading.get(p.pack_id, []))
        packs.append(PackGate(p.pack_id, p.n, value, ok, msg))
    values = [p.pass_hat_k for p in packs if p.pass_hat_k is not None]
    run_value = mean(values)
    short = [p.pack_id for p in packs if p.pass_hat_k is None]
    if not packs:
        return GateResult(False, k, min_pass_hat_k, None, "no scorable pack", packs)
    if short:
        return GateResult(False, k, min_pass_hat_k, run_value,
                          f"too few trials for k={k} in {', '.join(short)}", packs)
    assert run_value is not None
    ok = run_value >= min_pass_hat_k
    relation = "meets" if ok else "is below"
    label = f" [{run_label(summary).strip()} run]" if run_label(summary) else ""
    return GateResult(ok, k, min_pass_hat_k, run_value,
                      f"pass^{k} = {run_value:.3f} over {len(packs)} pack(s) {relation} the "
                      f"floor {min_pass_hat_k}{label}", packs)


@dataclass
class FidelityGate:
    """The simulated customer's fidelity, for the gate: ok unless strict with a suspect."""

    ok: bool
    strict: bool
    message: str


def fidelity_gate(summary: RunSummary, strict: bool = False) -> FidelityGate:
    """The run's simulator-suspect trials, always shown; under strict fidelity (``strict`` or
    a summary scored strict) any of them fails the gate."""
    f = summary.fidelity
    strict = strict or f.strict
    ok = not (strict and f.suspect_trials)
    line = (f"simulator fidelity ({'strict' if strict else 'not strict'}): "
            f"{f.suspect_trials} simulator-suspect trial(s) kept out of the rates")
    if f.findings_by_rule:
        line += " (" + ", ".join(f"{k} {v}" for k, v in f.findings_by_rule.items()) + ")"
    if f.not_audited_trials:
        line += f"; {f.not_audited_trials} trial(s) not audited"
    if not ok:
        line += "; the run is not valid under strict fidelity"
    return FidelityGate(ok, strict, line)


def run_label(summary: RunSummary) -> str:
    """' SELF-TEST; FAULTS a, b; no reset' for a run that is not an ordinary one, else ''."""
    parts = ["SELF-TEST"] if summary.self_test else []
    if summary.faults:
        parts.append(f"FAULTS {', '.join(summary.faults)}")
    parts += [x for x in summary.labels if x != "self-test"]
    return " " + "; ".join(parts) if parts else ""


def _case(suite: ET.Element, classname: str, name: str, ok: bool, message: str,
          kind: str) -> None:
    case = ET.SubElement(suite, "testcase", classname=classname, name=name)
    if ok:
        ET.SubElement(case, "system-out").text = message
    else:
        ET.SubElement(case, "failure", message=message, type=kind).text = message


def _suite(suites: ET.Element, name: str, cases: int, failures: int,
           props: tuple[tuple[str, object], ...]) -> ET.Element:
    suite = ET.SubElement(suites, "testsuite", name=name, tests=str(cases),
                          failures=str(failures), errors="0", skipped="0")
    group = ET.SubElement(suite, "properties")
    for key, value in props:
        ET.SubElement(group, "property", name=key, value=str(value))
    return suite


def write_junit(result: GateResult | None, summary: RunSummary, path: Path | str,
                acceptance: AcceptanceReport | None = None,
                fidelity: FidelityGate | None = None) -> Path:
    """A testsuite for the pass^k gate (one testcase per scorable pack) and, when given, one
    for the acceptance criteria (one testcase per criterion) and one for the simulated
    customer's fidelity (one testcase, failing only under strict fidelity)."""
    name = f"claims-harness {summary.run_id}{run_label(summary)}"
    common = (("self_test", summary.self_test), ("faults", " ".join(summary.faults)),
              ("labels", ", ".join(summary.labels)),
              ("corpus_version", summary.corpus_version))
    suites = ET.Element("testsuites")
    if result is not None:
        suite = _suite(suites, name, len(result.packs),
                       sum(1 for p in result.packs if not p.passed),
                       (("k", result.k), ("min_pass_hat_k", result.floor),
                        ("run_pass_hat_k", result.value), *common))
        for p in result.packs:
            _case(suite, f"packs.{summary.run_id}", p.pack_id, p.passed, p.message,
                  "pass_hat_k")
    if acceptance is not None:
        suite = _suite(suites, f"{name} acceptance", len(acceptance.criteria),
                       sum(1 for c in acceptance.criteria if c.status != "met"),
                       (("source", acceptance.source), *common))
        for c in acceptance.criteria:
            _case(suite, f"acceptance.{summary.run_id}", c.name, c.status == "met",
                  f"{c.status.replace('_', ' ')} ({c.threshold}): {c.explanation}",
                  "acceptance")
    if fidelity is not None:
        suite = _suite(suites, f"{name} simulator fidelity", 1, int(not fidelity.ok),
                       (("strict", fidelity.strict), *common))
        _case(suite, f"fidelity.{summary.run_id}", "simulator-fidelity", fidelity.ok,
              fidelity.message, "fidelity")
    ET.indent(suites)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(ET.tostring(suites, encoding="utf-8", xml_declaration=True))
    return path
