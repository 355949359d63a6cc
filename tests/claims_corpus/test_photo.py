"""Photos by data: a pack author adds a subject by combining parts, never by writing code."""

from __future__ import annotations

import io
import json
import typing
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import claims_corpus
import claims_records
from claims_corpus._photo import (
    DAMAGE,
    DAMAGE_WORDS,
    DEFAULT_AT,
    OBJECT_WORDS,
    OBJECTS,
    PROPS,
    SETTING_WORDS,
    SETTINGS,
    describe,
    parse_photo_recipe,
    subject_groups,
)
from claims_corpus._photo._render import draw_recipe
from claims_corpus.formats import scene

GENERATOR = "corpus.photo/2"

# New subjects, written as data only.
NEW_SUBJECTS: dict[str, dict[str, Any]] = {
    "photo-broken-window.jpg": {
        "setting": {"kind": "room", "room": "living_room"}, "object": {"kind": "window"},
        "damage": [{"kind": "broken_glass", "at": "pane", "side": "left"}]},
    "photo-bicycle.jpg": {
        "setting": {"kind": "garden"}, "object": {"kind": "bicycle", "colour": "1f6fb2"},
        "damage": [{"kind": "bent_wheel", "at": "front_wheel", "severity": "severe"}]},
    "photo-tv.jpg": {
        "setting": {"kind": "room", "room": "bedroom"}, "object": {"kind": "television"},
        "damage": [{"kind": "cracked_screen", "side": "right"}]},
    "photo-laptop.jpg": {
        "setting": {"kind": "room", "room": "office"}, "object": {"kind": "laptop"},
        "damage": [{"kind": "cracked_screen"}]},
    "photo-bathroom-ceiling.jpg": {
        "setting": {"kind": "room", "room": "bathroom", "view": "ceiling"},
        "damage": [{"kind": "water_stain", "severity": "minor"}], "props": [{"kind": "bucket"}]},
    "photo-stolen-bike-lock.jpg": {
        "setting": {"kind": "street"}, "props": [{"kind": "cut_lock"}],
        "damage": [{"kind": "glass_on_ground", "at": "ground", "pieces": 40}]},
}
PLATES = {"GB": ("LK19 XRD", None), "IE": ("191-D-12345", "BAILE ATHA CLIATH"),
          "DE": ("M AB 1234", None), "FR": ("AB-123-CD", "75"), "NL": ("12-ABC-3", None),
          "US": ("7ABC123", "California")}
for _country, (_text, _caption) in PLATES.items():
    NEW_SUBJECTS[f"photo-car-{_country.lower()}.jpg"] = {
        "setting": {"kind": "yard"},
        "object": {"kind": "car", "view": "rear",
                   "plate": {"country": _country, "text": _text, "caption": _caption}},
        "damage": [{"kind": "dent", "side": "left"}, {"kind": "broken_light",
                                                       "at": "tail_light_left"}]}


def _recipe(scene_: dict[str, Any], seed: int = 5) -> dict[str, Any]:
    return {"scene": scene_, "width": 640, "height": 480, "seed": seed, "quality": 80}


def _add_photo(pack: Path, file: str, recipe: dict[str, Any], i: int) -> None:
    """What an author writes for a new photo: a recipe, a material entry, a review entry."""
    def edit(name: str, change: Any) -> None:
        path = pack / name
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data["materials"])
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")

    edit("provenance.json", lambda ms: ms.append({
        "file": file, "generator": GENERATOR, "parameters": recipe,
        "purpose": f"new subject {i}: " + "; ".join(describe(parse_photo_recipe(recipe)))}))
    edit("input/materials.json", lambda ms: ms.append({
        "file": file, "evidence_kind": "damage_photo", "label": f"my photo number {i}"}))
    edit("review.json", lambda ms: ms.append({
        "file": file, "assistant_check": {"by": "test author", "verdict": "ok",
                                          "notes": "looked at", "date": "2026-12-01"}}))


def test_every_part_kind_can_be_drawn_and_named() -> None:
    def kinds(union: Any) -> set[str]:
        members = typing.get_args(typing.get_args(union)[0])
        return {typing.get_args(m.model_fields["kind"].annotation)[0] for m in members}

    assert kinds(scene.Setting) == set(SETTINGS)
    assert kinds(scene.SceneObject) == set(OBJECTS) == set(OBJECT_WORDS)
    assert kinds(scene.Damage) == set(DAMAGE) == set(DAMAGE_WORDS) == set(DEFAULT_AT)
    assert kinds(scene.Prop) == set(PROPS)
    rooms = set(typing.get_args(scene.RoomName))
    assert rooms | (kinds(scene.Setting) - {"room"}) | {"ceiling"} == set(SETTING_WORDS)


