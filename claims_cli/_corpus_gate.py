"""``run`` refuses a corpus that fails ``corpus check``.

The check runs here, in the command line, before the run starts: the harness never runs it,
since the checker reads every pack's oracle and no code in ``harness/`` may. Checking the
100-pack corpus takes seconds, so the outcome is kept as a ``CorpusCheckStamp`` under a key
that is the sha256 of every file of the corpus folder (path and content) and of the
checker's own code: a run of an unchanged corpus with an unchanged checker reads the stamp
(about a tenth of a second to hash), any change checks again. The stamps live in
``$CLAIMS_HARNESS_CACHE_DIR`` (default ``$XDG_CACHE_HOME/claims-harness``, else
``~/.cache/claims-harness``) under ``corpus-checks/``; a cache that cannot be written only
means checking every time.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from datetime import UTC, datetime
from pathlib import Path

from claims_records import CorpusCheckStamp, PackError, read_model, write_model_atomic

CACHE_ENV = "CLAIMS_HARNESS_CACHE_DIR"
OVERRIDE = "--allow-unchecked-corpus"

# The packages whose code decides what `corpus check` finds (the checker, the formats it
# validates with, the seed plan it builds); their sources are part of a stamp's key.
_CHECKER_PACKAGES = ("claims_corpus", "claims_records", "seed")


def cache_dir() -> Path:
    """Where corpus-check stamps are kept."""
    given = os.environ.get(CACHE_ENV)
    if given:
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "claims-harness"


def _checker_digest() -> bytes:
    import importlib

    h = hashlib.sha256()
    for name in _CHECKER_PACKAGES:
        package = Path(importlib.import_module(name).__file__ or "").parent
        for path in sorted(package.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                h.update(f"{name}/{path.relative_to(package).as_posix()}\0".encode())
                h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.digest()


def corpus_key(root: Path) -> str:
    """sha256 over every file under ``root`` (a link by where it points, never through it)
    and the checker's code."""
    h = hashlib.sha256(_checker_digest())
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            h.update(f"L\0{rel}\0{os.readlink(path)}\n".encode())
        elif path.is_file():
            h.update(f"F\0{rel}\0".encode())
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def check_stamp(root: Path, cache: Path | None = None) -> CorpusCheckStamp:
    """The outcome of ``corpus check`` on the corpus at ``root``: from the cache when this
    exact content was checked by this exact checker, else checked now (and kept)."""
    import claims_corpus

    root = Path(root)
    if not root.is_dir():  # nothing to hash: the check itself says what is wrong
        return _stamp(root, "0" * 64, claims_corpus.check_corpus(root))
    key = corpus_key(root)
    folder = (cache or cache_dir()) / "corpus-checks"
    path = folder / f"{key}.json"
    if path.is_file():
        with contextlib.suppress(Exception):  # a damaged stamp: check again
            stamp = read_model(CorpusCheckStamp, path)
            if stamp.key == key:
                return stamp
    stamp = _stamp(root, key, claims_corpus.check_corpus(root))
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        write_model_atomic(path, stamp)
    return stamp


def _stamp(root: Path, key: str, report: object) -> CorpusCheckStamp:
    problems = list(getattr(report, "problems", []))
    first = problems[0] if problems else None
    return CorpusCheckStamp(
        key=key, root=str(root), checked_at=datetime.now(UTC).isoformat(timespec="seconds"),
        packs_checked=len(getattr(report, "packs_checked", [])), problems=len(problems),
        first=str(first) if first else None,
        first_pack=first.pack if first else None, first_file=first.file if first else None,
        first_field=first.field if first else None)


def failing_corpora(roots: list[str], allow: bool, cache: Path | None = None
                    ) -> list[CorpusCheckStamp]:
    """The corpora of a run that fail ``corpus check``. Without ``allow`` the first such
    corpus is refused: a ``PackError`` naming its first problem's pack, file and field, how
    many problems it has and how to run it anyway."""
    failing = [s for s in (check_stamp(Path(r), cache) for r in roots) if not s.ok]
    if failing and not allow:
        s = failing[0]
        raise PackError(
            f"refusing to run: the corpus {s.root} fails `corpus check` with {s.problems} "
            f"problem(s), the first: {s.first}; fix it (see `claims-harness corpus check "
            f"{s.root}`) or pass {OVERRIDE} to run it anyway (the run is labelled 'corpus "
            "fails check')", pack=s.first_pack, file=s.first_file, field=s.first_field,
            problems=s.problems)
    return failing
