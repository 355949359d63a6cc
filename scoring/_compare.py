"""Paired comparison of two scored runs, and the gates (pass^k, simulator fidelity) with
their JUnit XML."""

from __future__ import annotations

import math
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
    PackSummary,
    RunSummary,
    ScoringError,
    read_model,
)

from ._stats import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MIN_PACKS_FOR_CI,
    cluster_bootstrap_ci,
    detectable_difference,
    fisher_exact,
    holm,
    mean,
    pass_hat_k,
    sample_sd,
)
from ._summary import CorpusRoots, score_run

# The per-pack tests' family-wise level and the power of the detectable difference.
ALPHA = 0.05
POWER = 0.8
CORRECTION = "Holm–Bonferroni"
# Packs named in the explanation's per-pack line at most (every pack's test is in ``packs``).
NAMED_PACKS = 10


def load_summary(run_dir: Path | str, corpus_root: CorpusRoots = None) -> RunSummary:
    """summary.json of a run, scoring the run first if it has none."""
    path = Path(run_dir) / SUMMARY_FILE
    if path.exists():
        return read_model(RunSummary, path)
    return score_run(run_dir, corpus_root)


def _different_versions(run: RunSummary, baseline: RunSummary) -> str:
    """The corpora both runs hold whose versions differ, as text ('' when none)."""
    mine, theirs, shared = _by_corpus(run, baseline, "version")
    return ", ".join(f"{p + ' ' if p else ''}{mine[p]} vs {theirs[p]}"
                     for p in shared if mine[p] != theirs[p])


def _by_corpus(run: RunSummary, baseline: RunSummary, field: str
               ) -> tuple[dict[str | None, str], dict[str | None, str], list[str | None]]:
    """(run's, baseline's values of ``field`` by corpus prefix, the prefixes both hold)."""
    whole = "corpus_version" if field == "version" else "corpus_hash"

    def values(s: RunSummary) -> dict[str | None, str]:
        return {c.id_prefix: getattr(c, field) for c in s.corpora} or {None: getattr(s, whole)}

    mine, theirs = values(run), values(baseline)
    shared = set(mine) & set(theirs)
    if not shared:  # named differently (a record from before corpora had prefixes)
        mine, theirs = {None: getattr(run, whole)}, {None: getattr(baseline, whole)}
        shared = {None}
    return mine, theirs, sorted(shared, key=str)


def content_differences(run: RunSummary, baseline: RunSummary) -> list[str]:
    """Where the corpora both runs hold differ in content (their hashes): the packs both
    scored whose hashes differ, by id, or why they cannot be named. Empty when the hashes are
    the same."""
    mine, theirs, shared = _by_corpus(run, baseline, "hash")
    differing = [p for p in shared if mine[p] != theirs[p]]
    if not differing:
        return []
    ours = {p.pack_id: p for p in run.packs}
    base = {p.pack_id: p for p in baseline.packs}
    out: list[str] = []
    for prefix in differing:
        both = sorted(pid for pid in set(ours) & set(base)
                      if prefix is None or ours[pid].corpus in (prefix, None))
        named = [pid for pid in both if ours[pid].pack_hash and base[pid].pack_hash
                 and ours[pid].pack_hash != base[pid].pack_hash]
        unknown = [pid for pid in both if not (ours[pid].pack_hash and base[pid].pack_hash)]
        where = f"corpus {prefix} " if prefix else "corpus "
        what = f"{where}{theirs[prefix][:12]} (baseline) vs {mine[prefix][:12]} (run)"
        if named:
            out.append(f"{what}: {', '.join(named)} differ")
        if unknown:
            out.append(f"{what}: {len(unknown)} pack(s) cannot be told apart (a summary "
                       "holds no pack hashes: re-score it with its corpus as it was run)")
        if not named and not unknown:
            out.append(f"{what}: every pack both runs scored is the same; packs were added or "
                       "removed")
    return out


