"""A run refuses a corpus that fails ``corpus check``: ``run`` and the nightly job call this
gate before the run starts.

The harness never runs the check itself, since the checker reads every pack's oracle and no
code in ``harness/`` may. Checking the
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
from typing import Any

from claims_records import CorpusCheckStamp, PackError, read_model, write_model_atomic

from ._check import check_corpus
from ._loading import missing_corpus

CACHE_ENV = "CLAIMS_HARNESS_CACHE_DIR"
# How a run is told to run a failing corpus anyway: the `run` option (the nightly job names
# its configuration key instead).
OVERRIDE = "pass --allow-unchecked-corpus"

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


def kept_stamp(root: Path, cache: Path | None = None) -> tuple[str, CorpusCheckStamp | None]:
    """The key of the corpus at ``root`` and its kept stamp (None: not checked yet)."""
    key = corpus_key(root)
    path = (cache or cache_dir()) / "corpus-checks" / f"{key}.json"
    if path.is_file():
        with contextlib.suppress(Exception):  # a damaged stamp: check again
            stamp = read_model(CorpusCheckStamp, path)
            if stamp.key == key:
                return key, stamp
    return key, None


def checked_now(root: Path, key: str, cache: Path | None = None) -> CorpusCheckStamp:
    """Run ``corpus check`` on ``root`` and keep its outcome under ``key``."""
    stamp = _stamp(root, key, check_corpus(root))
    folder = (cache or cache_dir()) / "corpus-checks"
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        write_model_atomic(folder / f"{key}.json", stamp)
    return stamp


def check_stamp(root: Path, cache: Path | None = None) -> CorpusCheckStamp:
    """The outcome of ``corpus check`` on the corpus at ``root``: from the cache when this
    exact content was checked by this exact checker, else checked now (and kept)."""
    root = Path(root)
    if not root.is_dir():  # nothing to hash: the check itself says what is wrong
        return _stamp(root, "0" * 64, check_corpus(root))
    key, stamp = kept_stamp(root, cache)
    return stamp if stamp is not None else checked_now(root, key, cache)


def _stamp(root: Path, key: str, report: object) -> CorpusCheckStamp:
    problems = list(getattr(report, "problems", []))
    first = problems[0] if problems else None
    return CorpusCheckStamp(
        key=key, root=str(root), checked_at=datetime.now(UTC).isoformat(timespec="seconds"),
        packs_checked=len(getattr(report, "packs_checked", [])), problems=len(problems),
        first=str(first) if first else None,
        first_pack=first.pack if first else None, first_file=first.file if first else None,
        first_field=first.field if first else None)


def failing_corpora(roots: list[str], allow: bool, cache: Path | None = None,
                    override: str = OVERRIDE) -> list[CorpusCheckStamp]:
    """The corpora of a run that fail ``corpus check``. Without ``allow`` the first such
    corpus is refused: a ``PackError`` naming its first problem's pack, file and field, how
    many problems it has and how to run it anyway (``override``). A corpus folder that is
    not there is refused whatever ``allow`` says (there is nothing to run)."""
    _all_there(roots)
    return refused_or_failing([check_stamp(Path(r), cache) for r in roots], allow, override)


def _all_there(roots: list[str]) -> None:
    for r in roots:
        if not Path(r).is_dir():
            raise missing_corpus(r)


def refused_or_failing(stamps: list[CorpusCheckStamp], allow: bool, override: str = OVERRIDE
                       ) -> list[CorpusCheckStamp]:
    """The failing ones of ``stamps``; without ``allow`` a failing one is refused."""
    failing = [s for s in stamps if not s.ok]
    if failing and not allow:
        s = failing[0]
        raise PackError(
            f"refusing to run: the corpus {s.root} fails `corpus check` with {s.problems} "
            f"problem(s), the first: {s.first}; fix it (see `claims-harness corpus check "
            f"{s.root}`) or {override} to run it anyway (the run is labelled 'corpus "
            "fails check')", pack=s.first_pack, file=s.first_file, field=s.first_field,
            problems=s.problems)
    return failing


def running_anyway(stamp: CorpusCheckStamp) -> str:
    """The warning for a failing corpus a run was told to run anyway."""
    return (f"warning: the corpus {stamp.root} fails `corpus check` with {stamp.problems} "
            f"problem(s), the first: {stamp.first}; running it anyway: the run is labelled "
            "'corpus fails check'")


def _check_in_child(root: Path, key: str, cache: Path | None, conn: Any) -> None:
    try:
        conn.send(checked_now(root, key, cache).model_dump_json())
    except BaseException as exc:  # the parent re-raises it as the check's failure
        conn.send(f"!{type(exc).__name__}: {exc}")
    finally:
        conn.close()


class PendingCheck:
    """The corpus check of a run, started early: corpora whose stamp is kept are decided at
    once; the others are checked in a child process (the checker takes seconds of CPU) while
    the caller does other work, such as starting the dev environment, and ``result`` waits
    for them. Nothing of the run may be recorded before ``result`` returned; ``close`` stops
    a check still running (a stopped run)."""

    def __init__(self, roots: list[str], allow: bool, cache: Path | None = None) -> None:
        import multiprocessing

        _all_there(roots)
        self.allow = allow
        self._parts: list[CorpusCheckStamp | tuple[Any, Any]] = []
        spawn = multiprocessing.get_context("spawn")
        for r in roots:
            root = Path(r)
            key, stamp = kept_stamp(root, cache) if root.is_dir() else ("", None)
            if stamp is not None or not root.is_dir():
                self._parts.append(stamp if stamp is not None else check_stamp(root, cache))
                continue
            parent, child = spawn.Pipe(duplex=False)
            proc = spawn.Process(target=_check_in_child, args=(root, key, cache, child),
                                 daemon=True)
            proc.start()
            child.close()
            self._parts.append((proc, parent))

    @property
    def decided(self) -> bool:
        """Every corpus's outcome is known without waiting."""
        return all(isinstance(p, CorpusCheckStamp) for p in self._parts)

    def result(self) -> list[CorpusCheckStamp]:
        """The failing corpora (waiting for the check); a ``PackError`` when one fails and
        the run does not allow it."""
        stamps: list[CorpusCheckStamp] = []
        for i, part in enumerate(self._parts):
            if not isinstance(part, CorpusCheckStamp):
                proc, conn = part
                try:
                    answer = conn.recv()
                except EOFError:
                    answer = f"!the check ended with exit code {proc.exitcode}"
                proc.join()
                conn.close()
                if answer.startswith("!"):
                    raise PackError(f"`corpus check` failed to run: {answer[1:]}")
                part = self._parts[i] = CorpusCheckStamp.model_validate_json(answer)
            stamps.append(part)
        return refused_or_failing(stamps, self.allow)

    def close(self) -> None:
        for part in self._parts:
            if not isinstance(part, CorpusCheckStamp):
                proc, conn = part
                if proc.is_alive():
                    proc.terminate()
                proc.join()
                conn.close()
        self._parts = [p for p in self._parts if isinstance(p, CorpusCheckStamp)]

    def __enter__(self) -> PendingCheck:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
