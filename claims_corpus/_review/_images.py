"""The images of some packs, each with what its pack says it shows and how it was reviewed."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from claims_records import PackError

from .. import _io
from .._check_rules import is_image
from .._loading import list_packs, material_files
from .._photo import PHOTO_GENERATOR, describe, parse_photo_recipe, subject_groups
from ..formats.pack import PACK_ID_PATTERN
from ..formats.pack_input import Material, Materials
from ..formats.review import MaterialProvenance, MaterialReview, Provenance, Review

_PACK_ID = re.compile(PACK_ID_PATTERN)


@dataclass(frozen=True)
class ImageItem:
    """One image of one pack, for a reviewer."""

    pack_id: str
    pack_dir: Path
    file: str
    sha256: str
    material: Material | None
    provenance: MaterialProvenance | None
    review: MaterialReview | None
    scene: tuple[str, ...]  # the recipe in plain lines (empty when not a corpus.photo/2 image)
    subject: tuple[tuple[str, tuple[str, ...]], ...]  # (group name, words)

    @property
    def path(self) -> Path:
        return self.pack_dir / _io.MATERIALS_DIR / self.file


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def resolve_packs(paths: list[Path]) -> list[Path]:
    """Pack folders named by ``paths``: a pack folder, or a corpus folder holding packs."""
    out: list[Path] = []
    for path in paths:
        path = Path(path)
        if not path.is_dir():
            raise PackError("folder not found", file=str(path))
        if _PACK_ID.match(path.name) and (path / _io.PROVENANCE).is_file():
            found = [path]
        else:
            found = list_packs(path)
            if not found:
                raise PackError("neither a pack folder nor a corpus folder with packs",
                                file=str(path))
        out.extend(p for p in found if p.resolve() not in {q.resolve() for q in out})
    return out


def load_review(pack_dir: Path) -> Review:
    return _io.read_model(pack_dir / _io.REVIEW, Review, pack=pack_dir.name, file=_io.REVIEW)


def save_review(pack_dir: Path, review: Review) -> None:
    """Write review.json atomically (temporary file, then rename)."""
    _io.write_json(pack_dir / _io.REVIEW, review.model_dump(mode="json"))


def _subject(prov: MaterialProvenance | None) -> tuple[tuple[str, ...],
                                                       tuple[tuple[str, tuple[str, ...]], ...]]:
    scene: tuple[str, ...] = ()
    groups: list[tuple[str, tuple[str, ...]]] = []
    if prov is not None and prov.generator == PHOTO_GENERATOR:
        try:
            recipe = parse_photo_recipe(prov.parameters)
        except ValueError:
            recipe = None  # the checker reports it; the reviewer still sees the image
        if recipe is not None:
            scene = tuple(describe(recipe))
            groups = subject_groups(recipe)
    if prov is not None and prov.subject_words is not None:
        groups = [(name, tuple(words)) for name, words in prov.subject_words.items()]
    return scene, tuple(groups)


def pack_images(pack_dir: Path) -> list[ImageItem]:
    """Every image file of a pack with its material, provenance and review entries."""
    pack = pack_dir.name
    materials = _io.read_model(pack_dir / _io.MATERIALS, Materials, pack=pack,
                               file=_io.MATERIALS)
    provenance = _io.read_model(pack_dir / _io.PROVENANCE, Provenance, pack=pack,
                                file=_io.PROVENANCE)
    review = load_review(pack_dir)
    by_file_m = {m.file: m for m in materials.materials}
    by_file_p = {m.file: m for m in provenance.materials}
    by_file_r = {m.file: m for m in review.materials}
    items = []
    for name in material_files(pack_dir):
        if not is_image(name):
            continue
        prov = by_file_p.get(name)
        scene, groups = _subject(prov)
        items.append(ImageItem(pack, pack_dir, name,
                               sha256_of(pack_dir / _io.MATERIALS_DIR / name),
                               by_file_m.get(name), prov, by_file_r.get(name), scene, groups))
    return items
