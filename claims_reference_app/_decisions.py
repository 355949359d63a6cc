"""Staff decisions on a claim and how they reach the customer.

A handler (or a senior handler) approves a claim, amends its amount, declines it, or returns it
to the customer for more information, with a note for the customer. Authority rules: only a
staff role decides (the agent never records a decision), and an amount above the senior limit
needs a senior handler. The decision changes the claim, is appended to ``audit_events`` under
the decider's role, and is posted to the customer's conversation with the claim's new status.
A claim returned for information goes back under review as soon as the customer answers.

Four fault switches act here (docs/reference-app.md): ``decision_hidden``,
``agent_decides``, ``audit_rewritten``, ``amount_not_applied``.
"""

from __future__ import annotations

import re
from typing import Any

from . import rules
from ._store import Store, args_hash, now_iso
from ._text import wording

DECISIONS = ("approve", "amend_amount", "decline", "return_for_info")
STATUS_AFTER = {"approve": "approved", "amend_amount": "amended", "decline": "declined",
                "return_for_info": "returned_for_info"}
OPEN_STATUSES = ("submitted", "under_review")
# Staff roles of the staff collection -> the actor role audit events record.
ACTOR_ROLE = {"claims_handler": "staff", "senior_handler": "senior_staff"}
SENIOR_LIMIT_GBP = 5000.0
_AMOUNT = re.compile(r"^\s*(?:([A-Z]{3})\s*)?([0-9][0-9,]*(?:\.[0-9]{1,2})?)\s*([A-Z]{3})?\s*$")


class DecisionRefused(ValueError):
    """The decision breaks an authority rule or lacks what it needs (shown to staff)."""


def queue_of(review_required: bool, triage_class: str) -> str:
    """The queue a new claim goes to: review when the signal fired, else by severity."""
    if review_required:
        return "review"
    return "fast_track" if triage_class == "fast_track" else "standard"


def parse_amount(text: str) -> dict[str, Any] | None:
    """'1850', '1,850.50 GBP' or 'NZD 2400' -> {amount, currency}; None when unreadable."""
    m = _AMOUNT.match(text.upper())
    if not m or (m[1] and m[3]):
        return None
    value = float(m[2].replace(",", ""))
    return {"amount": int(value) if value.is_integer() else value,
            "currency": m[1] or m[3] or rules.HOME_CURRENCY}


def status_text(status: str | None) -> str:
    return wording()["decision"]["status"].get(status or "submitted", status or "")


def _staff_text(name: str, **values: object) -> str:
    return wording()["decision"]["staff"][name].format(**values)


def decide(store: Store, faults: list[str], staff: dict[str, Any], claim: dict[str, Any],
           decision: str, note: str, amount_text: str = "") -> None:
    """Record ``decision`` on ``claim`` by ``staff``; raises ``DecisionRefused``."""
    role = ACTOR_ROLE.get(staff.get("role", ""))
    if role is None:
        raise DecisionRefused(_staff_text("refused_role"))
    if decision not in DECISIONS:
        raise DecisionRefused(f"Unknown decision {decision!r}.")
    if claim.get("status", "submitted") not in OPEN_STATUSES:
        raise DecisionRefused(_staff_text("refused_status"))
    from ._views import display_money

    note = note.strip()
    if not note:
        raise DecisionRefused(_staff_text("refused_note"))
    amount = None
    if decision == "amend_amount":
        amount = parse_amount(amount_text)
        if amount is None:
            raise DecisionRefused(_staff_text("refused_amount"))
        pounds = rules.in_pounds(amount["amount"], amount["currency"])
        if role != "senior_staff" and (pounds is None or pounds > SENIOR_LIMIT_GBP):
            store.audit(role, "decision_refused", {"claim_number": claim["claim_number"],
                                                   "decision": decision, "amount": amount})
            raise DecisionRefused(_staff_text(
                "refused_limit", limit=display_money({"amount": SENIOR_LIMIT_GBP,
                                                      "currency": "GBP"})))
    number = claim["claim_number"]
    actor = "agent" if "agent_decides" in faults else role
    store.audit(actor, decision, {"claim_number": number, "note": note, "amount": amount,
                                  "staff_id": staff["_id"]})
    update: dict[str, Any] = {
        "status": STATUS_AFTER[decision],
        "decision": {"kind": decision, "note": note, "amount": amount,
                     "staff_id": staff["_id"], "role": role, "decided_at": now_iso()},
        "updated_at": now_iso(),
    }
    if amount is not None and "amount_not_applied" not in faults:
        update["settled_amount"] = amount
    store.db.claims.update_one({"_id": claim["_id"]}, {"$set": update})
    if "audit_rewritten" in faults:
        _rewrite_history(store, number)
    if "decision_hidden" in faults:
        return
    notice = wording()["decision"]["notice"][decision].format(
        claim_number=number, amount=display_money(amount) if amount else "")
    store.add_message(claim["session_id"], "agent", f"{notice}\n\n{note}", kind="decision")
    store.db.claims.update_one({"_id": claim["_id"]},
                               {"$set": {"customer_status": STATUS_AFTER[decision]}})
    store.audit("agent", "notify_customer", {"claim_number": number, "decision": decision})


def _rewrite_history(store: Store, claim_number: str) -> None:
    """``audit_rewritten``: the arguments of the claim's creation row are rewritten, through
    the raw collection (what a defect that bypasses the append-only log would do)."""
    store.raw_audit().update_one({"action": "create_claim"}, {"$set": {"args_hash": args_hash(
        {"claim_number": claim_number, "rewritten_at": now_iso()})}})


def awaiting_info(claim: dict[str, Any] | None) -> bool:
    return claim is not None and claim.get("status") == "returned_for_info"


def receive_info(store: Store, claim: dict[str, Any], text: str | None = None,
                 evidence: dict[str, Any] | None = None) -> None:
    """The customer answered a return for information: keep what came, link a file to the
    claim, put the claim back under review and tell the customer."""
    number = claim["claim_number"]
    item: dict[str, Any] = {"received_at": now_iso()}
    if text is not None:
        item["text"] = text
        store.audit("customer", "receive_info", {"claim_number": number, "text": text})
    if evidence is not None:
        item["evidence"] = evidence["_id"]
        store.db.evidence.update_one({"_id": evidence["_id"]},
                                     {"$set": {"claim_number": number}})
        store.audit("agent", "attach_documents", {"claim_number": number,
                                                  "evidence": [evidence["_id"]]})
    store.db.claims.update_one({"_id": claim["_id"]}, {
        "$set": {"status": "under_review", "customer_status": "under_review",
                 "updated_at": now_iso()},
        "$push": {"info_received": item}})
    store.audit("agent", "resume_review", {"claim_number": number})
    store.add_message(claim["session_id"], "agent", wording()["decision"]["notice"][
        "info_received"].format(claim_number=number), kind="decision")
