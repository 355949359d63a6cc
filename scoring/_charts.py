"""Small charts for the report's index, drawn here from the summary as HTML bar rows: no
script, no network, so the report still opens from disk. Every row names what it measures in
text (a pack, a component, a slice) and states its numbers beside the bar, so a chart reads the
same at a desk and on a phone, without a mouse; colours follow the status (succeeded, failed,
not rated) and every chart has a legend. The tables below them hold the same numbers."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from claims_records import COMPONENTS, PackSummary, RunSummary, Sheet

from ._acceptance import report_time_s

Z95 = 1.959963984540054
# status -> (css class, words in the legend)
PASSED, FAILED, NOT_RATED = "k-pass", "k-fail", "k-other"
PRODUCT, CUSTOMER, WHISKER, MARKER = "k-product", "k-customer", "k-whisker", "k-marker"


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion (None for n = 0)."""
    if n <= 0:
        return None
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Row:
    """One bar: its label (a link when ``href``), coloured segments as (share of the scale,
    status class), an optional whisker and marker (shares of the scale), and its numbers."""

    label: str
    segments: list[tuple[float, str]]
    value: str
    tip: str
    href: str | None = None
    whisker: tuple[float, float] | None = None
    marker: float | None = None
    alert: bool = False
    attrs: dict[str, str] = field(default_factory=dict)


def _pct(share: float) -> str:
    return f"{100 * max(0.0, min(1.0, share)):.2f}%"


def _row(r: Row) -> str:
    label = Markup(str(escape(r.label)).replace("_", "_<wbr>"))  # breaks after "_"
    name = (f'<a href="{escape(r.href)}">{label}</a>' if r.href else str(label))
    bar = "".join(f'<span class="seg {cls}" style="width:{_pct(w)}"></span>'
                  for w, cls in r.segments if w > 0)
    if r.whisker is not None:
        low, high = r.whisker
        bar += (f'<span class="{WHISKER}" style="left:{_pct(low)};width:{_pct(high - low)}">'
                '</span>')
    if r.marker is not None:
        bar += f'<span class="{MARKER}" style="left:{_pct(r.marker)}"></span>'
    attrs = "".join(f' {k}="{escape(v)}"' for k, v in r.attrs.items())
    return (f'<div class="bar-row{" alert" if r.alert else ""}" title="{escape(r.tip)}"'
            f'{attrs}><span class="bar-label">{name}</span>'
            f'<span class="bar" role="img" aria-label="{escape(r.tip)}">{bar}</span>'
            f'<span class="bar-value">{escape(r.value)}</span></div>')


def _legend(keys: Iterable[tuple[str, str]]) -> str:
    return ('<p class="legend">' + "".join(
        f'<span class="key"><span class="swatch {cls}"></span>{escape(words)}</span>'
        for cls, words in keys) + "</p>")


def _chart(name: str, title: str, rows: list[Row], legend: Iterable[tuple[str, str]]
           ) -> Markup:
    return Markup(f'<div class="bars" data-chart="{name}" role="group" '
                  f'aria-label="{escape(title)}">{_legend(legend)}'
                  + "".join(_row(r) for r in rows) + "</div>")


def rate_chart(rows: list[tuple[str, int, int]], title: str, name: str) -> Markup | None:
    """Bars of success rates, the passed share in the pass colour and the rest in the fail
    colour, with 95 % Wilson whiskers; rows: (label, successes, n). None when no row has a
    trial."""
    drawn = []
    for label, c, n in rows:
        if n <= 0:
            continue
        rate = c / n
        low, high = wilson(c, n) or (rate, rate)
        tip = (f"{label}: {c} of {n} passed ({100 * rate:.0f} %), 95 % interval "
               f"{100 * low:.0f}–{100 * high:.0f} %")
        drawn.append(Row(label, [(rate, PASSED), (1 - rate, FAILED)],
                         f"{100 * rate:.0f} % ({c}/{n})", tip, whisker=(low, high)))
    if not drawn:
        return None
    return _chart(name, title, drawn, ((PASSED, "passed"), (FAILED, "failed"),
                                       (WHISKER, "95 % interval")))


def _outcome_order(p: PackSummary) -> tuple[float, int, str]:
    """Worst first: packs with nothing rated, then by success rate, more not rated first."""
    return (-1.0 if p.success_rate is None else p.success_rate, p.n - p.trials, p.pack_id)


def outcome_chart(summary: RunSummary, pack_pages: dict[str, str]) -> Markup | None:
    """One named row per pack, worst first: trials that succeeded, failed, and were not
    rated (errors, damaged records, simulator-suspect, not implemented), on a scale of the
    most trials any pack had."""
    packs = summary.packs
    if not packs:
        return None
    most = max(p.trials for p in packs) or 1
    rows = []
    for p in sorted(packs, key=_outcome_order):
        failed, other = p.n - p.c, p.trials - p.n
        tip = f"{p.pack_id}: {p.c} succeeded, {failed} failed, {other} not rated"
        value = (f"{p.c}/{p.n} succeeded" if p.n else "none rated") + (
            f" · {other} not rated" if other else "")
        rows.append(Row(p.pack_id, [(p.c / most, PASSED), (failed / most, FAILED),
                                    (other / most, NOT_RATED)], value, tip,
                        href=pack_pages.get(p.pack_id), alert=p.c < p.trials / 2,
                        attrs={"data-pack": p.pack_id}))
    return _chart("chart-outcomes", "Trial outcomes per pack, worst first", rows, (
        (PASSED, "succeeded"), (FAILED, "failed"),
        (NOT_RATED, "not rated (errors, damaged, suspect, not implemented)")))


