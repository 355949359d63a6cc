"""docs/example-app.md stays true to the product: every question, every workbench word and
every row of the canonical mapping is on the page."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from claims_example_app._wording import load

from ._mapping import MAPPING_FILE

DOC = (Path(__file__).resolve().parents[2] / "docs" / "example-app.md").read_text(
    encoding="utf-8")
REFERRAL = {"refer": "true", "none": "false"}


def _row(*cells: str) -> bool:
    pattern = r"\|\s*" + r"\s*\|\s*".join(re.escape(c) for c in cells) + r"\s*\|"
    return re.search(pattern, DOC) is not None


def test_every_question_and_re_ask_is_listed():
    text = load("assistant")
    for key, question in text["questions"].items():
        assert question in DOC, key
        assert text["clarify"][key] in DOC, key
    for kind, entry in text["files"].items():
        assert entry["ask"] in DOC, kind


def test_every_workbench_word_is_listed_with_its_code():
    for section, words in load("workbench").items():
        for code, word in words.items():
            code = REFERRAL.get(code, code) if section == "referral" else code
            assert re.search(rf"\| `{re.escape(code)}` \| {re.escape(word)} \|", DOC), (
                section, code, word)


def test_every_mapping_row_is_listed():
    raw = tomllib.loads(MAPPING_FILE.read_text(encoding="utf-8"))["collections"]
    for name, spec in raw.items():
        target = f"`{spec['to']}`" if spec["to"] else "(none)"
        assert re.search(rf"`{name}`[^\n]*→ {re.escape(target)}", DOC), name
        for canonical, product in spec.get("fields", {}).items():
            fact = re.fullmatch(r"facts\.(\w+)(\.state)?", canonical)
            if fact:
                key = product.split(".")[1]
                assert _row(f"`{fact[1]}`", f"`{key}`"), canonical
            else:
                assert _row(f"`{canonical}`", f"`{product}`"), canonical
        for field, table in spec.get("values", {}).items():
            for a, b in table.items():
                assert f"`{a}` → `{b}`" in DOC, (name, field, a)
