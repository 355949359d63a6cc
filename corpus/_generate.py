"""Re-create a pack's materials from the recipes in its ``provenance.json``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import _io
from ._gen_document import DOCUMENT_GENERATOR, make_document
from ._gen_photo import PHOTO_GENERATOR, make_photo
from ._loading import load_provenance
from .errors import PackError

GENERATORS: dict[str, Callable[..., bytes]] = {
    PHOTO_GENERATOR: make_photo,
    DOCUMENT_GENERATOR: make_document,
}


def render_material(generator: str, parameters: dict[str, Any], *, pack: str | None = None,
                    file: str | None = None, index: int = 0) -> bytes:
    """Bytes of one material from its generator name and parameters."""
    if generator not in GENERATORS:
        raise PackError(f"unknown generator {generator!r}; known: {sorted(GENERATORS)}",
                        pack=pack, file=_io.PROVENANCE, field=f"materials.{index}.generator")
    try:
        return GENERATORS[generator](parameters)
    except (ValueError, TypeError, KeyError) as exc:
        raise PackError(f"cannot make {file}: {exc}", pack=pack, file=_io.PROVENANCE,
                        field=f"materials.{index}.parameters") from exc


def generate_materials(pack_dir: Path | str, out_dir: Path | str | None = None) -> list[Path]:
    """Write every material of a pack from its provenance alone; returns the written paths.

    ``out_dir`` defaults to the pack's ``input/materials/``. Files are written only when
    their bytes differ, so regenerating an unchanged pack touches nothing.
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
        data = render_material(m.generator, m.parameters, pack=pack, file=m.file, index=i)
        path = target / m.file
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
        written.append(path)
    return written
