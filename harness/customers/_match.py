"""Recognising what a reply asks for, by meaning: phrase tables, not exact wording."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

SYNONYMS_FILE = Path(__file__).with_name("synonyms.toml")

_STOPWORDS = frozenset((
    "a", "an", "and", "any", "are", "as", "at", "be", "by", "did", "do", "does", "for",
    "from", "had", "has", "have", "how", "i", "in", "is", "it", "it's", "its", "me", "my",
    "of", "on", "or", "our", "that", "the", "their", "them", "there", "this", "to", "was",
    "we", "were", "what", "which", "who", "with", "you", "your",
))
_WORD = re.compile(r"[a-z0-9']+")


def normalise(text: str) -> str:
    """Lower case, curly quotes straightened, whitespace collapsed."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").lower()
    return " ".join(text.split())


def words(text: str) -> list[str]:
    return _WORD.findall(normalise(text))


def content_words(text: str) -> set[str]:
    return {w for w in words(text) if w not in _STOPWORDS and len(w) > 1}


@lru_cache(maxsize=4096)
def _phrase_regex(phrase: str) -> re.Pattern[str]:
    stem = phrase.endswith("*")
    body = phrase.rstrip("*").strip()
    pattern = r"(?<![a-z0-9])" + r"\s+".join(re.escape(p) for p in body.split())
    pattern += r"[a-z0-9']*" if stem else r"(?![a-z0-9])"
    return re.compile(pattern)


def has_phrase(text: str, phrase: str) -> bool:
    """Whether ``phrase`` (see synonyms.toml for the '*' suffix) occurs in normalised text."""
    return bool(_phrase_regex(phrase).search(text))


def phrase_score(text: str, phrases: list[str]) -> float:
    """Sum of matched phrases, longer (more specific) phrases weighing more."""
    text = normalise(text)
    return float(sum(len(p.rstrip("*").split()) for p in phrases if has_phrase(text, p)))


def questions(text: str) -> list[str]:
    """The sentences of ``text`` that ask something (end in '?'); all of it if none does."""
    parts = [p.strip() for p in re.split(r"(?<=[.!?])\s+|\n+", text) if p.strip()]
    asked = [p for p in parts if p.endswith("?")]
    return asked or ([text.strip()] if text.strip() else [])


@dataclass(frozen=True)
class Synonyms:
    """The phrase tables of synonyms.toml."""

    facts: dict[str, list[str]]
    materials: dict[str, list[str]]
    requests: list[str]
    confirm_request: list[str]
    confirm_control: list[str]
    yes: list[str]
    no: list[str]
    phrases: dict[str, str]

    @classmethod
    def load(cls, path: Path = SYNONYMS_FILE) -> Synonyms:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return cls(
            facts={k: list(v) for k, v in data["facts"].items()},
            materials={k: list(v) for k, v in data["materials"].items()},
            requests=list(data["requests"]["words"]),
            confirm_request=list(data["confirm"]["request"]),
            confirm_control=list(data["confirm"]["control"]),
            yes=list(data["answers"]["yes"]),
            no=list(data["answers"]["no"]),
            phrases=dict(data["phrases"]),
        )

    def material_groups(self, text: str) -> set[str]:
        """Names of the file-kind groups whose words occur in ``text``."""
        norm = normalise(text)
        return {g for g, ps in self.materials.items() if any(has_phrase(norm, p) for p in ps)}


@lru_cache(maxsize=1)
def default_synonyms() -> Synonyms:
    return Synonyms.load()
