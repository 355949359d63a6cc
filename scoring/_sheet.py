"""``score_trial``: one trial's sheet, from the components the registry declares
(``components``), the trial's numbers and its customer's fidelity audit."""

from __future__ import annotations

import statistics

from claims_corpus import CustomerView
from claims_corpus.formats import Labels
from claims_records import (
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
from ._decision_checks import grader_record
from ._journey_checks import analyse_events, turn_times
from ._record import CheckInput, PackContext, TrialRecord
from .components import SCORED, score_components, staff_decision, unscored_components
from .fidelity import audit_trial, not_audited


def _not_scored(rec: TrialRecord, labels: Labels, pack: PackContext) -> list[ComponentResult]:
    if rec.error_category == UNSCORABLE:
        why = "unscorable, the record is damaged: " + "; ".join(rec.damage)
    else:
        why = f"trial ended in {rec.status.value}" + (f": {rec.detail}" if rec.detail else "")
    status: ComponentStatus = ("not_implemented" if rec.error_category == "not_implemented"
                               else "not_scored")
    return unscored_components(labels, pack, status, why)


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
    return audit_trial(record.events, view, record.money)


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
    components = (score_components(CheckInput(record, labels, pack, human)) if by_status
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
        grader=(grader_record(pack.staff_script.decision if pack.staff_script else None,
                              components) if staff_decision(labels, pack) else None),
        human_file=HUMAN_FILE if human is not None else None,
        simulator_suspect=suspect,
        fidelity=fidelity,
    )
