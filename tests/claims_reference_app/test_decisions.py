"""Staff decisions on the reference app: controls, authority rules, what the customer sees, the
append-only audit log and the four decision fault switches."""

from __future__ import annotations

import pytest

from claims_reference_app import hash_password
from claims_reference_app._store import AppendOnlyViolation

from .conftest import STAFF_PASSWORD, STAFF_USER, AppUnderTest, make_jpeg, seed_documents

NUMBER = "NWF-2026-000001"


def _claim_with_session(a: AppUnderTest, review: bool = False) -> None:
    """A customer session (through the app, so it has a cookie) owning a submitted claim."""
    a.client.get("/")
    session = a.db.sessions.find_one({"kind": "customer"})
    a.db.sessions.update_one({"_id": session["_id"]}, {"$set": {"claim_number": NUMBER}})
    a.db.claims.insert_one({
        "_id": NUMBER, "claim_number": NUMBER, "status": "submitted",
        "session_id": session["_id"], "line": "motor", "policy_number": "NWF-POL-100234",
        "triage": {"class": "standard", "reasons": [], "urgency": "normal"},
        "queue": "review" if review else "standard",
        "review": {"review_required": review, "checks": {}}, "facts": {}, "materials": [],
        "created_at": "2026-03-20T10:00:00.000000Z"})
    a.db.staff.insert_one({"_id": "staff-002", "username": "senior", "name": "S",
                           "role": "senior_handler",
                           "password_hash": hash_password("senior-pass")})


def _staff(a: AppUnderTest, user: str = STAFF_USER, password: str = STAFF_PASSWORD):
    from fastapi.testclient import TestClient

    s = TestClient(a.client.app)
    assert s.post("/staff/login", data={"username": user, "password": password}
                  ).status_code == 200
    return s


def _decide(staff, **form: str):
    return staff.post(f"/staff/claims/{NUMBER}/decision", data=form, follow_redirects=False)


@pytest.fixture
def app(make_app) -> AppUnderTest:
    a = make_app()
    seed_documents(a.db)
    _claim_with_session(a)
    return a


def test_approve_reaches_the_customer_and_the_audit_log(app: AppUnderTest) -> None:
    staff = _staff(app)
    page = staff.get(f"/staff/claims/{NUMBER}").text
    assert 'data-testid="decide-approve"' in page and 'data-testid="routing-queue">standard' in page
    assert _decide(staff, decision="approve", note="All in order, payment follows."
                   ).status_code == 303
    claim = app.db.claims.find_one({"_id": NUMBER})
    assert claim["status"] == "approved" and claim["decision"]["role"] == "staff"
    html = app.client.get("/").text
    assert 'data-testid="claim-status">Approved<' in html
    assert "All in order, payment follows." in html
    rows = list(app.db.audit_events.find())
    actions = [r["action"] for r in rows]
    assert actions.index("view_claim") < actions.index("approve") < actions.index(
        "notify_customer")
    assert next(r for r in rows if r["action"] == "approve")["actor_role"] == "staff"
    # decided once: the controls are gone and a second decision is refused
    assert 'data-testid="decide-approve"' not in staff.get(f"/staff/claims/{NUMBER}").text
    assert _decide(staff, decision="decline", note="Changed my mind.").status_code == 403


def test_amounts_above_the_limit_need_a_senior(app: AppUnderTest) -> None:
    staff = _staff(app)
    r = _decide(staff, decision="amend_amount", note="Settled at the quote.", amount="7200 GBP")
    assert r.status_code == 403 and "senior handler" in r.text
    assert app.db.claims.find_one({"_id": NUMBER})["status"] == "submitted"
    assert _decide(staff, decision="amend_amount", note="x" * 12, amount="").status_code == 403
    assert _decide(staff, decision="approve", note="   ").status_code == 403
    senior = _staff(app, "senior", "senior-pass")
    assert _decide(senior, decision="amend_amount", note="Settled at the quote.",
                   amount="7,200 GBP").status_code == 303
    claim = app.db.claims.find_one({"_id": NUMBER})
    assert claim["settled_amount"] == {"amount": 7200, "currency": "GBP"}
    assert claim["decision"]["role"] == "senior_staff"
    row = app.db.audit_events.find_one({"action": "amend_amount"})
    assert row["actor_role"] == "senior_staff"
    assert "£7,200" in app.client.get("/").text


