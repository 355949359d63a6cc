"""A named person's sign-off of an image, tied to the image's bytes.

A sign-off records who, when, the verdict and the image's sha256. If the image changes, the
sign-off no longer holds ("void"): the checker reports it and freezing refuses it. A sign-off
is only ever written by ``sign_off`` for a name a person gave; placeholders are refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Literal

from claims_records import PackError

from ..formats.review import MaterialReview, SignOff
from ._images import load_review, pack_images, save_review

SignOffState = Literal["valid", "void", "none", "not_a_name"]

# Names that stand for nobody in particular. Compared whole, case-insensitively, after
# dropping punctuation; a real name that merely contains one of them is fine.
PLACEHOLDER_NAMES: frozenset[str] = frozenset({
    "tbd", "tbc", "todo", "fixme", "xxx", "xx", "n a", "na", "none", "null", "nil", "unknown",
    "name", "your name", "full name", "first last", "firstname lastname", "first name last name",
    "reviewer", "reviewer name", "the reviewer", "a reviewer", "someone", "somebody", "nobody",
    "anyone", "anonymous", "anon", "test", "tester", "test user", "user", "admin", "me",
    "myself", "self", "i", "john doe", "jane doe", "joe bloggs", "foo", "bar", "foo bar",
    "example", "assistant", "ai", "bot", "model", "llm", "system", "automated", "automatic",
    "auto", "script", "ci", "authoring assistant", "the assistant", "an assistant",
})
_TEMPLATE = re.compile(r"[<>{}\[\]$|@#\\/]")


def name_problem(name: str) -> str | None:
    """Why ``name`` is not a person's name, or None when it can stand as one."""
    text = " ".join(name.split())
    if not text:
        return "the name is empty"
    if _TEMPLATE.search(text):
        return f"{text!r} looks like a template or an address, not a person's name"
    letters = [ch for ch in text if ch.isalpha()]
    if len(letters) < 2:
        return f"{text!r} is not a person's name (fewer than two letters)"
    plain = " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())
    if plain in PLACEHOLDER_NAMES:
        return f"{text!r} is a placeholder, not a named person"
    return None


def sign_off_state(entry: MaterialReview | None, sha256: str) -> SignOffState:
    """Whether an image's sign-off holds for the image as it is now."""
    if entry is None or entry.sign_off is None:
        return "none"
    if name_problem(entry.sign_off.name) is not None:
        return "not_a_name"
    return "valid" if entry.sign_off.sha256 == sha256 else "void"


@dataclass(frozen=True)
class Signed:
    """One image signed by one call of ``sign_off``."""

    pack_id: str
    file: str
    sha256: str
    replaced: SignOff | None


def sign_off(pack_dirs: list[Path], by: str, *, files: list[str] | None = None,
             verdict: Literal["ok", "remake"] = "ok", notes: str = "",
             on: date | None = None) -> list[Signed]:
    """Record ``by``'s sign-off of every image of ``pack_dirs`` (or only ``files``).

    Raises ``PackError`` for a name that is not a person's, or for a named file that none
    of the packs holds; nothing is written then. Each pack's review.json is written
    atomically.
    """
    problem = name_problem(by)
    if problem is not None:
        raise PackError(f"refusing to sign off: {problem}; give your own name with --by",
                        field="sign_off.name")
    name = " ".join(by.split())
    when = (on or date.today()).isoformat()
    wanted = set(files or [])
    plan: list[tuple[Path, list]] = []
    for pack_dir in pack_dirs:
        images = [i for i in pack_images(pack_dir) if not wanted or i.file in wanted]
        plan.append((pack_dir, images))
    missing = wanted - {i.file for _, images in plan for i in images}
    if missing:
        raise PackError(f"no image named {sorted(missing)} in the packs given",
                        field="files")
    signed: list[Signed] = []
    for pack_dir, images in plan:
        if not images:
            continue
        review = load_review(pack_dir)
        entries = {m.file: m for m in review.materials}
        for item in images:
            entry = entries.get(item.file)
            if entry is None:
                entry = MaterialReview(file=item.file)
                review.materials.append(entry)
                entries[item.file] = entry
            replaced = entry.sign_off
            entry.sign_off = SignOff(name=name, verdict=verdict, date=when, sha256=item.sha256,
                                     notes=notes)
            signed.append(Signed(item.pack_id, item.file, item.sha256, replaced))
        save_review(pack_dir, review)
    return signed
