"""Blind review round trip on a real run: export, two handlers fill the form in Chromium and
save their files, import, and the report shows kappa and the confusion matrices. The export is
checked mechanically to hold nothing of the product's triage, review signal or oracle."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_corpus.formats import Labels
from claims_records import (
    BlindReviewAgreement,
    BlindReviewKey,
    BlindReviewPack,
    HandlerReview,
    StaffReading,
)
from scoring import audit_export, forbidden_values, score_run, write_report

from .conftest import PACKS
from .pages import assert_targets_exist

pytestmark = [pytest.mark.slow, pytest.mark.browser]

OTHER_CLASS = {"fast_track": "standard", "standard": "complex", "complex": "standard"}


def _labels(pack_id: str) -> Labels:
    return Labels.model_validate_json((PACKS / pack_id / "oracle/labels.json").read_text())


def _fill(page, key: BlindReviewKey, handler: str, dissent: str | None) -> None:
    """A handler decides each claim as the rules would, except ``dissent`` (one claim where
    they pick another class and the opposite review decision)."""
    page.locator("[data-testid=handler-name]").fill(handler)
    for nid, item in key.items.items():
        labels = _labels(item.pack_id)
        cls, review = labels.triage.triage_class, labels.review.review_required
        if nid == dissent:
            cls, review = OTHER_CLASS[cls], not review
        form = page.locator(f"fieldset[data-claim='{nid}']")
        form.locator(f"input[name='{nid}__class'][value='{cls}']").check()
        form.locator(f"input[name='{nid}__review'][value='{'yes' if review else 'no'}']").check()
        for reason in labels.triage.required_reasons:
            form.locator(f"input[name='{nid}__reason'][value='{reason}']").check()
        form.locator(f"textarea[name='{nid}__note']").fill(f"{handler} on {nid}")


def _save(page, folder: Path) -> Path:
    with page.expect_download() as info:
        page.locator("[data-testid=save-review]").click()
    download = info.value
    target = folder / download.suggested_filename
    download.save_as(target)
    return target


def test_blind_review_round_trip(real_runs, browser, tmp_path):
    run_dir = real_runs.get("reference")
    score_run(run_dir)
    out = tmp_path / "review-pack"
    runner = CliRunner()
    result = runner.invoke(app, ["review", "export", str(run_dir), "--out", str(out),
                                 "--seed", "11"])
    assert result.exit_code == 0, result.output
    key_file = next((run_dir / "blind-review").glob("key-*.json"))
    key = BlindReviewKey.model_validate_json(key_file.read_text())
    assert sorted(i.pack_id for i in key.items.values()) == sorted(real_runs.packs)
    assert not any(p.name.startswith("key-") for p in out.rglob("*"))

    # mechanically: nothing of the product's triage or review signal, nothing of the oracle
    forbidden: set[str] = set()
    for item in key.items.values():
        staff = StaffReading.model_validate_json((run_dir / item.path / "staff.json").read_text())
        assert staff.triage_class and staff.reasons  # the product did decide; it is hidden
        forbidden |= forbidden_values(staff, _labels(item.pack_id), {staff.claim_number},
                                      item.pack_id)
    assert {"fast_track", "review_required", "third_party_involved", "not_applicable",
            "CTL-M-001"} <= forbidden
    assert audit_export(out, forbidden) == []
    pack = BlindReviewPack.model_validate_json((out / "claims.json").read_text())
    assert [c.id for c in pack.claims] == sorted(key.items)
    every_text = "\n".join(p.read_text(errors="replace") for p in out.rglob("*")
                           if p.suffix in (".json", ".html", ".js"))
    for item in key.items.values():
        assert item.pack_id not in every_text
    assert not any(p.pack_id in p2.name for p in key.items.values() for p2 in out.rglob("*"))
    # the audit can fail: plant the product's class code and a shown reason
    planted = tmp_path / "planted"
    shutil.copytree(out, planted)
    data = json.loads((planted / "claims.json").read_text())
    data["claims"][0]["facts"].append({"label": "Class", "value": "fast_track", "state": ""})
    (planted / "claims.json").write_text(json.dumps(data))
    assert any("fast_track" in p for p in audit_export(planted, forbidden))

    # two handlers fill the form in Chromium and save their own files
    dissent = sorted(key.items)[0]
    saved = []
    for handler, differs in (("Ann Lee", None), ("Bo Chen", dissent)):
        page = browser.new_page(accept_downloads=True)
        page.goto((out / "index.html").as_uri())
        assert page.locator("[data-testid=review-claim]").count() == len(key.items)
        assert assert_targets_exist(page, inside=out) > 0
        _fill(page, key, handler, differs)
        saved.append(_save(page, tmp_path))
        assert "3 decision(s) saved" in page.locator("[data-testid=save-status]").inner_text()
        page.close()
    ann = HandlerReview.model_validate_json(saved[0].read_text())
    assert ann.handler == "Ann Lee" and ann.export_id == key.export_id
    assert ann.decisions[dissent].note == f"Ann Lee on {dissent}"

    result = runner.invoke(app, ["review", "import", str(run_dir), *map(str, saved)])
    assert result.exit_code == 0, result.output
    assert "handler:Ann Lee vs oracle, triage_class: kappa 1.00" in result.output
    agreement = BlindReviewAgreement.model_validate_json(
        (run_dir / "blind-review" / "agreement.json").read_text())
    stats = {(a.rater_a, a.rater_b, a.target): a for a in agreement.comparisons}
    assert stats[("handler:Ann Lee", "oracle", "triage_class")].kappa == pytest.approx(1.0)
    # no smoke pack needs review: one label on both sides, so kappa is undefined, not 1
    same = stats[("handler:Ann Lee", "product", "review_required")]
    assert same.kappa is None and same.observed_agreement == 1.0
    assert stats[("handler:Bo Chen", "oracle", "review_required")].observed_agreement == (
        pytest.approx(2 / 3))
    pair = stats[("handler:Ann Lee", "handler:Bo Chen", "triage_class")]
    assert pair.n == 3 and pair.observed_agreement == pytest.approx(2 / 3)
    assert sum(map(sum, pair.confusion.rows)) == 3
    assert not pair.too_thin and pair.low is not None
    kept = sorted(p.name for p in (run_dir / "blind-review/handlers" / key.export_id).iterdir())
    assert kept == ["ann-lee.json", "bo-chen.json"]

    index = write_report(run_dir, tmp_path / "report")
    page = browser.new_page()
    page.goto(index.as_uri())
    section = page.locator("[data-testid=blind-review]")
    assert "Are the rules right?" in section.inner_text()
    table = page.locator("[data-testid=agreement-table]").inner_text()
    assert "handler:Bo Chen" in table and "Cohen's kappa" in table and "1.00" in table
    page.close()
    shutil.rmtree(run_dir / "blind-review")  # the shared run stays as other tests expect it


def test_export_refuses_a_folder_in_use_and_a_foreign_handler_file(real_runs, tmp_path):
    run_dir = real_runs.get("reference")
    score_run(run_dir)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x.txt").write_text("mine")
    runner = CliRunner()
    result = runner.invoke(app, ["review", "export", str(run_dir), "--out", str(busy)])
    assert result.exit_code == 2 and "not empty" in result.output
    assert (busy / "x.txt").read_text() == "mine"
    stray = tmp_path / "stray.json"
    stray.write_text(json.dumps({"version": "1", "export_id": "br-none", "handler": "Ann",
                                 "saved_at": "t", "decisions": {}}))
    result = runner.invoke(app, ["review", "import", str(run_dir), str(stray)])
    assert result.exit_code == 2 and "no key for export br-none" in result.output
