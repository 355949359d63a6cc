"""Rules every field of every JSON file obeys, whoever reads it: no control characters, and
every currency an ISO 4217 code.

The customer's texts are not the only ones a person or a program reads: staff read the staff
script's note and the seeded records, reviewers read the oracle's explanations and the
provenance, terminals print all of them. So the control-character rule of the customer's
texts (``control_problem``: NUL, other C0 and C1 controls but tab, line feed and carriage
return, ANSI escapes, bidirectional overrides and isolates, zero-width characters) holds for
every string and every object key of every JSON file of a pack and of the corpus files beside
the packs. Every field named ``currency``, wherever it sits (a money value of a fact, the staff
script's amount, the oracle's note amount, a document generator's parameters, a seeded record),
must be a current ISO 4217 code (``claims_corpus._currencies``).

Fields are named by their path: dotted (``staff_script.note``, ``facts.3.say``), and in
``setup.json`` as the seed plan names them (``collections.policies[0].currency``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from claims_records import PackError

from . import _io
from ._check_pack import PACK_FILES, Problem
from ._check_text import control_problem
from ._currencies import currency_problem

CURRENCY_FIELD = "currency"
# The corpus files beside the packs that are checked field by field.
CORPUS_FILES: tuple[str, ...] = (_io.MANIFEST, _io.BASELINE)


def _child(path: str, step: str | int, brackets: bool) -> str:
    if isinstance(step, int) and brackets:
        return f"{path}[{step}]"
    if isinstance(step, str) and control_problem(step):  # never print the character itself
        step = step.encode("unicode_escape").decode("ascii")
    return f"{path}.{step}" if path else str(step)


def _walk(value: object, path: str, brackets: bool) -> Iterator[tuple[str, str, object]]:
    """(path, what, value) for every string value ("text"), object key ("key") and
    ``currency`` field ("currency") inside a parsed JSON value."""
    if isinstance(value, str):
        yield path, "text", value
    elif isinstance(value, dict):
        for k, v in value.items():
            here = _child(path, k, brackets)
            yield here, "key", k
            if k == CURRENCY_FIELD:
                yield here, "currency", v
            yield from _walk(v, here, brackets)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, _child(path, i, brackets), brackets)


def json_field_problems(pack: str | None, path: Path, file: str) -> list[Problem]:
    """Control characters and non-ISO 4217 currencies in one JSON file; nothing for a file that
    is missing or does not parse (the format check reports it)."""
    try:
        data = _io.parse_json(_io.read_bytes(path, pack=pack, file=file), pack=pack, file=file)
    except PackError:
        return []
    out: list[Problem] = []
    for where, what, value in _walk(data, "", brackets=file == _io.SETUP):
        if what == "currency":
            if isinstance(value, str):  # another type is the format check's to report
                bad = currency_problem(value)
                if bad:
                    out.append(Problem(pack, file, where, bad))
            continue
        assert isinstance(value, str)
        bad = control_problem(value)
        if bad:
            out.append(Problem(pack, file, where,
                               f"the field name {bad}" if what == "key" else bad))
    return out


def field_problems(pack: str, pack_dir: Path) -> list[Problem]:
    """The rules of every field, for every JSON file of the pack."""
    out: list[Problem] = []
    for file in PACK_FILES:
        if file.endswith(".json"):
            out += json_field_problems(pack, pack_dir / file, file)
    return out


def corpus_field_problems(root: Path) -> list[Problem]:
    """The rules of every field, for the corpus files beside the packs."""
    out: list[Problem] = []
    for file in CORPUS_FILES:
        if (root / file).is_file():
            out += json_field_problems(None, root / file, file)
    return out
