"""The report index's inline SVG charts: well-formed SVG drawn from the summary's numbers, no
script and no network, each mark with a tooltip naming its numbers."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import scoring
from scoring._charts import index_charts, rate_chart, wilson
from tests.scoring.test_rescore import scored_run

SVG = "{http://www.w3.org/2000/svg}"


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
    svg = rate_chart([("triage", 3, 4), ("facts <&>", 0, 2)], "Pass rate", "chart-x")
    assert svg is not None
    root = ET.fromstring(str(svg))
    tips = [t.text for t in root.iter(f"{SVG}title")]
    assert tips[0] == "Pass rate"
    assert "triage: 3 of 4 passed (75 %), 95 % interval 30–95 %" in tips
    assert any(t and t.startswith("facts <&>: 0 of 2") for t in tips)  # escaped, read back
    bars = [r for r in root.iter(f"{SVG}rect")]
    assert [float(b.get("width", "0")) for b in bars] == [300.0, 0.0]  # 400 px is 100 %


def test_the_report_index_opens_with_the_charts(tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path, asked_twice=(("CTL-M-002", 1),))

    text = scoring.write_report(run_dir).read_text()

    section = text[text.index('data-testid="charts"'):text.index('data-testid="overview"')]
    svgs = re.findall(r"<svg .*?</svg>", section, flags=re.S)
    names = [re.search(r'data-chart="([^"]+)"', s).group(1) for s in svgs]  # type: ignore[union-attr]
    assert names == ["chart-components", "chart-slices", "chart-outcomes", "chart-times",
                     "chart-failure-modes"]
    for s in svgs:
        ET.fromstring(s)  # well-formed
    assert "<script" not in section
    assert re.findall(r"https?://[^\"]+", section) == ["http://www.w3.org/2000/svg"] * 5
    outcomes = ET.fromstring(svgs[2])
    tips = [t.text for t in outcomes.iter(f"{SVG}title")]
    assert "CTL-M-002: 1 succeeded, 1 failed, 0 not rated" in tips
    links = [a.get("href") for a in outcomes.iter(f"{SVG}a")]
    assert links == ["packs/CTL-M-001.html", "packs/CTL-M-002.html", "packs/CTL-M-003.html"]
    components = [t.text for t in ET.fromstring(svgs[0]).iter(f"{SVG}title")]
    assert "journey: 5 of 6 passed (83 %), 95 % interval 44–97 %" in components
    modes = [t.text for t in ET.fromstring(svgs[4]).iter(f"{SVG}title")]
    assert "repeated_question: 1" in modes


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

    charts = page.locator("[data-testid=charts] svg")
    assert charts.count() == 5
    for i in range(5):
        box = charts.nth(i).bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 20, box
    heading = page.locator("[data-testid=charts] h2")
    assert heading.inner_text() == "At a glance"
    # the charts come before the detailed numbers
    assert heading.bounding_box()["y"] < page.locator(  # type: ignore[index]
        "[data-testid=summary]").bounding_box()["y"]  # type: ignore[index]
    bars = page.locator("[data-chart=chart-components] rect")
    assert bars.count() >= 5
    assert all(u.startswith("file://") for u in requests), requests
    assert errors == []
    page.locator("[data-chart=chart-outcomes] a").nth(1).click()
    assert page.url.endswith("packs/CTL-M-002.html")
    page.close()


def test_report_times_show_the_products_and_the_customers_share_against_the_limit(
        tmp_path: Path) -> None:
    run_dir, _ = scored_run(tmp_path)
    summary = scoring.load_summary(run_dir)
    sheets = scoring.load_sheets(run_dir)
    assert summary.acceptance is not None
    config = summary.acceptance.config

    svg = index_charts(summary, {}, sheets)["times"]

    root = ET.fromstring(str(svg))
    tips = [t.text or "" for t in root.iter(f"{SVG}title")][1:]
    assert len(tips) == 6  # every report that reached a claim number
    first = next(s for s in sheets if s.pack_id == "CTL-M-001" and s.trial == 1)
    product, customer = scoring._acceptance.report_time_s(first, config)  # type: ignore[misc]
    assert (f"CTL-M-001 trial 1: {product + customer:.0f} s = product {product:.1f} s + "
            f"customer {customer:.0f} s (modelled)") in tips
    totals = [float(t.split(": ")[1].split(" s")[0]) for t in tips]
    assert totals == sorted(totals)  # shortest first
    limit = [t.text for t in root.iter(f"{SVG}text")]
    assert f"{config.report_duration.limit_s:g} s" in limit
    assert "times" not in index_charts(summary.model_copy(update={"acceptance": None}), {},
                                       sheets)
