"""The report read as a reviewer reads it, in Chromium at a desk (1280 px) and on a phone
(390 px): a 100-pack run and a defect run. Every pack is named in both per-pack charts, in
text on screen (not only in a hover), nothing makes the page scroll sideways, and a run where
most trials failed says so before anything else.

Set ``CLAIMS_HARNESS_REPORT_SHOTS`` to a folder to keep a full-page screenshot of each."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import scoring

from .report_runs import defect_run, hundred_pack_run

pytestmark = [pytest.mark.slow, pytest.mark.browser]

WIDTHS = (1280, 390)


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("report-layout")
    return {"100-packs": scoring.write_report(hundred_pack_run(root / "hundred")),
            "defect": scoring.write_report(defect_run(root / "defect"))}


def _overflow(page) -> list[str]:
    """Elements whose right edge passes the viewport's (outside a box that scrolls on its
    own), and the page's own sideways scroll."""
    return page.evaluate("""() => {
        const w = document.documentElement.clientWidth, out = [];
        if (document.documentElement.scrollWidth > w)
            out.push('page scrollWidth ' + document.documentElement.scrollWidth + ' > ' + w);
        const scrolls = el => { for (let p = el.parentElement; p; p = p.parentElement) {
            const s = getComputedStyle(p).overflowX;
            if (s === 'auto' || s === 'scroll') return true; } return false; };
        for (const el of document.querySelectorAll('body *')) {
            const r = el.getBoundingClientRect();
            if ((r.width || r.height) && r.right > w + 0.5 && !scrolls(el))
                out.push(el.tagName + '.' + el.className + ' right ' + Math.round(r.right));
        }
        return out.slice(0, 10);
    }""")


def _named_rows(page, chart: str) -> dict[str, dict]:
    """Each row of a per-pack chart: its pack, the label's text and box, and whether the
    label is cut off."""
    return {r["pack"]: r for r in page.evaluate("""(chart) => Array.from(
        document.querySelectorAll(`[data-chart=${chart}] .bar-row`)).map(row => {
            const label = row.querySelector('.bar-label'), bar = row.querySelector('.bar');
            const lb = label.getBoundingClientRect(), bb = bar.getBoundingClientRect();
            const style = getComputedStyle(label);
            return {pack: row.dataset.pack, text: label.innerText.trim(),
                    left: lb.left, right: lb.right, width: lb.width, height: lb.height,
                    bar: bb.width, font: parseFloat(style.fontSize),
                    clipped: label.scrollWidth > label.clientWidth + 1,
                    hidden: style.visibility !== 'visible' || style.display === 'none'};
        })""", chart)}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("run", ["100-packs", "defect"])
def test_every_pack_is_named_and_nothing_overflows(browser, reports, run: str,
                                                   width: int) -> None:
    index = reports[run]
    summary = scoring.load_summary(index.parent.parent)
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(index.as_uri())

    assert _overflow(page) == []
    rated = {p.pack_id for p in summary.packs if p.n}
    for chart, expected in (("chart-outcomes", {p.pack_id for p in summary.packs}),
                            ("chart-times", rated)):
        rows = _named_rows(page, chart)
        assert set(rows) == expected, chart
        for pack, row in rows.items():
            assert row["text"] == pack and not row["hidden"] and not row["clipped"], row
            assert row["width"] > 20 and row["height"] > 8 and row["font"] >= 11, row
            assert row["left"] >= 0 and row["right"] <= width, row
            assert row["bar"] >= 60, row  # the bar keeps room beside its name
    if len(summary.packs) >= 100:
        assert len(rated) > 90
    times = page.locator("[data-chart=chart-times] .bar-value").all_inner_texts()
    assert all("product" in t or "no report" in t for t in times)
    verdict = page.locator("[data-testid=verdict]")
    acceptance = page.locator("[data-testid=acceptance-table]")
    assert verdict.bounding_box()["y"] < acceptance.bounding_box()["y"]  # type: ignore[index]
    failed = summary.scorable_trials - summary.successes
    if run == "defect":
        assert failed * 2 > summary.scorable_trials
        assert "MOST TRIALS FAILED" in verdict.inner_text()
        assert f"{failed} of {summary.scorable_trials} scorable trials failed" in (
            verdict.inner_text())
    else:
        assert "MOST TRIALS FAILED" not in verdict.inner_text()
    shots = os.environ.get("CLAIMS_HARNESS_REPORT_SHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(shots) / f"{run}-{width}.png"), full_page=True)
    page.goto((index.parent / "packs" / f"{summary.packs[0].pack_id}.html").as_uri())
    assert _overflow(page) == []
    page.close()
