"""The corpus checker: each kind of problem is reported with its pack, file and field."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

import claims_corpus
import claims_records
from claims_corpus import Problem

from .conftest import PACK_ID, PACKS


def _edit(path: Path, change: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _problems(root: Path, freeze: bool = False) -> list[Problem]:
    return claims_corpus.check_corpus(root, freeze=freeze).problems


def _one(problems: list[Problem], file: str, field: str, pack: str | None = PACK_ID
         ) -> Problem:
    hits = [p for p in problems if p.file == file and p.field == field]
    assert hits, f"no problem for {file} {field}; got {[str(p) for p in problems]}"
    assert all(p.pack == pack for p in hits)
    return hits[0]


def _sign_off(pack_dir: Path) -> None:
    claims_corpus.sign_off([pack_dir], "Ruth Adeyemi", on=date(2026, 4, 1))


@pytest.mark.slow  # the whole corpus, every material made again: seconds of CPU
def test_committed_corpus_is_clean() -> None:
    report = claims_corpus.check_corpus(PACKS)
    assert report.lines() == []
    assert PACK_ID in report.packs_checked


def test_clean_copy_passes(corpus_copy: Path) -> None:
    assert _problems(corpus_copy) == []


def test_freeze_names_the_unsigned_image(corpus_copy: Path) -> None:
    report = claims_corpus.check_corpus(corpus_copy, freeze=True)
    problem = _one(report.problems, "review.json", "materials.0.sign_off")
    assert "photo-rear-bumper.jpg" in problem.message
    assert claims_corpus.load_manifest(corpus_copy).frozen is False  # nothing recorded on failure


def test_missing_material_file(pack_copy: Path) -> None:
    (pack_copy / "input/materials/repair-quote.pdf").unlink()
    p = _one(_problems(pack_copy.parent), "input/materials.json", "materials.1.file")
    assert "missing" in p.message


def test_unlisted_material_file(pack_copy: Path) -> None:
    (pack_copy / "input/materials/extra-photo.jpg").write_bytes(b"\xff\xd8\xff")
    p = _one(_problems(pack_copy.parent), "input/materials/extra-photo.jpg", "<file>")
    assert "not listed" in p.message


@pytest.mark.parametrize("words", ["yesterday", "Last night", "this morning",
                                   "a few days ago", "last week", "TODAY"])
def test_relative_date_in_facts(pack_copy: Path, words: str) -> None:
    _edit(pack_copy / "input/facts.json",
          lambda d: d["facts"][1].update(say=f"It happened {words}."))
    p = _one(_problems(pack_copy.parent), "input/facts.json", "facts.1.say")
    assert words in p.message


def test_relative_date_in_initial_message(pack_copy: Path) -> None:
    path = pack_copy / "input/initial_message.txt"
    path.write_text(path.read_text().replace("On 12 March 2026", "Yesterday"))
    _one(_problems(pack_copy.parent), "input/initial_message.txt", "<text>")


def test_ordinary_words_are_not_relative_dates(pack_copy: Path) -> None:
    _edit(pack_copy / "input/facts.json",
          lambda d: d["facts"][1].update(say="It was a Thursday evening, 12 March 2026; "
                                              "the lasting damage is done."))
    claims_corpus.update_manifest(pack_copy.parent)
    assert _problems(pack_copy.parent) == []


def test_pdf_page_without_page_mark(pack_copy: Path) -> None:
    from reportlab.pdfgen import canvas

    path = pack_copy / "input/materials/repair-quote.pdf"
    c = canvas.Canvas(str(path), invariant=1)
    c.drawString(72, 720, "REPAIR QUOTE")
    c.drawString(72, 36, "Page 1 of 2")
    c.showPage()
    c.drawString(72, 720, "Total 1050.60")
    c.showPage()
    c.save()
    p = _one(_problems(pack_copy.parent), "input/materials/repair-quote.pdf", "page.2")
    assert "Page X of N" in p.message


def test_pdf_inconsistent_page_numbers(pack_copy: Path) -> None:
    from reportlab.pdfgen import canvas

    path = pack_copy / "input/materials/repair-quote.pdf"
    c = canvas.Canvas(str(path), invariant=1)
    for mark in ("Page 1 of 2", "Page 1 of 3"):
        c.drawString(72, 36, mark)
        c.showPage()
    c.save()
    problems = _problems(pack_copy.parent)
    _one(problems, "input/materials/repair-quote.pdf", "page")
    _one(problems, "input/materials/repair-quote.pdf", "page.2")


def test_review_required_inconsistent_with_outcomes(pack_copy: Path) -> None:
    _edit(pack_copy / "oracle/labels.json",
          lambda d: d["review"]["checks"].update(quote_before_incident="hit"))
    p = _one(_problems(pack_copy.parent), "oracle/labels.json", "review.review_required")
    assert "False" in p.message and "True" in p.message


def test_two_weak_hits_need_review(pack_copy: Path) -> None:
    def weak(d: dict[str, Any]) -> None:
        d["review"]["checks"].update(prior_claims_12m="hit", policy_start_30d="hit")

    _edit(pack_copy / "oracle/labels.json", weak)
    _one(_problems(pack_copy.parent), "oracle/labels.json", "review.review_required")


def test_expected_fact_absent_from_facts(pack_copy: Path) -> None:
    _edit(pack_copy / "oracle/labels.json",
          lambda d: d["expected_facts"].update(police_reference="SY-2026-0042"))
    p = _one(_problems(pack_copy.parent), "oracle/labels.json",
             "expected_facts.police_reference")
    assert "not in input/facts.json" in p.message


def test_expected_fact_with_another_value(pack_copy: Path) -> None:
    _edit(pack_copy / "oracle/labels.json",
          lambda d: d["expected_facts"].update(incident_time="17:45"))
    _one(_problems(pack_copy.parent), "oracle/labels.json", "expected_facts.incident_time")


def test_image_without_assistant_check(pack_copy: Path) -> None:
    _edit(pack_copy / "review.json", lambda d: d["materials"][0].update(assistant_check=None))
    _one(_problems(pack_copy.parent), "review.json", "materials.0.assistant_check")


def test_pack_id_differs_from_folder(pack_copy: Path) -> None:
    _edit(pack_copy / "setup.json", lambda d: d.update(pack_id="CTL-M-099"))
    _one(_problems(pack_copy.parent), "setup.json", "pack_id")


def test_schema_errors_are_all_reported(pack_copy: Path) -> None:
    def breaks(d: dict[str, Any]) -> None:
        d["triage"]["triage_class"] = "urgent"
        d["surprise"] = 1

    _edit(pack_copy / "oracle/labels.json", breaks)
    (pack_copy / "input/persona.json").write_text("{broken")
    problems = _problems(pack_copy.parent)
    _one(problems, "oracle/labels.json", "triage.triage_class")
    _one(problems, "oracle/labels.json", "surprise")
    _one(problems, "input/persona.json", "<json>")


def test_material_that_its_recipe_does_not_make(pack_copy: Path) -> None:
    _edit(pack_copy / "provenance.json",
          lambda d: d["materials"][0]["parameters"].update(seed=7))
    _one(_problems(pack_copy.parent), "input/materials/photo-rear-bumper.jpg", "<content>")


@pytest.mark.parametrize("generator", ["paint/1", "corpus.photo/1", "external:", ""])
def test_unknown_generator_fails_the_check(pack_copy: Path, generator: str) -> None:
    _edit(pack_copy / "provenance.json",
          lambda d: d["materials"][0].update(generator=generator))
    p = _one(_problems(pack_copy.parent), "provenance.json", "materials.0.generator")
    assert "corpus.photo/2" in p.message


def test_unknown_part_fails_the_check_naming_its_field(pack_copy: Path) -> None:
    def breaks(d: dict[str, Any]) -> None:
        d["materials"][0]["parameters"]["scene"]["object"]["plate"]["country"] = "XX"

    _edit(pack_copy / "provenance.json", breaks)
    p = _one(_problems(pack_copy.parent), "provenance.json",
             "materials.0.parameters.scene.object.plate.country")
    assert "'GB'" in p.message


def test_external_material_is_not_remade(pack_copy: Path) -> None:
    _edit(pack_copy / "provenance.json",
          lambda d: d["materials"][0].update(generator="external:camera", parameters={}))
    claims_corpus.update_manifest(pack_copy.parent)
    assert _problems(pack_copy.parent) == []


def test_manifest_must_list_every_pack(pack_copy: Path) -> None:
    _edit(pack_copy.parent / "manifest.json", lambda d: d["packs"].clear())
    p = _one(_problems(pack_copy.parent), "manifest.json", f"packs.{PACK_ID}", pack=None)
    assert "not listed" in p.message and PACK_ID in p.message
    assert str(p).startswith("manifest.json: ")  # the corpus's manifest, not a pack's file


def test_stale_manifest_after_an_edit(pack_copy: Path) -> None:
    _edit(pack_copy / "input/persona.json", lambda d: d.update(name="Dan Carter"))
    p = _one(_problems(pack_copy.parent), "manifest.json", f"packs.{PACK_ID}", pack=None)
    assert "corpus manifest" in p.message and "input/persona.json" in p.message
    claims_corpus.update_manifest(pack_copy.parent)
    assert _problems(pack_copy.parent) == []


def test_freeze_records_hashes_then_a_changed_oracle_fails(pack_copy: Path) -> None:
    root = pack_copy.parent
    _sign_off(pack_copy)
    report = claims_corpus.check_corpus(root, freeze=True)
    assert report.ok, report.lines()
    manifest = claims_corpus.load_manifest(root)
    assert manifest.frozen and manifest.hashes_version == manifest.corpus_version
    assert manifest.packs[PACK_ID].files["oracle/labels.json"]
    assert _problems(root) == []
    assert claims_corpus.check_corpus(root, freeze=True).ok  # freezing again changes nothing

    _edit(pack_copy / "oracle/labels.json",
          lambda d: d["triage"].update(allowed_reasons=["police_report", "minor_damage"]))
    p = _one(_problems(root), "oracle/labels.json", "<content>")
    assert "without a version bump" in p.message
    assert not claims_corpus.check_corpus(root, freeze=True).ok  # freezing cannot launder it
    with pytest.raises(claims_records.PackError):
        claims_corpus.update_manifest(root)

    # a real fix: bump the version and say why in the changelog
    new = f"{manifest.corpus_version}.1"  # e.g. 1.0.0-rc.1 -> 1.0.0-rc.1.1

    def bump(d: dict[str, Any]) -> None:
        d["corpus_version"] = new
        d["changelog"].append({"version": new, "date": "2026-04-02",
                               "changes": [f"{PACK_ID}: minor_damage may be shown."]})

    _edit(root / "manifest.json", bump)
    p = _one(_problems(root), "manifest.json", f"packs.{PACK_ID}", pack=None)
    assert "--freeze" in p.message and "oracle/labels.json" in p.message
    report = claims_corpus.check_corpus(root, freeze=True)
    assert report.ok, report.lines()
    assert claims_corpus.load_manifest(root).hashes_version == new
    assert _problems(root) == []


def test_bump_without_naming_the_pack_still_fails(pack_copy: Path) -> None:
    root = pack_copy.parent
    _sign_off(pack_copy)
    assert claims_corpus.check_corpus(root, freeze=True).ok
    (pack_copy / "input/materials/photo-rear-bumper.jpg").write_bytes(b"\xff\xd8\xff\xd9")

    def bump(d: dict[str, Any]) -> None:
        d["corpus_version"] = "0.4.0"
        d["changelog"].append({"version": "0.4.0", "date": "2026-04-02",
                               "changes": ["Tidied things up."]})

    _edit(root / "manifest.json", bump)
    _one(_problems(root), "input/materials/photo-rear-bumper.jpg", "<content>")


def test_file_outside_the_layout(pack_copy: Path) -> None:
    (pack_copy / "labels.json").write_text("{}")
    _one(_problems(pack_copy.parent), "labels.json", "<file>")


def test_non_pack_folder_is_reported(corpus_copy: Path) -> None:
    (corpus_copy / "CTL-M-01").mkdir()
    problems = _problems(corpus_copy)
    assert [(p.pack, p.file, p.field) for p in problems] == [(None, "CTL-M-01", "<folder>")]


def test_corpus_versions_order_as_semantic_versions() -> None:
    from claims_corpus._check import _version_key

    ordered = ["0.3.0", "1.0.0-rc.1", "1.0.0-rc.1.1", "1.0.0-rc.2", "1.0.0", "1.0.1", "1.1.0"]
    assert sorted(reversed(ordered), key=_version_key) == ordered
