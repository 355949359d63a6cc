"""Several corpora in one run: the public corpus (``packs/``) beside a team's held-out corpus.

Each corpus folder has its own ``manifest.json`` with its own id prefix and version; its pack
ids start with that prefix, so a pack id names its corpus. Corpora run together must have
different prefixes and the same product baseline (``baseline.json``), because one product is
reset to one baseline before every pack. Only manifests, folder names and baselines are read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from claims_records import PackError

from . import _io
from ._loading import corpus_identity, list_packs, load_manifest
from .formats import id_prefix_of


@dataclass(frozen=True)
class CorpusRef:
    """One corpus of a run: where it is and what it is."""

    root: Path
    id_prefix: str
    version: str
    hash: str
    pack_ids: tuple[str, ...]
    name: str | None = None
    story_facts: tuple[str, ...] = ()  # story-fact keys its manifest declares for itself

    @property
    def label(self) -> str:
        return f"{self.name} ({self.id_prefix})" if self.name else self.id_prefix


@dataclass(frozen=True)
class Corpora:
    """The corpora of one run, the first being the main one (its baseline seeds the product)."""

    corpora: tuple[CorpusRef, ...]

    @property
    def first(self) -> CorpusRef:
        return self.corpora[0]

    @property
    def pack_ids(self) -> list[str]:
        return [p for c in self.corpora for p in c.pack_ids]

    def corpus_of(self, pack_id: str) -> CorpusRef:
        for c in self.corpora:
            if pack_id.startswith(f"{c.id_prefix}-"):
                return c
        prefixes = ", ".join(c.id_prefix for c in self.corpora)
        raise PackError(f"no corpus of this run has the prefix of {pack_id!r} ({prefixes})",
                        pack=pack_id)

    def pack_dir(self, pack_id: str) -> Path:
        return self.corpus_of(pack_id).root / pack_id


def open_corpora(roots: Sequence[Path | str]) -> Corpora:
    """The corpora at ``roots`` (in order), after checking they can run together."""
    if not roots:
        raise PackError("no corpus folder given", field="packs")
    refs: list[CorpusRef] = []
    for root in (Path(r) for r in roots):
        manifest = load_manifest(root)
        version, digest = corpus_identity(root)
        ids = tuple(p.name for p in list_packs(root))
        stray = [p for p in ids if id_prefix_of(p) != manifest.id_prefix]
        if stray:
            raise PackError(f"pack folders {stray} do not start with the corpus's id prefix "
                            f"{manifest.id_prefix!r}", file=str(root / _io.MANIFEST),
                            field="id_prefix")
        for other in refs:
            if other.id_prefix == manifest.id_prefix:
                raise PackError(f"two corpora use the id prefix {manifest.id_prefix!r} "
                                f"({other.root} and {root}); corpora run together need their "
                                "own prefixes", file=str(root / _io.MANIFEST), field="id_prefix")
        refs.append(CorpusRef(root=root, id_prefix=manifest.id_prefix, version=version,
                              hash=digest, pack_ids=ids, name=manifest.name,
                              story_facts=tuple(sorted(manifest.story_facts))))
    _same_baseline(refs)
    return Corpora(tuple(refs))


def _same_baseline(refs: list[CorpusRef]) -> None:
    base = refs[0].root / _io.BASELINE
    if not base.is_file():
        return
    want = base.read_bytes()
    for ref in refs[1:]:
        other = ref.root / _io.BASELINE
        if other.is_file() and other.read_bytes() != want:
            raise PackError(f"its baseline differs from {base}: corpora run together share the "
                            "product's baseline (copy it, or run the corpora separately)",
                            file=str(other), field="<file>")
