"""The report index's charts: HTML bar rows drawn from the summary's numbers, no script and
no network, each row naming what it measures in text with its numbers beside the bar,
coloured by status, with a legend."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import scoring
from scoring._charts import index_charts, rate_chart, wilson
from tests.scoring.test_rescore import scored_run


def _rows(html: str) -> list[dict[str, object]]:
    """Each bar row: its tooltip, label text, segments (width %, class) and value text."""
    out = []
    for row in re.findall(r'<div class="bar-row.*?</span></div>', html, flags=re.S):
        label = re.sub(r"<[^>]+>", "", re.search(r'class="bar-label">(.*?)</span>',
                                                  row).group(1))  # type: ignore[union-attr]
        out.append({
            "tip": re.search(r'title="([^"]*)"', row).group(1),  # type: ignore[union-attr]
            "label": label, "pack": (m.group(1) if (m := re.search(r'data-pack="([^"]+)"',
                                                                    row)) else None),
            "segments": [(float(w), c) for c, w in re.findall(
                r'class="seg ([\w-]+)" style="width:([\d.]+)%"', row)],
            "value": re.search(r'class="bar-value">(.*?)</span>',  # type: ignore[union-attr]
                               row).group(1)})
    return out


@pytest.mark.parametrize(("c", "n", "low", "high"), [
    (5, 10, 0.2366, 0.7634),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (1, 1, 0.2065, 1.0),
])
def test_wilson_interval_matches_published_values(c: int, n: int, low: float,
                                                  high: float) -> None:
    got = wilson(c, n)
    assert got is not None
    assert got == pytest.approx((low, high), abs=5e-4)


def test_no_trials_no_interval_and_no_chart() -> None:
    assert wilson(0, 0) is None
    assert rate_chart([("triage", 0, 0)], "t", "x") is None


def test_a_rate_chart_names_each_row_with_its_numbers() -> None:
    html = rate_chart([("triage", 3, 4), ("facts <&>", 1, 2)], "Pass rate", "chart-x")
    assert html is not None
    rows = _rows(str(html))
    assert [r["label"] for r in rows] == ["triage", "facts &lt;&amp;&gt;"]  # escaped
    assert rows[0]["tip"] == "triage: 3 of 4 passed (75 %), 95 % interval 30–95 %"
    assert rows[0]["value"] == "75 % (3/4)"
    # the passed share in the pass colour, the rest in the fail colour: no green at 50 %
    assert rows[0]["segments"] == [(75.0, "k-pass"), (25.0, "k-fail")]
    assert rows[1]["segments"] == [(50.0, "k-pass"), (50.0, "k-fail")]
    legend = re.search(r'<p class="legend">(.*?)</p>', str(html)).group(1)  # type: ignore[union-attr]
    assert [re.sub(r"<[^>]+>", "", k) for k in re.findall(
        r'<span class="key">(.*?</span>.*?)</span>', legend)] == [
        "passed", "failed", "95 % interval"]


def test_the_report_index_opens_with_the_charts(tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path, asked_twice=(("CTL-M-002", 1),))

    text = scoring.write_report(run_dir).read_text()

    section = text[text.index('data-testid="charts"'):text.index('data-testid="overview"')]
    names = re.findall(r'data-chart="([^"]+)"', section)
    assert names == ["chart-components", "chart-slices", "chart-outcomes", "chart-times",
                     "chart-failure-modes"]
    assert "<script" not in section and "http" not in section
    charts = {n: section[section.index(f'data-chart="{n}"'):] for n in names}
    outcomes = _rows(charts["chart-outcomes"].split('data-chart="chart-times"')[0])
    # every pack named in text, worst first, with its counts beside the bar
    assert [r["label"] for r in outcomes] == ["CTL-M-002", "CTL-M-001", "CTL-M-003"]
    assert outcomes[0]["tip"] == "CTL-M-002: 1 succeeded, 1 failed, 0 not rated"
    assert outcomes[0]["value"] == "1/2 succeeded"
    assert outcomes[0]["segments"] == [(50.0, "k-pass"), (50.0, "k-fail")]
    assert re.findall(r'<a href="(packs/[^"]+)">CTL', charts["chart-outcomes"].split(
        'data-chart="chart-times"')[0]) == ["packs/CTL-M-002.html", "packs/CTL-M-001.html",
                                            "packs/CTL-M-003.html"]
    components = _rows(charts["chart-components"].split('data-chart="chart-slices"')[0])
    assert "journey: 5 of 6 passed (83 %), 95 % interval 44–97 %" in [
        r["tip"] for r in components]
    modes = _rows(charts["chart-failure-modes"])
    assert [(r["label"], r["value"]) for r in modes] == [("repeated_question", "1")]


def test_charts_leave_out_what_has_nothing_to_draw(tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path)
    summary = scoring.load_summary(run_dir)
    assert "failure_modes" not in index_charts(summary)  # every trial passed
    assert set(index_charts(summary)) == {"components", "slices", "outcomes"}


def test_the_charts_are_drawn_in_chromium_from_disk_with_no_request(browser,
                                                                    tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path, asked_twice=(("CTL-M-002", 1),))
    index = scoring.write_report(run_dir)
    page = browser.new_page()
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    page.goto(index.as_uri())

    charts = page.locator("[data-testid=charts] [data-chart]")
    assert charts.count() == 5
    for i in range(5):
        box = charts.nth(i).bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 20, box
    heading = page.locator("[data-testid=charts] h2")
    assert heading.inner_text() == "At a glance"
    # the charts come before the detailed numbers
    assert heading.bounding_box()["y"] < page.locator(  # type: ignore[index]
        "[data-testid=summary]").bounding_box()["y"]  # type: ignore[index]
    bars = page.locator("[data-chart=chart-components] .seg")
    assert bars.count() >= 5
    # status colours as drawn: a half-passed pack is half green, half red
    colours = page.locator("[data-chart=chart-outcomes] [data-pack=CTL-M-002] .seg"
                           ).evaluate_all("els => els.map(e => [getComputedStyle(e)"
                                          ".backgroundColor, e.getBoundingClientRect().width])")
    assert [c for c, _ in colours] == ["rgb(46, 125, 50)", "rgb(179, 38, 30)"]
    assert colours[0][1] == pytest.approx(colours[1][1], abs=1)
    assert all(u.startswith("file://") for u in requests), requests
    assert errors == []
    page.locator("[data-chart=chart-outcomes] a", has_text="CTL-M-001").click()
    assert page.url.endswith("packs/CTL-M-001.html")
    page.close()


def test_report_times_name_every_pack_and_state_the_products_share(tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path)
    summary = scoring.load_summary(run_dir)
    sheets = scoring.load_sheets(run_dir)
    assert summary.acceptance is not None
    config = summary.acceptance.config

    html = str(index_charts(summary, {}, sheets)["times"])

    rows = _rows(html)
    assert sorted(r["pack"] for r in rows) == ["CTL-M-001", "CTL-M-002", "CTL-M-003"]
    mine = [scoring._acceptance.report_time_s(s, config) for s in sheets
            if s.pack_id == "CTL-M-001"]
    product = sum(t[0] for t in mine) / 2  # type: ignore[index]
    customer = sum(t[1] for t in mine) / 2  # type: ignore[index]
    row = next(r for r in rows if r["pack"] == "CTL-M-001")
    total = product + customer
    assert row["tip"] == (f"CTL-M-001: mean {total:.0f} s = product {product:.1f} s + "
                          f"customer {customer:.0f} s (modelled) over 2 report(s)")
    assert row["value"] == (f"{total:.0f} s, product {product:.1f} s "
                            f"({100 * product / total:.0f} %)")
    assert [c for _, c in row["segments"]] == ["k-product", "k-customer"]  # type: ignore[union-attr]
    totals = [float(str(r["value"]).split(" s,")[0]) for r in rows]
    assert totals == sorted(totals, reverse=True)  # slowest first
    assert f"acceptance limit {config.report_duration.limit_s:g} s" in html
    assert "times" not in index_charts(summary.model_copy(update={"acceptance": None}), {},
                                       sheets)
