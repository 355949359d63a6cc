"""The words a product's own agent uses when it tells the customer what it decided.

Many agents settle small claims themselves and say so on screen ("Decision: approved — €250.00
payable"). ``[agent_decision]`` gives the product's words for it: phrases per outcome, the
words marking the decided amount, and the words that make a phrase no decision ("not
approved", "if approved"). The harness reads the agent messages the customer saw with them
(``harness.trial``); the scorer grades what it read against the pack's authority rules.
Leaving the section out means the screen is not read for agent decisions, and the
agent_decision component is ``not_implemented``.
"""

from __future__ import annotations

from pydantic import Field, field_validator, model_validator

from claims_corpus.formats._base import Strict
from claims_corpus.formats.matching import norm_text
from claims_records import AgentOutcome

# Words that, among the few words before an outcome phrase, make it no decision: negations
# and conditions, written as the harness reads them (a contraction "n't" reads as "not").
HEDGE_WORDS: tuple[str, ...] = (
    "not", "no", "never", "cannot", "nothing", "if", "once", "when", "until", "unless",
    "whether", "before",
)


def _phrases(values: list[str]) -> list[str]:
    """Phrases with words in them (a phrase of punctuation alone could never be read)."""
    empty = [v for v in values if not norm_text(v)]
    if empty:
        raise ValueError(f"{empty} hold no word: give phrases the product writes")
    return values


class AgentDecisionWords(Strict):
    """[agent_decision]: how the product's agent words its own decision on a claim.

    Phrases and words are matched as whole words, case and punctuation ignored ("Decision:
    approved" is in "DECISION — approved", "approved" is not in "approval").
    """

    approved: list[str] = Field(
        default_factory=list, description="Phrases meaning the agent approved or settled the "
        "claim (an amended or settled amount counts as approved): e.g. 'Decision: approved', "
        "'settled at'.")
    declined: list[str] = Field(
        default_factory=list, description="Phrases meaning the agent declined the claim: "
        "e.g. 'Decision: declined'.")
    amount_words: list[str] = Field(
        default_factory=list, description="Words next to the decided amount in an approving "
        "message (e.g. 'payable'): of the amounts in a sentence holding one, the nearest "
        "(one naming a currency first) is the decided amount, read in the profile's locale "
        "and currency; empty: no amount is read.")
    hedge_words: list[str] = Field(
        default_factory=lambda: list(HEDGE_WORDS), description="Words that, among the "
        "five words before an outcome phrase in its clause, make it no decision: negations "
        "('not approved', 'hasn't been approved') and conditions ('if approved', 'whether it "
        "is approved or declined'). Default: English negations and conditions; give the "
        "product's own language.")

    @field_validator("approved", "declined", "amount_words", "hedge_words")
    @classmethod
    def _words(cls, v: list[str]) -> list[str]:
        return _phrases(v)

    @model_validator(mode="after")
    def _complete(self) -> AgentDecisionWords:
        if not self.approved and not self.declined:
            raise ValueError("give the agent's phrases for 'approved', 'declined' or both "
                             "(or leave [agent_decision] out: the screen is not read for "
                             "agent decisions)")
        both = sorted({norm_text(p) for p in self.approved}
                      & {norm_text(p) for p in self.declined})
        if both:
            raise ValueError(f"{both} stand for both approved and declined")
        return self

    def outcomes(self) -> dict[AgentOutcome, list[str]]:
        """Outcome -> its phrases, approved first."""
        return {"approved": list(self.approved), "declined": list(self.declined)}

    def describe(self) -> str:
        """The words in one line ("approved 'Decision: approved'; amount by 'payable'")."""
        parts = [f"{outcome} " + " | ".join(repr(p) for p in phrases)
                 for outcome, phrases in self.outcomes().items() if phrases]
        if self.amount_words:
            parts.append("amount by " + " | ".join(repr(w) for w in self.amount_words))
        return "; ".join(parts)
