"""The distributions installed in the running environment, again somewhere else: as wheels, for
a fresh machine's installs to take from a folder instead of the package index, or installed
as they are into another Python (its "system" packages).

A wheel is made again from what its installer recorded (the distribution's ``RECORD``): the
installed files but their bytecode, the ``.dist-info`` but the installer's own files, scripts
that are not generated from entry points (a native ``ruff``) under ``.data/scripts``, and
what lies elsewhere under the prefix under ``.data/data``. Compressed at zlib's fastest level:
stored, the folder was three times the index's wheels (1.1 GB), all of it written, read by
each install and removed again while the other test workers wait on the same disk. What
the running environment lacks, or has in a version the requirement refuses, is left to pip
(``pip wheel`` from the index).

Installed into another Python, a distribution is every file its ``RECORD`` names, bytecode
included, hard-linked (copied across file systems) to the same place under the other prefix,
and its scripts with that Python in their first line: the state ``pip install`` leaves, in
a second where unpacking and compiling took a minute of CPU.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import os
import re
import shutil
import zipfile
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

# Written by the installer, not part of a wheel (RECORD is written anew).
INSTALLER_FILES = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}


def installed_closure(requirements: list[str], leave_out: set[str]
                      ) -> tuple[list[metadata.Distribution], list[str]]:
    """The installed distributions ``requirements`` need, their own requirements followed
    (extras included, markers read for this Python), and the requirements the environment
    cannot meet (missing, or in a version the specifier refuses); ``leave_out`` names are
    neither (the project itself)."""
    installed: dict[str, metadata.Distribution] = {}
    for dist in metadata.distributions():  # the first of each name on sys.path is imported
        installed.setdefault(canonicalize_name(dist.metadata["Name"] or ""), dist)
    chosen: dict[str, metadata.Distribution] = {}
    missing: list[str] = []
    seen: set[tuple[str, str]] = set()
    todo = [Requirement(r) for r in requirements]
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in leave_out:
            continue
        dist = installed.get(name)
        if dist is None or not req.specifier.contains(dist.version, prereleases=True):
            missing.append(str(req))
            continue
        chosen[name] = dist
        for extra in ["", *sorted(req.extras)]:
            if (name, extra) in seen:
                continue
            seen.add((name, extra))
            for line in dist.requires or []:
                sub = Requirement(line)
                if sub.marker is None or sub.marker.evaluate({"extra": extra}):
                    todo.append(sub)
    return sorted(chosen.values(), key=lambda d: d.metadata["Name"]), sorted(set(missing))


def _record_line(arcname: str, data: bytes) -> list[str]:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return [arcname, f"sha256={digest}", str(len(data))]


def _tags(wheel_file: str) -> str:
    """The compressed tag set of a WHEEL file's ``Tag:`` lines (``cp311-cp311-a.b``)."""
    tags = [line.split(":", 1)[1].strip() for line in wheel_file.splitlines()
            if line.startswith("Tag:")]
    parts = list(zip(*(t.split("-") for t in tags), strict=True))
    return "-".join(".".join(sorted(set(p))) for p in parts)


def _script(data: bytes) -> bytes:
    """A Python script's shebang as a wheel has it (the installer writes the interpreter)."""
    first, sep, rest = data.partition(b"\n")
    if first.startswith(b"#!") and b"python" in first:
        return b"#!python" + sep + rest
    return data


def wheel_of(dist: metadata.Distribution, folder: Path) -> Path:
    """``dist`` as a wheel in ``folder``; returns its path."""
    files = [f for f in dist.files or [] if "__pycache__" not in f.parts and f.suffix != ".pyc"]
    info = next(f.parent for f in files
                if f.name == "METADATA" and f.parent.name.endswith(".dist-info"))
    site = Path(str(dist.locate_file("")))
    prefix, bin_dir = site.parents[2], site.parents[2] / "bin"
    name = re.sub(r"[^\w\d.]+", "_", dist.metadata["Name"])
    version = dist.version.replace("-", "_")
    data_dir = f"{name}-{version}.data"
    generated = {ep.name for ep in dist.entry_points
                 if ep.group in ("console_scripts", "gui_scripts")}
    wheel_meta = (site / info / "WHEEL").read_text(encoding="utf-8")
    path = folder / f"{name}-{version}-{_tags(wheel_meta)}.whl"
    record: list[list[str]] = []
    partial = path.with_name(path.name + ".part")
    with zipfile.ZipFile(partial, "w") as whl:
        for f in files:
            source = Path(str(f.locate())).resolve()
            if not source.is_file():
                continue
            if f.parts[0] != "..":
                if f.parent == info and f.name in INSTALLER_FILES:
                    continue
                arcname, data = f.as_posix(), source.read_bytes()
            elif source.parent == bin_dir.resolve():
                if source.name in generated:  # made again by the installer
                    continue
                arcname = f"{data_dir}/scripts/{source.name}"
                data = _script(source.read_bytes())
            elif source.is_relative_to(prefix.resolve()):
                arcname = f"{data_dir}/data/{source.relative_to(prefix.resolve()).as_posix()}"
                data = source.read_bytes()
            else:  # outside the prefix: nowhere a wheel can put it
                continue
            info_ = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            info_.external_attr = (source.stat().st_mode & 0o777 | 0o100000) << 16
            whl.writestr(info_, data, zipfile.ZIP_DEFLATED, compresslevel=1)
            record.append(_record_line(arcname, data))
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(
            [*record, [f"{info.as_posix()}/RECORD", "", ""]])
        whl.writestr(f"{info.as_posix()}/RECORD", out.getvalue(), zipfile.ZIP_DEFLATED)
    partial.replace(path)
    return path


def _place(source: Path, dest: Path) -> None:
    """``source`` at ``dest``, as a new file: never written through a link already there."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.unlink(missing_ok=True)
    try:
        os.link(source, dest)
    except OSError:
        shutil.copy2(source, dest)


def link_installed(dist: metadata.Distribution, prefix: Path, new_site: Path,
                   python: Path) -> None:
    """Install ``dist`` into the Python at ``prefix`` (site folder ``new_site``, interpreter
    ``python``) as the files the running environment has: what lies under its site folder to
    the same place in ``new_site``, its scripts rewritten to start ``python``, what lies
    elsewhere under its prefix to the same place under ``prefix``."""
    site = Path(str(dist.locate_file(""))).resolve()
    old_prefix = site.parents[2]
    bin_dir = (old_prefix / "bin").resolve()
    for f in dist.files or []:
        source = Path(str(f.locate())).resolve()
        if not source.is_file():
            continue
        if source.is_relative_to(site):
            _place(source, new_site / source.relative_to(site))
        elif source.parent == bin_dir:
            dest = prefix / "bin" / source.name
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.unlink(missing_ok=True)  # a new file, never written through a hard link
            data = _script(source.read_bytes())
            if data.startswith(b"#!python"):
                data = b"#!" + str(python).encode() + data[len(b"#!python"):]
            dest.write_bytes(data)
            dest.chmod(source.stat().st_mode & 0o777)
        elif source.is_relative_to(old_prefix):
            _place(source, prefix / source.relative_to(old_prefix))
