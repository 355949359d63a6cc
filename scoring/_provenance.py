"""Which scorer wrote a sheet or a summary: the harness version and a hash of the rule
sources, so that numbers from different scoring rules are never compared by accident."""

from __future__ import annotations

import functools
import hashlib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from claims_records import ScorerInfo

HERE = Path(__file__).parent
# Modules that only present results; changing them changes no score.
PRESENTATION = frozenset({"_report.py", "_charts.py", "_trend.py", "_provenance.py",
                          "__init__.py"})
RULE_SUFFIXES = (".py", ".toml")


def rule_sources() -> list[Path]:
    """The files whose content decides scores, in a fixed order."""
    files = [p for p in HERE.rglob("*") if p.is_file() and p.suffix in RULE_SUFFIXES
             and "templates" not in p.relative_to(HERE).parts
             and "__pycache__" not in p.parts and p.name not in PRESENTATION]
    return sorted(files, key=lambda p: p.relative_to(HERE).as_posix())


@functools.cache
def scorer_info() -> ScorerInfo:
    """This scorer's identity (computed once per process)."""
    digest = hashlib.sha256()
    for path in rule_sources():
        digest.update(path.relative_to(HERE).as_posix().encode() + b"\0")
        digest.update(path.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    try:
        ver = version("claims-journey-harness")
    except PackageNotFoundError:
        ver = "unknown"
    return ScorerInfo(version=ver, source_hash=digest.hexdigest())
