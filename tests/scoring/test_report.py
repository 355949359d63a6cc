"""The HTML report in a real browser, opened from disk."""

from __future__ import annotations

import json

import pytest

from claims_records import HumanVerdicts, Sheet
from scoring import score_run, write_report

from .builders import Variant, make_labels, write_corpus, write_run
from .pages import assert_targets_exist

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def _images_loaded(page) -> list[int]:
    widths = []
    shots = page.locator("img.shot")
    for i in range(shots.count()):
        img = shots.nth(i)
        img.scroll_into_view_if_needed()
        page.wait_for_function("(el) => el.complete", arg=img.element_handle())
        widths.append(img.evaluate("(el) => el.naturalWidth"))
    return widths


def test_report_of_a_real_run_opens_from_disk(real_runs, browser, tmp_path):
    run_dir = real_runs.get("reference")
    score_run(run_dir)
    index = write_report(run_dir, tmp_path / "report")
    html = (tmp_path / "report").rglob("*.html")
    for page_file in html:
        text = page_file.read_text()
        assert "data:image" not in text and "base64" not in text
    page = browser.new_page()
    page.goto(index.as_uri())
    assert page.locator("[data-testid=self-test-label]").count() == 0
    assert "reference" in page.locator("[data-testid=overview]").inner_text()
    rows = page.locator("[data-testid=pack-table] tr")
    assert rows.count() == len(real_runs.packs) + 1
    assert assert_targets_exist(page) > 0
    page.get_by_role("link", name=real_runs.packs[0], exact=True).first.click()
    assert page.url.endswith(f"packs/{real_runs.packs[0]}.html")
    widths = _images_loaded(page)
    assert widths and all(w > 0 for w in widths), widths
    staff = page.locator("img.shot.staff")
    assert staff.count() >= 1
    links = page.locator("p.links a")
    labels = [links.nth(i).inner_text() for i in range(links.count())]
    assert "HAR network log" in labels and "Playwright trace" in labels
    assert assert_targets_exist(page) > len(widths)
    sheet = page.locator("[data-testid=sheet]").inner_text()
    assert "triage" in sheet and "pass" in sheet
    # the pack's staff script: the grader record and the decision step's screens
    grader = page.locator("[data-testid=grader] tr")
    assert grader.count() == 7, page.locator("[data-testid=grader]").inner_text()
    text = page.locator("[data-testid=grader]").inner_text()
    for aspect in ("routing", "target", "state", "note", "follow_through", "audit"):
        assert aspect in text
    assert page.locator("img[alt='staff decision step']").count() >= 1
    assert "staff decision" in labels
    page.close()


def test_human_form_downloads_a_verdict_file_that_score_reads(real_runs, browser, tmp_path):
    run_dir = real_runs.get("reference")
    score_run(run_dir)
    index = write_report(run_dir, tmp_path / "report")
    pack = real_runs.packs[0]
    page = browser.new_page(accept_downloads=True)
    page.goto((index.parent / "packs" / f"{pack}.html").as_uri())
    form = page.locator("[data-testid=human-form]").first
    form.locator("input[name=reviewer]").fill("Ann Lee")
    boxes = form.locator("fieldset[data-assertion]")
    ids = [boxes.nth(i).get_attribute("data-assertion") for i in range(boxes.count())]
    assert ids
    for aid in ids:
        form.locator(f"input[name='{aid}'][value=pass]").check()
    form.locator(f"input[name='{ids[0]}__note']").fill("polite throughout")
    with page.expect_download() as info:
        form.locator("[data-testid=download-human]").click()
    download = info.value
    assert download.suggested_filename == "human.json"
    target = run_dir / pack / "trial-1" / "human.json"
    download.save_as(target)
    page.close()
    try:
        verdicts = HumanVerdicts.model_validate_json(target.read_text())
        assert verdicts.pack_id == pack and verdicts.trial == 1
        assert verdicts.verdicts[ids[0]].note == "polite throughout"
        score_run(run_dir)
        sheet = Sheet.model_validate_json((run_dir / pack / "trial-1/sheet.json").read_text())
        human = next(c for c in sheet.components if c.name == "assertions_human")
        assert human.status == "pass" and "Ann Lee" in json.dumps(human.details)
    finally:
        target.unlink()
        score_run(run_dir)


def test_self_test_label_is_prominent(browser, tmp_path):
    labels = make_labels()
    run_dir = write_run(tmp_path / "run", write_corpus(tmp_path / "packs", [labels]),
                        [(labels, 1, None), (labels, 2, Variant(ask_twice=True))],
                        self_test=True)
    index = write_report(run_dir)
    page = browser.new_page()
    page.goto(index.as_uri())
    banner = page.locator("[data-testid=self-test-label]")
    assert banner.is_visible() and "SELF-TEST" in banner.inner_text()
    assert "CTL-M-001 trial 2" in page.locator("[data-testid=reading-list]").inner_text()
    page.goto((index.parent / "packs/CTL-M-001.html").as_uri())
    assert page.locator("[data-testid=self-test-label]").is_visible()
    widths = _images_loaded(page)
    assert widths and all(w > 0 for w in widths)
    assert_targets_exist(page)
    page.close()
