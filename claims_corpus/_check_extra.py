"""Checks beyond the format, composed for ``check_corpus``: the pack's files, its text, its
setup against the seed plan, and the leak audit. Each is a focused module; this one only runs
them, in an order that reads nothing through a link, and turns a checker failure into a
reported problem rather than a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from ._check_fields import field_problems
from ._check_files import material_problems, symlink_problems
from ._check_keys import fact_key_problems
from ._check_leaks import leak_problems, runtime_guard_problems
from ._check_message import message_problems
from ._check_pack import Problem, check_pack
from ._check_setup import setup_problems
from ._check_text import text_problems
from ._loading import Pack
from .formats import Baseline, StoryFact


def _guarded(pack: str, name: str, check: Callable[[], list[Problem]]) -> list[Problem]:
    try:
        return check()
    except Exception as exc:  # a checker bug must not hide the other packs' problems
        return [Problem(pack, "<pack>", f"<{name} check>",
                        f"the checker failed here ({type(exc).__name__}: {exc}); the pack "
                        "cannot be called clean")]


def unsafe_pack(pack_dir: Path) -> list[Problem]:
    """Symbolic links in the pack: nothing else of it is read while there are any."""
    return _guarded(pack_dir.name, "links", lambda: symlink_problems(pack_dir.name, pack_dir))


def extra_pack_problems(pack_dir: Path, baseline: Baseline | None,
                        story_facts: Mapping[str, StoryFact] | None = None) -> list[Problem]:
    """Every problem the run or the seed route would meet that the format does not show
    (``story_facts``: the story-fact keys the corpus's manifest declares)."""
    pack = pack_dir.name
    checks: list[tuple[str, Callable[[], list[Problem]]]] = [
        ("materials", lambda: material_problems(pack, pack_dir)),
        ("text", lambda: text_problems(pack, pack_dir)),
        ("message", lambda: message_problems(pack, pack_dir)),
        ("setup", lambda: setup_problems(pack, pack_dir, baseline)),
        ("leak", lambda: leak_problems(pack, pack_dir)),
        ("prompt", lambda: runtime_guard_problems(pack, pack_dir)),
        ("fact key", lambda: fact_key_problems(pack, pack_dir, story_facts)),
        ("fields", lambda: field_problems(pack, pack_dir)),
    ]
    out: list[Problem] = []
    for name, check in checks:
        named = {(p.file, p.field) for p in out}
        # the rules of every field go last and add nothing at a place already reported
        out += [p for p in _guarded(pack, name, check)
                if name != "fields" or (p.file, p.field) not in named]
    return out


def checked_pack(pack_dir: Path) -> tuple[list[Problem], Pack | None]:
    """``check_pack``, with a checker failure reported as a problem of the pack."""
    found: list[Pack | None] = []

    def run() -> list[Problem]:
        problems, pack = check_pack(pack_dir)
        found.append(pack)
        return problems

    problems = _guarded(pack_dir.name, "format", run)
    return problems, found[0] if found else None
