"""Migrating a corpus from pack format v0.2 to v0.3, in place.

What changes (nothing a v0.2 pack says is lost or altered in meaning):

- every JSON file's ``version`` becomes ``"0.3"``;
- money facts (``facts.json``) and the oracle's money values become ``{"amount", "currency"}``
  in GBP, the only currency v0.2 could mean;
- a later material's ``available_after_messages: N`` becomes ``arrives: {"after_messages": N}``;
- the manifest gets ``id_prefix``, taken from its pack ids;
- the new fields are written out with their defaults (``unknown_facts``, the persona's
  ``correction_phrase`` and ``hands_over``), so an author sees them.

Files are rewritten only when they change. A frozen corpus is migrated too (its answers do not
change, its bytes do): the checker then asks for a version bump and ``--freeze``, as for any
change to a frozen corpus.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claims_records import PackError

from . import _io
from .formats import HOME_CURRENCY, PACK_FORMAT_VERSION, Persona, id_prefix_of

FROM_VERSION = "0.2"
PACK_JSON = (_io.PERSONA, _io.FACTS, _io.MATERIALS, _io.LABELS, _io.SETUP, _io.PROVENANCE,
             _io.REVIEW)


def _money(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return {"amount": value, "currency": HOME_CURRENCY}
    return value


def _migrate_pack_file(name: str, data: dict[str, Any], money_keys: set[str]) -> None:
    if name == _io.FACTS:
        for fact in data.get("facts", []):
            if fact.get("kind") == "money":
                fact["value"] = _money(fact.get("value"))
    elif name == _io.MATERIALS:
        for m in data.get("materials", []):
            later = m.get("later")
            if isinstance(later, dict) and "available_after_messages" in later:
                n = later.pop("available_after_messages")
                later["arrives"] = {"after_messages": n}
    elif name == _io.LABELS:
        for group in ("expected_facts", "optional_facts"):
            values = data.get(group) or {}
            for key in money_keys & set(values):
                values[key] = _money(values[key])
        data.setdefault("unknown_facts", {})
    elif name == _io.PERSONA:
        data.setdefault("correction_phrase", Persona.model_fields["correction_phrase"].default)
        data.setdefault("hands_over", [])


def _load(path: Path, pack: str | None, file: str) -> dict[str, Any]:
    data = _io.parse_json(_io.read_bytes(path, pack=pack, file=file), pack=pack, file=file)
    if not isinstance(data, dict):
        raise PackError("not a JSON object", pack=pack, file=file, field="<json>")
    version = data.get("version")
    if version not in (FROM_VERSION, PACK_FORMAT_VERSION):
        raise PackError(f"cannot migrate version {version!r} (only {FROM_VERSION!r})",
                        pack=pack, file=file, field="version")
    return data


def _save(path: Path, before: bytes, data: dict[str, Any]) -> bool:
    data["version"] = PACK_FORMAT_VERSION
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if text.encode("utf-8") == before:
        return False
    _io.write_json(path, data)
    return True


def migrate_corpus(root: Path | str) -> list[str]:
    """Migrate every pack, the baseline and the manifest under ``root`` to v0.3.

    Returns the files rewritten (paths relative to ``root``). Every file is read and checked
    before any is written, so a file that cannot be migrated leaves the corpus untouched.
    """
    root = Path(root)
    plan: list[tuple[Path, bytes, dict[str, Any]]] = []
    prefixes: set[str] = set()
    for pack_dir in sorted(p for p in root.iterdir() if p.is_dir()
                           and (p / _io.LABELS).is_file()):
        pack = pack_dir.name
        prefixes.add(id_prefix_of(pack))
        loaded = {name: _load(pack_dir / name, pack, name) for name in PACK_JSON}
        money_keys = {f.get("key") for f in loaded[_io.FACTS].get("facts", [])
                      if f.get("kind") == "money"}
        for name, data in loaded.items():
            before = (pack_dir / name).read_bytes()
            _migrate_pack_file(name, data, money_keys)
            plan.append((pack_dir / name, before, data))
    for name in (_io.BASELINE, _io.MANIFEST):
        path = root / name
        if not path.is_file():
            continue
        data = _load(path, None, name)
        if name == _io.MANIFEST and "id_prefix" not in data:
            if len(prefixes) != 1:
                raise PackError(f"pack ids use {len(prefixes)} prefixes {sorted(prefixes)}; "
                                "a corpus has one: add 'id_prefix' by hand", file=name,
                                field="id_prefix")
            data = {"version": data.get("version"), "id_prefix": prefixes.pop(),
                    **{k: v for k, v in data.items() if k != "version"}}
        plan.append((path, path.read_bytes(), data))
    return [path.relative_to(root).as_posix() for path, before, data in plan
            if _save(path, before, data)]
