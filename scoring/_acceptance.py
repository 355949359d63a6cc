"""The acceptance criteria of a run: each met, not met or not measurable, with its interval.

Pure: ``evaluate_acceptance`` reads the scorable sheets' per-trial measures (``TrialFacts``:
further contact, report duration, agent questions; the review component; the scenario) and
the thresholds of ``acceptance.toml``. Shares are means over packs of per-pack shares, with a
cluster bootstrap over packs (``_stats``) for the interval. ``docs/scoring.md``
("Acceptance") states every rule.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from claims_records import (
    AcceptanceConfig,
    AcceptanceReport,
    ComponentResult,
    CriterionResult,
    CriterionStatus,
    JsonValue,
    Sheet,
)

from ._acceptance_trial import CONTACT_REASONS
from ._stats import (
    MIN_PACKS_FOR_CI,
    _percentile,
    bound_words,
    cluster_bootstrap_ci,
    degenerate_bound,
    mean,
)

_EPS = 1e-9
# The further-contact reason a reviewer's failing of the waiting list adds.
REVIEWER_CONTACT = "reviewer_waiting_list"


@dataclass
class _Ctx:
    config: AcceptanceConfig
    seed: int
    resamples: int
    unscored: dict[str, int] = field(default_factory=dict)
    """How the trials left out ended (trial status or simulator_suspect: count)."""


def _pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.1f} %"


def _share(ctx: _Ctx, name: str, title: str, threshold: str, floor: float,
           per_pack: dict[str, list[bool]], explanation: str, details: dict[str, JsonValue],
           overridden: list[str] | None = None) -> CriterionResult:
    """A 'share of trials' criterion: the mean over packs of each pack's share must reach
    ``floor`` (its estimate, or its whole interval when decided on the interval)."""
    shares = [sum(v) / len(v) for v in per_pack.values() if v]
    if not shares:
        return CriterionResult(name=name, title=title, status="not_measurable",
                               threshold=threshold, explanation="no scorable trial measured "
                               "it" + (f" ({explanation})" if explanation else ""),
                               details=details)
    estimate = mean(shares)
    assert estimate is not None
    too_thin = len(shares) < MIN_PACKS_FOR_CI
    low: float | None = None
    high: float | None = None
    if not too_thin:
        low, high = cluster_bootstrap_ci(shares, random.Random(ctx.seed), ctx.resamples,
                                         ctx.config.level)
    conclusive = (None if low is None or high is None
                  else (low >= floor - _EPS or high < floor - _EPS))
    status: CriterionStatus
    if ctx.config.decide_on == "interval":
        status = ("not_measurable" if low is None else
                  "met" if low >= floor - _EPS else "not_met")
    else:
        status = "met" if estimate >= floor - _EPS else "not_met"
    trials = sum(len(v) for v in per_pack.values())
    bound = degenerate_bound(estimate, low, high, trials, ctx.config.level)
    ci = (f"too thin for an interval ({len(shares)} pack(s))" if too_thin
          else bound_words(bound, ctx.config.level) if bound is not None
          else f"{round(100 * ctx.config.level)} % CI [{_pct(low)}, {_pct(high)}]")
    line = f"{_pct(estimate)} over {trials} trial(s) in {len(shares)} pack(s), {ci}"
    return CriterionResult(name=name, title=title, status=status, threshold=threshold,
                           estimate=estimate, low=low, high=high, too_thin=too_thin,
                           conclusive=conclusive,
                           explanation=line + (f"; {explanation}" if explanation else "")
                           + _override_words(overridden),
                           details={**details, "one_sided": cast(JsonValue, bound),
                                    "overrides": list(overridden or []),
                                    "per_pack": {p: sum(v) / len(v) for p, v in
                                                 per_pack.items() if v}})


def _override_words(overridden: list[str] | None) -> str:
    return (f"; includes {len(overridden)} reviewer override(s): {', '.join(overridden)}"
            if overridden else "")


def _overridden(sheet: Sheet, component: str) -> ComponentResult | None:
    """The sheet's ``component`` when a reviewer overrode it to a value other than the
    mechanical one."""
    c = next((c for c in sheet.components if c.name == component), None)
    return (c if c is not None and c.override is not None
            and c.override.mechanical != c.status else None)


def contact_reasons(sheet: Sheet) -> tuple[list[str] | None, str | None]:
    """The trial's further-contact reasons with a reviewer's override of the waiting list
    carried in (the same reading decides both, docs/scoring.md "Acceptance"): passed by the
    reviewer, its ``unasked_item`` goes; failed by the reviewer, ``reviewer_waiting_list``
    comes. Returns (reasons or None when it cannot be told, who overrode it or None)."""
    reasons = sheet.numbers.further_contact
    c = _overridden(sheet, "waiting_list")
    if c is None or c.override is None:
        return reasons, None
    who = f"{sheet.pack_id}/{sheet.trial} waiting_list by {c.override.by}"
    if c.status == "pass":
        return (None if reasons is None else [r for r in reasons if r != "unasked_item"]), who
    if reasons is not None and "unasked_item" in reasons:
        return reasons, who
    return [*(reasons or []), REVIEWER_CONTACT], who


def _by_pack(sheets: list[Sheet], measure: Callable[[Sheet], bool | None]
             ) -> dict[str, list[bool]]:
    out: dict[str, list[bool]] = defaultdict(list)
    for s in sheets:
        value = measure(s)
        if value is not None:
            out[s.pack_id].append(value)
    return dict(out)


def _no_further_contact(ctx: _Ctx, sheets: list[Sheet]) -> CriterionResult:
    rule = ctx.config.no_further_contact
    contact = {id(s): contact_reasons(s) for s in sheets}
    per_pack = _by_pack(sheets, lambda s: None if (r := contact[id(s)][0]) is None else not r)
    reasons = Counter(r for s in sheets for r in (contact[id(s)][0] or []))
    unknown = sum(1 for s in sheets if contact[id(s)][0] is None)
    why = ", ".join(f"{reasons[r]} {r}" for r in (*CONTACT_REASONS, REVIEWER_CONTACT)
                    if reasons[r])
    notes = [f"needing contact: {why}" if why else "", f"{unknown} trial(s) could not be "
             "told (waiting list not shown)" if unknown else ""]
    return _share(ctx, "no_further_contact", "Claims needing no further contact",
                  f"at least {_pct(rule.min_share)}", rule.min_share, per_pack,
                  "; ".join(n for n in notes if n),
                  {"reasons": dict(reasons), "unknown": unknown},
                  [who for _, who in contact.values() if who is not None])


def _review_fp(ctx: _Ctx, sheets: list[Sheet]) -> CriterionResult:
    rule = ctx.config.review_false_positives
    groups = {k: {"trials": 0, "false_positives": 0} for k in ("packs", "innocent_controls")}
    per_pack: dict[str, list[bool]] = defaultdict(list)
    overridden: list[str] = []
    for s in sheets:
        comp = next((c for c in s.components if c.name == "review"), None)
        if comp is None or comp.status not in ("pass", "fail") or "fired" not in comp.details:
            continue
        if comp.details["expected"]:
            continue
        fp = bool(comp.details["fired"])
        if fp and _overridden(s, "review") is not None and comp.status == "pass":
            fp = False  # a reviewer judged the signal right: not a false positive
            assert comp.override is not None
            overridden.append(f"{s.pack_id}/{s.trial} review by {comp.override.by}")
        g = groups["innocent_controls" if s.innocent_control else "packs"]
        g["trials"] += 1
        g["false_positives"] += int(fp)
        per_pack[s.pack_id].append(fp)
    threshold = f"at most {rule.max_false_positives}"
    title = "False positives of the review signal"
    details: dict[str, JsonValue] = {k: dict(v) for k, v in groups.items()}
    negatives = sum(g["trials"] for g in groups.values())
    if not negatives:
        return CriterionResult(name="review_false_positives", title=title,
                               status="not_measurable", threshold=threshold,
                               explanation="no scorable trial that needed no review showed "
                               "the review signal", details=details)
    count = sum(g["false_positives"] for g in groups.values())
    rates = [sum(v) / len(v) for v in per_pack.values()]
    too_thin = len(rates) < MIN_PACKS_FOR_CI
    low: float | None = None
    high: float | None = None
    if not too_thin:
        low, high = cluster_bootstrap_ci(rates, random.Random(ctx.seed), ctx.resamples,
                                         ctx.config.level)
    apart = "; ".join(f"{k.replace('_', ' ')}: {g['false_positives']} of {g['trials']}"
                      for k, g in groups.items())
    rate = mean(rates)
    bound = degenerate_bound(rate, low, high, negatives, ctx.config.level)
    ci = ("too thin for an interval" if too_thin else
          f"rate: {bound_words(bound, ctx.config.level)}" if bound is not None else
          f"rate {round(100 * ctx.config.level)} % CI [{_pct(low)}, {_pct(high)}]")
    note = (f"; none seen in {negatives} trial(s): by the rule of three the rate is below "
            f"{_pct(min(1.0, 3 / negatives))} at 95 %"
            if count == 0 and bound is None else "")
    return CriterionResult(
        name="review_false_positives", title=title,
        status="met" if count <= rule.max_false_positives else "not_met",
        threshold=threshold, estimate=float(count), low=low, high=high, too_thin=too_thin,
        explanation=f"{count} false positive(s) in {negatives} trial(s) that needed no review "
                    f"({apart}); {ci}{note}{_override_words(overridden)}",
        details={**details, "false_positives": count, "negative_trials": negatives,
                 "rate": rate, "rate_interval_low": low, "rate_interval_high": high,
                 "one_sided": cast(JsonValue, bound), "overrides": list(overridden)})


def _spread(values: list[float]) -> dict[str, float | None]:
    ordered = sorted(values)
    return {"median": statistics.median(ordered) if ordered else None,
            "p90": _percentile(ordered, 0.9) if ordered else None}


def report_time_s(sheet: Sheet, config: AcceptanceConfig) -> tuple[float, float] | None:
    """(the product's time, the customer's modelled time) of one trial's report, in seconds;
    None when no claim number was shown or the sheet predates the split."""
    n = sheet.numbers
    if n.product_time_s is None or n.customer_work is None:
        return None
    return n.product_time_s, config.report_duration.customer_time.seconds(n.customer_work)


def with_modelled_time(sheet: Sheet, config: AcceptanceConfig) -> Sheet:
    """``sheet`` with its report's modelled time (``customer_time_s``, ``report_modelled_s``)
    by ``config``'s model of the customer's time: what every report shows first."""
    times = report_time_s(sheet, config)
    if times is None:
        return sheet
    product, customer = times
    numbers = sheet.numbers.model_copy(update={
        "customer_time_s": round(customer, 3), "report_modelled_s": round(product + customer, 3)})
    return sheet.model_copy(update={"numbers": numbers})


def _report_duration(ctx: _Ctx, sheets: list[Sheet]) -> CriterionResult:
    """Decided on the product's time plus the customer's modelled time (docs/scoring.md,
    "The customer's time"): a simulated customer answers at machine speed, a person does
    not."""
    rule = ctx.config.report_duration
    limit = rule.limit_s
    times = {id(s): report_time_s(s, ctx.config) for s in sheets}
    per_pack = _by_pack(sheets, lambda s: (t := times[id(s)]) is not None and sum(t) < limit)
    measured = [t for t in times.values() if t is not None]
    older = sum(1 for s in sheets
                if times[id(s)] is None and s.numbers.report_duration_s is not None)
    spread = _spread([sum(t) for t in measured])
    product = _spread([t[0] for t in measured])
    customer = _spread([t[1] for t in measured])
    unfinished = len(sheets) - len(measured) - older
    title = f"Reports taking under {limit:g} s"
    threshold = f"at least {_pct(rule.min_share_under)} under {limit:g} s"
    numbers: dict[str, JsonValue] = {
        **spread, "product_median": product["median"], "customer_median": customer["median"],
        "limit_s": limit, "unfinished": unfinished, "measured": len(measured),
        "scored_before_split": older,
        "customer_time": ctx.config.report_duration.customer_time.model_dump()}
    if older and not measured:
        return CriterionResult(name="report_duration", title=title, status="not_measurable",
                               threshold=threshold, explanation=f"{older} sheet(s) scored "
                               "before the product's and the customer's time were told apart:"
                               " score the run again", details=numbers)
    text = (f"median {spread['median']:.1f} s (product {product['median']:.1f} s + customer "
            f"{customer['median']:.1f} s modelled), p90 {spread['p90']:.1f} s" if measured
            else "no report reached a claim number")
    if unfinished:
        text += f"; {unfinished} trial(s) never reached a claim number (count as not under)"
    if older:
        text += f"; {older} sheet(s) scored before the split (count as not under)"
    return _share(ctx, "report_duration", title, threshold, rule.min_share_under, per_pack,
                  text, numbers)


def _questions(ctx: _Ctx, sheets: list[Sheet]) -> CriterionResult:
    rule = ctx.config.questions
    per_pack = _by_pack(sheets, lambda s: s.numbers.agent_questions < rule.fewer_than)
    counts = [float(s.numbers.agent_questions) for s in sheets]
    spread = _spread(counts)
    most = max(sheets, key=lambda s: s.numbers.agent_questions, default=None)
    text = (f"median {spread['median']:g}, p90 {spread['p90']:.1f}, most "
            f"{most.numbers.agent_questions} ({most.pack_id} trial {most.trial})"
            if most is not None else "")
    return _share(ctx, "questions", f"Reports taking fewer than {rule.fewer_than} questions",
                  f"at least {_pct(rule.min_share_under)} with fewer than {rule.fewer_than}",
                  rule.min_share_under, per_pack, text,
                  {**spread, "fewer_than": rule.fewer_than})


def _coverage(ctx: _Ctx, sheets: list[Sheet]) -> CriterionResult:
    rule = ctx.config.scenario_coverage
    need = {"motor": rule.motor, "home": rule.home, "contents": rule.contents}
    kinds: dict[str, set[str]] = defaultdict(set)
    for s in sheets:
        if s.scenario:
            kinds[s.line].add(s.scenario)
    threshold = ", ".join(f"{n} {line}" for line, n in need.items())
    title = "Kinds of scenario tested"
    per_line: dict[str, JsonValue] = {
        line: {"needed": n, "covered": list(sorted(kinds.get(line, ())))}
        for line, n in need.items()}
    if not sheets:
        how = ", ".join(f"{n} {k}" for k, n in sorted(ctx.unscored.items()))
        return CriterionResult(name="scenario_coverage", title=title, status="not_measurable",
                               threshold=threshold, explanation="no trial could be scored, so "
                               "no scenario was tested" + (f": {how}" if how else ""),
                               details=per_line)
    if not kinds:
        return CriterionResult(name="scenario_coverage", title=title, status="not_measurable",
                               threshold=threshold, explanation="no scorable trial names its "
                               "scenario kind (sheets from before scenarios were recorded: "
                               "score the run again)", details=per_line)
    short = [f"{line} {len(kinds.get(line, ()))} of {n}" for line, n in need.items()
             if len(kinds.get(line, ())) < n]
    total = sum(len(v) for v in kinds.values())
    got = ", ".join(f"{len(kinds.get(line, ()))} {line}" for line in need)
    return CriterionResult(
        name="scenario_coverage", title=title, status="not_met" if short else "met",
        threshold=threshold, estimate=float(total),
        explanation=f"{total} kind(s) with a scorable trial ({got})"
                    + (f"; short: {', '.join(short)}" if short else "")
                    + "; a count of what the run covered, so no interval",
        details=per_line)


_CRITERIA: tuple[Callable[[_Ctx, list[Sheet]], CriterionResult], ...] = (
    _no_further_contact, _review_fp, _report_duration, _questions, _coverage)


def evaluate_acceptance(sheets: list[Sheet], config: AcceptanceConfig, source: str, *,
                        seed: int, resamples: int) -> AcceptanceReport:
    """Every criterion over the scorable trials of ``sheets``."""
    scored = [s for s in sheets if s.scorable]
    left_out = Counter("simulator_suspect" if s.simulator_suspect else s.trial_status
                       for s in sheets if not s.scorable)
    ctx = _Ctx(config, seed, resamples, dict(left_out))
    criteria = [criterion(ctx, scored) for criterion in _CRITERIA]
    return AcceptanceReport(source=source, config=config,
                            met=all(c.status == "met" for c in criteria), criteria=criteria,
                            level=config.level, seed=seed, resamples=resamples)


@dataclass
class AcceptanceGate:
    passed: bool
    message: str
    failing: list[CriterionResult] = field(default_factory=list)


def acceptance_gate(report: AcceptanceReport | None) -> AcceptanceGate:
    """Passes only when every criterion is met: one not met or not measurable fails it."""
    if report is None:
        return AcceptanceGate(False, "the summary has no acceptance criteria: score the run "
                              "again")
    failing = [c for c in report.criteria if c.status != "met"]
    if not failing:
        return AcceptanceGate(True, f"all {len(report.criteria)} acceptance criteria met")
    return AcceptanceGate(False, "; ".join(f"{c.name} {c.status.replace('_', ' ')}"
                                           for c in failing), failing)
