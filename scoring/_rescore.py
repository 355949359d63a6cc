"""Re-scoring a stored run against a corrected oracle (``score RUN --packs DIR``).

The trials were driven with the packs the run recorded (run.json: each corpus's hash over its
manifest's pack hashes). Before any sheet is written, every pack of the run is compared file by
file with the same pack in the packs folder given:

- files under ``oracle/`` may differ: that is the correction being scored;
- ``provenance.json`` and ``review.json`` (image provenance and sign-off) may differ;
- anything else (``input/``, ``setup.json``, the corpus's ``baseline.json``) is what the
  customer saw or the product was seeded with: a change there is refused, because the stored
  trial was driven with the old one.

The re-scored sheets and summary go to their own folder, ``<run>/rescored/<oracle-id>/``, one
per oracle (its id: the first 12 hex digits of ``RescoreInfo.oracle_hash``); the run's own
sheets and summary are never touched.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from claims_corpus import corpus_identity, load_manifest, pack_file_hashes, pack_hash
from claims_records import PackError, RescoredPack, RescoreInfo, RunRecord

RESCORED_DIR = "rescored"
ORACLE_PREFIX = "oracle/"
METADATA_FILES = frozenset({"provenance.json", "review.json"})
CORPUS_INPUT_FILES = ("baseline.json",)


def rescored_dir(run_dir: Path | str, info: RescoreInfo) -> Path:
    """The folder of a run's sheets and summary scored against one oracle."""
    return Path(run_dir) / RESCORED_DIR / info.oracle_hash[:12]


def is_input_file(name: str) -> bool:
    """A pack file the trial was driven with (not the oracle, not image metadata)."""
    return not name.startswith(ORACLE_PREFIX) and name not in METADATA_FILES


def _recorded_root(run_dir: Path, path: str) -> Path:
    root = Path(path)
    if not root.is_absolute() and not root.exists():
        root = run_dir / root
    return root


def _run_files(run: RunRecord, run_dir: Path) -> tuple[dict[str, dict[str, str]],
                                                       dict[str, str], dict[str | None, Path]]:
    """(pack id -> files and their hashes as the run's corpus recorded them, pack id -> the
    recorded pack hash, id prefix -> the run's corpus folder). Refuses when a recorded corpus
    no longer holds what the run was driven with."""
    files: dict[str, dict[str, str]] = {}
    hashes: dict[str, str] = {}
    roots: dict[str | None, Path] = {}
    for info in run.corpora or [run.corpus]:
        root = _recorded_root(run_dir, info.path)
        if not (root / "manifest.json").is_file():
            raise PackError("the run's own corpus is not where run.json says: without its "
                            "manifest the packs the trials were driven with cannot be told "
                            "from the ones given", run=run.run_id, file=str(root /
                                                                           "manifest.json"))
        _, now = corpus_identity(root)
        if now != info.hash:
            raise PackError(
                "the run's own corpus has changed since the run (its manifest hash differs "
                "from run.json's): the packs the trials were driven with cannot be told from "
                f"the ones given; put the corpus the run used (version {info.version}) back "
                "at its path, e.g. from version control", run=run.run_id, file=str(root),
                recorded=info.hash[:12], now=now[:12])
        roots[info.id_prefix] = root
        for pid, entry in load_manifest(root).packs.items():
            files[pid], hashes[pid] = dict(entry.files), entry.hash
    return files, hashes, roots


def _oracle_hash(hashes: dict[str, str]) -> str:
    h = hashlib.sha256()
    for pid in sorted(hashes):
        h.update(f"{pid}\0{hashes[pid]}\n".encode())
    return h.hexdigest()


def plan_rescore(run: RunRecord, run_dir: Path | str,
                 packs_roots: dict[str | None, Path]) -> RescoreInfo:
    """Compare every pack of ``run`` with the packs folders given (id prefix -> folder);
    return what the re-score will be against, or raise ``PackError`` naming every pack whose
    customer-facing input (or seeded state) differs from what the run was driven with."""
    run_dir = Path(run_dir)
    recorded, recorded_hash, run_roots = _run_files(run, run_dir)
    refused: list[str] = []
    for prefix, root in packs_roots.items():
        own = run_roots.get(prefix) or (next(iter(run_roots.values()))
                                        if len(run_roots) == 1 else None)
        for name in CORPUS_INPUT_FILES:
            mine = own / name if own is not None else None
            theirs = root / name
            a = mine.read_bytes() if mine is not None and mine.is_file() else None
            b = theirs.read_bytes() if theirs.is_file() else None
            if a != b:
                refused.append(f"{root} ({name})")
    now: dict[str, str] = {}
    changed: list[RescoredPack] = []
    for pid in sorted({t.pack_id for t in run.trials}):
        root = _root_of(packs_roots, pid)
        if not (root / pid).is_dir():
            raise PackError("the packs folder has no such pack; every pack of the run must be "
                            "re-scored", run=run.run_id, pack=pid, file=str(root / pid))
        if pid not in recorded:
            raise PackError("the run's own corpus manifest does not list this pack",
                            run=run.run_id, pack=pid)
        files = pack_file_hashes(root / pid)
        now[pid] = pack_hash(files)
        before = recorded[pid]
        if not before:  # a manifest from before per-file hashes: only the pack hash to go by
            if now[pid] != recorded_hash[pid]:
                refused.append(f"{pid} (the run's manifest lists no file hashes, so an oracle "
                               "change cannot be told from an input change)")
            continue
        diff = sorted(f for f in set(before) | set(files) if before.get(f) != files.get(f))
        inputs = [f for f in diff if is_input_file(f)]
        if inputs:
            refused.append(f"{pid} ({', '.join(inputs)})")
        elif diff:
            changed.append(RescoredPack(pack_id=pid, run_hash=recorded_hash[pid],
                                        hash=now[pid], changed_files=diff))
    if refused:
        raise PackError(
            "refused: what the customer saw or the product was seeded with differs from what "
            "the run was driven with, so its stored trials cannot be scored against these "
            "packs (run the packs again instead): " + "; ".join(refused),
            run=run.run_id, pack=refused[0].split(" ")[0])
    versions: dict[str, str] = {}
    for prefix, root in packs_roots.items():
        if (root / "manifest.json").is_file():
            versions[prefix or ""] = load_manifest(root).corpus_version
    return RescoreInfo(
        oracle_hash=_oracle_hash(now), packs_dirs=[str(r) for r in packs_roots.values()],
        versions=versions,
        run_corpora={(c.id_prefix or ""): c.hash for c in run.corpora or [run.corpus]},
        changed=changed, unchanged_packs=len(now) - len(changed))


def _root_of(roots: dict[str | None, Path], pack_id: str) -> Path:
    from claims_corpus.formats import id_prefix_of

    prefix = id_prefix_of(pack_id)
    if prefix in roots:
        return roots[prefix]
    if len(roots) == 1:
        return next(iter(roots.values()))
    raise PackError("no packs folder for this pack's prefix; give each corpus with --packs",
                    pack=pack_id, field="packs")
