"""A corpus's own story facts: declared in its manifest, accepted for that corpus only.

A held-out corpus uses story facts the standard's list lacks; it declares them (kind and
topic) in its own ``manifest.json`` instead of editing ``claims_corpus/_check_keys.py``, so
``corpus check`` passes and a run's corpus gate lets it run without
``--allow-unchecked-corpus``. The shipped list stays closed: the shipped corpus declares
nothing, and the same packs without the declaration are refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import claims_corpus
from claims_corpus._gate import failing_corpora
from claims_records import PackError

from ..conftest import PACKS, make_held_out

# key -> (kind, topic, value, say, the held-out pack it goes in)
PRIVATE: dict[str, tuple[str, str, Any, str, str]] = {
    "point_of_entry": ("text", "how the burglar got in", "the back door",
                       "They forced the back door.", "HLD-C-001"),
    "garage_locked": ("yes_no", "whether the garage was locked", "yes",
                      "Yes, the garage was locked.", "HLD-C-001"),
    "rooms_affected": ("number", "how many rooms were affected", 2,
                       "Two rooms, the kitchen and the hall.", "HLD-H-001"),
    "cause_of_leak": ("text", "what caused the leak", "a split pipe under the bath",
                      "A pipe under the bath split.", "HLD-H-001"),
    "emergency_plumber": ("yes_no", "whether an emergency plumber came", "yes",
                          "Yes, a plumber came out that night.", "HLD-H-001"),
    "other_vehicle_plate": ("text", "the other car's registration", "YT21 KLM",
                            "The other car was YT21 KLM.", "HLD-M-001"),
    "tow_receipt_explanation": ("text", "why the tow receipt has that date",
                                "the tow firm printed it the next morning",
                                "The tow firm printed the receipt the next morning.",
                                "HLD-M-001"),
}
COPIES = {"CTL-C-001": "HLD-C-001", "CTL-H-001": "HLD-H-001", "CTL-M-001": "HLD-M-001"}


def _private_corpus(root: Path, declare: dict[str, tuple[str, str]] | None) -> Path:
    """Three shipped packs under a held-out prefix, each given the private story facts of
    its line; ``declare`` (key -> (kind, topic)) goes into the manifest."""
    held = make_held_out(root, COPIES)
    for key, (kind, topic, value, say, pack) in PRIVATE.items():
        path = held / pack / "input" / "facts.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        data["facts"].append({"key": key, "kind": kind, "value": value, "say": say,
                              "topic": topic})
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    claims_corpus.update_manifest(held)
    manifest_path = held / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    if declare is not None:
        manifest["story_facts"] = {k: {"kind": kind, "topic": topic}
                                   for k, (kind, topic) in declare.items()}
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return held


def _declared() -> dict[str, tuple[str, str]]:
    return {k: (kind, topic) for k, (kind, topic, *_rest) in PRIVATE.items()}


def test_a_private_corpus_with_its_own_story_facts_passes_check_and_the_gate(
        tmp_path: Path) -> None:
    held = _private_corpus(tmp_path / "private", _declared())
    report = claims_corpus.check_corpus(held)
    assert report.lines() == []
    assert len(report.packs_checked) == 3
    # the report names them
    note = next(n for n in report.notes if n.startswith("story facts declared"))
    for key, (kind, topic, *_rest) in PRIVATE.items():
        assert f"{key} ({kind}: {topic})" in note
    # the run's gate, without --allow-unchecked-corpus
    assert failing_corpora([str(held)], allow=False, cache=tmp_path / "cache") == []


def test_without_the_declaration_the_same_corpus_is_refused(tmp_path: Path) -> None:
    held = _private_corpus(tmp_path / "private", None)
    report = claims_corpus.check_corpus(held)
    unknown = sorted(p.message.split("'")[1] for p in report.problems
                     if "unknown fact key" in p.message)
    assert unknown == sorted(PRIVATE)
    assert all(p.file == "input/facts.json" and p.field.startswith("facts.")
               for p in report.problems)
    with pytest.raises(PackError, match="refusing to run") as exc:
        failing_corpora([str(held)], allow=False, cache=tmp_path / "cache")
    assert exc.value.context["file"] == "input/facts.json"


@pytest.mark.parametrize(("declare", "file", "field", "message"), [
    # a declared kind the pack's fact does not have
    ({**_declared(), "rooms_affected": ("text", "how many rooms")}, "input/facts.json",
     "facts.", "declares it 'text'"),
    # a declared key the vocabulary already has
    ({**_declared(), "incident_date": ("date", "when")}, "manifest.json",
     "story_facts.incident_date", "already a claim fact"),
    ({**_declared(), "roofer_visit": ("text", "the roofer")}, "manifest.json",
     "story_facts.roofer_visit", "already a story fact of the standard's list"),
    # one key left undeclared: refused by name
    ({k: v for k, v in _declared().items() if k != "cause_of_leak"}, "input/facts.json",
     "facts.", "unknown fact key 'cause_of_leak'"),
])
def test_declarations_that_are_refused(tmp_path: Path, declare: dict[str, tuple[str, str]],
                                       file: str, field: str, message: str) -> None:
    held = _private_corpus(tmp_path / "private", declare)
    problems = claims_corpus.check_corpus(held).problems
    assert len(problems) == 1, problems
    assert problems[0].file == file and problems[0].field.startswith(field)
    assert message in problems[0].message


def test_a_declared_story_fact_is_still_no_field_of_the_oracle(tmp_path: Path) -> None:
    held = _private_corpus(tmp_path / "private", _declared())
    path = held / "HLD-H-001" / "oracle" / "labels.json"
    labels = json.loads(path.read_text(encoding="utf-8"))
    labels["optional_facts"]["rooms_affected"] = 2
    path.write_text(json.dumps(labels, indent=2) + "\n", encoding="utf-8")
    claims_corpus.update_manifest(held)
    problems = claims_corpus.check_corpus(held).problems
    assert [(p.pack, p.file, p.field) for p in problems] == [
        ("HLD-H-001", "oracle/labels.json", "optional_facts.rooms_affected")]
    assert "story fact, no field of the claim" in problems[0].message


def test_a_malformed_declaration_is_refused_by_the_format(tmp_path: Path) -> None:
    held = _private_corpus(tmp_path / "private", {"Point Of Entry": ("text", "how")})
    problems = claims_corpus.check_corpus(held).problems
    assert problems and problems[0].file == "manifest.json"
    assert problems[0].field.startswith("story_facts.Point Of Entry")


def test_the_shipped_corpus_declares_no_story_facts() -> None:
    assert claims_corpus.load_manifest(PACKS).story_facts == {}


def test_the_run_record_names_the_corpus_s_own_story_facts(tmp_path: Path) -> None:
    """What a run records of its corpus (and the report shows beside it): the declared keys."""
    from harness.runner._record import corpus_info

    held = _private_corpus(tmp_path / "private", _declared())
    ref = claims_corpus.open_corpora([held]).corpora[0]
    assert corpus_info(ref).story_facts == sorted(PRIVATE)
    shipped = claims_corpus.open_corpora([PACKS]).corpora[0]
    assert corpus_info(shipped).story_facts == []