def count_chart(counts: dict[str, int], title: str, name: str) -> Markup | None:
    """Bars of counts, largest first (failure modes)."""
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if not ordered:
        return None
    most = ordered[0][1] or 1
    rows = [Row(label, [(n / most, FAILED)], str(n), f"{label}: {n}") for label, n in ordered]
    return _chart(name, title, rows, ((FAILED, "trials labelled with the failure mode"),))


@dataclass
class PackTimes:
    """The report times of one pack: (product s, modelled customer s) of each report that
    reached a claim number, and how many of its scorable trials did not."""

    pack_id: str
    reports: list[tuple[float, float]]
    unfinished: int


def time_chart(packs: list[PackTimes], limit: float, pack_pages: dict[str, str] | None = None
               ) -> Markup | None:
    """One named row per pack, slowest first: the mean product time (waiting for its
    replies) and the mean modelled customer time stacked, the product's share stated in
    words, the acceptance limit as a marker, and how many reports went over it."""
    if not packs:
        return None
    pages = pack_pages or {}
    means = {p.pack_id: (statistics.fmean(t[0] for t in p.reports),
                         statistics.fmean(t[1] for t in p.reports))
             for p in packs if p.reports}
    scale = max([limit, *(a + b for a, b in means.values())]) * 1.05

    def order(p: PackTimes) -> tuple[float, str]:
        return (-sum(means[p.pack_id]) if p.reports else 1.0, p.pack_id)

    rows = []
    for p in sorted(packs, key=order):
        if not p.reports:
            rows.append(Row(p.pack_id, [], "no report reached a claim number",
                            f"{p.pack_id}: no report reached a claim number",
                            href=pages.get(p.pack_id), marker=limit / scale, alert=True,
                            attrs={"data-pack": p.pack_id}))
            continue
        product, customer = means[p.pack_id]
        total = product + customer
        over = sum(1 for a, b in p.reports if a + b >= limit)
        share = product / total if total else 0.0
        value = (f"{total:.0f} s, product {product:.1f} s ({100 * share:.0f} %)"
                 + (f" · {over}/{len(p.reports)} over the limit" if over else "")
                 + (f" · {p.unfinished} with no claim number" if p.unfinished else ""))
        tip = (f"{p.pack_id}: mean {total:.0f} s = product {product:.1f} s + customer "
               f"{customer:.0f} s (modelled) over {len(p.reports)} report(s)")
        rows.append(Row(p.pack_id, [(product / scale, PRODUCT), (customer / scale, CUSTOMER)],
                        value, tip, href=pages.get(p.pack_id), marker=limit / scale,
                        alert=bool(over or p.unfinished), attrs={"data-pack": p.pack_id}))
    return _chart("chart-times", "Report times per pack: the product's and the customer's",
                  rows, ((PRODUCT, "product (waiting for its replies)"),
                         (CUSTOMER, "customer (modelled: reading, typing, uploads)"),
                         (MARKER, f"acceptance limit {limit:g} s")))


def report_times(summary: RunSummary, sheets: Iterable[Sheet]
                 ) -> tuple[list[PackTimes], float] | None:
    """Every pack's report times (product s, modelled customer s) over its scorable trials,
    with the acceptance limit; None without an acceptance report."""
    if summary.acceptance is None:
        return None
    config = summary.acceptance.config
    by_pack: dict[str, PackTimes] = {}
    for s in sheets:
        if not s.scorable:
            continue
        pack = by_pack.setdefault(s.pack_id, PackTimes(s.pack_id, [], 0))
        t = report_time_s(s, config)
        if t is None:
            pack.unfinished += 1
        else:
            pack.reports.append(t)
    return list(by_pack.values()), config.report_duration.limit_s


def index_charts(summary: RunSummary, pack_pages: dict[str, str] | None = None,
                 sheets: Iterable[Sheet] = ()) -> dict[str, Markup]:
    """The index's charts by name (a chart with nothing to draw is left out)."""
    times = report_times(summary, sheets)
    order = {name: i for i, name in enumerate(COMPONENTS)}
    components = [(name, cc.passed, cc.passed + cc.failed) for name, cc in sorted(
        summary.components.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0]))]
    slices = [(f"{short}: {value.replace('_', ' ')}", st.successes, st.trials)
              for dim, short in (("line", "line"), ("message_style", "style"),
                                 ("flagged_vs_innocent", "kind"))
              for value, st in summary.slices.get(dim, {}).items()]
    charts = {
        "components": rate_chart(components, "Pass rate per component (scored trials, 95 % "
                                 "Wilson interval)", "chart-components"),
        "slices": rate_chart(slices, "Success by line, message style and kind (scorable "
                             "trials, 95 % Wilson interval)", "chart-slices"),
        "outcomes": outcome_chart(summary, pack_pages or {}),
        "times": time_chart(*times, pack_pages) if times is not None else None,
        "failure_modes": count_chart(summary.failure_modes, "Failure modes (scorable trials)",
                                     "chart-failure-modes"),
    }
    return {k: v for k, v in charts.items() if v is not None}
