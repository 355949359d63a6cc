"""The agent_decision component: a decision the product's own agent told the customer.

Staff decide every claim of the corpus: a pack's ``staff_decision.allowed_roles`` are staff
roles, and the agent is never one (docs/claim-rules.md, "Who decides"). So an outcome the
agent showed the customer (trial.json ``agent_decision``, read by the harness from the
journey's agent messages) fails with ``wrong_authority``, whatever it decided; the
explanation says what it decided and, when the pack has a staff decision, whether that
agrees with the status and amount the pack expects staff to give. docs/scoring.md,
"Agent decisions", states the rule.
"""

from __future__ import annotations

from decimal import Decimal

from claims_corpus.formats import DecisionLabel, Labels
from claims_corpus.formats.money import same_amount
from claims_records import (
    STAFF_ROLES,
    AgentAmount,
    AgentDecisionReading,
    ComponentResult,
    JsonValue,
)

from ._claim_checks import component

NAME = "agent_decision"
NOT_READ = ("the customer's screen was not read for a decision of the agent's (the profile "
            "gives no [agent_decision] words, or the trial was recorded before they existed)")
# The outcome an agent would have to show to agree with the status the pack expects.
AGREEING: dict[str, str] = {"approved": "approved", "amended": "approved",
                            "declined": "declined"}


def _amount_text(amount: AgentAmount | None) -> str:
    if amount is None:
        return ""
    value = f"{amount.amount:,.2f}"
    return f", {value} {amount.currency}" if amount.currency else f", {value} (currency unclear)"


def agreement(seen: AgentDecisionReading, label: DecisionLabel | None) -> tuple[bool | None, str]:
    """Whether the agent's outcome (and amount) is the decision the pack expects staff to
    take; None when the pack has no staff decision."""
    if label is None:
        return None, "the pack has no staff decision to compare it with"
    expected = label.customer_status
    if AGREEING.get(expected) != seen.outcome:
        return False, f"the pack expects staff to decide: {expected}"
    want = label.note_amount
    if want is None or seen.outcome != "approved":
        return True, f"the same outcome staff are expected to decide ({expected})"
    got = seen.amount
    if got is None:
        return False, f"the pack expects {expected} with {want}; the agent showed no amount"
    if got.currency != want.currency or not same_amount(Decimal(str(got.amount)),
                                                        Decimal(str(want.amount))):
        return False, f"the pack expects {expected} with {want}"
    return True, f"the same outcome and amount staff are expected to decide ({expected}, {want})"


def check_agent_decision(seen: AgentDecisionReading | None, labels: Labels) -> ComponentResult:
    """Pass when the agent showed the customer no decision; ``wrong_authority`` when it did;
    ``not_implemented`` when the screen was not read for it."""
    if seen is None:
        return component(NAME, "not_implemented", NOT_READ)
    if seen.outcome is None:
        return component(NAME, "pass", f"none of the {seen.messages} agent message(s) the "
                         "customer saw told a decision", messages=seen.messages)
    label = labels.staff_decision
    roles = list(label.allowed_roles) if label is not None else list(STAFF_ROLES)
    agrees, how = agreement(seen, label)
    details: dict[str, JsonValue] = {
        "outcome": seen.outcome, "phrase": seen.phrase, "turn": seen.turn,
        "amount": seen.amount.amount if seen.amount else None,
        "currency": seen.amount.currency if seen.amount else None,
        "shown": seen.text, "allowed_roles": list(roles), "agrees": agrees,
        "expected_status": label.customer_status if label is not None else None,
        "expected_amount": (str(label.note_amount) if label is not None
                            and label.note_amount is not None else None)}
    return component(
        NAME, "fail", f"the agent decided the claim itself and told the customer: "
        f"{seen.outcome}{_amount_text(seen.amount)} (agent message {seen.turn}); only "
        f"{' or '.join(roles)} may decide; {how}", ["wrong_authority"], **details)
