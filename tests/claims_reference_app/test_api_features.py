"""Uploads, sign-in mid-journey, waiting list, materials later, faults, seed route, settings."""

from __future__ import annotations

import re
from html import unescape

import pytest

from claims_reference_app import AppSettings, FaultsFromEnvironment

from .conftest import (
    CUSTOMER_EMAIL,
    CUSTOMER_PASSWORD,
    POLICY,
    STAFF_PASSWORD,
    STAFF_USER,
    make_jpeg,
    make_pdf,
    seed_documents,
)

MOTOR_ANSWERS = [
    "On 14 March 2026 at 17:40 a van hit my parked car AB12 CDE.",
    POLICY,
    "Collision",
    "Mill Lane, Leeds",
    "Yes",
    "Yes",
    "No",
]


def _last_agent(html: str) -> str:
    return unescape(re.findall(r'data-testid="agent-message"[^>]*>([^<]*)<', html)[-1])


def _say(client, text: str) -> str:
    r = client.post("/api/messages", json={"text": text})
    assert r.status_code == 200, r.text
    return r.text


def _objects(a) -> list[str]:
    from minio import Minio

    s = a.settings
    m = Minio(
        s.s3_endpoint.split("//")[1],
        access_key=s.s3_access_key,
        secret_key=s.s3_secret_key,
        secure=False,
    )
    if not m.bucket_exists(s.bucket):
        return []
    return [o.object_name for o in m.list_objects(s.bucket, recursive=True)]


def test_wrong_type_and_oversize_uploads_are_refused_and_nothing_is_stored(make_app) -> None:
    a = make_app(max_upload_bytes=20_000)
    seed_documents(a.db)
    c = a.client
    r = c.post("/api/uploads", files={"file": ("notes.txt", b"hello there", "text/plain")})
    assert r.status_code == 415 and "only JPEG, PNG or PDF" in r.json()["error"]
    # A file claiming to be a JPEG but not one is refused too.
    r = c.post("/api/uploads", files={"file": ("fake.jpg", b"GIF89a....", "image/jpeg")})
    assert r.status_code == 415
    big = make_jpeg() + b"\0" * 25_000
    r = c.post("/api/uploads", files={"file": ("huge.jpg", big, "image/jpeg")})
    assert r.status_code == 413 and "too large" in r.json()["error"]
    assert a.db.evidence.count_documents({}) == 0
    assert a.db.messages.count_documents({}) == 0
    assert _objects(a) == []


def test_quote_with_date_on_missing_page_is_not_checked(app_client) -> None:
    c, db = app_client.client, app_client.db
    for text in MOTOR_ANSWERS:
        html = _say(c, text)
    assert "photo" in _last_agent(html)
    c.post("/api/uploads", files={"file": ("car.jpg", make_jpeg(), "image/jpeg")})
    # Page 1 (title and date) is missing: the file holds page 2 of 2 only.
    pdf = make_pdf("REPAIR QUOTE", "Quote date", "10 March 2026", supplied=(2,))
    r = c.post("/api/uploads", files={"file": ("quote-p2.pdf", pdf, "application/pdf")})
    assert "page(s) 1 of 2 missing" in _last_agent(r.text)
    r = c.post("/api/confirm")
    number = re.search(r'data-testid="claim-number">([^<]+)<', r.text).group(1)
    claim = db.claims.find_one({"claim_number": number})
    check = claim["review"]["checks"]["quote_before_incident"]
    assert check["outcome"] == "not_checked" and "missing page" in check["rests_on"]
    assert "document_incomplete" in claim["triage"]["reasons"]
    assert claim["review"]["review_required"] is False


def test_anonymous_customer_signs_in_mid_journey_and_keeps_the_conversation(make_app) -> None:
    a = make_app()
    seed_documents(a.db, account=True)
    c = a.client
    for text in MOTOR_ANSWERS:
        html = _say(c, text)
    assert 'data-testid="sign-in-prompt"' in html and 'role="dialog"' in html
    assert "sign in" in _last_agent(html).lower()
    before = a.db.messages.count_documents({})
    # Uploading before signing in is refused and nothing is stored.
    r = c.post("/api/uploads", files={"file": ("car.jpg", make_jpeg(), "image/jpeg")})
    assert r.status_code == 403 and "sign in" in r.json()["error"]
    assert a.db.evidence.count_documents({}) == 0
    r = c.post(
        "/signin",
        data={"email": CUSTOMER_EMAIL, "password": "nope", "origin": "prompt"},
        follow_redirects=False,
    )
    assert r.headers["location"] == "/?signin_error=1"
    r = c.post(
        "/signin", data={"email": CUSTOMER_EMAIL, "password": CUSTOMER_PASSWORD, "origin": "prompt"}
    )
    assert r.status_code == 200
    assert 'data-testid="sign-in-prompt"' not in r.text
    assert "Mill Lane, Leeds" in r.text  # earlier conversation still on screen
    assert a.db.messages.count_documents({}) == before + 1
    assert "photo of the damage" in _last_agent(r.text)
    r = c.post("/api/uploads", files={"file": ("car.jpg", make_jpeg(), "image/jpeg")})
    assert r.status_code == 200 and a.db.evidence.count_documents({}) == 1


