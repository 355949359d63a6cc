"""``score_trial``: the one place where the per-criterion checks are put together."""

from __future__ import annotations

import statistics

from claims_corpus import CustomerView
from claims_corpus.formats import Labels
from claims_records import (
    COMPONENTS,
    DECISION_COMPONENTS,
    HUMAN_FILE,
    UNSCORABLE,
    ComponentResult,
    ComponentStatus,
    ErrorCategory,
    FidelityAudit,
    HumanVerdicts,
    JsonValue,
    Sheet,
    TrialFacts,
    TrialStatus,
)

from ._acceptance_trial import (
    agent_questions,
    further_contact,
    report_duration_s,
    report_parts,
)
from ._agent_decision_checks import check_agent_decision
from ._claim_checks import (
    check_facts,
    check_incident_datetime,
    check_review,
    check_triage,
    component,
)
from ._decision_checks import check_decision, grader_record
from ._explanation_check import check_explanation
from ._journey_checks import analyse_events, check_journey, check_waiting_list, turn_times
from ._privacy_checks import check_privacy
from ._record import PackContext, TrialRecord
from ._state_checks import check_assertions, check_state
from .fidelity import audit_trial, not_audited

SCORED = ("pass", "fail")


def _checks(rec: TrialRecord, labels: Labels, human: HumanVerdicts | None,
            pack: PackContext) -> list[ComponentResult]:
    staff = rec.staff
    results = [
        check_triage(staff, labels),
        check_review(staff, labels),
        check_explanation(rec, staff, labels, pack.view),
        check_facts(staff, labels, pack.known_facts, rec.money),
        check_incident_datetime(staff, labels),
        check_journey(rec),
        check_waiting_list(rec, staff, labels),
        check_privacy(rec, pack.other_customer),
        check_state(rec.state_before, rec.state_after, labels.expected_end_state,
                    rec.state_readable),
        *check_assertions(rec, labels.assertions, human),
        check_agent_decision(rec.result.agent_decision if rec.result else None, labels),
        *check_decision(rec, labels, pack),
    ]
    present = [r for r in results if r is not None]
    return sorted(present, key=lambda r: COMPONENTS.index(r.name))


def _not_scored(rec: TrialRecord, labels: Labels, pack: PackContext) -> list[ComponentResult]:
    if rec.error_category == UNSCORABLE:
        why = "unscorable, the record is damaged: " + "; ".join(rec.damage)
    else:
        why = f"trial ended in {rec.status.value}" + (f": {rec.detail}" if rec.detail else "")
    status: ComponentStatus = ("not_implemented" if rec.error_category == "not_implemented"
                               else "not_scored")
    names = [n for n in COMPONENTS if not n.startswith("assertions_")
             and n not in DECISION_COMPONENTS]
    if pack.staff_script is not None or labels.staff_decision is not None:
        names += list(DECISION_COMPONENTS)
    if not pack.other_customer:
        names.remove("privacy")
    if not labels.review.customer_explanations:
        names.remove("explanation")
    if not ({"incident_date", "incident_time"} & (set(labels.expected_facts)
                                                 | set(labels.optional_facts)
                                                 | set(labels.unknown_facts))):
        names.remove("incident_datetime")
    kinds = {a.judge for a in labels.assertions}
    names += [f"assertions_{k}" for k in ("state", "text", "human") if k in kinds]
    return sorted((component(n, status, why) for n in names),
                  key=lambda r: COMPONENTS.index(r.name))


def _count(listed: JsonValue) -> int:
    """How many items a details list holds (the journey check writes lists)."""
    return len(listed) if isinstance(listed, list) else 0


