"""The agent's and screen's wording, loaded from text/agent.toml."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

TEXT_FILE = Path(__file__).with_name("text") / "agent.toml"


@cache
def wording() -> dict[str, Any]:
    with TEXT_FILE.open("rb") as fh:
        return tomllib.load(fh)


def reply(name: str, **values: object) -> str:
    return wording()["replies"][name].format(**values)


def fact_label(key: str) -> str:
    return wording()["facts"].get(key, {}).get("label", key.replace("_", " ").capitalize())


def question(key: str) -> str:
    return wording()["facts"][key]["question"]


def clarify(key: str) -> str:
    return wording()["facts"][key]["clarify"]


def choice_labels(line: str | None) -> dict[str, str]:
    return dict(wording()["choices"].get(line or "", {}))


def chip(name: str) -> str:
    return wording()["chips"][name]


def material(kind: str, field: str) -> str:
    entry = wording()["materials"].get(kind)
    if entry is None:
        return kind.replace("_", " ")
    return entry[field]
