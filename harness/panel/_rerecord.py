"""Re-recording the panel's screens from the current corpus on the reference app.

The shipped screens (``screens/``) name the corpus version they were recorded with; when the
corpus moves on they are recorded again: the reference app is started in a dev environment,
the corpus is run once with the scripted customer into a temporary runs folder, and each
pack's first completed trial is recorded (``record_screens``). The new files are written
into a temporary folder beside the output folder and swapped in only when the recording is
complete, so an interrupted or failed re-record leaves the output folder as it was.
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import claims_corpus
from claims_records import PackError

from ._play import SCREENS_DIR, record_screens

RERECORD_COMMAND = "claims-harness selftest record-screens --reference"
"""The command that re-records the shipped screens (named by the staleness test)."""


@dataclass
class Rerecording:
    """What a re-record did: the files now in ``out_dir``, and the packs not recorded."""

    corpus_version: str
    out_dir: Path
    written: list[Path] = field(default_factory=list)
    missing: dict[str, str] = field(default_factory=dict)
    """Pack id -> the status of its trial, for each pack that gave no screens."""
    kept: list[Path] = field(default_factory=list)
    """Files of other packs kept as they were (``pack_ids`` given)."""
    seconds: float = 0.0

    @property
    def swapped(self) -> bool:
        """Whether the output folder was replaced (at least one pack was recorded)."""
        return bool(self.written)


def rerecord_screens(packs_root: Path | str = Path("packs"), out_dir: Path | str = SCREENS_DIR,
                     lanes: int = 1, pack_ids: Sequence[str] | None = None,
                     progress: Callable[[Any], None] | None = None) -> Rerecording:
    """Run the corpus at ``packs_root`` (or ``pack_ids`` of it) once on the reference app with
    the scripted customer, on ``lanes`` lanes, and record each pack's screens into ``out_dir``.

    Without ``pack_ids`` the output folder afterwards holds exactly the packs recorded now
    (files of packs that did not complete or left the corpus are gone); with ``pack_ids`` only
    those packs' files are replaced and the folder's other files are kept. The folder is
    swapped in whole, and only when at least one pack was recorded; on any error or interrupt
    it is left untouched. ``progress`` receives ``harness.TrialProgress`` events. Everything
    started (stores, apps, browsers) is stopped and every temporary folder removed on return.
    """
    from claims_records import DevConfig, RunConfig

    from .._dev import dev_product
    from ..profile import load_profile
    from ..runner import RunContext, run

    started = time.monotonic()
    packs_root, out_dir = Path(packs_root), Path(out_dir)
    version, _ = claims_corpus.corpus_identity(packs_root)
    corpus = [p.name for p in claims_corpus.list_packs(packs_root)]
    wanted = list(dict.fromkeys(pack_ids or corpus))
    unknown = [p for p in wanted if p not in corpus]
    if unknown:
        raise PackError("no such pack in the corpus", pack=", ".join(unknown),
                        file=str(packs_root))
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    result = Rerecording(corpus_version=version, out_dir=out_dir)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.recording-", dir=out_dir.parent))
    runs: Path | None = None
    try:
        staging.chmod(0o755)
        runs = Path(tempfile.mkdtemp(prefix="claims-screens-runs-"))
        config = RunConfig(corpora=[str(packs_root)], customer="scripted",
                           packs=wanted if pack_ids else [], lanes=lanes, dev=DevConfig())
        with dev_product(load_profile("reference"), lanes, packs_root) as (pointed, env):
            record, run_dir = run(config, RunContext(
                profile=pointed, runs_dir=runs, run_id=f"screens-{version}",
                seed_token=env.seed_token, progress=progress or (lambda event: None)))
        written = record_screens(run_dir, staging)
        recorded = {p.stem for p in written}
        for entry in record.trials:
            if entry.pack_id not in recorded:
                result.missing.setdefault(entry.pack_id, entry.status.value)
        if pack_ids and out_dir.is_dir():
            for old in sorted(out_dir.glob("*.json")):
                if old.stem not in wanted:
                    shutil.copy2(old, staging / old.name)
                    result.kept.append(out_dir / old.name)
        if written:
            _swap_in(staging, out_dir)
            result.written = [out_dir / p.name for p in written]
    finally:
        if runs is not None:
            shutil.rmtree(runs, ignore_errors=True)
        shutil.rmtree(staging, ignore_errors=True)
    result.seconds = round(time.monotonic() - started, 1)
    return result


def _swap_in(staging: Path, out_dir: Path) -> None:
    """Put the complete ``staging`` folder in the place of ``out_dir`` (two renames on the same
    filesystem; the old folder is restored if the second fails, then removed)."""
    if not out_dir.exists():
        staging.rename(out_dir)
        return
    old = out_dir.with_name(f".{out_dir.name}.old-{secrets.token_hex(4)}")
    out_dir.rename(old)
    try:
        staging.rename(out_dir)
    except BaseException:
        old.rename(out_dir)
        raise
    shutil.rmtree(old, ignore_errors=True)
