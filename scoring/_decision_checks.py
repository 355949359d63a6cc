"""The staff decision's checks: routing, target, state, note, follow-through, audit.

Each is a pure function of the trial's record (decision.json, the state just before the staff
step — the trial's state-after.json — and after the customer's return) and the pack's oracle
(``labels.staff_decision``). ``routing`` … ``audit`` are the components' checks: each first
asks ``decided`` whether there is a decision to score; ``grader_record`` turns the six into
the sheet's grader record. docs/scoring.md, "Staff decisions", states every rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from claims_corpus.formats import HOME_CONVENTIONS, DecisionLabel, Labels, Money, MoneyConventions
from claims_corpus.formats.money import shows_money
from claims_records import (
    CLAIM_CREATED,
    CLAIM_REVIEWED,
    CUSTOMER_NOTIFIED,
    DECISIONS,
    DOCUMENTS_ATTACHED,
    STAFF_ROLES,
    ComponentResult,
    DecisionRecord,
    GraderEntry,
    GraderRecord,
    JsonValue,
    StateDump,
)

from ._claim_checks import component
from ._record import CheckInput, PackContext, TrialRecord
from ._state_checks import STATE_NOT_READ, check_state

AUDIT = "audit_events"
_HASH = re.compile(r"^[0-9a-f]{64}$")
# Who may record each audit action (the other actions: anyone).
AUTHORITY: dict[str, tuple[str, ...]] = {d: STAFF_ROLES for d in DECISIONS}


def expected_route(labels: Labels) -> str:
    """The queue the oracle expects: review when review is required, else by severity."""
    if labels.review.review_required:
        return "review"
    return "fast_track" if labels.triage.triage_class == "fast_track" else "standard"


@dataclass(frozen=True)
class Decided:
    """A staff decision that was taken: its record, the oracle's expectations of it and the
    scripted decision."""

    record: DecisionRecord
    label: DecisionLabel
    decision: str


def decided(name: str, t: CheckInput) -> Decided | ComponentResult:
    """The decision a decision component scores, or the component's result when there is
    none to score, the same for all six: the pack has a staff script or an oracle decision but
    not both, or no decision was taken (not_scored); the product has no decision controls
    (not_implemented); the staff step failed (fail)."""
    label, script, d = t.labels.staff_decision, t.pack.staff_script, t.record.decision
    if label is None or script is None:
        return component(name, "not_scored", "the pack has a staff script or an oracle "
                         "staff_decision, not both")
    if d is None or d.outcome == "not_run":
        why = d.detail if d is not None else "no decision.json recorded"
        return component(name, "not_scored", f"no staff decision was taken: {why}")
    if d.outcome == "not_implemented":
        return component(name, "not_implemented", d.detail)
    if d.outcome == "error":
        return component(name, "fail", f"the staff decision step failed: {d.detail}",
                         ["no_follow_through"] if name == "follow_through" else [])
    return Decided(d, label, script.decision)


def routing(t: CheckInput) -> ComponentResult:
    d = decided("routing", t)
    if isinstance(d, ComponentResult):
        return d
    return check_routing(d.record.queue_text, d.record.queue, expected_route(t.labels))


def target(t: CheckInput) -> ComponentResult:
    d, rec = decided("target", t), t.record
    if isinstance(d, ComponentResult):
        return d
    return check_target(rec.state_after, rec.state_after_decision, d.decision, d.label,
                        rec.state_readable)


def decision_state(t: CheckInput) -> ComponentResult:
    d, rec = decided("decision_state", t), t.record
    if isinstance(d, ComponentResult):
        return d
    return check_decision_state(rec.state_after, rec.state_after_decision, d.label,
                                rec.state_readable)


def note(t: CheckInput) -> ComponentResult:
    d = decided("note", t)
    if isinstance(d, ComponentResult):
        return d
    return check_note(_customer_text(t.record), d.label, t.record.money)


def follow_through(t: CheckInput) -> ComponentResult:
    d = decided("follow_through", t)
    if isinstance(d, ComponentResult):
        return d
    return check_follow_through(t.record, d.label, t.pack)


def audit(t: CheckInput) -> ComponentResult:
    d, rec = decided("audit", t), t.record
    if isinstance(d, ComponentResult):
        return d
    return check_audit(rec.state_after, rec.state_after_decision, rec.state_readable)


def check_routing(shown: str | None, route: str | None, expected: str) -> ComponentResult:
    if shown is None:
        return component("routing", "not_implemented", "the product shows no queue on the "
                         "claim's staff page (profile decision.queue)")
    if route == expected:
        return component("routing", "pass", f"queue {route}, as expected", shown=shown)
    what = f"queue {route}" if route else f"queue {shown!r} (not mapped to a route)"
    return component("routing", "fail", f"{what}, expected {expected}", ["wrong_route"],
                     shown=shown, expected=expected)


def _audit_rows(dump: StateDump | None) -> dict[str, dict[str, JsonValue]]:
    return dict(dump.collections.get(AUDIT, {})) if dump is not None else {}


def _new_rows(before: StateDump, after: StateDump) -> list[dict[str, JsonValue]]:
    old = _audit_rows(before)
    return [row for rid, row in _audit_rows(after).items() if rid not in old]


def _unreadable(name: str, before: StateDump | None, after: StateDump | None,
                readable: bool) -> ComponentResult | None:
    if not readable:
        return component(name, "not_implemented", STATE_NOT_READ)
    if before is None or after is None:
        return component(name, "fail", "no state dump from before and after the decision")
    if AUDIT not in after.collections and name in ("target", "audit"):
        return component(name, "not_implemented", "the product's state has no audit_events")
    return None


def check_target(before: StateDump | None, after: StateDump | None, decision: str,
                 label: DecisionLabel, readable: bool) -> ComponentResult:
    """The decision was recorded by a role the oracle allows."""
    bad = _unreadable("target", before, after, readable)
    if bad is not None:
        return bad
    assert before is not None and after is not None
    rows = [r for r in _new_rows(before, after) if r.get("action") == decision]
    if not rows:
        return component("target", "fail", f"no {decision} row in the audit log after the "
                         "staff step", ["wrong_authority"])
    roles = sorted({str(r.get("actor_role")) for r in rows})
    wrong = [r for r in roles if r not in label.allowed_roles]
    if wrong:
        return component("target", "fail", f"{decision} recorded by {', '.join(wrong)}; "
                         f"allowed: {', '.join(label.allowed_roles)}", ["wrong_authority"],
                         roles=list(roles))
    return component("target", "pass", f"{decision} recorded by {', '.join(roles)}",
                     roles=list(roles))


def check_decision_state(before: StateDump | None, after: StateDump | None,
                         label: DecisionLabel, readable: bool) -> ComponentResult:
    """The end state after the decision against the state just before it."""
    result = check_state(before, after, label.expected_end_state, readable)
    return result.model_copy(update={"name": "decision_state"})


def _customer_text(rec: TrialRecord) -> str:
    seen = rec.decision.customer if rec.decision is not None else None
    if seen is None:
        return ""
    return "\n".join(t for t in (seen.note_text, *seen.replies) if t)


def amount_shown(text: str, money: Money,
                 conventions: MoneyConventions = HOME_CONVENTIONS) -> bool:
    """The amount with its currency named (a code, symbol or name next to it), read in the
    product's locale (``conventions``, from its profile)."""
    return shows_money(text, money, conventions)


