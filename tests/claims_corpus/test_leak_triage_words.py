"""A triage class in ordinary words is a leak: "Expects a standard claim." in a persona fails
``corpus check``, the runtime guard and the audit, as "fast_track" would; each class's
synonyms too (claims_corpus/triage_words.toml). The same words not describing the claim are
ordinary language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import claims_corpus
from claims_corpus._leak import triage_in_words
from claims_records import LeakError, ScreenReading

from .conftest import PACKS

# (text, the class it names)
NAMED = [
    ("Expects a standard claim.", "standard"),
    ("Thinks it's a pretty normal claim.", "standard"),
    ("Hopes it is a routine case.", "standard"),
    ("Believes the claim will be standard.", "standard"),
    ("Expects a regular claims process.", "standard"),
    ("Wants it fast-tracked.", "fast_track"),
    ("Please fast track my claim.", "fast_track"),
    ("Expects a quick and simple claim.", "fast_track"),
    ("Thinks it's a straightforward claim.", "fast_track"),
    ("Says it is low severity.", "fast_track"),
    ("Knows this is a complex claim.", "complex"),
    ("Worries the case is complicated.", "complex"),
    ("Expects it to be handled as a major claim.", "complex"),
    ("The claim should be classed as complex.", "complex"),
    ("Expects high-severity handling.", "complex"),
]
ORDINARY = [
    "Self-employed electrician, straightforward and matter-of-fact.",
    "Clear skies, dry road, a standard Ford Focus.",
    "It was a complex day, honestly.",
    "Quick to answer, simple words, normal pace.",
    "She sends a large file of photos.",
    "It's complicated to explain, the pipe runs behind the wall.",
    "A major road junction in Leeds.",
    "Wants to claim for the laptop quickly.",
]


@pytest.mark.parametrize(("text", "triage_class"), NAMED, ids=[t for t, _ in NAMED])
def test_each_class_in_ordinary_words_is_found(text: str, triage_class: str) -> None:
    assert {c for _, c in triage_in_words(text)} == {triage_class}


@pytest.mark.parametrize("text", ORDINARY)
def test_the_same_words_not_describing_the_claim_are_ordinary(text: str) -> None:
    assert triage_in_words(text) == []


def test_the_shipped_corpus_names_no_triage_class_in_words() -> None:
    from claims_corpus._check_leaks import _input_fields

    found = [(d.name, field, triage_in_words(text))
             for d in claims_corpus.list_packs(PACKS)
             for _file, field, text in _input_fields(d) if triage_in_words(text)]
    assert found == []


@pytest.mark.parametrize(("text", "triage_class"), NAMED[:1] + NAMED[5:6] + NAMED[11:12])
def test_a_persona_that_names_the_class_fails_check_runtime_guard_and_audit(
        pack_copy: Path, text: str, triage_class: str) -> None:
    path = pack_copy / "input" / "persona.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["personality"] += f" {text}"
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    claims_corpus.update_manifest(pack_copy.parent)

    problems = claims_corpus.check_corpus(pack_copy.parent).problems
    where = {(p.pack, p.file, p.field) for p in problems}
    assert (pack_copy.name, "input/persona.json", "personality") in where
    assert (pack_copy.name, "input/", "<prompt>") in where  # the run's guard would refuse
    assert all(triage_class in p.message for p in problems)

    view = claims_corpus.load_customer_view(pack_copy)
    messages = claims_corpus.build_customer_messages(view, ScreenReading(), [], [], [])
    with pytest.raises(LeakError) as exc:
        claims_corpus.LeakGuard.for_runtime(pack_copy).check(messages)
    assert triage_class in str(exc.value.context["source"])

    leaks = claims_corpus.LeakGuard.for_audit(pack_copy).find(messages)
    assert any(triage_class in leak.source for leak in leaks)


def test_product_text_naming_a_class_is_not_the_customers_leak(pack_copy: Path) -> None:
    """The product may say what it likes: only the pack-built parts are checked."""
    view = claims_corpus.load_customer_view(pack_copy)
    screen = ScreenReading(latest_reply="This looks like a standard claim; we will "
                           "fast-track it.")
    messages = claims_corpus.build_customer_messages(view, screen, [], [], [])
    claims_corpus.LeakGuard.for_runtime(pack_copy).check(messages)
