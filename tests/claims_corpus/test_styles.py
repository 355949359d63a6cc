"""A style changes the wording, never a fact (packs/STANDARD.md section 3).

Every generated row of the scenario table is built in every message style the authoring
supports, and each fact's wording in that style must state the same fact as its plain
wording: a reader (the reference app's ``parse_fact``) reads the same value from it, its
numbers are the same, the value it carries is there verbatim, and it says "no" or "not" as
often. The corpus's own packs, hand-written ones included, must each read back as their
fact values in the style they were written in.
"""

from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any

import pytest

import claims_corpus
from claims_corpus.authoring import load_table
from claims_corpus.authoring._build import plan_files
from claims_corpus.authoring._facts import facts, materials
from claims_corpus.authoring._words import voiced
from claims_corpus.formats.pack import MessageStyle
from claims_reference_app.rules import parse_fact

PACKS = Path(__file__).resolve().parents[2] / "packs"
STYLES: tuple[str, ...] = typing.get_args(MessageStyle)
POLICY = "NWF-POL-123456"
# keys whose value a reader takes out of the wording (the others are free text)
READ_KEYS = {"policy_number", "police_reference", "vehicle_registration"}
# a value a text fact carries verbatim in its wording
VERBATIM_KEYS = {"policy_number", "police_reference", "vehicle_registration",
                 "incident_location", "damaged_items"}
NEGATION = re.compile(r"(?<![a-z])(no|not|never|nobody|none|nothing|cannot|[a-z]+n'?t)(?![a-z])")


def _negations(text: str) -> int:
    return len(NEGATION.findall(text.lower()))


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d+", text)


def _expected(kind: str, value: Any) -> Any:
    """A fact value as the reader gives it back."""
    if kind == "yes_no":
        return value == "yes"
    if kind == "time" and isinstance(value, dict):
        return f"{value['earliest']}-{value['latest']}"
    return value


def _read(key: str, kind: str, say: str, line: str) -> Any:
    if kind == "text" and key not in READ_KEYS:
        return None
    return parse_fact(key, say, line)


def _same_fact(plain: str, styled: str) -> list[str]:
    """What differs in meaning between a plain and a styled wording (empty: nothing)."""
    wrong = []
    if _numbers(plain) != _numbers(styled):
        wrong.append(f"numbers {_numbers(plain)} -> {_numbers(styled)}")
    if _negations(plain) != _negations(styled):
        wrong.append(f"negations {_negations(plain)} -> {_negations(styled)}")
    return wrong


def _generated() -> list[tuple[int, Any]]:
    return [(n, row) for n, row in enumerate(load_table().pack) if not row.hand_written]


GENERATED = _generated()


def test_the_authoring_supports_every_style_of_the_standard() -> None:
    assert set(STYLES) == {"plain", "many_facts", "emotional", "typos", "non_native",
                           "wrong_product_term"}
    assert {row.style for _, row in GENERATED} == set(STYLES)


@pytest.mark.parametrize("style", STYLES)
def test_every_fact_of_every_generated_pack_survives_the_style(style: str) -> None:
    problems = []
    for n, row in GENERATED:
        plain = {f["key"]: f for f in facts(row.model_copy(update={"style": "plain"}), n,
                                            POLICY)}
        styled = facts(row.model_copy(update={"style": style}), n, POLICY)
        assert [f["key"] for f in styled] == list(plain), row.id
        for f in styled:
            p = plain[f["key"]]
            where = f"{row.id} {style} {f['key']}: {f['say']!r}"
            if f["value"] != p["value"] or f["kind"] != p["kind"]:
                problems.append(f"{where}: value or kind changed")
            got = _read(f["key"], f["kind"], f["say"], row.line)
            if (got is not None or f["kind"] != "text") and got != _expected(f["kind"],
                                                                             f["value"]):
                problems.append(f"{where}: read as {got!r}, is {f['value']!r}")
            if f["key"] in VERBATIM_KEYS and str(f["value"]) not in f["say"]:
                problems.append(f"{where}: the value {f['value']!r} is not in it")
            problems += [f"{where}: {w}" for w in _same_fact(p["say"], f["say"])]
            if p.get("later"):
                problems += [f"{where} (before it arrives): {w}"
                             for w in _same_fact(p["later"]["describe_before"],
                                                 f["later"]["describe_before"])]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("style", STYLES)
def test_every_later_file_of_every_generated_pack_survives_the_style(style: str) -> None:
    problems = []
    for n, row in GENERATED:
        files = plan_files(row, n)
        plain = materials(row.model_copy(update={"style": "plain"}), n, files)["materials"]
        styled = materials(row.model_copy(update={"style": style}), n, files)["materials"]
        for p, s in zip(plain, styled, strict=True):
            assert (p["file"], p["label"], p["availability"]) == (
                s["file"], s["label"], s["availability"]), row.id
            if p.get("later"):
                assert p["later"]["arrives"] == s["later"]["arrives"], row.id
                problems += [f"{row.id} {style} {s['file']}: {w}" for w in _same_fact(
                    p["later"]["describe_before"], s["later"]["describe_before"])]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("plain", "style"), [
    ("No, nobody was hurt.", "typos"), ("Nobody was hurt, no.", "typos"),
    ("No, it can't be driven.", "typos"), ("It happened on 3 March 2026.", "non_native"),
    ("No, nobody was hurt.", "non_native"), ("No injuries, thankfully.", "emotional"),
])
def test_a_voiced_negation_or_number_keeps_its_meaning(plain: str, style: str) -> None:
    for n in range(4):
        assert not _same_fact(plain, voiced(plain, style, n)), (plain, style, n)


def test_the_meaning_check_sees_a_lost_negation_and_a_changed_number() -> None:
    assert _same_fact("No, nobody was hurt.", "Yes, somebody was hurt.")
    assert _same_fact("It happened on 3 March 2026.", "It happened on 4 March 2026.")
    assert not _same_fact("No, nobody was hurt.", "no nobody is hurt")


def test_a_respelt_negation_is_read_otherwise() -> None:
    """Why no writer's typo touches a word of negation: the reader takes 'nobdy was hurt,
    no' as a yes."""
    assert parse_fact("injuries", "nobody was hurt, no") is False
    assert parse_fact("injuries", "nobdy was hurt, no") is True
    for n in range(4):
        assert "nobody" in voiced("Nobody was hurt, no.", "typos", n).lower()


def test_every_fact_of_every_pack_reads_back_in_its_own_style() -> None:
    problems = []
    for folder in sorted(PACKS.glob("CTL-*")):
        pack = claims_corpus.load_pack(folder)
        for f in pack.facts.facts:
            got = _read(f.key, f.kind, f.say, pack.labels.line)
            if f.kind == "text" and f.key not in READ_KEYS:
                continue
            value = f.value.model_dump() if hasattr(f.value, "model_dump") else f.value
            if got != _expected(f.kind, value):
                problems.append(f"{folder.name} ({pack.labels.message_style}) {f.key}: "
                                f"{f.say!r} read as {got!r}, is {value!r}")
    assert not problems, "\n".join(problems)
