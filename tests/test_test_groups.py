"""The module lists in tests/conftest.py that order and group the parallel run name modules
that exist (a renamed module would silently lose its place)."""

from __future__ import annotations

from pathlib import Path

from .conftest import LONGEST_FIRST, XDIST_GROUPS

ROOT = Path(__file__).resolve().parents[1]


def test_every_listed_module_exists() -> None:
    named = [g for g in LONGEST_FIRST if g.endswith(".py")] + list(XDIST_GROUPS)
    assert [m for m in named if not (ROOT / m).is_file()] == []


def test_every_named_group_is_a_module_or_a_group_given_in_the_tests() -> None:
    groups = set(XDIST_GROUPS.values()) | {"fresh-root", "fresh-user"}
    assert [g for g in LONGEST_FIRST if not g.endswith(".py") and g not in groups] == []
