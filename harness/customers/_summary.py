"""A summary on screen, checked against what the customer knows.

Before confirming, a careful customer reads every detail shown back to them — the "what we have
so far" panel, cards asking them to act, and "Label: value" lines in the latest reply — and
says what is wrong instead of confirming. A detail is wrong when:

- it shows a value for something the customer knows, and the value differs (by the fact's kind,
  with the same comparison the scorer uses); free-text details (a description, a place) are
  never nit-picked;
- it shows "not known" or nothing for something the customer knows;
- it shows a value for something the customer does not know (an invented value), or does not
  know yet (a later fact).

Only the screen and the customer's own view are read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from claims_corpus import CustomerView
from claims_corpus.formats import HOME_CONVENTIONS, FactValue, MoneyConventions
from claims_corpus.formats.matching import is_not_known, kind_of, norm_text, values_match
from claims_records import ScreenReading

from ._match import Synonyms

_COLON = re.compile(r":\s+")


@dataclass(frozen=True)
class Detail:
    """One detail shown back to the customer: its label and the value shown."""

    label: str
    value: str


@dataclass(frozen=True)
class Correction:
    """A detail the customer says is wrong, and what they say about it."""

    label: str
    key: str
    text: str


def shown_details(screen: ScreenReading) -> list[Detail]:
    """Every "label / value" pair of the panel, the cards and the latest reply."""
    out: list[Detail] = []
    for block in (screen.facts_panel, *screen.cards, screen.latest_reply):
        for line in block.splitlines():
            if "\t" in line:
                cells = [c.strip() for c in line.split("\t")]
                label, value = cells[0], cells[1] if len(cells) > 1 else ""
            elif _COLON.search(line):
                label, value = (p.strip() for p in _COLON.split(line, maxsplit=1))
            else:
                continue
            if label and len(label) <= 60:
                out.append(Detail(label, value))
    return out


def _compared_kind(key: str, value: FactValue) -> str | None:
    """How the customer compares this fact; None for free text it would not nit-pick."""
    kind = kind_of(key, value)
    if kind == "text":
        return "code" if isinstance(value, str) and " " not in value.strip() else None
    return kind


def corrections(view: CustomerView, learned: list[str], screen: ScreenReading,
                syn: Synonyms, money: MoneyConventions = HOME_CONVENTIONS
                ) -> list[Correction]:
    """What the customer would correct in the details shown, one entry per wrong detail
    (amounts read by the product's ``money`` conventions)."""
    facts = {f.key: f for f in view.facts}
    empty = {norm_text(e) for e in syn.empty}
    out: list[Correction] = []
    seen: set[str] = set()
    for d in shown_details(screen):
        key = syn.fact_key_of(d.label)
        if key is None or key in seen:
            continue
        blank = norm_text(d.value) in empty
        not_known = blank or is_not_known(d.value)
        fact = facts.get(key)
        if fact is None or (fact.later is not None and key not in learned):
            if not not_known:  # a value for something the customer does not know
                say = fact.later.describe_before if fact is not None and fact.later else \
                    view.persona.dont_know_phrase
                out.append(Correction(d.label, key, f"{d.label}: {say}"))
                seen.add(key)
            continue
        kind = _compared_kind(key, fact.value)
        if not_known or (kind is not None and not values_match(kind, fact.value, d.value, money)):
            out.append(Correction(d.label, key, f"{d.label}: {fact.say}"))
            seen.add(key)
    return out
