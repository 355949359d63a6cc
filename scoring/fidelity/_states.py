"""``states``: whether a text gives the value of one of the customer's facts.

Everything is matched on whole words of the normalised text (``norm_text``): "No." is not
found in "Don't know", "12" not in "1200", "POL-1234" not in "POL-12345". A wording or a
choice is not given where its clause negates it ("I don't think it was a theft"), and a bare
yes or no names no fact. Dates, times, amounts and numbers are compared by meaning, through
the values ``extract`` reads: a year inside a date is not a number of its own, and an amount
in another currency is another amount.
"""

from __future__ import annotations

import re
from functools import lru_cache

from claims_corpus.formats import Fact, TimeWindow
from claims_corpus.formats.matching import (
    has_code,
    kind_of,
    norm_text,
    parse_yes_no,
    structured,
    text_matches,
)
from claims_corpus.formats.money import HOME_CONVENTIONS, MoneyConventions, as_money

from ._values import Value, extract, same, same_currency

# What ends the clause a match is read in, and the words that negate it ("n't" reads as "t").
_CLAUSE_END = re.compile(r"[.,;:!?()\n]|\b(?:but|and|so|because|though|although|whereas)\b")
NEGATORS = frozenset({"not", "no", "never", "nor", "neither", "without", "none", "t"})
# Negators that negate only the word right after them.
NEXT_WORD_NEGATORS = frozenset({"no", "none"})
# A yes or no set off by punctuation at the start or the end of a wording.
_YES_NO_EDGE = re.compile(r"^\s*(?:yes|yeah|yep|no|nope)\s*[,;:.!-]+"
                          r"|[,;:-]\s*(?:yes|yeah|yep|no|nope)\W*$", re.I)
# The fewest words a wording keeps without its yes or no to be looked for on its own.
CORE_WORDS = 3


@lru_cache(maxsize=4096)
def _phrase(phrase: str) -> re.Pattern[str]:
    words = norm_text(phrase).split()
    return re.compile(r"(?<![a-z0-9])" + r"[^a-z0-9]+".join(map(re.escape, words))
                      + r"(?![a-z0-9])")


def mentions(phrase: str, text: str) -> bool:
    """Whether ``text`` says ``phrase`` (whole words, normalised) outside a negated clause.
    "no" and "none" negate only what follows them at once ("no theft"): in "No worries
    nobody was hurt" the "no" is about the worries."""
    if not norm_text(phrase):
        return False
    low = text.lower()
    for m in _phrase(phrase).finditer(low):
        words = norm_text(_CLAUSE_END.split(low[:m.start()])[-1]).split()
        negated = (NEGATORS - NEXT_WORD_NEGATORS) & set(words) or (
            words and words[-1] in NEXT_WORD_NEGATORS)
        if not negated:
            return True
    return False


def say_phrases(say: str) -> tuple[str, ...]:
    """The wordings that give a fact: its say, and the say without a yes or no set off at
    either end when enough words remain ("No, nobody was hurt." also as "nobody was hurt").
    None for a bare yes or no."""
    words = norm_text(say).split()
    if all(parse_yes_no(w) is not None for w in words):
        return ()
    core = _YES_NO_EDGE.sub("", say)
    if core != say and len(norm_text(core).split()) >= CORE_WORDS:
        return (say, core)
    return (say,)


def _amount_given(expected: object, v: Value, *, any_currency: bool) -> bool:
    """Whether an extracted amount or number stands for the expected amount."""
    want = as_money(expected)
    if want is None or v.kind not in ("money", "number"):
        return False
    if v.key[0] != round(float(want.amount) * 100):
        return False
    return any_currency or v.kind == "number" or same_currency(want.currency, v.key[1])


def _window_given(window: TimeWindow, text: str) -> bool:
    """Both ends of a time window named: one end alone is a collapsed window."""
    times = [v for v in extract(text) if v.kind == "time"]
    ends = (extract(window.earliest), extract(window.latest))
    return all(any(same(t, e) for t in times for e in end) for end in ends)


def _is_number(value: str) -> bool:
    return re.fullmatch(r"\d[\d,]*(?:\.\d+)?", value.strip()) is not None


def _is_code(value: str) -> bool:
    """A reference, registration or the like: digits, at least four characters, one or two
    words ("LK19 XRD", "POL-300142")."""
    return (re.search(r"\d", value) is not None and len(value.split()) <= 2
            and len(norm_text(value).replace(" ", "")) >= 4)


def states(fact: Fact, text: str, conventions: MoneyConventions = HOME_CONVENTIONS) -> bool:
    """Whether ``text`` gives the value of ``fact`` (by the fact's kind; amounts as the
    product writes them, ``conventions``)."""
    if not text.strip():
        return False
    if any(mentions(p, text) for p in say_phrases(fact.say)):
        return True
    value = structured(fact.value)
    kind = kind_of(fact.key, value) if fact.kind == "text" else fact.kind
    if isinstance(value, TimeWindow):
        return _window_given(value, text)
    if kind in ("date", "time"):
        wanted = extract(str(value))
        return any(same(v, w) for v in extract(text) for w in wanted if v.kind == w.kind)
    if kind in ("money", "number"):
        return any(_amount_given(value, v, any_currency=kind == "number")
                   for v in extract(text, conventions))
    if kind == "choice":
        return mentions(str(value).replace("_", " "), text)
    if kind == "yes_no":
        return False  # a bare yes or no names no fact; the say wording was checked above
    raw = str(value)
    if _is_number(raw):
        return any(_amount_given(raw, v, any_currency=True) for v in extract(text))
    if _is_code(raw):
        return has_code(raw, text)
    return len(norm_text(raw).split()) >= 3 and text_matches(raw, text, whole_words=True)
