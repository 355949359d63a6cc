"""Submitting a confirmed claim: the rules' assessment, the assistant's decision, the stored
claim, and the reply that gives the claim number and says what was decided."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _wording as W
from ._answers import Detail, stored
from ._money import Money
from ._rules import Decision, PolicyFacts, assess, decide
from ._store import NewClaim

if TYPE_CHECKING:
    from ._conversation import Conversation


def submit(c: Conversation) -> str:
    """Confirm every detail, assess and decide, store the claim; its number. The reply
    (claim number and decision) is added to the conversation."""
    for detail in c.details.values():
        if detail.state == "suggested":
            detail.state = "confirmed"
    line = c.line or "motor"
    keys = c.summary_keys()
    facts: dict[str, object] = {k: d.value for k, d in c.details.items()
                                if d.state == "confirmed" and d.value is not None}
    docs = [u.reading for u in c.uploads if u.reading is not None]
    policy = None
    if c.policy is not None:
        policy = PolicyFacts(start_date=c.policy.start_date, end_date=c.policy.end_date,
                             status=c.policy.status, excess=c.policy.excess,
                             prior_claim_dates=c.store.prior_claim_dates(c.policy))
    assessment = assess(line, facts, policy, docs)
    concerns = list(dict.fromkeys(c.concerns))
    if any(d.state == "to_follow" for d in c.details.values()) or \
            "to_follow" in c.files.values():
        concerns.append("items_to_follow")
    decision = decide(line, facts, c.needed(), policy, docs, assessment, concerns)
    recorded: dict[str, tuple[str | None, str]] = {}
    for key in keys:
        detail = c.details.get(key) or Detail(None, "not_known")
        recorded[key] = (stored(detail), detail.state)
    incident_date = facts.get("incident_date")
    incident_type = facts.get("incident_type")
    number = c.store.create_claim(NewClaim(
        policy=c.policy, policy_number=str(facts.get("policy_number") or "") or None,
        line=line, incident_type=incident_type if isinstance(incident_type, str) else None,
        incident_date=incident_date if isinstance(incident_date, str) else None,
        facts=recorded, severity=assessment.triage_class, urgency=assessment.urgency,
        review_required=assessment.review_required, decision=decision.outcome,
        payable_amount=decision.payable.amount if decision.payable else None,
        payable_currency=decision.payable.currency if decision.payable else None,
        details={"reasons": assessment.reasons, "checks": assessment.checks,
                 "referral_reasons": decision.referral_reasons,
                 "claimed": decision.claimed.stored() if decision.claimed else None,
                 "materials": dict(c.files)},
        upload_ids=[u.stored.id for u in c.uploads], follow_up_ids=list(c.follow_ups)))
    c.reply(W.reply("submitted", claim_number=number) + "\n\n" + decision_text(decision))
    return number


def decision_text(decision: Decision) -> str:
    """What the customer is told: settled with the amount payable, or referred."""
    if decision.outcome != "approved" or decision.payable is None or decision.excess is None \
            or decision.claimed is None:
        return W.reply("referred")
    claimed = decision.claimed
    converted = claimed.in_home()
    values = {"payable": decision.payable.shown(), "claimed": claimed.shown(),
              "excess": decision.excess.shown()}
    if decision.payable.amount == 0:
        return W.reply("approved_within_excess", **values)
    if converted is None or converted.currency == claimed.currency:
        return W.reply("approved", **values)
    return W.reply("approved_converted", converted=Money.shown(converted), **values)
