"""Checks of the text the customer model reads: no control characters, sizes within limits,
absolute dates in every piece of the story.

Limits (characters):

- the first message: 4,000 (what a chat composer takes; the reference product's limit);
- a persona's name: 200; each other persona field: 2,000;
- a fact's ``say`` or text value: 1,000; its ``topic``: 200;
- a material's label: 300; what the customer says before it arrives: 1,000;
- at most 100 facts and 50 materials.

Tab, line feed and carriage return are the only control characters allowed. ANSI escapes,
NUL, other C0/C1 controls, bidirectional overrides, zero-width characters and line/paragraph
separators change what a reader or a terminal shows without being visible, and are refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from claims_records import PackError

from . import _io
from ._check_pack import Problem
from ._check_rules import relative_date_words
from .formats import Facts, Materials, Persona

MAX_MESSAGE_CHARS = 4000
MAX_NAME_CHARS = 200
MAX_PERSONA_FIELD_CHARS = 2000
MAX_SAY_CHARS = 1000
MAX_TOPIC_CHARS = 200
MAX_LABEL_CHARS = 300
MAX_DESCRIBE_CHARS = 1000
MAX_FACTS = 100
MAX_MATERIALS = 50

_INVISIBLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064"
    "\u2066-\u2069\ufeff\ufff9-\ufffb]")


def control_problem(text: str) -> str | None:
    """Why ``text`` holds an invisible or control character, or None."""
    m = _INVISIBLE.search(text)
    if m is None:
        return None
    what = "an ANSI escape" if m.group() == "\x1b" else f"the control character {m.group()!r}"
    return f"holds {what} at position {m.start()}; write plain text"


def _fields(pack_dir: Path, pack: str) -> Iterator[tuple[str, str, str, int, bool]]:
    """(file, field, text, limit, story) for every customer-visible text of the pack; story
    texts must state dates absolutely. A list with too many entries comes as its count text
    with an int limit of entries. Files that do not parse are skipped (``check_pack`` reports
    them)."""
    try:
        message = _io.read_text(pack_dir / _io.INITIAL_MESSAGE, pack=pack,
                                file=_io.INITIAL_MESSAGE)
    except PackError:
        message = None
    if message is not None:
        yield _io.INITIAL_MESSAGE, "<text>", message, MAX_MESSAGE_CHARS, False
    try:
        persona = _io.read_model(pack_dir / _io.PERSONA, Persona, pack=pack, file=_io.PERSONA)
    except PackError:
        persona = None
    if persona is not None:
        yield _io.PERSONA, "name", persona.name, MAX_NAME_CHARS, False
        for name in ("personality", "speaking_style", "dont_know_phrase"):
            yield _io.PERSONA, name, getattr(persona, name), MAX_PERSONA_FIELD_CHARS, False
    try:
        facts = _io.read_model(pack_dir / _io.FACTS, Facts, pack=pack, file=_io.FACTS)
    except PackError:
        facts = None
    for i, f in enumerate(facts.facts if facts else []):
        yield _io.FACTS, f"facts.{i}.say", f.say, MAX_SAY_CHARS, False
        yield _io.FACTS, f"facts.{i}.topic", f.topic, MAX_TOPIC_CHARS, False
        if isinstance(f.value, str):
            yield _io.FACTS, f"facts.{i}.value", f.value, MAX_SAY_CHARS, False
    try:
        materials = _io.read_model(pack_dir / _io.MATERIALS, Materials, pack=pack,
                                   file=_io.MATERIALS)
    except PackError:
        materials = None
    for i, m in enumerate(materials.materials if materials else []):
        yield _io.MATERIALS, f"materials.{i}.file", m.file, MAX_LABEL_CHARS, False
        yield _io.MATERIALS, f"materials.{i}.label", m.label, MAX_LABEL_CHARS, True
        if m.later is not None:
            yield (_io.MATERIALS, f"materials.{i}.later.describe_before", m.later.describe_before,
                   MAX_DESCRIBE_CHARS, True)
    for file, field, items, most in ((_io.FACTS, "facts", facts and facts.facts, MAX_FACTS),
                                     (_io.MATERIALS, "materials",
                                      materials and materials.materials, MAX_MATERIALS)):
        if items and len(items) > most:
            yield file, field, f"{len(items)} entries", most, False


def text_problems(pack: str, pack_dir: Path) -> list[Problem]:
    """Control characters, oversized texts, and relative dates in material texts (the first
    message and the facts are checked for relative dates by ``check_pack``)."""
    out: list[Problem] = []
    for file, field, text, limit, story in _fields(pack_dir, pack):
        if field in ("facts", "materials"):
            out.append(Problem(pack, file, field, f"{text}; at most {limit}"))
            continue
        if len(text) > limit:
            out.append(Problem(pack, file, field,
                               f"is {len(text)} characters long; at most {limit}"))
        bad = control_problem(text)
        if bad:
            out.append(Problem(pack, file, field, bad))
        if story:
            for word in relative_date_words(text):
                out.append(Problem(pack, file, field,
                                   f"relative date {word!r}: use an absolute date"))
    return out
