from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

import claims_corpus
from claims_records import PackError

from .conftest import PACK_ID, PACKS


def test_regenerating_ctl_m_001_gives_identical_bytes(tmp_path: Path) -> None:
    written = claims_corpus.generate_materials(PACKS / PACK_ID, tmp_path)
    assert sorted(p.name for p in written) == ["photo-rear-bumper.jpg", "repair-quote.pdf"]
    for path in written:
        committed = PACKS / PACK_ID / "input/materials" / path.name
        assert path.read_bytes() == committed.read_bytes(), path.name


def test_photo_is_a_small_jpeg() -> None:
    data = (PACKS / PACK_ID / "input/materials/photo-rear-bumper.jpg").read_bytes()
    assert len(data) <= 100_000
    img = Image.open(io.BytesIO(data))
    assert img.format == "JPEG" and img.size == (640, 480)


def test_quote_pages_title_and_date() -> None:
    reader = PdfReader(PACKS / PACK_ID / "input/materials/repair-quote.pdf")
    texts = [p.extract_text() for p in reader.pages]
    assert len(texts) == 2
    assert texts[0].splitlines()[0] == "REPAIR QUOTE"
    assert "Quote date: 16 March 2026" in texts[0]
    assert "Page 1 of 2" in texts[0] and "Page 2 of 2" in texts[1]
    assert "1050.60" in texts[1]


def test_document_with_a_missing_page() -> None:
    params = {"title": "RECEIPT", "pages": [{"lines": ["Receipt date: 2 March 2026"]},
                                            {"lines": ["Total 20.00"]},
                                            {"lines": ["Thank you"]}],
              "pages_supplied": [1, 3]}
    data = claims_corpus.render_material("corpus.document/1", params)
    assert data == claims_corpus.render_material("corpus.document/1", params)
    texts = [p.extract_text() for p in PdfReader(io.BytesIO(data)).pages]
    assert ["Page 1 of 3" in texts[0], "Page 3 of 3" in texts[1]] == [True, True]
    assert len(texts) == 2


def test_bad_recipe_names_pack_file_and_field(pack_copy: Path) -> None:
    import json

    path = pack_copy / "provenance.json"
    data = json.loads(path.read_text())
    data["materials"][0]["parameters"]["scene"]["damage"][0]["kind"] = "spaceship"
    path.write_text(json.dumps(data))
    with pytest.raises(PackError) as exc:
        claims_corpus.generate_materials(pack_copy)
    assert exc.value.context == {"pack": PACK_ID, "file": "provenance.json",
                                 "field": "materials.0.parameters.scene.damage.0.kind"}
    assert "'spaceship'" in exc.value.message and "'dent'" in exc.value.message
    data["materials"][0]["generator"] = "unknown/1"
    path.write_text(json.dumps(data))
    with pytest.raises(PackError) as exc:
        claims_corpus.generate_materials(pack_copy)
    assert exc.value.context["field"] == "materials.0.generator"


def test_external_materials_are_left_alone(pack_copy: Path) -> None:
    import json

    path = pack_copy / "provenance.json"
    data = json.loads(path.read_text())
    data["materials"][0]["generator"] = "external:camera"
    path.write_text(json.dumps(data))
    photo = pack_copy / "input/materials/photo-rear-bumper.jpg"
    before = photo.read_bytes()
    written = claims_corpus.generate_materials(pack_copy)
    assert [p.name for p in written] == ["repair-quote.pdf"]
    assert photo.read_bytes() == before
