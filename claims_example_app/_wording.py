"""The assistant's wording and listening words, loaded from text/assistant.toml."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

TEXT_DIR = Path(__file__).with_name("text")


@cache
def load(name: str) -> dict[str, Any]:
    """One TOML file of text/ by stem (``assistant``, ``workbench``)."""
    with (TEXT_DIR / f"{name}.toml").open("rb") as fh:
        return tomllib.load(fh)


def text() -> dict[str, Any]:
    return load("assistant")


def reply(key: str, /, **values: object) -> str:
    return text()["replies"][key].format(**values)


def question(key: str) -> str:
    return text()["questions"][key]


def clarify(key: str) -> str:
    return text()["clarify"][key]


def label(key: str) -> str:
    return text()["labels"].get(key, key.replace("_", " ").capitalize())


def quick(name: str) -> str:
    return text()["quick"][name]


def type_labels(line: str | None) -> dict[str, str]:
    """Incident type code -> quick-reply label for ``line``."""
    return dict(text()["incident_types"].get(line or "", {}))


def file_text(kind: str, field: str) -> str:
    entry = text()["files"].get(kind)
    return entry[field] if entry else kind.replace("_", " ")


def document_text(key: str, /, **values: object) -> str:
    return text()["documents"][key].format(**values)


@cache
def _pattern(group: str) -> re.Pattern[str]:
    words = text()["listen"]
    for part in group.split("."):
        words = words[part]
    alternatives = []
    for w in sorted(words, key=len, reverse=True):
        stem = w.endswith("*")
        body = r"\s+".join(re.escape(p) for p in w.rstrip("*").split())
        alternatives.append(body + (r"\w*" if stem else r"\b"))
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + ")", re.I)


def hears(group: str, said: str) -> bool:
    """Whether ``said`` holds one of the words listed under ``[listen] <group>``."""
    return bool(_pattern(group).search(said.replace("\u2019", "'")))


def without(group: str, said: str) -> str:
    """``said`` with every phrase of ``group`` removed."""
    return _pattern(group).sub(" ", said.replace("\u2019", "'"))


def content_words(said: str) -> list[str]:
    """The words of ``said`` that are not listed under ``[listen] filler``."""
    filler = set(text()["listen"]["filler"])
    return [w for w in re.findall(r"[a-z0-9']+", said.lower().replace("\u2019", "'"))
            if w not in filler]