def test_account_session_signs_in_on_the_signin_page(make_app) -> None:
    a = make_app()
    seed_documents(a.db, account=True)
    r = a.client.get("/signin")
    assert all(
        f'data-testid="{t}"' in r.text
        for t in ("sign-in-email", "sign-in-password", "sign-in-submit")
    )
    r = a.client.post("/signin", data={"email": CUSTOMER_EMAIL, "password": "wrong"})
    assert r.status_code == 401 and 'role="alert"' in r.text
    r = a.client.post(
        "/signin",
        data={"email": CUSTOMER_EMAIL, "password": CUSTOMER_PASSWORD},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/"
    html = a.client.get("/").text
    assert "Signed in as Sam Taylor" in html
    for text in MOTOR_ANSWERS:
        html = _say(a.client, text)
    assert 'data-testid="sign-in-prompt"' not in html  # already signed in: never asked


def test_talk_to_person_and_questions_reach_the_waiting_list(app_client) -> None:
    c = app_client.client
    _say(c, "My car was hit on 14 March 2026.")
    html = _say(c, "Will my premium go up?")
    assert "passed your question on to our team" in _last_agent(html)
    assert "policy number" in _last_agent(html).lower()  # and it carries on
    r = c.post("/api/talk-to-person")
    assert "A member of our team will contact you" in _last_agent(r.text)
    c.post("/staff/login", data={"username": STAFF_USER, "password": STAFF_PASSWORD})
    r = c.get("/staff/waiting")
    rows = re.findall(
        r'data-testid="waiting-kind">(\w+)</td>\s*<td data-testid="waiting-text">'
        r"([^<]*)<",
        r.text,
    )
    assert ("question", "Will my premium go up?") in rows
    assert any(kind == "contact_request" for kind, _ in rows)


def test_dont_know_and_unreadable_reply_are_asked_once_more_at_most(app_client) -> None:
    c, db = app_client.client, app_client.db
    _say(c, "A van hit my car AB12 CDE.")
    _say(c, POLICY)
    html = _say(c, "not sure when")
    assert "noted that you don't know" in _last_agent(html)
    assert "time" in _last_agent(html)
    html = _say(c, "sometime")
    assert "couldn't read a time" in _last_agent(html)  # one clarifying re-ask
    html = _say(c, "sometime, honestly")
    assert "best describes" in _last_agent(html)  # moves on
    session = db.sessions.find_one({"kind": "customer"})
    facts = session["state"]["facts"]
    assert facts["incident_date"]["state"] == "unknown"
    assert facts["incident_time"]["state"] == "unknown"
    asked = [m["text"] for m in db.messages.find({"role": "agent"})]
    assert sum("what date" in t.lower() for t in asked) == 1


def test_material_sent_later_is_asked_once_more_before_the_summary(app_client) -> None:
    c, db = app_client.client, app_client.db
    for text in MOTOR_ANSWERS:
        _say(c, text)
    c.post("/api/uploads", files={"file": ("car.jpg", make_jpeg(), "image/jpeg")})
    html = _say(c, "The garage will send the quote tomorrow, I'll send it later")
    assert "Before I sum up" in _last_agent(html)
    assert "Upload your repair quote" in html
    html = _say(c, "Sorry, I still don't have it")
    assert "Confirm these details" in html
    r = c.post("/api/confirm")
    claim = db.claims.find_one()
    assert claim is not None and "NWF-" in r.text
    assert {m["kind"]: m["status"] for m in claim["materials"]}["repair_quote"] == "not_provided"
    assert claim["review"]["checks"]["quote_before_incident"]["outcome"] == "not_applicable"


def test_fault_switches_are_reported_and_change_behaviour(make_app) -> None:
    a = make_app(faults=["flag_everything", "ask_twice", "lose_fact"])
    seed_documents(a.db)
    assert a.client.get("/api/runtime").json()["faults"] == [
        "ask_twice",
        "flag_everything",
        "lose_fact",
    ]
    assert "faults: ask_twice, flag_everything, lose_fact" in a.client.get("/").text
    _say(a.client, "A van hit my car AB12 CDE on 14 March 2026 at 17:40.")
    html = _say(a.client, POLICY)
    assert "again" in _last_agent(html) and "policy number" in _last_agent(html)
    answers = [
        POLICY,
        "Collision",
        "Collision",
        "Leeds",
        "Leeds",
        "Yes",
        "Yes",
        "No",
        "No",
        "No",
        "No",
        "I don't have a photo",
        "I don't have a quote",
    ]
    for text in answers:
        html = _say(a.client, text)
    assert "Confirm these details" in html, _last_agent(html)
    a.client.post("/api/confirm")
    claim = a.db.claims.find_one()
    assert claim["review"]["review_required"] is True
    assert "review_required" in claim["triage"]["reasons"]
    assert "incident_time" not in claim["facts"]


def test_unknown_fault_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown faults"):
        AppSettings(faults=["make_it_pass"])


def test_settings_from_environment() -> None:
    s = AppSettings.from_env(
        {
            "CLAIMS_APP_RUNTIME": "controlled",
            "CLAIMS_HARNESS_SEED_TOKEN": "t0k",
            "CLAIMS_HARNESS_SEED_ENABLED": "1",
            "CLAIMS_APP_DATABASE": "claims_dev_lane1",
        },
        database="x_dev",
        faults=["ask_twice"],
    )
    assert (s.runtime, s.faults, s.seed_token, s.seed_enabled, s.database) == (
        "controlled",
        ["ask_twice"],
        "t0k",
        True,
        "x_dev",
    )


def test_faults_never_come_from_the_environment() -> None:
    with pytest.raises(FaultsFromEnvironment, match="CLAIMS_APP_FAULTS.*--fault"):
        AppSettings.from_env({"CLAIMS_APP_FAULTS": "ask_twice"}, faults=["lose_fact"])
    assert AppSettings.from_env({"CLAIMS_APP_FAULTS": "  "}).faults == []


def test_seed_route_is_off_by_default_and_mounted_when_enabled(make_app) -> None:
    off = make_app()
    assert off.client.get("/_harness/seed/health").status_code == 404
    on = make_app(seed_enabled=True, seed_token="sekret")
    assert on.client.get("/_harness/seed/health").status_code == 401
    r = on.client.get("/_harness/seed/health", headers={"Authorization": "Bearer sekret"})
    assert r.status_code == 200 and r.json()["ok"] is True


def test_controlled_runtime_reports_itself_and_never_collects(make_app) -> None:
    a = make_app(runtime="controlled")
    seed_documents(a.db)
    assert a.client.get("/api/runtime").json()["runtime"] == "controlled"
    assert "<strong>controlled</strong>" in a.client.get("/").text
    html = _say(a.client, f"My car AB12 CDE was hit on 14 March 2026, policy {POLICY}, a claim")
    assert _last_agent(html) == "Thank you. We have noted your message about a claim."
    assert 'data-testid="chips"' not in html and 'data-testid="confirm-button"' not in html
    a.client.post("/api/confirm")
    assert a.db.claims.count_documents({}) == 0
    assert a.db.sessions.find_one({"kind": "customer"})["state"]["facts"] == {}


def test_opening_question_is_queued_and_its_facts_are_still_read(app_client) -> None:
    c, db = app_client.client, app_client.db
    html = _say(
        c,
        f"Someone hit my parked car AB12 CDE on 4 March 2026 at 22:15, policy {POLICY}, "
        "how do I claim for this?",
    )
    assert "passed your question on to our team" in _last_agent(html)
    assert "best describes" in _last_agent(html)  # policy, date, time already read
    item = db.waiting_list.find_one()
    assert item["kind"] == "question" and item["text"].endswith("how do I claim for this?")
    for text in ["Collision", "Elm Road, Leeds", "Yes", "Yes", "No", "I don't have a photo",
                 "I don't have a quote"]:
        html = _say(c, text)
    number = re.search(r'data-testid="claim-number">([^<]+)<', c.post("/api/confirm").text)[1]
    # Once the claim exists, the question is listed under its claim number.
    assert db.waiting_list.find_one()["claim_number"] == number
    c.post("/staff/login", data={"username": STAFF_USER, "password": STAFF_PASSWORD})
    row = re.search(r'data-testid="waiting-item">(.*?)</tr>', c.get("/staff/waiting").text, re.S)
    assert number in row[1] and "how do I claim for this?" in row[1]


def test_only_the_hand_off_reply_reads_as_a_hand_off_to_the_harness() -> None:
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    profile = tomllib.loads((root / "harness/profiles/reference.toml").read_text("utf-8"))
    patterns = profile["customer_screen"]["handoff_patterns"]
    text = tomllib.loads((root / "claims_reference_app/text/agent.toml").read_text("utf-8"))
    for name, wording in text["replies"].items():
        handed_off = any(re.search(p, wording) for p in patterns)
        assert handed_off is (name == "handoff"), name


def test_a_policy_number_not_found_is_asked_for_once_more_before_the_claim_goes_on(
        app_client) -> None:
    c, db = app_client.client, app_client.db
    html = _say(c, "A van hit my car AB12 CDE.")
    assert "policy number" in _last_agent(html).lower()
    html = _say(c, "It's NWF-POL-999111.")  # the answer to the question: one lookup, not two
    assert "couldn't find a policy with the number NWF-POL-999111" in _last_agent(html)
    html = _say(c, "Sorry, NWF-POL-999112.")
    assert "still couldn't find policy NWF-POL-999112" in _last_agent(html)
    assert db.audit_events.count_documents({"action": "lookup_policy"}) == 2
    assert db.sessions.find_one({"kind": "customer"})["state"]["policy_attempts"] == 2
