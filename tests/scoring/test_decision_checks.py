"""The staff decision's checks, pure: varying fields across trials, audit order, authority and
append-only, the note's amount, routing, and not_implemented for a product without controls."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from claims_corpus.formats import Money
from claims_records import (
    ComponentResult,
    DecisionCustomer,
    DecisionRecord,
    StateDump,
    TrialStatus,
)
from scoring._decision_checks import (
    amount_shown,
    check_audit,
    check_decision_state,
    check_routing,
    grader_record,
)
from scoring._record import CheckInput, TrialRecord, load_labels, load_pack_context
from scoring.components import REGISTRY, score_component, staff_decision

PACKS = Path(__file__).resolve().parents[2] / "packs"
PACK = "CTL-H-003"  # amend_amount above the senior limit, with varying fields declared
POLICY = "NWF-POL-200351"


def _decision_components(rec: TrialRecord) -> list[ComponentResult]:
    """The components that apply with a staff decision, scored on ``rec``."""
    t = CheckInput(rec, load_labels(PACKS, PACK), load_pack_context(PACKS, PACK))
    return [score_component(c, t) for c in REGISTRY if c.applies is staff_decision]


def _dump(collections: dict) -> StateDump:
    return StateDump(taken_at="2026-03-20T10:00:00Z", database="d", bucket="b",
                     collections=collections, objects={})


def _row(rid: str, action: str, ts: str, role: str = "agent") -> dict:
    return {"_id": rid, "actor_role": role, "action": action, "args_hash": "a" * 64, "ts": ts}


def _trial_states(n: int, *, amount: float = 7200, role: str = "senior_staff"
                  ) -> tuple[StateDump, StateDump]:
    """The state just before and after the decision of trial ``n``: its own ids, timestamps
    and hashes."""
    labels = load_labels(PACKS, PACK)
    note = load_pack_context(PACKS, PACK).staff_script.note
    number = f"NWF-2026-{n:06d}"
    claim = {"_id": number, "claim_number": number, "policy_number": POLICY,
             "status": "submitted", "created_at": f"2026-03-2{n}T09:00:00Z"}
    rows = {f"r{n}a": _row(f"r{n}a", "create_claim", f"2026-03-2{n}T09:00:00Z"),
            f"r{n}b": _row(f"r{n}b", "view_claim", f"2026-03-2{n}T09:05:00Z", "staff")}
    before = _dump({"claims": {number: claim}, "audit_events": rows})
    after_claim = {**claim, "status": "amended", "customer_status": "amended",
                   "updated_at": f"2026-03-2{n}T09:10:0{n}Z",
                   "decision": {"kind": "amend_amount", "note": note,
                                "amount": {"amount": amount, "currency": "GBP"},
                                "staff_id": f"staff-00{n}", "role": role,
                                "decided_at": f"2026-03-2{n}T09:10:00Z"},
                   "settled_amount": {"amount": amount, "currency": "GBP"}}
    new_rows = {**rows,
                f"r{n}c": {**_row(f"r{n}c", "amend_amount", f"2026-03-2{n}T09:10:00Z", role),
                           "args_hash": f"{n}" * 64},
                f"r{n}d": _row(f"r{n}d", "notify_customer", f"2026-03-2{n}T09:10:01Z")}
    after = _dump({"claims": {number: after_claim}, "audit_events": new_rows})
    assert labels.staff_decision is not None
    return before, after


def test_varying_fields_pass_across_three_trials_and_a_fixed_field_fails() -> None:
    label = load_labels(PACKS, PACK).staff_decision
    assert label is not None and any(d.vary for d in label.expected_end_state.documents)
    for n in (1, 2, 3):  # other claim numbers, row ids, hashes, timestamps each time
        before, after = _trial_states(n)
        result = check_decision_state(before, after, label, True)
        assert result.status == "pass", (n, result.explanation)
    before, after = _trial_states(2, amount=7100)  # the settled amount is not allowed to vary
    result = check_decision_state(before, after, label, True)
    assert result.status == "fail" and result.failure_modes == ["state_mismatch"]
    assert "settled_amount" in result.explanation
    before, after = _trial_states(3, role="staff")  # neither is who decided
    result = check_decision_state(before, after, label, True)
    assert result.status == "fail" and "decision.role" in result.explanation


def test_audit_append_only_order_and_authority() -> None:
    before, after = _trial_states(1)
    assert check_audit(before, after, True).status == "pass"
    changed = copy.deepcopy(after)
    changed.collections["audit_events"]["r1a"]["args_hash"] = "b" * 64
    r = check_audit(before, changed, True)
    assert r.status == "fail" and r.failure_modes == ["audit_mutated"]
    removed = copy.deepcopy(after)
    del removed.collections["audit_events"]["r1b"]
    assert "audit_mutated" in check_audit(before, removed, True).failure_modes
    late = copy.deepcopy(after)
    late.collections["audit_events"]["r1d"]["ts"] = "2026-03-21T09:09:00Z"
    r = check_audit(before, late, True)
    assert r.failure_modes == ["audit_out_of_order"] and "before any decision" in r.explanation
    by_agent = copy.deepcopy(after)
    by_agent.collections["audit_events"]["r1c"]["actor_role"] = "agent"
    assert check_audit(before, by_agent, True).failure_modes == ["wrong_authority"]
    unhashed = copy.deepcopy(after)
    unhashed.collections["audit_events"]["r1d"]["args_hash"] = ""
    assert check_audit(before, unhashed, True).failure_modes == ["audit_mutated"]


def test_note_amount_and_routing() -> None:
    money = Money(amount=7200, currency="GBP")
    assert amount_shown("we can pay £7,200 towards it", money)
    assert amount_shown("approved for 7200 GBP", money)
    assert not amount_shown("approved for £720", money)
    assert not amount_shown("approved for 7200", money)  # no currency
    assert check_routing(None, None, "review").status == "not_implemented"
    assert check_routing("review", "review", "review").status == "pass"
    r = check_routing("Fast lane", None, "review")
    assert r.status == "fail" and r.failure_modes == ["wrong_route"]


@pytest.mark.parametrize(("outcome", "status"), [("not_implemented", "not_implemented"),
                                                 ("not_run", "not_scored")])
def test_a_product_without_decision_controls_is_not_implemented(outcome: str,
                                                                 status: str) -> None:
    rec = TrialRecord(run_id="r", pack_id=PACK, trial=1, path=f"{PACK}/trial-1",
                      self_test=False, status=TrialStatus.COMPLETED,
                      decision=DecisionRecord(decision="amend_amount", outcome=outcome,
                                              detail="no [decision] in the profile"))
    components = _decision_components(rec)
    assert [c.name for c in components] == ["routing", "target", "decision_state", "note",
                                            "follow_through", "audit"]
    assert {c.status for c in components} == {status}
    grader = grader_record("amend_amount", components)
    assert grader is not None and grader.routing.status == status


def test_a_decision_nobody_saw_fails_follow_through_only() -> None:
    before, after = _trial_states(1)
    rec = TrialRecord(run_id="r", pack_id=PACK, trial=1, path=f"{PACK}/trial-1",
                      self_test=False, status=TrialStatus.COMPLETED, state_after=before,
                      state_after_decision=after,
                      decision=DecisionRecord(
                          decision="amend_amount", outcome="performed", queue_text="standard",
                          queue="standard",
                          customer=DecisionCustomer(status_text="Submitted",
                                                    status="submitted")))
    by = {c.name: c for c in _decision_components(rec)}
    assert by["follow_through"].failure_modes == ["no_follow_through"]
    assert by["note"].status == "not_scored"
    assert all(by[n].status == "pass" for n in ("routing", "target", "decision_state",
                                                "audit"))
