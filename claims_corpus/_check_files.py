"""Checks of a pack's files as files: no links, sizes within limits, materials that open."""

from __future__ import annotations

import io
import os
import warnings
from pathlib import Path

from PIL import Image

from . import _io
from ._check_pack import Problem
from ._check_rules import is_image

# Largest material file (the reference product takes uploads up to 5 MiB; real ones vary).
MAX_MATERIAL_BYTES = 10 * 1024 * 1024


def symlink_problems(pack: str, pack_dir: Path) -> list[Problem]:
    """Every symbolic link inside the pack: a pack holds its files itself, and a link can
    point anywhere (a secret, a device that never ends)."""
    out: list[Problem] = []
    root = pack_dir.resolve()
    for folder, dirs, files in os.walk(pack_dir, followlinks=False):
        for name in sorted(dirs + files):
            path = Path(folder) / name
            if not path.is_symlink():
                continue
            rel = path.relative_to(pack_dir).as_posix()
            target = Path(os.path.realpath(path))
            where = "inside the pack" if target.is_relative_to(root) else "out of the pack"
            out.append(Problem(pack, rel, "<file>",
                               f"is a symbolic link pointing {where}; packs hold real files"))
    return out


def material_problems(pack: str, pack_dir: Path) -> list[Problem]:
    """Material files that are too large, not regular files, or images that do not open."""
    out: list[Problem] = []
    folder = pack_dir / _io.MATERIALS_DIR
    if not folder.is_dir() or folder.is_symlink():
        return out
    for path in sorted(folder.iterdir()):
        rel = f"{_io.MATERIALS_DIR}/{path.name}"
        if path.name.startswith(".") or path.is_symlink() or path.is_dir():
            continue
        if not path.is_file():
            out.append(Problem(pack, rel, "<file>", "is not a regular file"))
            continue
        size = path.stat().st_size
        if size > MAX_MATERIAL_BYTES:
            out.append(Problem(pack, rel, "<file>",
                               f"is {size} bytes; a material may hold at most "
                               f"{MAX_MATERIAL_BYTES}"))
            continue
        if size == 0:
            out.append(Problem(pack, rel, "<file>", "is empty"))
            continue
        if is_image(path.name):
            problem = image_problem(path.read_bytes())
            if problem:
                out.append(Problem(pack, rel, "<content>", problem))
    return out


def image_problem(data: bytes) -> str | None:
    """Why ``data`` is not a complete JPEG or PNG image, or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as img:
                if img.format not in ("JPEG", "PNG"):
                    return f"is a {img.format} image; materials are JPEG or PNG"
                img.load()  # decodes every pixel: a truncated file fails here
    except Exception as exc:  # Pillow reports damage through many exception types
        return f"image cannot be read: {type(exc).__name__}: {exc}"
    return None