def check_note(text: str, label: DecisionLabel,
               money: MoneyConventions = HOME_CONVENTIONS) -> ComponentResult:
    """The customer-visible note carries the oracle's terms and amount (read by the product's
    ``money`` conventions)."""
    if not text.strip():
        return component("note", "not_scored", "nothing of the decision reached the "
                         "customer's screen (see follow_through)")
    missing = [t for t in label.note_terms if t.lower() not in text.lower()]
    if label.note_amount is not None and not amount_shown(text, label.note_amount, money):
        missing.append(f"the amount {label.note_amount}")
    if missing:
        return component("note", "fail", f"the note shown lacks {', '.join(missing)}",
                         ["missing_note"], shown=text[:500])
    wanted = len(label.note_terms) + (label.note_amount is not None)
    return component("note", "pass", f"the note shown carries all {wanted} required "
                     "item(s)", shown=text[:500])


def _delivered(before: StateDump | None, after: StateDump | None, pack: PackContext) -> bool:
    """The requested item reached the product: the fact's value in a document added or
    changed by the customer's return, or the file among the new objects."""
    item = pack.requested
    if item is None or before is None or after is None:
        return False
    if item.sha256 is not None:
        return any(info.sha256 == item.sha256 for key, info in after.objects.items()
                   if key not in before.objects)
    if item.value is None:
        return False
    for coll, docs in after.collections.items():
        if coll == AUDIT:
            continue
        old = before.collections.get(coll, {})
        for doc_id, doc in docs.items():
            if old.get(doc_id) != doc and item.value in str(doc):
                return True
    return False