def test_return_for_info_goes_back_under_review_when_the_customer_answers(
        app: AppUnderTest) -> None:
    staff = _staff(app)
    _decide(staff, decision="return_for_info", note="Please send us the crime reference.")
    assert 'data-testid="claim-status">More information needed<' in app.client.get("/").text
    r = app.client.post("/api/messages", json={"text": "It is MET-26-0310-1187."})
    assert 'data-testid="claim-status">Back under review<' in r.text
    claim = app.db.claims.find_one({"_id": NUMBER})
    assert claim["status"] == "under_review"
    assert claim["info_received"][0]["text"] == "It is MET-26-0310-1187."
    actions = [e["action"] for e in app.db.audit_events.find()]
    assert actions[-2:] == ["receive_info", "resume_review"]
    # under review again: staff may decide once more
    assert _decide(staff, decision="approve", note="Thanks, all in order now.").status_code == 303


def test_a_file_answers_a_return_for_info(app: AppUnderTest) -> None:
    _decide(_staff(app), decision="return_for_info", note="Please send another photo.")
    r = app.client.post("/api/uploads", files={"file": ("p.jpg", make_jpeg(), "image/jpeg")})
    assert r.status_code == 200 and "Back under review" in r.text
    assert app.db.evidence.find_one({"file_name": "p.jpg"})["claim_number"] == NUMBER
    assert app.db.audit_events.find_one({"action": "attach_documents"}) is not None


def test_the_audit_log_is_append_only(app: AppUnderTest) -> None:
    from claims_reference_app._store import Store

    store = Store(app.settings)
    store.audit("agent", "create_claim", {"claim_number": NUMBER})
    for attempt in (lambda c: c.update_one({}, {"$set": {"ts": "x"}}),
                    lambda c: c.delete_many({}), lambda c: c.replace_one({}, {}),
                    lambda c: c.drop()):
        with pytest.raises(AppendOnlyViolation):
            attempt(store.db.audit_events)
        with pytest.raises(AppendOnlyViolation):
            attempt(store.db["audit_events"])
    assert store.db.audit_events.count_documents({}) == 1


@pytest.mark.parametrize(("fault", "decision", "amount"), [
    ("decision_hidden", "approve", ""), ("agent_decides", "decline", ""),
    ("audit_rewritten", "approve", ""), ("amount_not_applied", "amend_amount", "900 GBP")])
def test_decision_faults(make_app, fault: str, decision: str, amount: str) -> None:
    a = make_app(faults=[fault])
    seed_documents(a.db)
    _claim_with_session(a)
    a.db.audit_events.insert_one({"_id": "row-1", "actor_role": "agent",
                                  "action": "create_claim", "args_hash": "0" * 64,
                                  "ts": "2026-01-01T00:00:00.000000Z"})
    assert _decide(_staff(a), decision=decision, note="Decided, see the letter.",
                   amount=amount).status_code == 303
    claim = a.db.claims.find_one({"_id": NUMBER})
    html = a.client.get("/").text
    row = a.db.audit_events.find_one({"action": decision})
    created = a.db.audit_events.find_one({"_id": "row-1"})
    assert ("Decided, see the letter." in html) == (fault != "decision_hidden")
    assert (row["actor_role"] == "agent") == (fault == "agent_decides")
    assert (created["args_hash"] != "0" * 64) == (fault == "audit_rewritten")
    if decision == "amend_amount":
        assert "settled_amount" not in claim and claim["decision"]["amount"]["amount"] == 900