def test_new_subjects_by_data_regenerate_byte_for_byte(corpus_copy: Path,
                                                      tmp_path: Path) -> None:
    pack = corpus_copy / "CTL-M-001"
    for i, (file, scene_) in enumerate(NEW_SUBJECTS.items()):
        _add_photo(pack, file, _recipe(scene_, seed=100 + i), i)
    written = claims_corpus.generate_materials(pack)
    assert {p.name for p in written} >= set(NEW_SUBJECTS)
    claims_corpus.update_manifest(corpus_copy)
    report = claims_corpus.check_corpus(corpus_copy)  # re-makes every photo and compares bytes
    assert report.ok, report.lines()
    again = claims_corpus.generate_materials(pack, tmp_path / "again")
    sizes = {}
    for path in again:
        committed = pack / "input/materials" / path.name
        assert path.read_bytes() == committed.read_bytes(), path.name
        if path.suffix == ".jpg":
            img = Image.open(io.BytesIO(path.read_bytes()))
            assert img.format == "JPEG" and img.size == (640, 480)
            sizes[path.name] = path.stat().st_size
    assert all(size <= 100_000 for size in sizes.values())
    assert len({(pack / "input/materials" / f).read_bytes() for f in NEW_SUBJECTS}) == len(
        NEW_SUBJECTS), "two different recipes made the same photo"


def _pixel(recipe: dict[str, Any], xy: tuple[int, int]) -> tuple[int, ...]:
    return draw_recipe(parse_photo_recipe(recipe)).img.getpixel(xy)


def test_ceiling_leak_draws_kitchen_cupboards_only_in_a_kitchen() -> None:
    cupboard = (232, 228, 214)
    spot = (20 + 65, int(480 * 0.58) + 100)  # the middle of the first wall cupboard
    for room in typing.get_args(scene.RoomName):
        recipe = _recipe({"setting": {"kind": "room", "room": room, "view": "ceiling"},
                          "damage": [{"kind": "water_stain"}]})
        assert (_pixel(recipe, spot) == cupboard) is (room == "kitchen"), room


@pytest.mark.parametrize("country", sorted(PLATES))
def test_plates_are_drawn_in_their_country_style(country: str) -> None:
    text, caption = PLATES[country]
    recipe = _recipe({"setting": {"kind": "yard"}, "object": {
        "kind": "car", "view": "rear", "plate": {"country": country, "text": text,
                                                  "caption": caption}}})
    cx, cy = 320, int(480 * 0.56) + 20
    band = _pixel(recipe, (cx - 85 + 4, cy + 1))
    body = _pixel(recipe, (cx + 75, cy - 15))
    eu = {"IE", "DE", "FR", "NL"}
    assert (band == (0, 51, 153)) is (country in eu), band
    yellow = (245, 205, 40)
    assert (body == yellow) is (country in ("GB", "NL")), body
    if country == "US":  # a taller, narrower plate: the body colour at the EU plate's edge
        assert _pixel(recipe, (cx - 80, cy)) != (250, 250, 246)


def test_front_plate_of_gb_is_white_and_rear_yellow() -> None:
    plate = {"country": "GB", "text": "AB12 CDE"}
    front = _recipe({"setting": {"kind": "street", "ground": 0.84},
                     "object": {"kind": "car", "view": "front", "plate": plate}})
    assert _pixel(front, (320 - 70, int(480 * 0.76) - 12)) == (250, 250, 246)


def test_subject_words_come_from_the_parts() -> None:
    recipe = parse_photo_recipe(_recipe(NEW_SUBJECTS["photo-broken-window.jpg"]))
    groups = dict(subject_groups(recipe))
    assert set(groups) == {"window", "broken_glass"}
    assert "window" in groups["window"] and "shatter" in groups["broken_glass"]
    ceiling = parse_photo_recipe(_recipe(NEW_SUBJECTS["photo-bathroom-ceiling.jpg"]))
    assert [name for name, _ in subject_groups(ceiling)] == ["ceiling", "water_stain"]


def test_describe_reads_like_the_recipe() -> None:
    recipe = parse_photo_recipe(_recipe(NEW_SUBJECTS["photo-car-ie.jpg"]))
    lines = describe(recipe)
    assert lines[0] == "setting: yard"
    assert "IE number plate '191-D-12345' (BAILE ATHA CLIATH)" in lines[1]
    assert lines[2] == "damage: dent (side left, severity moderate)"


def test_a_side_view_has_no_plate_and_damage_needs_a_region() -> None:
    with pytest.raises(ValueError, match="scene.object: .*side view shows no number plate"):
        parse_photo_recipe(_recipe({"setting": {"kind": "street"}, "object": {
            "kind": "car", "view": "side", "plate": {"country": "GB", "text": "AB12 CDE"}}}))
    with pytest.raises(claims_records.PackError, match="has no region for 'forced_lock'") as exc:
        claims_corpus.render_material(GENERATOR, _recipe({"setting": {"kind": "street"},
                                                   "damage": [{"kind": "forced_lock"}]}))
    assert exc.value.context["field"] == "materials.0.parameters.scene.damage.0.at"
