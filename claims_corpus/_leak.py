"""The leak guard: no value only the oracle, setup or provenance holds may reach the customer.

A guard is built for one pack. It forbids:

- the system vocabulary (triage classes, reason codes, check ids and outcomes, evidence
  kinds) wherever it is code-like (contains ``_``), in every pack;
- a triage class in ordinary words, by its own words and each class's synonyms
  (``triage_words.toml``) where they describe the claim ("expects a standard claim", "the
  case is complicated", "fast-track my claim"), in every pack, whatever the customer view
  holds: the view is where such a sentence would have been written;
- for the runtime guard: string values of ``setup.json`` that appear nowhere in the
  customer-visible files or the prompt templates (seeded ids, dates, e-mails, hashes, staff);
- for the audit guard, in addition: every oracle value and provenance text that the customer
  view does not contain (triage class, reasons, check outcomes, assertion and explanation
  wording, purposes, prompts, printed fields). Long texts are matched by five-word runs, so a
  phrase lifted from them is caught as well as the whole text.

Only the parts of a prompt built from the pack are checked: product text (conversation and
screen sections, see ``claims_corpus._prompt``) is removed first. The runtime guard never opens
``oracle/``, ``provenance.json`` or ``review.json``.

Both guards allow whatever the customer view holds, so neither can see a value written into
the pack's own customer files. The input audit (``for_input_audit``, run by ``corpus check``)
closes that gap: it forbids the same setup, oracle and provenance values without allowing the
view, and allows only what the customer legitimately knows (the oracle's expected and optional
fact values, ``setup.known_ids``, the persona's name, and ``labels.customer_may_know``).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, get_args

from claims_records import REASON_CODES, CheckId, CheckOutcome, LeakError, TriageClass

from . import _io
from ._loading import load_labels, load_provenance, load_setup
from ._prompt import TEMPLATES, template_text, without_product_text
from ._view import load_customer_view
from .formats.pack_input import EvidenceKind

SHINGLE_WORDS = 5
_WORD = re.compile(r"[a-z0-9_]+")
# A label value that is also a word of the language ("hit", "clear", "standard", "complex")
# leaks only where it is used as that label: what these words name and the words that link
# them to their value ("the quote check is clear", "triage class: standard").
LABEL_NAMES: tuple[str, ...] = (
    "triage class", "triage", "class", "band", "category", "check outcome", "check", "checks",
    "outcome", "result", "status", "verdict", "reason code", "reason", "reasons", "label",
)
_LINKS = r"(?:is|was|are|were|came\s+back|comes\s+back|returned|set\s+to|marked|of|as)"
_CAPS_WORD = re.compile(r"[A-Za-z]+")


TRIAGE_WORDS_FILE = Path(__file__).with_name("triage_words.toml")


@lru_cache(maxsize=1)
def triage_phrases() -> tuple[tuple[re.Pattern[str], str], ...]:
    """(pattern, triage class) for each class's words describing the claim: "<word> claim"
    (a word between allowed: "a standard motor claim"), "<noun> is <word>", and the
    multi-word forms of a class on their own ("fast-track", "low severity")."""
    data = tomllib.loads(TRIAGE_WORDS_FILE.read_text(encoding="utf-8"))

    def alt(words: Iterable[str]) -> str:
        return "|".join(re.escape(w).replace(r"\ ", r"\s+").replace(r"\-", r"[\s-]?")
                        for w in sorted(words, key=len, reverse=True))

    nouns, links = alt(data["nouns"]), alt(data["links"])
    out: list[tuple[re.Pattern[str], str]] = []
    for triage_class, words in data["classes"].items():
        w = alt(words)
        alone = alt(x for x in words if re.search(r"[\s-]", x))
        forms = [rf"(?:{w})(?:\s+[a-z]+)?\s+(?:{nouns})",
                 rf"(?:{nouns})\s+(?:{links})(?:\s+(?:{links}))?\s+(?:a\s+|an\s+)?(?:{w})"]
        if alone:
            forms.append(alone)
        out.append((re.compile(r"(?<![a-z0-9_])(?:" + "|".join(forms) + r")(?![a-z0-9_])",
                               re.IGNORECASE), triage_class))
    return tuple(out)


def triage_in_words(text: str) -> list[tuple[str, str]]:
    """(the words, the triage class they name) for every triage class ``text`` names in
    ordinary words."""
    return [(m.group(0), triage_class) for pattern, triage_class in triage_phrases()
            for m in pattern.finditer(text)]


@dataclass(frozen=True)
class Leak:
    """A forbidden value found in a prompt, and where that value comes from."""

    term: str
    source: str


def system_vocabulary() -> dict[str, str]:
    """Code-like system values (containing ``_``) -> where they come from."""
    groups = {
        "triage class": get_args(TriageClass),
        "reason code": REASON_CODES,
        "check id": get_args(CheckId),
        "check outcome": get_args(CheckOutcome),
        "evidence kind": get_args(EvidenceKind),
    }
    return {code: f"system vocabulary ({group})"
            for group, codes in groups.items() for code in codes if "_" in code}


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _shingles(text: str) -> set[tuple[str, ...]]:
    w = _words(text)
    return {tuple(w[i:i + SHINGLE_WORDS]) for i in range(len(w) - SHINGLE_WORDS + 1)}


@lru_cache(maxsize=4096)
def _pattern(term: str) -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(term) + r"(?![A-Za-z0-9_])", re.IGNORECASE)


def is_word_like(term: str) -> bool:
    """A single word of letters: as a label value, also a word of the language."""
    return bool(re.fullmatch(r"[A-Za-z]+", term))


@lru_cache(maxsize=1024)
def _label_pattern(term: str) -> re.Pattern[str]:
    """Where a word-like label value stands as that label (all but the capitals form)."""
    t = re.escape(term)
    names = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in LABEL_NAMES)
    end = r"(?![A-Za-z0-9_])"
    forms = [
        rf"^\W*{t}\W*$",                                       # the whole text is the value
        rf"(?:[:=]|->|\u2192)\s*{t}{end}",                      # check: hit, result=hit
        rf"(?<=[\"'`\u2018\u201c]){t}(?=[\"'`\u2019\u201d])",   # `hit`, "hit"
        rf"(?<=[A-Za-z0-9][_.]){t}{end}",                        # check_hit, review.hit
        rf"(?<![A-Za-z0-9]){t}(?=[_.][A-Za-z0-9])",              # hit_receipt
        rf"(?<![A-Za-z0-9_])(?:{names})(?:\s+{_LINKS})?(?:\s*[:=]\s*|\s+){t}{end}",
    ]
    return re.compile("|".join(f"(?:{f})" for f in forms), re.IGNORECASE | re.MULTILINE)


@lru_cache(maxsize=1024)
def _capitals_pattern(term: str) -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(term.upper()) + r"(?![A-Za-z0-9_])")


def _in_capitals(term: str, text: str) -> bool:
    """``term`` written in capitals where the text around it is not (``HIT`` in "the check
    said HIT"; not in "A CAR HIT ME", where everything is)."""
    for m in _capitals_pattern(term).finditer(text):
        before = _CAPS_WORD.findall(text[:m.start()])[-1:]
        after = _CAPS_WORD.findall(text[m.end():])[:1]
        if not any(len(w) > 1 and w.isupper() for w in before + after):
            return True
    return False


def label_used(term: str, text: str) -> bool:
    """Does ``text`` use the word-like label value ``term`` as that label?"""
    return bool(_label_pattern(term).search(text)) or _in_capitals(term, text)


def _strings(value: Any, path: str) -> Iterable[tuple[str, str]]:
    """Every string inside a JSON-like value, with its dotted path."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, f"{path}.{i}" if path else str(i))


def _prompt_text(text_or_messages: str | Iterable[Any]) -> str:
    if isinstance(text_or_messages, str):
        return text_or_messages
    parts: list[str] = []
    for item in text_or_messages:
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(item, dict):
            content = item.get("content", "")
            parts.append(content if isinstance(content, str) else json.dumps(content))
        else:
            parts.append(str(item))
    return "\n".join(parts)


class LeakGuard:
    """Finds forbidden values in the pack-built parts of a customer prompt."""

    def __init__(self, pack_id: str, allowed_text: str) -> None:
        self.pack_id = pack_id
        self._allowed = allowed_text
        self._allowed_shingles = _shingles(allowed_text)
        self._terms: dict[str, str] = {}
        self._label_words: set[str] = set()  # terms matched only where used as labels
        self._phrases: dict[tuple[str, ...], str] = {}
        for term, source in system_vocabulary().items():
            self._terms[term] = source

    # ------------------------------------------------------------------ building

    def _allowed_has(self, term: str) -> bool:
        return bool(_pattern(term).search(self._allowed))

    def add_term(self, term: str, source: str, *, ordinary_words: bool = True,
                 single_words: bool = True, label: bool = False) -> None:
        """Forbid ``term`` unless the customer may see it (view or templates). Without
        ``ordinary_words``, a single lower-case word is not forbidden; without
        ``single_words``, no single word of letters is (a document's title, "RECEIPT").
        A ``label`` is a value of a closed vocabulary (a triage class, a check outcome, a
        reason): when it is a single word of letters it is forbidden only where it is used as
        that label (``label_used``), never as the ordinary word it also is."""
        term = term.strip()
        if len(term) < 3 or term in self._terms:
            return
        word_label = label and is_word_like(term)
        if (label_used(term, self._allowed) if word_label else self._allowed_has(term)):
            return
        if not ordinary_words and re.fullmatch(r"[a-z]+", term):
            return
        if not single_words and re.fullmatch(r"[A-Za-z]+", term):
            return
        self._terms[term] = source
        if word_label:
            self._label_words.add(term)

    def add_text(self, text: str, source: str) -> None:
        """Forbid ``text`` and every five-word run of it the customer may not see."""
        if len(_words(text)) < SHINGLE_WORDS:
            self.add_term(text, source)
            return
        for sh in _shingles(text) - self._allowed_shingles:
            self._phrases.setdefault(sh, source)

    def _add_setup(self, pack_dir: Path) -> None:
        setup = load_setup(pack_dir)
        data = setup.model_dump(mode="json", exclude={"version", "pack_id"})
        for path, value in _strings(data, ""):
            # single lower-case words (statuses, lines, roles) are ordinary language
            self.add_term(value, f"{_io.SETUP} {path}", ordinary_words=False)
        if setup.staff_script is not None:  # staff's note: also any five-word run of it
            self.add_text(setup.staff_script.note, f"{_io.SETUP} staff_script.note")

    @classmethod
    def _base(cls, pack_dir: Path) -> LeakGuard:
        view = load_customer_view(pack_dir)
        allowed = "\n".join([view.visible_text(), *(template_text(t) for t in TEMPLATES)])
        guard = cls(view.pack_id, allowed)
        guard._add_setup(pack_dir)
        return guard

    @classmethod
    def for_runtime(cls, pack_dir: Path | str) -> LeakGuard:
        """System vocabulary and setup-only values. Reads only the customer files and setup."""
        return cls._base(Path(pack_dir))

    def _add_oracle_and_provenance(self, pack_dir: Path) -> None:
        labels = load_labels(pack_dir)
        src = _io.LABELS
        self.add_term(labels.triage.triage_class, f"{src} triage.triage_class", label=True)
        if "_" in labels.triage.triage_class:  # "fast_track" also as "fast track"
            self.add_term(labels.triage.triage_class.replace("_", " "),
                          f"{src} triage.triage_class", label=True)
        for r in labels.triage.required_reasons + labels.triage.allowed_reasons:
            self.add_term(r, f"{src} triage reasons", label=True)
        for check, outcome in labels.review.checks.items():
            self.add_term(outcome, f"{src} review.checks.{check}", label=True)
        self.add_term(labels.scenario, f"{src} scenario", label=True)
        self.add_text(labels.review.explanation, f"{src} review.explanation")
        for key, why in labels.unknown_facts.items():
            self.add_text(why, f"{src} unknown_facts.{key}")
        for i, a in enumerate(labels.assertions):
            self.add_text(a.description, f"{src} assertions.{i}.description")
        end_state = labels.expected_end_state.model_dump(mode="json")
        for path, value in _strings(end_state, ""):
            self.add_term(value, f"{src} expected_end_state.{path}", ordinary_words=False)
        provenance = load_provenance(pack_dir)
        src = _io.PROVENANCE
        for i, m in enumerate(provenance.materials):
            self.add_text(m.purpose, f"{src} materials.{i}.purpose")
            if m.prompt:
                self.add_text(m.prompt, f"{src} materials.{i}.prompt")
            for path, value in _strings(m.printed_fields, ""):
                self.add_term(value, f"{src} materials.{i}.printed_fields.{path}",
                              single_words=False)
            for name in m.source_images:
                self.add_term(name, f"{src} materials.{i}.source_images")

    @classmethod
    def for_audit(cls, pack_dir: Path | str) -> LeakGuard:
        """The runtime guard plus every oracle and provenance value the customer cannot know."""
        pack_dir = Path(pack_dir)
        guard = cls._base(pack_dir)
        guard._add_oracle_and_provenance(pack_dir)
        return guard

    @classmethod
    def for_input_audit(cls, pack_dir: Path | str) -> LeakGuard:
        """For auditing the pack's customer files themselves: every setup, oracle and
        provenance value, allowed only where the customer legitimately knows it."""
        pack_dir = Path(pack_dir)
        labels = load_labels(pack_dir)
        setup = load_setup(pack_dir)
        view = load_customer_view(pack_dir)
        known = [str(v) for v in (*labels.expected_facts.values(),
                                  *labels.optional_facts.values())]
        known += [*setup.known_ids.values(), view.persona.name, *labels.customer_may_know]
        allowed = "\n".join([*(template_text(t) for t in TEMPLATES), *known])
        guard = cls(view.pack_id, allowed)
        guard._add_setup(pack_dir)
        guard._add_oracle_and_provenance(pack_dir)
        return guard

    # ------------------------------------------------------------------ checking

    @property
    def terms(self) -> dict[str, str]:
        """Forbidden single values -> their source."""
        return dict(self._terms)

    def find(self, text_or_messages: str | Iterable[Any], *, whole_text: bool = False
             ) -> list[Leak]:
        """Every forbidden value in the pack-built parts of a prompt (text or chat messages);
        with ``whole_text``, in all of it (for text that is pack text throughout)."""
        text = _prompt_text(text_or_messages)
        if not whole_text:
            text = without_product_text(text)
        leaks = [Leak(term, source) for term, source in sorted(self._terms.items())
                 if (label_used(term, text) if term in self._label_words
                     else _pattern(term).search(text))]
        leaks += [Leak(words, f"a triage class in ordinary words ({triage_class}; "
                       "claims_corpus/triage_words.toml)")
                  for words, triage_class in triage_in_words(text)]
        if self._phrases:
            seen: set[str] = set()
            for sh in sorted(_shingles(text) & self._phrases.keys()):
                source = self._phrases[sh]
                if source not in seen:  # one leak per source text is enough to name it
                    seen.add(source)
                    leaks.append(Leak(" ".join(sh), source))
        return leaks

    def check(self, text_or_messages: str | Iterable[Any]) -> None:
        """Raise ``LeakError`` naming the first forbidden value found."""
        leaks = self.find(text_or_messages)
        if leaks:
            first = leaks[0]
            more = f" (and {len(leaks) - 1} more)" if len(leaks) > 1 else ""
            raise LeakError(f"a customer prompt would contain a value the customer may not "
                            f"know{more}", pack=self.pack_id, term=first.term,
                            source=first.source)
