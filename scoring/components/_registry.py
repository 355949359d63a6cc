"""Every scoring component, declared once, in the order a sheet lists them.

The sheet's component names and their order, the components a trial that ended in an error
lists as not scored, and the names the records floor accepts (``claims_records.COMPONENTS``,
kept equal to this list by a test) all come from ``REGISTRY``. Adding a component is one check
and one declaration here (and its name in the floor's tuple, at the same place).
"""

from __future__ import annotations

from claims_corpus.formats import Labels
from claims_records import ComponentResult, ComponentStatus

from .. import _decision_checks as decision
from .._agent_decision_checks import check_agent_decision
from .._claim_checks import (
    check_facts,
    check_incident_datetime,
    check_review,
    check_triage,
    component,
)
from .._explanation_check import check_explanation
from .._journey_checks import check_journey, check_waiting_list
from .._privacy_checks import check_privacy
from .._record import CheckInput, PackContext
from .._state_checks import check_assertions, check_state
from ._declaration import (
    Component,
    assertions_judged,
    explanations_told,
    incident_facts,
    other_customer_seeded,
    score_component,
    staff_decision,
)

REGISTRY: tuple[Component, ...] = (
    Component(
        "triage", ("staff_screen", "stores"), staff_reading=True,
        check=lambda t: check_triage(t.staff, t.labels)),
    Component(
        "review", ("staff_screen", "stores"), staff_reading=True,
        check=lambda t: check_review(t.staff, t.labels)),
    # What staff see beside the check is the point: a stored note is not shown to anyone.
    Component(
        "explanation", ("staff_screen",), staff_reading=True, applies=explanations_told,
        check=lambda t: check_explanation(t.record, t.staff, t.labels, t.pack.view)),
    Component(
        "facts", ("staff_screen", "stores"), staff_reading=True,
        check=lambda t: check_facts(t.staff, t.labels, t.pack.known_facts, t.record.money)),
    Component(
        "incident_datetime", ("staff_screen", "stores"), staff_reading=True,
        applies=incident_facts, check=lambda t: check_incident_datetime(t.staff, t.labels)),
    Component(
        "journey", ("screen_text",), check=lambda t: check_journey(t.record)),
    Component(
        "waiting_list", ("staff_screen", "stores"), staff_reading=True,
        check=lambda t: check_waiting_list(t.record, t.staff, t.labels)),
    # The customer's screens and the responses their page received (network.har).
    Component(
        "privacy", ("screen_text",), applies=other_customer_seeded,
        check=lambda t: check_privacy(t.record, t.pack.other_customer)),
    Component(
        "state", ("state",),
        check=lambda t: check_state(t.record.state_before, t.record.state_after,
                                    t.labels.expected_end_state, t.record.state_readable)),
    Component(
        "assertions_state", ("state",), applies=assertions_judged("state"),
        check=lambda t: check_assertions(t.record, "state", t.labels.assertions, t.human)),
    Component(
        "assertions_text", ("screen_text",), applies=assertions_judged("text"),
        check=lambda t: check_assertions(t.record, "text", t.labels.assertions, t.human)),
    Component(
        "assertions_human", ("human",), applies=assertions_judged("human"),
        check=lambda t: check_assertions(t.record, "human", t.labels.assertions, t.human)),
    Component(
        "agent_decision", ("screen_text",),
        check=lambda t: check_agent_decision(
            t.record.result.agent_decision if t.record.result else None, t.labels)),
    # The staff decision: the queue on the claim's staff page, the audit log, the state
    # after the decision, and what the customer saw of it.
    Component("routing", ("staff_screen",), decision.routing, staff_decision),
    Component("target", ("audit_log",), decision.target, staff_decision),
    Component("decision_state", ("state",), decision.decision_state, staff_decision),
    Component("note", ("screen_text",), decision.note, staff_decision),
    Component("follow_through", ("screen_text",), decision.follow_through, staff_decision),
    Component("audit", ("audit_log",), decision.audit, staff_decision),
)


def applying(labels: Labels, pack: PackContext) -> list[Component]:
    """The components that apply to a pack, in sheet order."""
    return [c for c in REGISTRY if c.applies(labels, pack)]


def score_components(t: CheckInput) -> list[ComponentResult]:
    """Every component that applies to the trial's pack, scored, in sheet order."""
    return [score_component(c, t) for c in applying(t.labels, t.pack)]


def unscored_components(labels: Labels, pack: PackContext, status: ComponentStatus,
                        why: str) -> list[ComponentResult]:
    """Every component that applies to the pack, with the same status and reason (a trial
    that ended in an error, or whose record is damaged)."""
    return [component(c.name, status, why) for c in applying(labels, pack)]
