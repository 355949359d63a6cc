"""The review page: every image beside what its pack says it shows, for a person to judge.

A static folder that opens from disk with no network: ``index.html`` lists the packs, one
page per pack shows its images (copied next to the page, never inlined) with the purpose,
the recipe in words, the subject words, the assistant check, the sign-off (valid, void or
missing) and the blind look, and the command that records a sign-off.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from claims_records import PackError

from ._images import ImageItem, pack_images
from ._sign_off import sign_off_state

TEMPLATES = Path(__file__).parent / "templates"
ASSETS = ("review.css",)


def _env() -> Environment:
    return Environment(loader=FileSystemLoader(str(TEMPLATES)),
                       autoescape=select_autoescape(["html", "j2"]), trim_blocks=True,
                       lstrip_blocks=True)


def _card(item: ImageItem, shown_dir: str) -> dict[str, Any]:
    entry = item.review
    sign = entry.sign_off if entry else None
    look = entry.blind_look if entry else None
    prov = item.provenance
    command = (f"claims-harness corpus sign-off --by \"Your Name\" {shlex.quote(shown_dir)} "
               f"--file {shlex.quote(item.file)}")
    return {
        "file": item.file,
        "sha256": item.sha256,
        "label": item.material.label if item.material else None,
        "evidence_kind": item.material.evidence_kind if item.material else None,
        "generator": prov.generator if prov else None,
        "purpose": prov.purpose if prov else None,
        "prompt": prov.prompt if prov else None,
        "scene": list(item.scene),
        "subject": [{"name": n, "words": ", ".join(w)} for n, w in item.subject],
        "assistant": entry.assistant_check if entry else None,
        "sign_state": sign_off_state(entry, item.sha256),
        "sign_off": sign,
        "look": look,
        "look_stale": look is not None and look.sha256 != item.sha256,
        "command": command,
    }


def write_review_page(pack_dirs: list[Path], out_dir: Path | str) -> Path:
    """Write the review folder for ``pack_dirs`` into ``out_dir``; returns its index.html."""
    out = Path(out_dir)
    for pack_dir in pack_dirs:
        if out.resolve().is_relative_to(pack_dir.resolve()):
            raise PackError("the review folder must not be inside a pack", pack=pack_dir.name,
                            file=str(out))
    env = _env()
    out.mkdir(parents=True, exist_ok=True)
    for asset in ASSETS:
        shutil.copyfile(TEMPLATES / asset, out / asset)
    packs = []
    for pack_dir in pack_dirs:
        items = pack_images(pack_dir)
        page_dir = out / pack_dir.name
        page_dir.mkdir(exist_ok=True)
        cards = []
        for item in items:
            shutil.copyfile(item.path, page_dir / item.file)
            cards.append(_card(item, str(pack_dir)))
        counts = {state: sum(1 for c in cards if c["sign_state"] == state)
                  for state in ("valid", "void", "none", "not_a_name")}
        remake = sum(1 for c in cards if c["look"] and not c["look"].mentions_subject
                     and not c["look_stale"])
        (page_dir / "index.html").write_text(
            env.get_template("pack.html.j2").render(pack=pack_dir.name, cards=cards,
                                                    assets="..", counts=counts),
            encoding="utf-8")
        packs.append({"id": pack_dir.name, "images": len(cards), "counts": counts,
                      "remake": remake, "href": f"{pack_dir.name}/index.html"})
    index = out / "index.html"
    index.write_text(env.get_template("index.html.j2").render(packs=packs, assets="."),
                     encoding="utf-8")
    return index
