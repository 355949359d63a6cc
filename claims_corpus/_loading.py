"""Loading packs, the baseline and the manifest (for the checker, the seed route and the scorer).

The harness's decision loop never uses these: it reads packs only through
``load_customer_view``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from claims_records import PackError

from . import _io
from .formats import (
    PACK_ID_PATTERN,
    Baseline,
    Facts,
    Labels,
    Manifest,
    Materials,
    Persona,
    Provenance,
    Review,
    Setup,
)

_PACK_ID = re.compile(PACK_ID_PATTERN)


@dataclass(frozen=True)
class Pack:
    """Every parsed file of one pack. For the checker, the seed route and the scorer only."""

    pack_id: str
    path: Path
    initial_message: str
    persona: Persona
    facts: Facts
    materials: Materials
    labels: Labels
    setup: Setup
    provenance: Provenance
    review: Review
    material_files: tuple[str, ...]


def _pack_name(pack_dir: Path) -> str:
    return Path(pack_dir).name


def missing_corpus(root: Path | str) -> PackError:
    """The error for a corpus folder that is not there: where it was looked for and what
    helps (running a corpus anyway cannot: there is nothing to run)."""
    root = Path(root)
    where = ("" if root.is_absolute() else
             f"; a relative path is read from the current folder, {Path.cwd()}")
    return PackError(f"corpus folder not found: {root.absolute()}{where}; give the corpus "
                     "folder's path (run --packs PATH, score --corpus PATH, the nightly key "
                     "corpora) or run from the folder that holds it", file=str(root))


def list_packs(root: Path | str) -> list[Path]:
    """Pack directories under ``root`` (folders named like a pack id), sorted by id."""
    root = Path(root)
    if not root.is_dir():
        raise missing_corpus(root)
    return sorted(p for p in root.iterdir() if p.is_dir() and _PACK_ID.match(p.name))


def material_files(pack_dir: Path | str) -> list[str]:
    """Names of the files present in ``input/materials/`` (hidden files and links excluded)."""
    folder = Path(pack_dir) / _io.MATERIALS_DIR
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir()
                  if p.is_file() and not p.is_symlink() and not p.name.startswith("."))


def load_setup(pack_dir: Path | str) -> Setup:
    pack_dir = Path(pack_dir)
    return _io.read_model(pack_dir / _io.SETUP, Setup, pack=_pack_name(pack_dir), file=_io.SETUP)


def load_labels(pack_dir: Path | str) -> Labels:
    pack_dir = Path(pack_dir)
    return _io.read_model(pack_dir / _io.LABELS, Labels, pack=_pack_name(pack_dir),
                          file=_io.LABELS)


def load_provenance(pack_dir: Path | str) -> Provenance:
    pack_dir = Path(pack_dir)
    return _io.read_model(pack_dir / _io.PROVENANCE, Provenance, pack=_pack_name(pack_dir),
                          file=_io.PROVENANCE)


def setup_files(pack_dir: Path | str, setup: Setup) -> dict[str, bytes]:
    """Bytes of each ``setup.objects[].file``, keyed by that path (relative to the pack)."""
    pack_dir = Path(pack_dir).resolve()
    pack = pack_dir.name
    out: dict[str, bytes] = {}
    for i, obj in enumerate(setup.objects):
        target = (pack_dir / obj.file).resolve()
        if not target.is_relative_to(pack_dir):
            raise PackError("object file lies outside the pack", pack=pack, file=_io.SETUP,
                            field=f"objects.{i}.file")
        if not target.is_file():
            raise PackError(f"object file {obj.file!r} is missing", pack=pack, file=_io.SETUP,
                            field=f"objects.{i}.file")
        out[obj.file] = target.read_bytes()
    return out


def load_pack(pack_dir: Path | str) -> Pack:
    """Parse every file of a pack; the first problem raises ``PackError``."""
    pack_dir = Path(pack_dir)
    pack = _pack_name(pack_dir)
    return Pack(
        pack_id=pack,
        path=pack_dir,
        initial_message=_io.read_text(pack_dir / _io.INITIAL_MESSAGE, pack=pack,
                                      file=_io.INITIAL_MESSAGE),
        persona=_io.read_model(pack_dir / _io.PERSONA, Persona, pack=pack, file=_io.PERSONA),
        facts=_io.read_model(pack_dir / _io.FACTS, Facts, pack=pack, file=_io.FACTS),
        materials=_io.read_model(pack_dir / _io.MATERIALS, Materials, pack=pack,
                                 file=_io.MATERIALS),
        labels=load_labels(pack_dir),
        setup=load_setup(pack_dir),
        provenance=load_provenance(pack_dir),
        review=_io.read_model(pack_dir / _io.REVIEW, Review, pack=pack, file=_io.REVIEW),
        material_files=tuple(material_files(pack_dir)),
    )


def load_baseline(root: Path | str) -> Baseline:
    """``<root>/baseline.json``: the product's baseline state."""
    return _io.read_model(Path(root) / _io.BASELINE, Baseline, pack=None, file=_io.BASELINE)


def load_manifest(root: Path | str) -> Manifest:
    """``<root>/manifest.json``."""
    return _io.read_model(Path(root) / _io.MANIFEST, Manifest, pack=None, file=_io.MANIFEST)


def pack_file_hashes(pack_dir: Path | str) -> dict[str, str]:
    """sha256 of every file of a pack, keyed by its path relative to the pack (posix)."""
    pack_dir = Path(pack_dir)
    out: dict[str, str] = {}
    for p in sorted(pack_dir.rglob("*")):
        if (p.is_file() and not p.is_symlink()
                and not any(part.startswith(".") for part in p.relative_to(pack_dir).parts)):
            out[p.relative_to(pack_dir).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def pack_hash(file_hashes: dict[str, str]) -> str:
    """sha256 over a pack's files (path and content hash), sorted by path."""
    h = hashlib.sha256()
    for path in sorted(file_hashes):
        h.update(f"{path}\0{file_hashes[path]}\n".encode())
    return h.hexdigest()


def corpus_identity(root: Path | str) -> tuple[str, str]:
    """(corpus version, sha256 over the manifest's pack hashes) — reads only the manifest."""
    manifest = load_manifest(root)
    h = hashlib.sha256()
    for pack_id in sorted(manifest.packs):
        h.update(f"{pack_id}\0{manifest.packs[pack_id].hash}\n".encode())
    return manifest.corpus_version, h.hexdigest()
