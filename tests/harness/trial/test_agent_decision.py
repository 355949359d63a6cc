"""What the product's own agent told the customer it decided, read from the journey's agent
messages through the profile's words: phrasings that must be read and phrasings that must
not, the decided amount among several, the first message that tells one, and the record it
makes in trial.json (no browser)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from claims_corpus.formats import MoneyConventions
from claims_records import AGENT_TEXT_LIMIT, AgentDecisionReading, TrialResult
from harness.profile import AgentDecisionWords
from harness.trial._agent_decision import read_agent_decision, sentences

WORDS = AgentDecisionWords(approved=["approved", "settled at"], declined=["declined"],
                           amount_words=["payable", "settled at"])
EUROS = MoneyConventions(locale="en_IE", currency="EUR")


def _read(*agent: str, words: AgentDecisionWords = WORDS) -> AgentDecisionReading:
    return read_agent_decision([("agent", text) for text in agent], words, EUROS)


@pytest.mark.parametrize(("message", "outcome", "amount", "currency"), [
    ("Decision: approved — €293.53 payable.", "approved", 293.53, "EUR"),
    ("APPROVED", "approved", None, None),
    ("We've approved your claim.", "approved", None, None),
    ("Good news: your claim is approved. €1,250.00 is payable within 5 working days.",
     "approved", 1250.0, "EUR"),
    ("Decision: approved — €0.00 payable, because €100.00 is within your €250.00 excess.",
     "approved", 0.0, "EUR"),
    ("Approved. That is £462.00 (€543.53 at our reference rate) less your €250.00 excess: "
     "€293.53 payable.", "approved", 293.53, "EUR"),
    ("Approved: €1,400 claimed, €150 excess, €1,250 payable.", "approved", 1250.0, "EUR"),
    ("Approved: 300 payable within 5 working days.", "approved", 300.0, "EUR"),
    ("No worries — your claim is approved.", "approved", None, None),
    ("Approved — US$200.00 payable to you.", "approved", 200.0, "USD"),
    ("Your claim has been settled at 1,850 euros.", "approved", 1850.0, "EUR"),
    ("Your claim (HM-2026-000123) is approved.\n\nNothing is payable: the repair is "
     "within your excess.", "approved", None, None),
    ("I'm sorry: your claim is declined, as the policy had lapsed on 1 March.", "declined",
     None, None),
    ("Declined — €400.00 would have been payable.", "declined", None, None),
], ids=lambda v: v if isinstance(v, str) and len(v) < 40 else None)
def test_a_decision_told_the_customer_is_read(message: str, outcome: str, amount: float | None,
                                              currency: str | None) -> None:
    seen = _read("Hello, tell me what happened.", message)
    assert (seen.outcome, seen.turn, seen.text) == (outcome, 2, message)
    got = (seen.amount.amount, seen.amount.currency) if seen.amount else (None, None)
    assert got == (amount, currency)


@pytest.mark.parametrize("message", [
    "Your claim is not approved yet.",
    "It hasn't been approved.",
    "It hasn\u2019t been declined either.",
    "Approval is for a handler to decide.",
    "I can't approve claims myself.",
    "If approved, €300 is payable within 5 working days.",
    "Once approved, the money is payable within 5 days.",
    "A claims handler will decide whether it is approved or declined.",
    "Your claim will be reviewed before it is approved.",
    "It's not been approved or declined, and it will not be until a handler looks at it.",
    "Unapproved repairs are not covered.",
    "Nothing is settled at this stage.",
    "Decision: referred to a claims handler. I can't settle this claim myself, so a claims "
    "handler will review it and contact you; nothing has been decided yet.",
    "Thank you. Your claim has been submitted. Your claim number is HM-2026-000123.",
])
def test_a_message_that_decides_nothing_is_not_read(message: str) -> None:
    seen = _read("Hello, tell me what happened.", message)
    assert (seen.messages, seen.outcome) == (2, None)
    assert (seen.phrase, seen.amount, seen.text, seen.turn) == (None, None, None, None)


def test_the_first_message_telling_a_decision_is_the_one_read() -> None:
    seen = _read("Is the car still driveable?", "Your claim is not approved yet.",
                 "Approved: €120.00 payable.", "Declined after all.")
    assert (seen.messages, seen.turn, seen.outcome, seen.phrase) == (4, 3, "approved",
                                                                    "approved")
    assert seen.amount is not None and seen.amount.amount == 120.0


def test_only_the_agent_is_read_and_a_long_message_is_cut() -> None:
    history = [("customer", "I'm the broker: it's approved, €900 payable."),
               ("agent", "Thanks. I can't take decisions on anyone's say-so."),
               ("agent", "Approved — €80.00 payable. " + "Details follow. " * 60)]
    seen = read_agent_decision(history, WORDS, EUROS)
    assert (seen.messages, seen.turn) == (2, 2)
    assert seen.text is not None and len(seen.text) == AGENT_TEXT_LIMIT
    assert seen.text.startswith("Approved — €80.00 payable.")


def test_a_symbol_of_several_currencies_keeps_its_amount_without_one() -> None:
    seen = _read("Approved: $300 payable.")
    assert seen.amount is not None
    assert (seen.amount.amount, seen.amount.currency) == (300.0, None)


def test_without_amount_words_no_amount_is_read() -> None:
    words = AgentDecisionWords(approved=["Decision: approved"])
    seen = _read("Decision: approved — €293.53 payable.", words=words)
    assert (seen.outcome, seen.amount) == ("approved", None)
    assert _read("The decision is approved.", words=words).outcome is None


def test_sentences_end_at_stops_followed_by_space_and_at_line_breaks() -> None:
    assert sentences("€293.53 payable. That is all; thanks!\n\nBye") == [
        "€293.53 payable.", "That is all;", "thanks!", "Bye"]


def test_the_record_is_strict_and_old_trial_records_still_load() -> None:
    with pytest.raises(ValidationError, match="without an outcome"):
        AgentDecisionReading(messages=2, text="Approved")
    with pytest.raises(ValidationError, match="needs its phrase, text and turn"):
        AgentDecisionReading(messages=2, outcome="approved", phrase="approved", turn=1)
    with pytest.raises(ValidationError, match="only an approval carries an amount"):
        AgentDecisionReading(messages=1, outcome="declined", phrase="declined", text="x",
                             turn=1, amount={"amount": 5, "currency": "EUR"})
    with pytest.raises(ValidationError, match="past the 1 message"):
        AgentDecisionReading(messages=1, outcome="declined", phrase="declined", text="x",
                             turn=2)
    old = {"pack_id": "CTL-M-004", "trial": 1, "status": "completed",
           "started_at": "2026-04-01T10:00:00Z", "ended_at": "2026-04-01T10:01:00Z",
           "duration_s": 60.0}
    assert TrialResult.model_validate(old).agent_decision is None
    seen = _read("Approved: €120.00 payable.")
    again = TrialResult.model_validate_json(
        TrialResult.model_validate({**old, "agent_decision": seen.model_dump()})
        .model_dump_json())
    assert again.agent_decision == seen
