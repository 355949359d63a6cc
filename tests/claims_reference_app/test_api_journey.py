"""A complete motor journey through the API in the reference runtime, and the staff side."""

from __future__ import annotations

import re

from .conftest import POLICY, STAFF_PASSWORD, STAFF_USER, make_jpeg, make_pdf


def _agent_texts(html: str) -> list[str]:
    return re.findall(r'data-testid="agent-message"[^>]*>([^<]*)<', html)


def _say(client, text: str) -> str:
    r = client.post("/api/messages", json={"text": text})
    assert r.status_code == 200, r.text
    return r.text


def test_start_page_and_runtime(app_client) -> None:
    r = app_client.client.get("/")
    assert r.status_code == 200
    assert "Tell us what happened" in r.text
    assert 'data-testid="conversation" data-state="idle"' in r.text
    assert (
        "nwf_session" in r.headers["set-cookie"] and "httponly" in r.headers["set-cookie"].lower()
    )
    rt = app_client.client.get("/api/runtime").json()
    assert rt["runtime"] == "reference" and rt["faults"] == [] and rt["model"] is None
    assert 'data-testid="runtime-footer"' in r.text and "reference" in r.text


def test_complete_motor_journey_creates_claim(app_client) -> None:
    c, db = app_client.client, app_client.db
    html = _say(
        c,
        "Hello, on 14 March 2026 at about 5:40 in the evening I was stopped at the "
        "lights and a van hit the back of my car, AB12 CDE.",
    )
    # Date, time and registration come from the first message; the first question: the policy.
    assert "policy number" in _agent_texts(html)[-1].lower()
    assert html.count('data-testid="fact-row"') == 5  # line not known before the policy
    html = _say(c, POLICY)
    assert html.count('data-testid="fact-row"') == 10  # motor facts once the policy is found
    assert "best describes" in _agent_texts(html)[-1]
    assert re.search(r'data-testid="chips".*Collision', html, re.S)
    html = _say(c, "Collision")
    assert "where did it happen" in _agent_texts(html)[-1].lower()
    html = _say(c, "Junction of Park Road and Mill Lane, Leeds")
    assert "registration" not in _agent_texts(html)[-1].lower()  # never asked again
    assert "driven" in _agent_texts(html)[-1]
    html = _say(c, "Yes")
    assert "another vehicle" in _agent_texts(html)[-1]
    html = _say(c, "Yes, a white van")
    assert "anyone hurt" in _agent_texts(html)[-1]
    html = _say(c, "No, nobody was hurt")
    assert "photo of the damage" in _agent_texts(html)[-1]
    assert "Upload a photo of the damage" in html
    r = c.post("/api/uploads", files={"file": ("bumper.jpg", make_jpeg(), "image/jpeg")})
    assert r.status_code == 200
    assert "repair quote" in _agent_texts(r.text)[-1]
    pdf = make_pdf("REPAIR QUOTE", "Quote date", "18 March 2026")
    r = c.post("/api/uploads", files={"file": ("quote.pdf", pdf, "application/pdf")})
    assert r.status_code == 200
    assert "Confirm these details" in r.text
    r = c.post("/api/confirm")
    m = re.search(r'data-testid="claim-number">(NWF-\d{4}-\d{6})<', r.text)
    assert m, r.text
    number = m.group(1)
    assert number in _agent_texts(r.text)[-1]

    claim = db.claims.find_one({"claim_number": number})
    assert claim["status"] == "submitted" and claim["policy_number"] == POLICY
    assert claim["line"] == "motor"
    assert {k: v["value"] for k, v in claim["facts"].items()} == {
        "policy_number": POLICY,
        "incident_date": "2026-03-14",
        "incident_time": "17:40",
        "incident_type": "collision",
        "incident_location": "Junction of Park Road and Mill Lane, Leeds",
        "incident_description": claim["facts"]["incident_description"]["value"],
        "vehicle_registration": "AB12 CDE",
        "vehicle_driveable": True,
        "third_party_involved": True,
        "injuries": False,
    }
    assert all(v["state"] == "confirmed" for v in claim["facts"].values())
    assert claim["triage"] == {
        "class": "standard",
        "reasons": ["vehicle_driveable", "third_party_involved"],
        "urgency": "normal",
    }
    checks = {k: v["outcome"] for k, v in claim["review"]["checks"].items()}
    assert checks == {
        "receipt_after_incident": "not_applicable",
        "quote_before_incident": "clear",
        "prior_claims_12m": "clear",
        "policy_start_30d": "clear",
    }
    assert claim["review"]["review_required"] is False
    assert db.evidence.count_documents({"claim_number": number}) == 2
    # Every audit event has exactly the four fields (plus its id) and a sha256 args hash.
    events = list(db.audit_events.find())
    assert {e["action"] for e in events} >= {
        "record_fact",
        "ask",
        "request_upload",
        "store_upload",
        "read_document",
        "create_claim",
    }
    assert all(set(e) == {"_id", "actor_role", "action", "args_hash", "ts"} for e in events)
    assert all(re.fullmatch(r"[0-9a-f]{64}", e["args_hash"]) for e in events)

    # Staff side: queue and detail.
    s = app_client.client
    assert s.get("/staff", follow_redirects=False).status_code == 303
    r = s.post("/staff/login", data={"username": STAFF_USER, "password": "wrong"})
    assert r.status_code == 401
    r = s.post("/staff/login", data={"username": STAFF_USER, "password": STAFF_PASSWORD})
    assert r.status_code == 200 and 'data-testid="queue-row"' in r.text and number in r.text
    r = s.get(f"/staff/claims/{number}")
    assert '<p class="big" data-testid="triage-class">standard</p>' in r.text
    assert '<p class="big" data-testid="review-signal">none</p>' in r.text
    assert '<p class="big" data-testid="urgency">normal</p>' in r.text
    assert re.search(r'data-testid="triage-reason"><code>third_party_involved</code>', r.text)
    assert r.text.count('data-testid="review-check"') == 4
    assert re.search(
        r'check-id">quote_before_incident<.*?outcome-clear">clear<.*?'
        r'check-rests-on">quote.pdf: Quote date 2026-03-18 vs incident date 2026-03-14',
        r.text,
        re.S,
    )
    assert re.search(
        r'fact-key">incident_time</td>\s*<td data-testid="fact-value">17:40</td>'
        r'<td data-testid="fact-state">confirmed',
        r.text,
    )
    assert r.text.count('data-testid="staff-material"') == 2
    staff_actions = {e["action"] for e in db.audit_events.find({"actor_role": "staff"})}
    assert staff_actions >= {"sign_in", "view_queue", "view_claim"}
