"""The product's words -> the canonical codes of docs/claim-rules.md.

With an empty table for a kind, the product shows canonical codes itself and a shown text is
read by its leading code (``third_party_involved — the other driver…``). With a table, a shown
text maps when it equals one of the product's words, or starts with one followed by a
non-letter; anything else is *unmapped* and recorded as such.

A stored word (the staff side read from the stores, ``stored``) is taken as it is when it is
a canonical code of its kind (the profile's mapping has put it in canonical terms), else
through the same table; anything else is unmapped — an empty table reads no stored word.
"""

from __future__ import annotations

import re

from ..profile import CANONICAL, FACT_KEY, Vocabulary

_CODE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)")
_EDGES = re.compile(r"^[\W_]+|[\W_]+$")


def normalise(text: str) -> str:
    """Lower case, whitespace collapsed, punctuation trimmed at both ends."""
    return _EDGES.sub("", " ".join(text.lower().split()))


def leading_code(text: str) -> str:
    m = _CODE.match(text)
    return m[1].lower() if m else text.strip().lower()


def map_word(table: dict[str, str], shown: str) -> str | None:
    """The code ``table`` gives ``shown`` (equal to a word, or starting with the longest word
    followed by a non-letter); the leading code of ``shown`` when the table is empty; None
    when nothing maps."""
    if not table:
        return leading_code(shown)
    norm = normalise(shown)
    best: tuple[int, str] | None = None
    for word, code in table.items():
        w = normalise(word)
        if norm == w:
            return code
        prefix = w and norm.startswith(w) and not norm[len(w)].isalnum()
        if prefix and (best is None or len(w) > best[0]):
            best = (len(w), code)
    return best[1] if best is not None else None


class WordMap:
    """Maps shown words for each kind, collecting what it cannot map."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self.unmapped: dict[str, list[str]] = {}

    def code(self, kind: str, shown: str) -> str | None:
        """The canonical code of ``shown``, or None (recorded as unmapped) when it has none."""
        code = map_word(getattr(self.vocabulary, kind), shown)
        if code is not None:
            return code
        self._unmapped(kind, shown)
        return None

    def stored(self, kind: str, word: str) -> str | None:
        """The canonical code of a stored ``word``: the word itself when it is a canonical
        code of ``kind`` (any fact-key shape for fact keys), else the table's code; None
        (recorded as unmapped) when it has none."""
        allowed = CANONICAL[kind]
        text = word.strip()
        if (FACT_KEY.match(text) is not None) if allowed is None else text in allowed:
            return text
        table = getattr(self.vocabulary, kind)
        code = map_word(table, word) if table else None
        if code is None:
            self._unmapped(kind, word)
        return code

    def _unmapped(self, kind: str, word: str) -> None:
        words = self.unmapped.setdefault(kind, [])
        if word not in words:
            words.append(word)
