"""Re-create a pack's materials from the recipes in its ``provenance.json``.

A material is either made by a built-in generator (re-made byte for byte from its recipe,
by ``corpus generate`` and by the checker) or declared ``external:<source>`` (a camera, an
image model): such a file is kept as it is, guarded by the manifest's hashes and the
sign-off. Any other generator name is an error.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from claims_records import PackError

from . import _io
from ._gen_document import DOCUMENT_GENERATOR, make_document
from ._loading import load_provenance
from ._photo import PHOTO_GENERATOR, RecipeError, make_photo

GENERATORS: dict[str, Callable[..., bytes]] = {
    PHOTO_GENERATOR: make_photo,
    DOCUMENT_GENERATOR: make_document,
}
EXTERNAL_PREFIX = "external:"
RETIRED_GENERATORS: dict[str, str] = {
    "corpus.photo/1": "corpus.photo/1 was replaced by corpus.photo/2: describe the photo as a "
    "scene of parts (setting, object, damage, props; packs/STANDARD.md section 7)",
}


def is_external(generator: str) -> bool:
    """True for ``external:<source>``: a file made outside the corpus, never re-made."""
    return generator.startswith(EXTERNAL_PREFIX) and bool(generator[len(EXTERNAL_PREFIX):].strip())


def render_material(generator: str, parameters: dict[str, Any], *, pack: str | None = None,
                    file: str | None = None, index: int = 0) -> bytes:
    """Bytes of one material from its generator name and parameters."""
    where = f"materials.{index}"
    made = f"cannot make {file}: " if file else ""
    if generator not in GENERATORS:
        why = RETIRED_GENERATORS.get(generator) or (
            f"unknown generator {generator!r}; known: {sorted(GENERATORS)}, or "
            f"'{EXTERNAL_PREFIX}<source>' for a file made outside the corpus (never re-made)")
        raise PackError(why, pack=pack, file=_io.PROVENANCE, field=f"{where}.generator")
    try:
        return GENERATORS[generator](parameters)
    except RecipeError as exc:
        raise PackError(f"{made}{exc.reason}", pack=pack, file=_io.PROVENANCE,
                        field=f"{where}.parameters.{exc.field}") from exc
    except (ValueError, TypeError, KeyError) as exc:
        raise PackError(f"{made}{exc}", pack=pack, file=_io.PROVENANCE,
                        field=f"{where}.parameters") from exc


def generate_materials(pack_dir: Path | str, out_dir: Path | str | None = None) -> list[Path]:
    """Write every generated material of a pack from its provenance alone; returns the paths.

    ``out_dir`` defaults to the pack's ``input/materials/``. Files are written only when
    their bytes differ, so regenerating an unchanged pack touches nothing. External
    materials are left alone.
    """
    pack_dir = Path(pack_dir)
    pack = pack_dir.name
    provenance = load_provenance(pack_dir)
    target = Path(out_dir) if out_dir is not None else pack_dir / _io.MATERIALS_DIR
    target.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for i, m in enumerate(provenance.materials):
        if Path(m.file).name != m.file:
            raise PackError("material file must be a plain file name", pack=pack,
                            file=_io.PROVENANCE, field=f"materials.{i}.file")
        if is_external(m.generator):
            continue
        data = render_material(m.generator, m.parameters, pack=pack, file=m.file, index=i)
        path = target / m.file
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
        written.append(path)
    return written
