"""Reading pack files into strict models; every failure becomes a ``PackError``."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from claims_records import JsonValue, PackError, write_json_atomic

from ._strict_json import StrictJsonError, parse_strict_json

M = TypeVar("M", bound=BaseModel)

# Pack layout, relative to the pack directory.
INITIAL_MESSAGE = "input/initial_message.txt"
PERSONA = "input/persona.json"
FACTS = "input/facts.json"
MATERIALS = "input/materials.json"
MATERIALS_DIR = "input/materials"
LABELS = "oracle/labels.json"
SETUP = "setup.json"
PROVENANCE = "provenance.json"
REVIEW = "review.json"
MANIFEST = "manifest.json"
BASELINE = "baseline.json"

# Largest pack file read at all: a JSON or text file of a pack (materials have their own limit
# in the checker). A bigger file is refused before it is read into memory.
MAX_PACK_FILE_BYTES = 1024 * 1024


def field_path(loc: tuple[int | str, ...]) -> str:
    """A pydantic error location as a dotted path (``facts.0.value``)."""
    return ".".join(str(p) for p in loc) or "<root>"


def read_bytes(path: Path, *, pack: str | None, file: str,
               max_bytes: int | None = MAX_PACK_FILE_BYTES) -> bytes:
    """The file's bytes; refused when over ``max_bytes`` (None: no limit), when it is a
    symbolic link (a pack holds its files itself) or anything but a regular file."""
    try:
        if path.is_symlink():
            raise PackError("file is a symbolic link; packs hold real files", pack=pack,
                            file=file, field="<file>")
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise PackError("not a regular file", pack=pack, file=file, field="<file>")
        if max_bytes is not None and info.st_size > max_bytes:
            raise PackError(f"file is larger than {max_bytes} bytes", pack=pack, file=file,
                            field="<file>")
        return path.read_bytes()
    except FileNotFoundError as exc:
        raise PackError("file is missing", pack=pack, file=file, field="<file>") from exc
    except OSError as exc:
        raise PackError(f"file cannot be read: {exc}", pack=pack, file=file,
                        field="<file>") from exc


def read_text(path: Path, *, pack: str | None, file: str) -> str:
    data = read_bytes(path, pack=pack, file=file)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PackError(f"not UTF-8 text: {exc}", pack=pack, file=file, field="<file>") from exc


def parse_json(data: bytes, *, pack: str | None, file: str) -> object:
    try:
        return parse_strict_json(data)
    except StrictJsonError as exc:
        raise PackError(exc.message, pack=pack, file=file, field=exc.path or "<json>") from exc


def validation_problems(exc: ValidationError) -> list[tuple[str, str]]:
    """(field, message) for every error pydantic found."""
    return [(field_path(tuple(e["loc"])), e["msg"]) for e in exc.errors()]


def read_model(path: Path, model: type[M], *, pack: str | None, file: str) -> M:
    """Parse ``path`` as JSON into ``model``; the first problem becomes a ``PackError``.

    Validation is strict: no value is coerced (``"yes"`` is not a boolean, ``"3"`` not a
    number), so a pack means exactly what it says."""
    raw = parse_json(read_bytes(path, pack=pack, file=file), pack=pack, file=file)
    try:
        return model.model_validate(raw, strict=True)
    except ValidationError as exc:
        problems = validation_problems(exc)
        fld, msg = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise PackError(f"invalid: {msg}{more}", pack=pack, file=file, field=fld) from exc


def write_json(path: Path, data: JsonValue) -> None:
    """Write JSON the way the corpus stores it: indent 2, sorted keys off, trailing newline."""
    write_json_atomic(path, data)
