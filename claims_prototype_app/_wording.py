"""Heron Mutual's words: every reply, question, label and listening word lives in text/*.toml."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

TEXT_DIR = Path(__file__).with_name("text")


@cache
def load(name: str) -> dict[str, Any]:
    """One TOML file of text/ by stem (``replies``, ``listen``, ``money``, ``rules``)."""
    with (TEXT_DIR / f"{name}.toml").open("rb") as fh:
        return tomllib.load(fh)


def reply(key: str, /, **values: object) -> str:
    """A reply of text/replies.toml ``[replies]``, filled in."""
    text: str = load("replies")["replies"][key]
    return text.format(**values)


def question(key: str) -> str:
    text: str = load("replies")["questions"][key]
    return text


def label(key: str) -> str:
    """How a detail is named in the summary ('Time of the incident')."""
    labels: dict[str, str] = load("replies")["labels"]
    return labels.get(key, key.replace("_", " ").capitalize())


def labels() -> dict[str, str]:
    out: dict[str, str] = load("replies")["labels"]
    return out


def material(kind: str, field: str) -> str:
    text: str = load("replies")["materials"][kind][field]
    return text


def choice(line: str, code: str) -> str:
    """The words shown for an incident type of ``line``."""
    text: str = load("replies")["incident_types"][line][code]
    return text


def button(name: str) -> str:
    text: str = load("replies")["buttons"][name]
    return text


@cache
def _pattern(group: str) -> re.Pattern[str]:
    words: Any = load("listen")
    for part in group.split("."):
        words = words[part]
    alternatives = []
    for w in sorted(words, key=len, reverse=True):
        stem = w.endswith("*")
        body = r"\s+".join(re.escape(p) for p in w.rstrip("*").split())
        alternatives.append(body + (r"\w*" if stem else r"\b"))
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + ")", re.I)


def hears(group: str, said: str) -> bool:
    """Whether ``said`` holds one of the words of text/listen.toml under ``group``
    (dotted: ``incident_types.motor.theft``)."""
    return bool(_pattern(group).search(plain(said)))


def plain(said: str) -> str:
    """``said`` with typographic apostrophes and dashes made plain."""
    return said.replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-")
