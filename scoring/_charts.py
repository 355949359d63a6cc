"""Small inline SVG charts for the report's index: drawn here from the summary, no script, no
network, so the report still opens from disk. Every chart has a title, a text alternative and
a tooltip (``<title>``) on each mark; the tables below them hold the same numbers."""

from __future__ import annotations

import math
from collections.abc import Iterable

from markupsafe import Markup, escape

from claims_records import COMPONENTS, RunSummary, Sheet

from ._acceptance import report_time_s

Z95 = 1.959963984540054
PASS, FAIL, OTHER, INK, GRID = "#2e7d32", "#b3261e", "#c9a227", "#1d232a", "#d6dbe0"
FONT = 'font-family="system-ui, sans-serif" font-size="12"'


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion (None for n = 0)."""
    if n <= 0:
        return None
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _svg(width: int, height: int, title: str, body: list[str], name: str) -> Markup:
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" data-chart="{name}" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>{"".join(body)}</svg>')


def _label_width(labels: Iterable[str], least: int = 90, most: int = 320) -> int:
    """Room for the longest label at 12 px (about 7 px a character)."""
    return max(least, min(most, 16 + 7 * max((len(x) for x in labels), default=0)))


def _axis(x0: int, width: int, top: int, bottom: int) -> list[str]:
    out = []
    for pct in (0, 25, 50, 75, 100):
        x = x0 + width * pct / 100
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" '
                   f'stroke="{GRID}" stroke-width="1"/>')
        out.append(f'<text x="{x:.1f}" y="{bottom + 14}" text-anchor="middle" {FONT} '
                   f'fill="#6b7580">{pct} %</text>')
    return out


def rate_chart(rows: list[tuple[str, int, int]], title: str, name: str) -> Markup | None:
    """Horizontal bars of success rates with 95 % Wilson whiskers; rows: (label, successes,
    n). None when no row has a trial."""
    rows = [r for r in rows if r[2] > 0]
    if not rows:
        return None
    label_w, bar_w, row_h, top = _label_width(r[0] for r in rows), 400, 22, 8
    height = top + row_h * len(rows) + 24
    body = _axis(label_w, bar_w, top, top + row_h * len(rows))
    for i, (label, c, n) in enumerate(rows):
        y = top + i * row_h
        rate = c / n
        low, high = wilson(c, n) or (rate, rate)
        tip = (f"{label}: {c} of {n} passed ({100 * rate:.0f} %), 95 % interval "
               f"{100 * low:.0f}–{100 * high:.0f} %")
        body.append(f'<g><title>{escape(tip)}</title>'
                    f'<text x="{label_w - 8}" y="{y + 15}" text-anchor="end" {FONT} '
                    f'fill="{INK}">{escape(label)}</text>'
                    f'<rect x="{label_w}" y="{y + 4}" width="{bar_w * rate:.1f}" height="14" '
                    f'fill="{PASS if rate >= 0.5 else FAIL}" fill-opacity="0.75"/>'
                    f'<line x1="{label_w + bar_w * low:.1f}" y1="{y + 11}" '
                    f'x2="{label_w + bar_w * high:.1f}" y2="{y + 11}" stroke="{INK}" '
                    f'stroke-width="1.5"/>'
                    f'<line x1="{label_w + bar_w * low:.1f}" y1="{y + 6}" '
                    f'x2="{label_w + bar_w * low:.1f}" y2="{y + 16}" stroke="{INK}"/>'
                    f'<line x1="{label_w + bar_w * high:.1f}" y1="{y + 6}" '
                    f'x2="{label_w + bar_w * high:.1f}" y2="{y + 16}" stroke="{INK}"/>'
                    f'<text x="{label_w + bar_w + 8}" y="{y + 15}" {FONT} fill="{INK}">'
                    f'{100 * rate:.0f} % <tspan fill="#6b7580">({c}/{n})</tspan></text></g>')
    return _svg(label_w + bar_w + 110, height, title, body, name)


def outcome_chart(summary: RunSummary, pack_pages: dict[str, str]) -> Markup | None:
    """One stacked column per pack: trials that succeeded, failed, and were not rated
    (errors, damaged records, simulator-suspect, not implemented)."""
    packs = summary.packs
    if not packs:
        return None
    most = max(p.trials for p in packs) or 1
    col = max(6, min(28, 880 // len(packs)))
    gap = 2 if col < 12 else 4
    plot_h, left, top = 120, 36, 8
    labels = col >= 12
    bottom = top + plot_h
    width = left + len(packs) * (col + gap) + 8
    height = bottom + (70 if labels else 10) + 22
    body = [f'<line x1="{left}" y1="{bottom}" x2="{width - 4}" y2="{bottom}" stroke="{INK}"/>',
            f'<text x="{left - 6}" y="{top + 10}" text-anchor="end" {FONT} fill="#6b7580">'
            f'{most}</text>',
            f'<text x="{left - 6}" y="{bottom}" text-anchor="end" {FONT} fill="#6b7580">0'
            '</text>']
    for i, p in enumerate(packs):
        x = left + i * (col + gap)
        parts = [("succeeded", p.c, PASS), ("failed", p.n - p.c, FAIL),
                 ("not rated", p.trials - p.n, OTHER)]
        tip = f"{p.pack_id}: " + ", ".join(f"{n} {what}" for what, n, _ in parts)
        y = float(bottom)
        bars = []
        for _, n, colour in parts:
            h = plot_h * n / most
            y -= h
            if n:
                bars.append(f'<rect x="{x}" y="{y:.1f}" width="{col}" height="{h:.1f}" '
                            f'fill="{colour}"/>')
        text = (f'<text transform="translate({x + col / 2 + 4},{bottom + 6}) rotate(60)" '
                f'font-family="system-ui, sans-serif" font-size="10" fill="{INK}">'
                f'{escape(p.pack_id)}</text>' if labels else "")
        mark = f'<title>{escape(tip)}</title>{"".join(bars)}{text}'
        href = pack_pages.get(p.pack_id)
        body.append(f'<a href="{escape(href)}">{mark}</a>' if href else f'<g>{mark}</g>')
    ly, lx = height - 8, left
    for what, colour in (("succeeded", PASS), ("failed", FAIL),
                         ("not rated (errors, damaged, suspect, not implemented)", OTHER)):
        body.append(f'<rect x="{lx}" y="{ly - 10}" width="10" height="10" fill="{colour}"/>'
                    f'<text x="{lx + 14}" y="{ly}" {FONT} fill="{INK}">{escape(what)}</text>')
        lx += 30 + 7 * len(what)
    return _svg(max(width, lx), height, "Trial outcomes per pack", body, "chart-outcomes")


def count_chart(counts: dict[str, int], title: str, name: str) -> Markup | None:
    """Horizontal bars of counts, largest first (failure modes)."""
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if not rows:
        return None
    label_w, bar_w, row_h, top = _label_width(k for k, _ in rows), 300, 20, 4
    most = rows[0][1] or 1
    body = []
    for i, (label, n) in enumerate(rows):
        y = top + i * row_h
        body.append(f'<g><title>{escape(label)}: {n}</title>'
                    f'<text x="{label_w - 8}" y="{y + 14}" text-anchor="end" {FONT} '
                    f'fill="{INK}">{escape(label)}</text>'
                    f'<rect x="{label_w}" y="{y + 3}" width="{bar_w * n / most:.1f}" '
                    f'height="13" fill="{FAIL}" fill-opacity="0.7"/>'
                    f'<text x="{label_w + bar_w * n / most + 6:.1f}" y="{y + 14}" {FONT} '
                    f'fill="{INK}">{n}</text></g>')
    return _svg(label_w + bar_w + 50, top + row_h * len(rows) + 6, title, body, name)


def time_chart(times: list[tuple[str, float, float]], limit: float) -> Markup | None:
    """Every report's time as a column, shortest first: the product's share (waiting for its
    replies) under the customer's modelled share, with the acceptance limit as a line.
    ``times``: (trial label, product s, customer s)."""
    if not times:
        return None
    times = sorted(times, key=lambda t: (t[1] + t[2], t[0]))
    most = max(max(p + c for _, p, c in times), limit) * 1.05
    col = max(3, min(24, 880 // len(times)))
    gap = 1 if col < 8 else 3
    plot_h, left, top = 140, 48, 8
    bottom = top + plot_h
    width = left + len(times) * (col + gap) + 8
    height = bottom + 40

    def y(v: float) -> float:
        return bottom - plot_h * v / most

    body = [f'<line x1="{left}" y1="{bottom}" x2="{width - 4}" y2="{bottom}" stroke="{INK}"/>',
            f'<text x="{left - 6}" y="{bottom}" text-anchor="end" {FONT} fill="#6b7580">0 s'
            '</text>']
    for i, (label, product, customer) in enumerate(times):
        x = left + i * (col + gap)
        tip = (f"{label}: {product + customer:.0f} s = product {product:.1f} s + customer "
               f"{customer:.0f} s (modelled)")
        body.append(f'<g><title>{escape(tip)}</title>'
                    f'<rect x="{x}" y="{y(product):.1f}" width="{col}" '
                    f'height="{bottom - y(product):.1f}" fill="#243447"/>'
                    f'<rect x="{x}" y="{y(product + customer):.1f}" width="{col}" '
                    f'height="{y(product) - y(product + customer):.1f}" fill="#7aa6c2"/></g>')
    body.append(f'<line x1="{left}" y1="{y(limit):.1f}" x2="{width - 4}" y2="{y(limit):.1f}" '
                f'stroke="{FAIL}" stroke-dasharray="5 3"/>'
                f'<text x="{left - 6}" y="{y(limit) + 4:.1f}" text-anchor="end" {FONT} '
                f'fill="{FAIL}">{limit:g} s</text>')
    ly, lx = height - 8, left
    for what, colour in (("product (waiting for its replies)", "#243447"),
                         ("customer (modelled: reading, typing, uploads)", "#7aa6c2"),
                         ("acceptance limit", FAIL)):
        body.append(f'<rect x="{lx}" y="{ly - 10}" width="10" height="10" fill="{colour}"/>'
                    f'<text x="{lx + 14}" y="{ly}" {FONT} fill="{INK}">{escape(what)}</text>')
        lx += 30 + 7 * len(what)
    return _svg(max(width, lx), height, "Report times: the product's and the customer's",
                body, "chart-times")


def report_times(summary: RunSummary, sheets: Iterable[Sheet]
                 ) -> tuple[list[tuple[str, float, float]], float] | None:
    """(trial label, product s, modelled customer s) of every report that reached a claim
    number, with the acceptance limit; None without an acceptance report."""
    if summary.acceptance is None:
        return None
    config = summary.acceptance.config
    out = []
    for s in sheets:
        t = report_time_s(s, config) if s.scorable else None
        if t is not None:
            out.append((f"{s.pack_id} trial {s.trial}", t[0], t[1]))
    return out, config.report_duration.limit_s


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
        "times": time_chart(*times) if times is not None else None,
        "failure_modes": count_chart(summary.failure_modes, "Failure modes (scorable trials)",
                                     "chart-failure-modes"),
    }
    return {k: v for k, v in charts.items() if v is not None}
