"""Rewriting a trace zip: changed entries compressed anew, the rest copied still compressed,
the result a valid archive."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

from harness._zip_rewrite import rewrite_zip

TEXT = ("resource log line\n" * 200).encode()


def _archive(path: Path, method: int = zipfile.ZIP_DEFLATED) -> None:
    with zipfile.ZipFile(path, "w", method) as z:
        z.writestr("trace.network", TEXT + b"Authorization: hunter22-token\n")
        z.writestr("resources/shot.png", os.urandom(3000))
        z.writestr("resources/plain.txt", TEXT)
        z.writestr("r\u00e9sum\u00e9.txt", b"non-ASCII name")


def _blank(info: zipfile.ZipInfo, data: bytes) -> bytes:
    return data.replace(b"hunter22-token", b"[REDACTED]")


def test_changed_entries_rewritten_the_rest_copied_compressed(tmp_path: Path):
    src = tmp_path / "trace.zip"
    _archive(src)
    out = rewrite_zip(src, _blank)
    with zipfile.ZipFile(src) as before, zipfile.ZipFile(io.BytesIO(out)) as after:
        assert after.testzip() is None  # every CRC checks out
        assert after.namelist() == before.namelist()
        assert b"hunter22" not in after.read("trace.network")
        assert after.read("trace.network").endswith(b"Authorization: [REDACTED]\n")
        for name in ("resources/shot.png", "resources/plain.txt", "r\u00e9sum\u00e9.txt"):
            assert after.read(name) == before.read(name)
            old, new = before.getinfo(name), after.getinfo(name)
            assert (new.compress_type, new.compress_size, new.CRC) == \
                (old.compress_type, old.compress_size, old.CRC)
    # copied byte for byte: the stored (compressed) form is in the new archive as it was
    assert _stored(src, "resources/plain.txt") in out


def _stored(path: Path, name: str) -> bytes:
    """An entry's bytes as stored in the archive (compressed)."""
    with zipfile.ZipFile(path) as z, open(path, "rb") as raw:
        info = z.getinfo(name)
        raw.seek(info.header_offset + 26)
        skip = int.from_bytes(raw.read(2), "little") + int.from_bytes(raw.read(2), "little")
        raw.seek(info.header_offset + 30 + skip)
        return raw.read(info.compress_size)


def test_archives_it_cannot_copy_are_rewritten_entry_by_entry(tmp_path: Path):
    src = tmp_path / "bz.zip"
    _archive(src, zipfile.ZIP_BZIP2)
    out = rewrite_zip(src, _blank)
    with zipfile.ZipFile(io.BytesIO(out)) as after:
        assert after.testzip() is None
        assert b"hunter22" not in after.read("trace.network")
        assert after.read("r\u00e9sum\u00e9.txt") == b"non-ASCII name"
