"""Image review: the review page, named sign-offs tied to the image bytes, the blind look."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

import claims_corpus
import claims_records
from claims_corpus._review import blind_prompt, missing_groups
from claims_records import PackError
from tests.harness.fake_openai import FakeOpenAI, completion

from .conftest import PACK_ID

PHOTO = "photo-rear-bumper.jpg"
BIKE = "photo-bicycle.jpg"
BIKE_RECIPE = {"scene": {"setting": {"kind": "garden"}, "object": {"kind": "bicycle"},
                         "damage": [{"kind": "bent_wheel"}]}, "seed": 3}


def _review(pack: Path) -> dict[str, Any]:
    return json.loads((pack / "review.json").read_text(encoding="utf-8"))


def _entry(pack: Path, file: str = PHOTO) -> dict[str, Any]:
    return next(m for m in _review(pack)["materials"] if m["file"] == file)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _redraw_photo(pack: Path, seed: int = 7) -> None:
    """Change the photo the way an author would: edit its recipe and regenerate."""
    path = pack / "provenance.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["materials"][0]["parameters"]["seed"] = seed
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    claims_corpus.generate_materials(pack)


def _add_bike(pack: Path) -> None:
    def edit(name: str, entry: dict[str, Any]) -> None:
        path = pack / name
        data = json.loads(path.read_text(encoding="utf-8"))
        data["materials"].append(entry)
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")

    edit("provenance.json", {"file": BIKE, "generator": "corpus.photo/2",
                             "parameters": BIKE_RECIPE,
                             "purpose": "SECRET-PURPOSE the customer's bicycle, wheel bent"})
    edit("input/materials.json", {"file": BIKE, "evidence_kind": "item_photo",
                                  "label": "SECRET-LABEL my bike"})
    edit("review.json", {"file": BIKE, "assistant_check": {
        "by": "test author", "verdict": "ok", "notes": "a bicycle", "date": "2026-12-01"}})
    claims_corpus.generate_materials(pack)


# --------------------------------------------------------------------------- sign-off


def test_sign_off_records_name_date_and_image_hash(pack_copy: Path) -> None:
    before = _entry(pack_copy)
    signed = claims_corpus.sign_off([pack_copy], "  Ruth   Adeyemi ", on=date(2026, 12, 1))
    assert [(s.pack_id, s.file) for s in signed] == [(PACK_ID, PHOTO)]
    entry = _entry(pack_copy)
    assert entry["sign_off"] == {
        "name": "Ruth Adeyemi", "verdict": "ok", "date": "2026-12-01",
        "sha256": _sha(pack_copy / "input/materials" / PHOTO), "notes": ""}
    assert entry["assistant_check"] == before["assistant_check"]  # nothing else changes
    claims_corpus.update_manifest(pack_copy.parent)
    assert claims_corpus.check_corpus(pack_copy.parent).ok


@pytest.mark.parametrize("name", ["", "   ", "TBD", "Your Name", "<your name>", "reviewer",
                                  "AI", "x", "Jane Doe", "N/A", "{name}", "Assistant"])
def test_placeholder_names_are_refused_and_nothing_is_written(pack_copy: Path,
                                                              name: str) -> None:
    before = (pack_copy / "review.json").read_bytes()
    with pytest.raises(PackError, match="refusing to sign off"):
        claims_corpus.sign_off([pack_copy], name)
    assert (pack_copy / "review.json").read_bytes() == before


@pytest.mark.parametrize("name", ["Ruth Adeyemi", "Ai Nakamura", "Siobhán Ní Bhriain", "Cher"])
def test_real_names_are_accepted(name: str) -> None:
    assert claims_corpus.name_problem(name) is None


def test_a_changed_image_voids_the_sign_off(pack_copy: Path) -> None:
    root = pack_copy.parent
    claims_corpus.sign_off([pack_copy], "Ruth Adeyemi", on=date(2026, 12, 1))
    _redraw_photo(pack_copy)
    claims_corpus.update_manifest(root)
    problems = claims_corpus.check_corpus(root).problems
    void = [p for p in problems if p.field == "materials.0.sign_off"]
    assert len(void) == 1 and void[0].file == "review.json" and void[0].pack == PACK_ID
    assert "void" in void[0].message and "Ruth Adeyemi" in void[0].message
    frozen = claims_corpus.check_corpus(root, freeze=True)
    assert any("changed after its sign-off" in p.message for p in frozen.problems)
    assert claims_corpus.load_manifest(root).frozen is False
    claims_corpus.sign_off([pack_copy], "Ruth Adeyemi", on=date(2026, 12, 2))  # looked at again
    claims_corpus.update_manifest(root)
    assert claims_corpus.check_corpus(root).ok


def test_freeze_refuses_a_hand_written_placeholder_sign_off(pack_copy: Path) -> None:
    path = pack_copy / "review.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["materials"][0]["sign_off"] = {
        "name": "TBD", "verdict": "ok", "date": "2026-12-01",
        "sha256": _sha(pack_copy / "input/materials" / PHOTO)}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    claims_corpus.update_manifest(pack_copy.parent)
    problems = claims_corpus.check_corpus(pack_copy.parent).problems
    assert [p.field for p in problems] == ["materials.0.sign_off.name"]
    frozen = claims_corpus.check_corpus(pack_copy.parent, freeze=True)
    assert any("no sign-off by a named person" in p.message for p in frozen.problems)


def test_freeze_passes_once_a_named_person_signed_off(pack_copy: Path) -> None:
    root = pack_copy.parent
    assert not claims_corpus.check_corpus(root, freeze=True).ok
    claims_corpus.sign_off([pack_copy], "Ruth Adeyemi", notes="bumper dent reads clearly")
    report = claims_corpus.check_corpus(root, freeze=True)
    assert report.ok, report.lines()
    assert claims_corpus.load_manifest(root).frozen


def test_sign_off_of_one_named_file_or_a_missing_one(pack_copy: Path) -> None:
    _add_bike(pack_copy)
    signed = claims_corpus.sign_off([pack_copy], "Ruth Adeyemi", files=[BIKE], verdict="remake",
                             notes="wheel does not look bent enough")
    assert [s.file for s in signed] == [BIKE]
    assert _entry(pack_copy, BIKE)["sign_off"]["verdict"] == "remake"
    assert _entry(pack_copy)["sign_off"] is None
    with pytest.raises(PackError, match="no image named"):
        claims_corpus.sign_off([pack_copy], "Ruth Adeyemi", files=["nope.jpg"])


# --------------------------------------------------------------------------- review page


def test_review_page_shows_every_image_with_what_the_pack_says(corpus_copy: Path,
                                                               tmp_path: Path) -> None:
    pack = corpus_copy / PACK_ID
    _add_bike(pack)
    out = tmp_path / "review"
    index = claims_corpus.write_review_page(claims_corpus.resolve_packs([corpus_copy]), out)
    assert index == out / "index.html"
    page = (out / PACK_ID / "index.html").read_text(encoding="utf-8")
    for file in (PHOTO, BIKE):
        copied = out / PACK_ID / file
        assert copied.read_bytes() == (pack / "input/materials" / file).read_bytes()
        assert f'src="{file}"' in page
    assert "base64" not in page  # images are files beside the page, never inlined
    assert "SECRET-PURPOSE the customer&#39;s bicycle, wheel bent" in page
    assert "object: bicycle" in page and "damage: bent wheel" in page
    assert page.count("not signed") >= 2
    assert (out / "review.css").is_file() and 'href="../review.css"' in page
    assert f'href="{PACK_ID}/index.html"' in index.read_text(encoding="utf-8")

    claims_corpus.sign_off([pack], "Ruth Adeyemi", files=[PHOTO])
    _redraw_photo(pack)
    claims_corpus.write_review_page([pack], out)
    page = (out / PACK_ID / "index.html").read_text(encoding="utf-8")
    assert "void" in page and "Ruth Adeyemi signed off another version" in page


def test_review_page_is_not_written_into_a_pack(pack_copy: Path) -> None:
    with pytest.raises(PackError, match="must not be inside a pack"):
        claims_corpus.write_review_page([pack_copy], pack_copy / "review")


def test_packs_are_found_from_pack_or_corpus_folders(corpus_copy: Path, tmp_path: Path) -> None:
    pack = corpus_copy / PACK_ID
    assert claims_corpus.resolve_packs([corpus_copy, pack]) == [pack]
    with pytest.raises(PackError, match="neither a pack folder"):
        claims_corpus.resolve_packs([tmp_path])


# --------------------------------------------------------------------------- blind look


def test_subject_is_mentioned_by_any_of_its_words() -> None:
    groups = (("car", ("car", "vehicle")), ("dent", ("dent", "pushed in")))
    assert missing_groups("A blue vehicle; its bumper is DENTED.", groups) == []
    assert missing_groups("A car, its bumper\npushed   in.", groups) == []
    assert missing_groups("A parked car by a wall.", groups) == ["dent"]
    assert missing_groups("An accidental scene", groups) == ["car", "dent"]  # 'scar' no


class Vision:
    """A vision stand-in: describes an image by its sha256, and keeps what it was sent."""

    def __init__(self, descriptions: dict[str, str]) -> None:
        self.descriptions = descriptions
        self.images: list[bytes] = []

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        (message,) = body["messages"]
        text, image = message["content"]
        assert text == {"type": "text", "text": blind_prompt()}
        data = base64.b64decode(image["image_url"]["url"].split(",", 1)[1])
        self.images.append(data)
        return completion(self.descriptions[hashlib.sha256(data).hexdigest()])


@pytest.mark.asyncio
async def test_blind_look_sends_each_image_alone_and_lists_misses(pack_copy: Path) -> None:
    _add_bike(pack_copy)
    photos = pack_copy / "input/materials"
    vision = Vision({_sha(photos / PHOTO): "A blue hatchback seen from behind; the rear "
                                           "bumper is dented in the middle.",
                     _sha(photos / BIKE): "A blue bicycle leaning on a wooden fence."})
    with FakeOpenAI(default=vision) as server:
        settings = claims_corpus.VisionSettings(base_url=f"{server.url}/v1", model="vision-test",
                                         api_key="sk-canary-123")
        report = await claims_corpus.blind_look([pack_copy], settings, on=date(2026, 12, 1))
    assert sorted(vision.images) == sorted((photos / f).read_bytes() for f in (PHOTO, BIKE))
    sent = json.dumps(server.requests)
    for secret in ("SECRET-PURPOSE", "SECRET-LABEL", PACK_ID, PHOTO, BIKE, "bumper",
                   "bicycle", "LK19"):
        assert secret not in sent, f"{secret!r} reached the vision model"
    auth = [{k.lower(): v for k, v in h.items()}.get("authorization") for h in server.headers]
    assert auth == ["Bearer sk-canary-123"] * 2
    assert [(look.item.file, look.missing) for look in report.remake] == [
        (BIKE, ("bent_wheel",))]
    assert report.failed == []
    bike = _entry(pack_copy, BIKE)["blind_look"]
    assert bike == {"model": "vision-test", "endpoint_host": server.url.split("//")[1],
                    "seen": "A blue bicycle leaning on a wooden fence.", "date": "2026-12-01",
                    "sha256": _sha(photos / BIKE), "mentions_subject": False,
                    "missing": ["bent_wheel"]}
    assert _entry(pack_copy)["blind_look"]["mentions_subject"] is True
    everything = "".join(p.read_text(errors="ignore") for p in pack_copy.rglob("*.json"))
    assert "sk-canary-123" not in everything
    claims_corpus.update_manifest(pack_copy.parent)
    assert claims_corpus.check_corpus(pack_copy.parent).ok


@pytest.mark.asyncio
async def test_a_failing_endpoint_keeps_the_earlier_blind_look(pack_copy: Path) -> None:
    photos = pack_copy / "input/materials"
    vision = Vision({_sha(photos / PHOTO): "A car with a dented bumper."})
    with FakeOpenAI(default=vision) as server:
        settings = claims_corpus.VisionSettings(base_url=f"{server.url}/v1", model="v",
                                                max_retries=0)
        await claims_corpus.blind_look([pack_copy], settings)
        earlier = _entry(pack_copy)["blind_look"]
        server.queue(500, {"error": {"message": "overloaded"}})
        report = await claims_corpus.blind_look([pack_copy], settings)
    assert [look.item.file for look in report.failed] == [PHOTO]
    assert re.search(r"InternalServerError|500", report.failed[0].error or "")
    assert _entry(pack_copy)["blind_look"] == earlier


def test_vision_settings_come_from_options_or_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAIMS_HARNESS_VISION_BASE_URL", "http://user:pw@vision.local:8000/v1")
    monkeypatch.setenv("CLAIMS_HARNESS_VISION_MODEL", "env-model")
    monkeypatch.setenv("CLAIMS_HARNESS_VISION_API_KEY", "env-key")
    s = claims_corpus.VisionSettings.from_options(model="cli-model")
    assert (s.model, s.api_key, s.host) == ("cli-model", "env-key", "vision.local:8000")
    monkeypatch.delenv("CLAIMS_HARNESS_VISION_MODEL")
    with pytest.raises(claims_records.HarnessError, match="--model or CLAIMS_HARNESS_VISION_MODEL"):
        claims_corpus.VisionSettings.from_options()
