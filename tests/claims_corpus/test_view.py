from __future__ import annotations

import builtins
import dataclasses
import io
import os
import shutil
from pathlib import Path

import pytest

import claims_corpus
from claims_records import PackError

from .conftest import PACK_ID, PACKS

FORBIDDEN = ("oracle", "setup.json", "provenance.json", "review.json")


def _is_forbidden(path: object) -> bool:
    p = Path(os.fsdecode(path)) if isinstance(path, str | bytes | os.PathLike) else None
    return p is not None and any(part in FORBIDDEN for part in p.parts)


def test_view_holds_the_customer_files_only() -> None:
    view = claims_corpus.load_customer_view(PACKS / PACK_ID)
    raw = (PACKS / PACK_ID / "input/initial_message.txt").read_text(encoding="utf-8")
    assert view.initial_message == raw.removesuffix("\n")
    assert view.persona.name == "Daniel Carter"
    assert {f.key for f in view.facts} >= {"incident_date", "vehicle_registration"}
    assert [m.file for m in view.materials] == ["photo-rear-bumper.jpg", "repair-quote.pdf"]
    quote = view.material("repair-quote.pdf")
    assert quote.label == "the garage's quote" and quote.path.is_file()
    assert quote.availability == "at_start" and quote.available(claims_corpus.Progress())
    fields = {f.name for f in dataclasses.fields(claims_corpus.CustomerMaterial)}
    assert "evidence_kind" not in fields
    assert "evidence_kind" not in repr(view)
    assert "damage_photo" not in repr(view) and "repair_quote" not in repr(view)


def test_view_never_opens_oracle_setup_provenance_or_review(
    pack_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    real_open = io.open

    def guarded_open(file, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        opened.append(os.fsdecode(file) if isinstance(file, str | bytes | os.PathLike) else "")
        if _is_forbidden(file):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded_open)
    monkeypatch.setattr(io, "open", guarded_open)
    view = claims_corpus.load_customer_view(pack_copy)
    assert view.pack_id == PACK_ID
    assert opened, "the view read no file at all"
    assert not [p for p in opened if _is_forbidden(p)]
    read = {Path(p).relative_to(pack_copy).as_posix() for p in opened}
    assert read <= set(claims_corpus.CUSTOMER_FILES)


def test_view_loads_with_the_answer_files_gone(pack_copy: Path) -> None:
    shutil.rmtree(pack_copy / "oracle")
    for name in ("setup.json", "provenance.json", "review.json"):
        (pack_copy / name).unlink()
    view = claims_corpus.load_customer_view(pack_copy)
    assert len(view.materials) == 2


def test_later_material_fields(pack_copy: Path) -> None:
    import json

    path = pack_copy / "input/materials.json"
    data = json.loads(path.read_text())
    data["materials"][1]["availability"] = "later"
    data["materials"][1]["later"] = {"describe_before": "The garage said they would email it.",
                                     "arrives": {"after_messages": 4}}
    path.write_text(json.dumps(data))
    quote = claims_corpus.load_customer_view(pack_copy).material("repair-quote.pdf")
    assert quote.describe_before == "The garage said they would email it."
    assert quote.arrives is not None and quote.arrives.after_messages == 4
    assert not quote.available(claims_corpus.Progress(messages=3, actions=9))
    assert quote.available(claims_corpus.Progress(messages=4))


@pytest.mark.parametrize(("arrives", "before", "after"), [
    ({"after_actions": 3}, claims_corpus.Progress(messages=3, actions=2),
     claims_corpus.Progress(messages=1, actions=3)),
    ({"after_requests": 2}, claims_corpus.Progress(actions=9, requests={"repair-quote.pdf": 1}),
     claims_corpus.Progress(requests={"repair-quote.pdf": 2})),
])
def test_later_material_by_actions_or_requests(pack_copy: Path, arrives, before, after) -> None:
    import json

    path = pack_copy / "input/materials.json"
    data = json.loads(path.read_text())
    data["materials"][1]["availability"] = "later"
    data["materials"][1]["later"] = {"describe_before": "Not yet.", "arrives": arrives}
    path.write_text(json.dumps(data))
    quote = claims_corpus.load_customer_view(pack_copy).material("repair-quote.pdf")
    assert not quote.available(before) and quote.available(after)


def test_a_later_fact_is_known_only_once_it_arrives(pack_copy: Path) -> None:
    import json

    path = pack_copy / "input/facts.json"
    data = json.loads(path.read_text())
    time = next(f for f in data["facts"] if f["key"] == "incident_time")
    time["later"] = {"describe_before": "My dashcam has it; I'll look.",
                     "arrives": {"after_requests": 2}}
    path.write_text(json.dumps(data))
    view = claims_corpus.load_customer_view(pack_copy)
    fact = next(f for f in view.facts if f.key == "incident_time")
    assert not view.knows(fact, claims_corpus.Progress(requests={"incident_time": 1}))
    assert view.knows(fact, claims_corpus.Progress(requests={"incident_time": 2}))
    assert "My dashcam has it; I'll look." in view.visible_text()


def test_missing_material_names_field(pack_copy: Path) -> None:
    (pack_copy / "input/materials/repair-quote.pdf").unlink()
    with pytest.raises(PackError) as exc:
        claims_corpus.load_customer_view(pack_copy)
    assert exc.value.context == {"pack": PACK_ID, "file": "input/materials.json",
                                 "field": "materials.1.file"}
