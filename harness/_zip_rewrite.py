"""Rewrite a zip archive with some entries changed and the rest copied as they are.

Redacting a Playwright trace changes a few text entries (network log, snapshots) and leaves
the rest — screenshots, resources, most of the archive — as they were. Those are copied in
their compressed form, not decompressed and compressed again; only changed entries are
compressed. The archive is written here (local headers, central directory, end record) so
that nothing depends on ``zipfile``'s private attributes; archives this cannot copy that way
(ZIP64, encrypted entries) are rewritten entry by entry through ``zipfile`` instead.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

_LOCAL = struct.Struct("<4s5H3L2H")
_CENTRAL = struct.Struct("<4s6H3L5H2L")
_END = struct.Struct("<4s4H2LH")
_LIMIT = 0xFFFFFFFF
_UTF8_NAME = 0x800
_DESCRIPTOR = 0x08
_ENCRYPTED = 0x01


def rewrite_zip(src: Path, change: Callable[[zipfile.ZipInfo, bytes], bytes]) -> bytes:
    """The archive at ``src`` with every entry's data replaced by ``change(info, data)``.

    Entries ``change`` returns unchanged are copied still compressed, byte for byte.
    """
    with zipfile.ZipFile(src) as zin:
        infos = zin.infolist()
        if len(infos) >= 0xFFFF or any(_unsupported(i) for i in infos):
            return _rewrite_all(zin, change)
        out = io.BytesIO()
        central = []
        with open(src, "rb") as raw:
            for info in infos:
                data = zin.read(info)
                new = change(info, data)
                if new == data:
                    method, crc, body = info.compress_type, info.CRC, _raw(raw, info)
                    size = info.file_size
                else:
                    method, crc, size = zipfile.ZIP_DEFLATED, zlib.crc32(new), len(new)
                    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
                    body = packer.compress(new) + packer.flush()
                central.append(_entry(out, info, method, crc, body, size))
        start = out.tell()
        for record in central:
            out.write(record)
        out.write(_END.pack(b"PK\x05\x06", 0, 0, len(central), len(central),
                            out.tell() - start, start, 0))
        return out.getvalue()


def _unsupported(info: zipfile.ZipInfo) -> bool:
    return bool(info.flag_bits & _ENCRYPTED or info.compress_type not in
                (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) or info.file_size >= _LIMIT
                or info.compress_size >= _LIMIT or info.header_offset >= _LIMIT)


def _raw(raw: io.BufferedReader, info: zipfile.ZipInfo) -> bytes:
    """An entry's data as stored (still compressed)."""
    raw.seek(info.header_offset)
    head = _LOCAL.unpack(raw.read(_LOCAL.size))
    if head[0] != b"PK\x03\x04":
        raise zipfile.BadZipFile(f"no local header for {info.filename}")
    name_len, extra_len = head[-2], head[-1]
    raw.seek(info.header_offset + _LOCAL.size + name_len + extra_len)
    return raw.read(info.compress_size)


def _entry(out: io.BytesIO, info: zipfile.ZipInfo, method: int, crc: int, body: bytes,
           size: int) -> bytes:
    """Write one entry's local header and data; return its central directory record."""
    name = info.filename.encode("utf-8")
    flags = (info.flag_bits & ~_DESCRIPTOR) | (0 if name.isascii() else _UTF8_NAME)
    year, month, day, hour, minute, second = info.date_time
    dos_time = hour << 11 | minute << 5 | second // 2
    dos_date = max(year - 1980, 0) << 9 | month << 5 | day
    offset = out.tell()
    out.write(_LOCAL.pack(b"PK\x03\x04", 20, flags, method, dos_time, dos_date, crc,
                          len(body), size, len(name), 0))
    out.write(name)
    out.write(body)
    made_by = info.create_system << 8 | 20
    return _CENTRAL.pack(b"PK\x01\x02", made_by, 20, flags, method, dos_time, dos_date, crc,
                         len(body), size, len(name), 0, 0, 0, 0, info.external_attr,
                         offset) + name


def _rewrite_all(zin: zipfile.ZipFile,
                 change: Callable[[zipfile.ZipInfo, bytes], bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info, change(info, zin.read(info)))
    return out.getvalue()
