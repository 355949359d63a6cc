"""After the journey: what the product's own agent told the customer it decided.

Read from the agent messages the customer saw in the journey, in order (the journey's
history: nothing from the network or the product's data), through the profile's
``[agent_decision]`` words. The first message carrying an outcome phrase that no hedge word
cancels is the decision; in an approving message, the amount nearest one of the amount
words in its sentence is the decided amount, read in the product's locale and currency.

- A phrase is matched as whole words, case and punctuation ignored (``has_words``):
  "approved" is not in "approval".
- A phrase is not read when one of the hedge words stands among the five words before it in
  its clause: "not approved", "hasn't been approved" ("n't" reads as "not"), "if approved",
  "whether it is approved or declined". A clause ends at a comma, colon, semicolon, dash or
  bracket, and with its sentence ("No worries — approved" is read).
- Sentences end at ``.``, ``!``, ``?`` or ``;`` followed by white space, and at line breaks.
"""

from __future__ import annotations

import re

from claims_corpus.formats import MoneyConventions
from claims_corpus.formats.matching import has_words, norm_text
from claims_corpus.formats.money import ShownAmount, find_amounts
from claims_records import AGENT_TEXT_LIMIT, AgentAmount, AgentDecisionReading, AgentOutcome

from ..profile import AgentDecisionWords

HEDGE_REACH = 5
"""How many words before an outcome phrase, in its clause, a hedge word cancels it from."""
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|\s*\n\s*")
_CLAUSE_END = re.compile(r"[,;:()\[\]\u2013\u2014]|\s-\s")
_NOT = re.compile(r"n['\u2019]t\b", re.IGNORECASE)


def sentences(text: str) -> list[str]:
    """The text's sentences (see the module's docstring), without empty ones."""
    return [s for s in _SENTENCES.split(text) if s.strip()]


def _plain(text: str) -> str:
    """The text with "n't" written "not" ("hasn't" -> "has not")."""
    return _NOT.sub(" not", text)


def unhedged(phrase: str, sentence: str, hedges: list[str]) -> bool:
    """``phrase`` stands in ``sentence`` as whole words at least once with no hedge word among
    the ``HEDGE_REACH`` words before it in its clause."""
    plain = _plain(sentence)
    if not has_words(_plain(phrase), plain):
        return False
    for start, _ in _word_spans(_plain(phrase), plain):
        clause = _CLAUSE_END.split(plain[:start])[-1]
        before = " ".join(norm_text(clause).split()[-HEDGE_REACH:])
        if not any(has_words(_plain(h), before) for h in hedges):
            return True
    return False


def outcome_of(text: str, words: AgentDecisionWords) -> tuple[AgentOutcome, str] | None:
    """The outcome a message states and the phrase stating it: the first sentence with an
    unhedged phrase decides (approved before declined within one sentence); None when no
    sentence does."""
    for sentence in sentences(text):
        for outcome, phrases in words.outcomes().items():
            for phrase in phrases:
                if unhedged(phrase, sentence, words.hedge_words):
                    return outcome, phrase
    return None


def _word_spans(word: str, sentence: str) -> list[tuple[int, int]]:
    """Where ``word`` stands in ``sentence`` as whole words (case and punctuation ignored)."""
    parts = [re.escape(p) for p in norm_text(word).split()]
    if not parts:
        return []
    pattern = re.compile(r"(?<![a-z0-9])" + r"[^a-z0-9]+".join(parts) + r"(?![a-z0-9])",
                         re.IGNORECASE)
    return [m.span() for m in pattern.finditer(sentence)]


def _gap(amount: ShownAmount, span: tuple[int, int]) -> int:
    start, end = amount.span
    return max(span[0] - end, start - span[1], 0)


def decided_amount(text: str, amount_words: list[str], money: MoneyConventions
                   ) -> AgentAmount | None:
    """The amount nearest an amount word in the first sentence holding both (an amount naming
    a currency before one naming none); None when no sentence holds both."""
    for sentence in sentences(text):
        spans = [s for w in amount_words for s in _word_spans(w, sentence)]
        amounts = find_amounts(sentence, money)
        if not spans or not amounts:
            continue
        named = [a for a in amounts if a.currencies] or amounts
        best = min(named, key=lambda a: min(_gap(a, s) for s in spans))
        currencies = best.currencies_in(money)
        return AgentAmount(amount=float(best.amount),
                           currency=next(iter(currencies)) if len(currencies) == 1 else None)
    return None


def read_agent_decision(history: list[tuple[str, str]], words: AgentDecisionWords,
                        money: MoneyConventions) -> AgentDecisionReading:
    """What the agent told the customer it decided, from the journey's history ((role, text)
    in order; the agent's messages are read)."""
    texts = [text for role, text in history if role == "agent"]
    for turn, text in enumerate(texts, start=1):
        found = outcome_of(text, words)
        if found is None:
            continue
        outcome, phrase = found
        amount = (decided_amount(text, words.amount_words, money)
                  if outcome == "approved" else None)
        return AgentDecisionReading(messages=len(texts), outcome=outcome, phrase=phrase,
                                    amount=amount, text=text[:AGENT_TEXT_LIMIT], turn=turn)
    return AgentDecisionReading(messages=len(texts))
