"""The failure modes: each named once in the records' list, and each in the table of
docs/scoring.md ("Failure modes") exactly once."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from claims_records import FAILURE_MODES

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoring.md"


def _documented() -> Counter[str]:
    text = DOC.read_text(encoding="utf-8")
    table = text.split("### Failure modes", 1)[1].split("\n## ", 1)[0]
    labels: Counter[str] = Counter()
    for row in table.splitlines():
        if row.startswith("| `"):
            labels.update(re.findall(r"`([a-z_]+)`", row.split("|")[1]))
    return labels


def test_every_failure_mode_is_listed_once() -> None:
    twice = [m for m, n in Counter(FAILURE_MODES).items() if n > 1]
    assert twice == []


def test_every_failure_mode_has_one_row_in_the_scoring_docs() -> None:
    documented = _documented()
    assert sorted(set(FAILURE_MODES) - set(documented)) == []
    assert sorted(set(documented) - set(FAILURE_MODES)) == []
    assert [m for m, n in documented.items() if n > 1] == []
