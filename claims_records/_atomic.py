"""The one atomic writer: a temporary file in the target's folder, fsynced, then renamed over
the target, so a reader sees the old file or the whole new one and a crash leaves no half file.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel

from ._json import JsonValue


@contextlib.contextmanager
def atomic_output(path: Path, mode: int = 0o644) -> Iterator[Path]:
    """A temporary path beside ``path`` to write (by any means) inside the ``with``; on a
    clean exit it is fsynced and renamed to ``path``, on an error removed. ``mode`` is the
    file's permission bits (0o600 for a file holding a secret)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(name)
    try:
        os.fchmod(fd, mode)
        os.close(fd)
        yield tmp
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_bytes_atomic(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one."""
    with atomic_output(path, mode) as tmp:
        tmp.write_bytes(data)


def write_text_atomic(path: Path, text: str, mode: int = 0o644) -> None:
    write_bytes_atomic(path, text.encode("utf-8"), mode)


def write_text_exclusive(path: Path, text: str, mode: int = 0o644) -> None:
    """Create ``path`` holding ``text`` unless it exists (``FileExistsError``, and ``path`` is
    left as it was): written beside it, then hard-linked into place, so a reader sees no file
    or the whole one; on a file system without hard links, by an exclusive create."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise
        except OSError:  # no hard links here
            out = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            with os.fdopen(out, "wb") as fh:
                fh.write(data)
    finally:
        tmp.unlink(missing_ok=True)


def write_json_atomic(path: Path, data: JsonValue) -> None:
    """Write plain JSON data (indent 2, UTF-8, trailing newline)."""
    write_text_atomic(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def write_model_atomic(path: Path, model: BaseModel) -> None:
    """Write a record as JSON (indent 2, trailing newline)."""
    write_text_atomic(path, model.model_dump_json(indent=2) + "\n")


def append_jsonl(path: Path, model: BaseModel) -> None:
    """Append one record as a line and flush it to disk (journey.jsonl, customer-model.jsonl)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(model.model_dump_json() + "\n")
        fh.flush()
        os.fsync(fh.fileno())