def compare(run: RunSummary, baseline: RunSummary, allow_different_corpus: bool = False, *,
            seed: int = DEFAULT_SEED, resamples: int = DEFAULT_RESAMPLES,
            allow_different_scorer: bool = False,
            allow_different_content: bool = False) -> Comparison:
    """Per-pack success-rate differences (run - baseline) with a paired bootstrap CI.

    The verdict is inconclusive when the comparison is too thin (see ``_too_thin``); every
    pack also gets Fisher's exact test, Holm-corrected over the paired packs; the comparison
    records the smallest difference the design could detect (``_sensitivity``).

    Refuses runs of different corpus versions, and runs scored by different scorers (or by
    an unrecorded one), unless allowed: re-scoring the older run is the usual way out.
    Refuses runs whose corpora differ in content (their hashes), naming the packs that
    differ, unless ``allow_different_content`` (or ``allow_different_corpus``, as another
    version is other content): the comparison is then labelled with them, in its record and
    at the head of its explanation.
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
    content = content_differences(run, baseline)
    allowed_content = allow_different_content or (bool(differ) and allow_different_corpus)
    if content and not allowed_content:
        raise ScoringError(
            f"runs use corpora whose content differs ({'; '.join(content)}): their numbers are "
            "not of the same packs; run both on one corpus, or pass "
            "--allow-different-corpus-content to compare anyway (the comparison is labelled)",
            run=run.run_id, baseline=baseline.run_id, field="corpus_hash")
    mine = {p.pack_id: p for p in run.packs if p.success_rate is not None}
    theirs = {p.pack_id: p for p in baseline.packs if p.success_rate is not None}
    diffs = _pack_differences([(mine[pid], theirs[pid]) for pid in sorted(set(mine) & set(theirs))])
    values = [d.difference for d in diffs]
    est = mean(values)
    spread, detectable = _sensitivity(diffs)
    thin = _too_thin(diffs)
    low: float | None = None
    high: float | None = None
    if values and not thin:
        low, high = cluster_bootstrap_ci(values, random.Random(seed), resamples)
    verdict: ComparisonVerdict
    if not values:
        verdict, why = "inconclusive", "no pack was scored in both runs"
    elif thin:
        verdict, why = "inconclusive", f"too thin for a verdict: {thin}"
    elif low is not None and low > 0:
        verdict, why = "better", f"the whole interval [{low:+.3f}, {high:+.3f}] is above zero"
    elif high is not None and high < 0:
        verdict, why = "worse", f"the whole interval [{low:+.3f}, {high:+.3f}] is below zero"
    else:
        verdict, why = "inconclusive", f"the interval [{low:+.3f}, {high:+.3f}] includes zero"
    explanation = (f"{len(diffs)} paired pack(s), mean difference {est:+.3f}: {why}"
                   if est is not None else why)
    if diffs:
        explanation += "; " + _per_pack_line(diffs)
    if content:
        explanation = f"CORPUS CONTENT DIFFERS ({'; '.join(content)}): {explanation}"
    return Comparison(
        run_id=run.run_id, baseline_run_id=baseline.run_id,
        corpus_version=run.corpus_version, baseline_corpus_version=baseline.corpus_version,
        different_corpus_allowed=allow_different_corpus, packs=diffs,
        corpus_content_differs=content, different_corpus_content_allowed=bool(content),
        scorer=run.scorer, baseline_scorer=baseline.scorer,
        different_scorer_allowed=allow_different_scorer,
        only_in_run=sorted(set(mine) - set(theirs)),
        only_in_baseline=sorted(set(theirs) - set(mine)),
        mean_difference=est, low=low, high=high, seed=seed, resamples=resamples,
        verdict=verdict, explanation=explanation, too_thin=bool(thin), alpha=ALPHA,
        power=POWER, correction=CORRECTION if diffs else None, spread=spread,
        detectable_difference=detectable,
    )


def _pack_differences(pairs: list[tuple[PackSummary, PackSummary]]) -> list[PackDifference]:
    """One difference per paired pack, with its Fisher's exact test and the Holm-adjusted
    p-value over all of them (a per-pack claim is made only after the correction)."""
    p_values = [fisher_exact(r.c, r.n, b.c, b.n) for r, b in pairs]
    adjusted = holm(p_values)
    diffs: list[PackDifference] = []
    for (r, b), p, adj in zip(pairs, p_values, adjusted, strict=True):
        assert r.success_rate is not None and b.success_rate is not None  # kept by the caller
        difference = r.success_rate - b.success_rate
        verdict: ComparisonVerdict = ("inconclusive" if adj > ALPHA
                                      else "better" if difference > 0 else "worse")
        diffs.append(PackDifference(
            pack_id=r.pack_id, run_rate=r.success_rate, baseline_rate=b.success_rate,
            difference=difference, run_n=r.n, baseline_n=b.n, run_c=r.c, baseline_c=b.c,
            p_value=p, adjusted_p_value=adj, verdict=verdict))
    return diffs


def _sensitivity(diffs: list[PackDifference]) -> tuple[float | None, float | None]:
    """(spread, detectable difference) of the paired design. The spread is the larger of the
    observed standard deviation of the per-pack differences and the conservative bound: the
    trial-sampling spread every pack would have at a 50 % success rate,
    sqrt(mean(1/(4 n_run) + 1/(4 n_baseline))), so that identical outcomes never claim a
    run could see any difference."""
    if not diffs:
        return None, None
    spread = max(sample_sd([d.difference for d in diffs]) or 0.0, _bound(diffs))
    return spread, detectable_difference(spread, len(diffs), ALPHA, POWER)


def _bound(diffs: list[PackDifference]) -> float:
    """The conservative spread: decided by the design (packs, trials), never the outcomes."""
    return math.sqrt(math.fsum(0.25 / d.run_n + 0.25 / d.baseline_n for d in diffs)
                     / len(diffs))


def _too_thin(diffs: list[PackDifference]) -> str:
    """Why the comparison is too thin for a verdict ('' when it is not): fewer than
    MIN_PACKS_FOR_CI paired packs, or so few trials that even the largest possible difference
    (100 % against 0 %) is beyond what the design detects by the conservative bound alone."""
    if not diffs:
        return ""
    if len(diffs) < MIN_PACKS_FOR_CI:
        return f"fewer than the minimum of {MIN_PACKS_FOR_CI} paired packs"
    trials = ", ".join(sorted({f"{d.run_n}/{d.baseline_n}" for d in diffs}))
    bound = detectable_difference(_bound(diffs), len(diffs), ALPHA, POWER)
    if bound > 1.0:
        return (f"with {len(diffs)} paired pack(s) of {trials} scorable trial(s) (run/baseline) "
                f"even a 100 % vs 0 % difference is below what the run could detect "
                f"({bound:.2f} at {POWER:.0%} power)")
    return ""


def _per_pack_line(diffs: list[PackDifference]) -> str:
    """The per-pack claims after the correction, in one line."""
    named = [f"{d.pack_id} {d.verdict} (adjusted p {d.adjusted_p_value:.3g})" for d in diffs
             if d.verdict in ("better", "worse") and d.adjusted_p_value is not None]
    head = (f"per pack, Fisher's exact test with {CORRECTION} over {len(diffs)} pack(s) "
            f"(family-wise alpha {ALPHA})")
    more = f" and {len(named) - NAMED_PACKS} more" if len(named) > NAMED_PACKS else ""
    return f"{head}: " + (", ".join(named[:NAMED_PACKS]) + more if named
                          else "no single pack differs")


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