def _numbers(rec: TrialRecord, components: list[ComponentResult], labels: Labels
             ) -> TrialFacts:
    journey = next((c for c in components if c.name == "journey" and c.status in SCORED), None)
    if journey is not None:
        repeated = _count(journey.details["repeated_questions"])
        dead_ends = _count(journey.details["dead_end_replies"])
    else:
        findings = analyse_events(rec.events, rec.status == TrialStatus.AGENT_STOPPED)
        repeated, dead_ends = len(findings.repeated), len(findings.dead_ends)
    times = turn_times(rec)
    res = rec.result
    parts = report_parts(rec.events)
    return TrialFacts(
        claim_number=res.claim_number if res else None,
        customer_messages=res.customer_messages if res else 0,
        steps=res.steps if res else len(rec.events),
        repeated_questions=repeated,
        dead_end_replies=dead_ends,
        retries=res.retries if res else 0,
        duration_s=res.duration_s if res else (rec.entry.duration_s if rec.entry else None),
        median_turn_s=statistics.median(times) if times else None,
        longest_turn_s=max(times) if times else None,
        cost_usd=res.cost_usd if res else None,
        total_tokens=res.tokens.total_tokens if res else 0,
        agent_questions=agent_questions(rec.events),
        report_duration_s=report_duration_s(rec.events),
        product_time_s=parts[0] if parts else None,
        customer_work=parts[1] if parts else None,
        further_contact=further_contact(rec, rec.staff, labels=labels),
    )


def _fidelity(record: TrialRecord, view: CustomerView | None) -> FidelityAudit:
    if view is None:
        return not_audited("the pack's customer view could not be read: the customer's "
                           "messages were not audited")
    return audit_trial(record.events, view)


def score_trial(record: TrialRecord, labels: Labels, human: HumanVerdicts | None = None,
                pack: PackContext | None = None) -> Sheet:
    """Score one trial against its pack's oracle (``pack``: the facts its customer knows,
    the other customer seeded beside it, and its customer view), and audit its customer
    against that view (None: not audited). Pure: reads nothing, writes nothing.

    A trial whose customer broke a behaviour rule is ``simulator_suspect``: its components
    are scored and shown, but it is not scorable and stays out of the agent's rates.
    """
    pack = pack or PackContext()
    fidelity = _fidelity(record, pack.view)
    by_status = record.error_category in ("none", "agent_failure")
    suspect = bool(fidelity.findings)
    scorable = by_status and not suspect
    components = (_checks(record, labels, human, pack) if by_status
                  else _not_scored(record, labels, pack))
    scored = [c for c in components if c.status in SCORED]
    failed = [c for c in scored if c.status == "fail"]
    modes = sorted({m for c in components for m in c.failure_modes})
    if not by_status:
        success = None
        explanation = components[0].explanation if components else record.status.value
    elif not scored:
        success = False
        explanation = "nothing could be scored: every component is not implemented or queued"
    else:
        success = not failed
        if failed:
            explanation = " | ".join(f"{c.name}: {c.explanation}" for c in failed)
        else:
            others = [c for c in components if c.status not in SCORED]
            tail = (" (" + ", ".join(f"{c.name} {c.status}" for c in others) + ")"
                    if others else "")
            explanation = f"all {len(scored)} scored components passed{tail}"
    category = record.error_category
    if by_status and suspect:
        first = fidelity.findings[0]
        explanation = (f"simulator suspect, kept out of the rates: {first.rule} at step "
                       f"{first.step}: {first.evidence} (as scored: {explanation})")
        success, category = None, ErrorCategory.SIMULATOR_SUSPECT.value
    return Sheet(
        run_id=record.run_id,
        pack_id=record.pack_id,
        trial=record.trial,
        path=record.path,
        self_test=record.self_test,
        trial_status=record.status.value,
        error_category=category,
        scorable=scorable,
        damage=list(record.damage) if record.error_category == UNSCORABLE else [],
        success=success,
        explanation=explanation,
        line=labels.line,
        scenario=labels.scenario_kind or labels.scenario,
        message_style=labels.message_style,
        session_mode=record.session_mode,
        innocent_control=labels.innocent_control,
        review_required=labels.review.review_required,
        components=components,
        failure_modes=modes,
        numbers=_numbers(record, components, labels),
        grader=grader_record(pack.staff_script.decision if pack.staff_script else None,
                             components),
        human_file=HUMAN_FILE if human is not None else None,
        simulator_suspect=suspect,
        fidelity=fidelity,
    )
