"""The blind look: each image sent alone to a vision model, and what it says it sees.

The model gets one fixed instruction (``claims_corpus/prompts/blind_look.md``, the same for every
image) and the image: no story, no facts, no purpose, no file name. Its description is
recorded in review.json with the image's sha256, and compared with the image's subject
words; an image whose description misses a subject group is listed for remaking.

The endpoint is any OpenAI-compatible chat-completions service, called through the
``openai`` package. The API key comes from an option or the environment and is only ever
sent as a header; it is never written anywhere.
"""

from __future__ import annotations

import asyncio
import base64
import os
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from claims_records import HarnessError, PackError

from ..formats.review import BlindLook, MaterialReview
from ._images import ImageItem, load_review, pack_images, save_review

PROMPT_FILE = Path(__file__).resolve().parents[1] / "prompts" / "blind_look.md"
ENV_PREFIX = "CLAIMS_HARNESS_VISION_"
_MEDIA_TYPES = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png"}


def blind_prompt() -> str:
    return PROMPT_FILE.read_text(encoding="utf-8").strip()


def missing_groups(description: str, groups: tuple[tuple[str, tuple[str, ...]], ...]
                   ) -> list[str]:
    """Names of the subject groups none of whose words starts a word of ``description``."""
    text = " ".join(description.lower().split())
    missing = []
    for name, words in groups:
        if not any(re.search(r"\b" + re.escape(" ".join(w.lower().split())), text)
                   for w in words):
            missing.append(name)
    return missing


@dataclass(frozen=True)
class VisionSettings:
    """Where the vision model is. ``api_key`` is only ever sent as a header."""

    base_url: str
    model: str
    api_key: str = ""
    timeout_s: float = 60.0
    max_retries: int = 2
    concurrency: int = 4
    max_tokens: int = 300

    @classmethod
    def from_options(cls, **options: Any) -> VisionSettings:
        """Options given explicitly win; the rest come from CLAIMS_HARNESS_VISION_* variables."""
        def pick(name: str) -> Any:
            value = options.get(name)
            if value in (None, ""):
                value = os.environ.get(ENV_PREFIX + name.upper()) or None
            return value

        base_url, model = pick("base_url"), pick("model")
        if not base_url or not model:
            missing = "base_url" if not base_url else "model"
            raise HarnessError(
                "the blind look needs a vision endpoint and a model "
                f"(--{missing.replace('_', '-')} or {ENV_PREFIX}{missing.upper()})",
                field=missing)
        extra = {k: options[k] for k in ("timeout_s", "max_retries", "concurrency", "max_tokens")
                 if options.get(k) is not None}
        return cls(base_url=base_url, model=model, api_key=pick("api_key") or "", **extra)

    @property
    def host(self) -> str | None:
        parts = urlsplit(self.base_url)
        if not parts.hostname:
            return None
        return parts.hostname + (f":{parts.port}" if parts.port else "")


@dataclass(frozen=True)
class Look:
    """The blind look at one image: what was seen, or why nothing was."""

    item: ImageItem
    seen: str | None
    missing: tuple[str, ...] = ()
    error: str | None = None

    @property
    def remake(self) -> bool:
        return self.seen is not None and bool(self.missing)


@dataclass
class BlindLookReport:
    looks: list[Look] = field(default_factory=list)

    @property
    def remake(self) -> list[Look]:
        return [look for look in self.looks if look.remake]

    @property
    def failed(self) -> list[Look]:
        return [look for look in self.looks if look.error is not None]


def _message(item: ImageItem, prompt: str) -> list[dict[str, Any]]:
    media = _MEDIA_TYPES.get(item.path.suffix.lower(), "image/jpeg")
    data = base64.b64encode(item.path.read_bytes()).decode("ascii")
    return [{"role": "user", "content": [
        {"type": "text", "text": prompt},
        {"type": "image_url", "image_url": {"url": f"data:{media};base64,{data}"}},
    ]}]


async def _look(client: Any, settings: VisionSettings, item: ImageItem, prompt: str,
                gate: asyncio.Semaphore) -> Look:
    import openai

    async with gate:
        try:
            reply = await client.chat.completions.create(
                model=settings.model, messages=_message(item, prompt),
                max_tokens=settings.max_tokens)
        except openai.OpenAIError as exc:
            return Look(item, None, error=f"{type(exc).__name__}: {exc}")
    text = (reply.choices[0].message.content or "").strip() if reply.choices else ""
    if not text:
        return Look(item, None, error="the model returned no description")
    if not item.subject:
        return Look(item, text, ("<no subject words: add subject_words to provenance.json>",))
    return Look(item, text, tuple(missing_groups(text, item.subject)))


def _record(pack_dir: Path, looks: list[Look], settings: VisionSettings, on: str) -> None:
    """Write the new descriptions into the pack's review.json (other entries unchanged)."""
    done = [look for look in looks if look.seen is not None]
    if not done:
        return
    review = load_review(pack_dir)
    entries = {m.file: m for m in review.materials}
    for look in done:
        entry = entries.get(look.item.file)
        if entry is None:
            entry = MaterialReview(file=look.item.file)
            review.materials.append(entry)
            entries[look.item.file] = entry
        entry.blind_look = BlindLook(
            model=settings.model, endpoint_host=settings.host, seen=look.seen or "", date=on,
            sha256=look.item.sha256, mentions_subject=not look.missing,
            missing=list(look.missing))
    save_review(pack_dir, review)


async def blind_look(pack_dirs: list[Path], settings: VisionSettings, *,
                     files: list[str] | None = None, on: date | None = None) -> BlindLookReport:
    """Show every image of ``pack_dirs`` (or only ``files``) alone to the vision model.

    Each description is recorded in its pack's review.json as soon as that pack is done;
    an image the endpoint fails on is reported and leaves its earlier blind look as it was.
    """
    from openai import AsyncOpenAI

    prompt = blind_prompt()
    when = (on or date.today()).isoformat()
    wanted = set(files or [])
    per_pack = [(d, [i for i in pack_images(d) if not wanted or i.file in wanted])
                for d in pack_dirs]
    missing = wanted - {i.file for _, items in per_pack for i in items}
    if missing:
        raise PackError(f"no image named {sorted(missing)} in the packs given", field="files")
    report = BlindLookReport()
    gate = asyncio.Semaphore(max(1, settings.concurrency))
    client = AsyncOpenAI(base_url=settings.base_url, api_key=settings.api_key or "unused",
                         timeout=settings.timeout_s, max_retries=settings.max_retries)
    try:
        for pack_dir, items in per_pack:
            looks = list(await asyncio.gather(
                *(_look(client, settings, item, prompt, gate) for item in items)))
            _record(pack_dir, looks, settings, when)
            report.looks.extend(looks)
    finally:
        await client.close()
    return report
