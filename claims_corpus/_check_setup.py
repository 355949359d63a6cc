"""setup.json against the seed plan: everything a reset would refuse, refused here first.

The rules themselves are ``claims_corpus.plan`` (the seed route runs the same code), applied
with the corpus baseline and the object files as they lie in the pack.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from claims_records import PackError

from . import _io
from ._check_pack import Problem
from .formats import Baseline, Facts, Setup
from .plan import BASELINE_FILE, plan_setup


def _object_file(pack_dir: Path, name: str) -> tuple[bytes | None, str | None]:
    """The bytes of a setup object's file, or why it cannot be used."""
    rel = PurePosixPath(name)
    if not name or "\\" in name or rel.is_absolute() or ".." in rel.parts:
        return None, f"{name!r} must be a relative path inside the pack, without '..'"
    path = pack_dir / rel
    if path.is_symlink():
        return None, f"{name!r} is a symbolic link; packs hold real files"
    if not path.resolve().is_relative_to(pack_dir.resolve()):
        return None, f"{name!r} lies outside the pack"
    if not path.is_file():
        return None, f"object file {name!r} is missing"
    try:
        return _io.read_bytes(path, pack=pack_dir.name, file=name, max_bytes=None), None
    except PackError as exc:
        return None, exc.message


def setup_problems(pack: str, pack_dir: Path, baseline: Baseline | None) -> list[Problem]:
    """Every reason the seed route would refuse this pack's setup, and setup values that
    disagree with the facts (a known id the customer does not know)."""
    try:
        setup = _io.read_model(pack_dir / _io.SETUP, Setup, pack=pack, file=_io.SETUP)
    except PackError:
        return []  # check_pack reports an unreadable setup.json
    out: list[Problem] = []
    files: dict[str, bytes] = {}
    for i, obj in enumerate(setup.objects):
        data, why = _object_file(pack_dir, obj.file)
        if why:
            out.append(Problem(pack, _io.SETUP, f"objects[{i}].file", why))
        elif data is not None:
            files[obj.file] = data
    _, problems = plan_setup(baseline or Baseline(), setup, files)
    for p in problems:
        if p.file == BASELINE_FILE:
            continue  # reported once for the corpus, not per pack
        if p.field.endswith(".file") and any(o.field == p.field for o in out):
            continue  # the file's own problem says more
        out.append(Problem(pack, _io.SETUP, p.field, p.message))
    out += _known_ids(pack, pack_dir, setup)
    return out


def _known_ids(pack: str, pack_dir: Path, setup: Setup) -> list[Problem]:
    try:
        facts = _io.read_model(pack_dir / _io.FACTS, Facts, pack=pack, file=_io.FACTS)
    except PackError:
        return []
    values = {str(f.value) for f in facts.facts}
    return [Problem(pack, _io.SETUP, f"known_ids.{key}",
                    f"{value!r} is not a value in {_io.FACTS}; the customer knows only facts")
            for key, value in setup.known_ids.items() if value not in values]


def baseline_problems(baseline: Baseline) -> list[Problem]:
    """Reasons the corpus baseline cannot be seeded at all."""
    empty = Setup(pack_id="CTL-M-000", claimant_session="anonymous")
    _, problems = plan_setup(baseline, empty, {})
    return [Problem(None, _io.BASELINE, p.field, p.message) for p in problems
            if p.file == BASELINE_FILE]
