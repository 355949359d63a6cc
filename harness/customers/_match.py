"""Recognising what a reply asks for, by meaning: phrase tables, not exact wording."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from claims_corpus import CustomerMaterial
from claims_corpus.formats import Fact

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


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (split after . ! ? and at line breaks)."""
    return [p.strip() for p in re.split(r"(?<=[.!?])\s+|\n+", text) if p.strip()]


def questions(text: str) -> list[str]:
    """The sentences of ``text`` that ask something (end in '?'); all of it if none does."""
    asked = [p for p in sentences(text) if p.endswith("?")]
    return asked or ([text.strip()] if text.strip() else [])


@dataclass(frozen=True)
class Synonyms:
    """The phrase tables of synonyms.toml."""

    facts: dict[str, list[str]]
    materials: dict[str, list[str]]
    requests: list[str]
    request_verbs: list[str]
    acknowledgements: list[str]
    ack_negations: list[str]
    confirm_request: list[str]
    confirm_control: list[str]
    yes: list[str]
    no: list[str]
    empty: list[str]
    phrases: dict[str, str]
    subjects: dict[str, list[str]]
    references: list[str]

    @classmethod
    def load(cls, path: Path = SYNONYMS_FILE) -> Synonyms:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return cls(
            facts={k: list(v) for k, v in data["facts"].items()},
            materials={k: list(v) for k, v in data["materials"].items()},
            requests=list(data["requests"]["words"]),
            request_verbs=list(data["requests"]["verbs"]),
            acknowledgements=list(data["acknowledgements"]["words"]),
            ack_negations=list(data["acknowledgements"]["negations"]),
            confirm_request=list(data["confirm"]["request"]),
            confirm_control=list(data["confirm"]["control"]),
            yes=list(data["answers"]["yes"]),
            no=list(data["answers"]["no"]),
            empty=list(data["summary"]["empty"]),
            phrases=dict(data["phrases"]),
            subjects={k: list(v) for k, v in data["subjects"].items()},
            references=list(data["references"]["words"]),
        )

    def material_groups(self, text: str) -> set[str]:
        """Names of the file-kind groups whose words occur in ``text``."""
        norm = normalise(text)
        return {g for g, ps in self.materials.items() if any(has_phrase(norm, p) for p in ps)}

    def subject_groups(self, text: str) -> set[str]:
        """Names of the groups of what a claim is about (car, home, belongings) in ``text``."""
        norm = normalise(text)
        return {g for g, ps in self.subjects.items() if any(has_phrase(norm, p) for p in ps)}

    def is_acknowledgement(self, sentence: str) -> bool:
        """Says something arrived ("I've received your photo") and asks for nothing."""
        return (phrase_score(sentence, self.acknowledgements) > 0
                and phrase_score(sentence, self.ack_negations) == 0
                and phrase_score(sentence, self.request_verbs) == 0
                and not sentence.rstrip().endswith("?"))

    def without_acknowledgements(self, text: str) -> str:
        """``text`` without its acknowledgement sentences: what it still asks or says."""
        return " ".join(s for s in sentences(text) if not self.is_acknowledgement(s))

    def ranked_facts(self, text: str, facts: Sequence[Fact]) -> list[tuple[Fact, float]]:
        """Facts ``text`` asks about, best match first (ties keep the given order)."""
        if not text:
            return []
        asked_words = content_words(text)
        scored = []
        for i, fact in enumerate(facts):
            score = phrase_score(text, self.facts.get(fact.key, []))
            score += 0.5 * len(content_words(fact.topic) & asked_words)
            if score > 0:
                scored.append((-score, i, fact))
        scored.sort(key=lambda s: (s[0], s[1]))
        return [(fact, -neg) for neg, _, fact in scored]

    def fact_key_of(self, label: str) -> str | None:
        """The fact key a detail's label on screen names ('Time of the incident'), if one
        key clearly scores best."""
        scores = sorted(((phrase_score(label, ps), k) for k, ps in self.facts.items()),
                        reverse=True)
        if not scores or scores[0][0] == 0 or (len(scores) > 1 and scores[1][0] == scores[0][0]):
            return None
        return scores[0][1]

    def ranked_materials(self, text: str, materials: Sequence[CustomerMaterial],
                         uploaded: Sequence[str] = ()
                         ) -> list[tuple[float, bool, CustomerMaterial]]:
        """Materials ``text`` asks for: (score, not yet uploaded, material), best first."""
        wanted = self.material_groups(text)
        if not wanted:
            return []
        asked_words = content_words(text)
        scored = []
        for m in materials:
            groups = self.material_groups(m.label)
            if groups & wanted:
                score = 2 * len(groups & wanted) + 0.5 * len(content_words(m.label) & asked_words)
                scored.append((score, m.file not in uploaded, m))
        scored.sort(key=lambda s: (s[1], s[0]), reverse=True)
        return scored


@lru_cache(maxsize=1)
def default_synonyms() -> Synonyms:
    return Synonyms.load()
