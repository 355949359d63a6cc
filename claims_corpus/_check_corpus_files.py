"""Checks of the corpus-level files beside the packs: acceptance.toml and the baseline's other
customer (whose identifiers must appear in no pack, or the data-leak check could not tell a
leak from the pack's own data)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from pydantic import ValidationError

from claims_records import ACCEPTANCE_FILE, AcceptanceConfig

from . import _io
from ._check_pack import Problem
from .formats import Baseline

# Pack files read as text when looking for the other customer's identifiers.
_TEXT_SUFFIXES = (".json", ".txt", ".md")


def acceptance_problems(root: Path) -> list[Problem]:
    """acceptance.toml is optional; when present it must parse as ``AcceptanceConfig``."""
    path = Path(root) / ACCEPTANCE_FILE
    if not path.exists():
        return []
    try:
        AcceptanceConfig.from_toml(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return [Problem(None, ACCEPTANCE_FILE, "<file>", f"not readable TOML: {exc}")]
    except ValidationError as exc:
        fld, msg = _io.validation_problems(exc)[0]
        return [Problem(None, ACCEPTANCE_FILE, fld, f"invalid: {msg}")]
    return []


def other_customer_problems(baseline: Baseline, pack_dirs: list[Path]) -> list[Problem]:
    """Every identifier of the baseline's other customer must be absent from every pack."""
    other = baseline.other_customer
    if other is None:
        return []
    problems = []
    for pack_dir in pack_dirs:
        for path in sorted(p for p in pack_dir.rglob("*")
                           if p.is_file() and p.suffix in _TEXT_SUFFIXES):
            text = path.read_text(encoding="utf-8", errors="replace").lower()
            for name, value in other.identifiers.items():
                if value.lower() in text:
                    problems.append(Problem(
                        pack_dir.name, path.relative_to(pack_dir).as_posix(), "<content>",
                        f"holds the baseline's other customer's {name} ({value!r}): the "
                        "data-leak check would read the pack's own data as a leak"))
    return problems