def check_follow_through(rec: TrialRecord, label: DecisionLabel,
                         pack: PackContext) -> ComponentResult:
    """The customer saw the decision; for return_for_info the requested item came back."""
    d = rec.decision
    assert d is not None
    seen = d.customer
    status = seen.status if seen is not None else None
    problems = []
    if status != label.customer_status:
        shown = seen.status_text if seen is not None else None
        problems.append(f"the customer was shown status {shown!r} ({status}), expected "
                        f"{label.customer_status}")
    if label.requested is not None:
        if not _delivered(rec.state_after, rec.state_after_decision, pack):
            problems.append(f"the requested {label.requested} never reached the product")
        if d.follow_up != "goal":
            problems.append(f"the customer's answer ended {d.follow_up}: "
                            f"{d.follow_up_detail}")
    if problems:
        return component("follow_through", "fail", "; ".join(problems),
                         ["no_follow_through"])
    extra = f" and {label.requested} reached the product" if label.requested else ""
    return component("follow_through", "pass", f"the customer saw {status}{extra}")


def _ordered(rows: list[dict[str, JsonValue]]) -> list[tuple[str, dict[str, JsonValue]]]:
    return sorted(((str(r.get("ts", "")), r) for r in rows), key=lambda x: x[0])


def audit_order_problems(rows: list[dict[str, JsonValue]], decision_actions: set[str]
                         ) -> list[str]:
    """Claim created before documents attached, a review before the decision, the decision
    before the customer notice."""
    seq = _ordered(rows)
    created, attached = (next((ts for ts, r in seq if r.get("action") == a), None)
                         for a in (CLAIM_CREATED, DOCUMENTS_ATTACHED))
    out = []
    if created and attached and attached < created:
        out.append("documents attached before the claim was created")
    for ts, row in seq:
        if row.get("action") not in decision_actions:
            continue
        reviewed = any(t <= ts and r.get("action") == CLAIM_REVIEWED
                       and r.get("actor_role") in STAFF_ROLES for t, r in seq)
        if not reviewed:
            out.append(f"{row.get('action')} at {ts} with no staff review of the claim "
                       "before it")
    decided = [ts for ts, r in seq if r.get("action") in decision_actions]
    for ts, _ in ((t, r) for t, r in seq if r.get("action") == CUSTOMER_NOTIFIED):
        if not decided or ts < decided[0]:
            out.append(f"customer notified at {ts} before any decision")
    return out


def check_audit(before: StateDump | None, after: StateDump | None,
                readable: bool) -> ComponentResult:
    """Order, authority, append-only, args_hash present."""
    bad = _unreadable("audit", before, after, readable)
    if bad is not None:
        return bad
    old, new = _audit_rows(before), _audit_rows(after)
    rows = list(new.values())
    modes: list[str] = []
    problems: list[str] = []
    mutated = [rid for rid, row in old.items() if new.get(rid) != row]
    if mutated:
        what = ", ".join(f"{rid} {'removed' if rid not in new else 'changed'}"
                         for rid in mutated[:5])
        problems.append(f"audit rows changed or removed after the staff step: {what}")
        modes.append("audit_mutated")
    unhashed = [rid for rid, row in new.items() if not _HASH.match(str(row.get("args_hash")))]
    if unhashed:
        problems.append(f"{len(unhashed)} audit row(s) without an args_hash")
        modes.append("audit_mutated")
    order = audit_order_problems(rows, set(DECISIONS))
    if order:
        problems += order
        modes.append("audit_out_of_order")
    wrong = [f"{r.get('action')} by {r.get('actor_role')}" for r in rows
             if r.get("action") in AUTHORITY and r.get("actor_role") not in AUTHORITY[
                 str(r.get("action"))]]
    if wrong:
        problems.append("recorded without authority: " + ", ".join(wrong[:5]))
        modes.append("wrong_authority")
    details: dict[str, JsonValue] = {"rows": len(rows), "rows_before_staff_step": len(old)}
    if problems:
        return component("audit", "fail", "; ".join(problems), sorted(set(modes)), **details)
    return component("audit", "pass", f"{len(rows)} audit rows in order, each with an "
                     "args_hash; decisions by staff roles; nothing changed or removed",
                     **details)


def grader_record(decision: str | None, components: list[ComponentResult]) -> GraderRecord:
    """The grader record of a trial from its components, the six decision ones among them
    (a pack with a staff decision step)."""
    by_name = {c.name: c for c in components}

    def entry(name: str) -> GraderEntry:
        c = by_name[name]
        return GraderEntry(status=c.status, explanation=c.explanation,
                           failure_modes=list(c.failure_modes))

    entries = {"routing": entry("routing"), "target": entry("target"),
               "state": entry("decision_state"), "note": entry("note"),
               "follow_through": entry("follow_through"), "audit": entry("audit")}
    return GraderRecord(decision=decision, **entries, failure_modes=sorted(
        {m for e in entries.values() for m in e.failure_modes}))
