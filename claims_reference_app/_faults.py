"""The fault switches' effects on a claim being created (docs/reference-app.md).

Small pure functions of the active faults and what the rules computed; the journey calls them
in ``Journey.create_claim`` and the views. With no fault active each returns its input.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from typing import Any

from .rules import CheckResult, Triage

# The reference the ``invent_fact`` fault records: shaped like a real crime reference.
INVENTED_POLICE_REFERENCE = "CRN/2026/117734"
# ``wrong_triage``: the class it shows instead of the right one.
_WRONG_CLASS = {"fast_track": "standard", "standard": "complex", "complex": "standard"}


def checks(faults: Collection[str], results: list[CheckResult]) -> list[CheckResult]:
    """``flag_one_check``: policy_start_30d reads ``hit`` where the rules say ``clear``.
    ``guess_unchecked``: a check that could not be made reads ``clear`` (a guess) instead of
    ``not_checked``."""
    if "guess_unchecked" in faults:
        results = [dataclasses.replace(r, outcome="clear") if r.outcome == "not_checked" else r
                   for r in results]
    if "flag_one_check" not in faults:
        return results
    return [dataclasses.replace(r, outcome="hit", rests_on=r.rests_on + " (shown as hit)")
            if r.check_id == "policy_start_30d" and r.outcome == "clear" else r
            for r in results]


def review(faults: Collection[str], required: bool) -> bool:
    """``flag_everything`` fires the signal on every claim; ``miss_flag`` never fires it."""
    if "miss_flag" in faults:
        return False
    return required or "flag_everything" in faults


def triage(faults: Collection[str], tri: Triage) -> Triage:
    """``wrong_triage``: the class one step off; reasons and urgency stay as computed."""
    if "wrong_triage" not in faults:
        return tri
    return dataclasses.replace(tri, triage_class=_WRONG_CLASS[tri.triage_class])


def facts_before_rules(faults: Collection[str], facts: dict[str, dict[str, Any]]
                       ) -> dict[str, dict[str, Any]]:
    """``lose_fact``: incident_time is dropped before anything is computed from the facts."""
    if "lose_fact" in faults:
        facts.pop("incident_time", None)
    return facts


def facts_stored(faults: Collection[str], facts: dict[str, dict[str, Any]]
                 ) -> dict[str, dict[str, Any]]:
    """``invent_fact``: a police reference nobody gave is stored with the claim (after triage,
    so only the recorded facts are wrong)."""
    if "invent_fact" in faults and not (facts.get("police_reference") or {}).get("value"):
        facts["police_reference"] = {"value": INVENTED_POLICE_REFERENCE, "state": "confirmed"}
    return facts


def claim_number_shown(faults: Collection[str], number: str | None) -> str | None:
    """``hide_claim_number``: the customer never sees the number."""
    return None if "hide_claim_number" in faults else number


def queues_question(faults: Collection[str], first_message: bool) -> bool:
    """``drop_questions``: a question asked mid-journey never reaches the waiting list (the
    customer is still told it was passed on); one in the opening message still does."""
    return first_message or "drop_questions" not in faults


def hands_off_now(faults: Collection[str], customer_messages: int) -> bool:
    """``handoff_unasked``: hand the claim to a person at the customer's second message."""
    return "handoff_unasked" in faults and customer_messages >= 2


def history_query(faults: Collection[str], customer_id: str | None) -> dict[str, Any] | None:
    """The sidebar's claims query: the signed-in customer's claims (None: show none);
    ``leak_other_customer`` lists every customer's claims."""
    if "leak_other_customer" in faults:
        return {}
    return {"customer_id": customer_id} if customer_id else None


def explanations(faults: Collection[str], given: dict[str, str]) -> dict[str, str]:
    """``drop_explanation``: the customer's explanations of a check's hit, asked for and
    given, never reach staff."""
    return {} if "drop_explanation" in faults else given
