"""Staff sessions live outside the claims data, like an identity service's: a data reset that
restores the same staff account keeps staff signed in; signing out, an expired token, a
removed account, a changed password or a restarted app end the session."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from fastapi.testclient import TestClient

from claims_reference_app import create_app, hash_password
from claims_reference_app._staff_identity import StaffIdentity

from .conftest import STAFF_PASSWORD, STAFF_USER

PACKS = Path(__file__).resolve().parents[2] / "packs"
TOKEN = "staff-session-token"


def _sign_in(client: TestClient, password: str = STAFF_PASSWORD) -> int:
    r = client.post("/staff/login", data={"username": STAFF_USER, "password": password},
                    follow_redirects=False)
    return r.status_code


def _signed_in(client: TestClient) -> bool:
    r = client.get("/staff/waiting", follow_redirects=False)
    if r.status_code == 303:
        assert r.headers["location"].endswith("/staff/login")
        return False
    assert r.status_code == 200, r.text
    return True


def _reset(client: TestClient, overrides: list[dict] | None = None) -> dict:
    setup = json.loads((PACKS / "CTL-M-001" / "setup.json").read_text(encoding="utf-8"))
    setup["overrides"] = overrides or []
    r = client.post("/_harness/seed/reset", json={"setup": setup, "files": {}},
                    headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200, r.text
    return r.json()


def _seeded_app(make_app):
    a = make_app(seed_enabled=True, seed_token=TOKEN, baseline_path=str(PACKS / "baseline.json"))
    _reset(a.client)
    return a


def test_a_staff_session_survives_a_data_reset_of_the_same_account(make_app):
    a = _seeded_app(make_app)
    baseline = json.loads((PACKS / "baseline.json").read_text(encoding="utf-8"))
    creds = baseline["staff_credentials"]
    r = a.client.post("/staff/login", data=creds, follow_redirects=False)
    assert r.status_code == 303
    assert _signed_in(a.client)
    state = a.client.get("/_harness/seed/state",
                         headers={"Authorization": f"Bearer {TOKEN}"}).json()
    # nothing of the session is in the claims data, only the audited sign-in
    assert not any(s.get("kind") == "staff"
                   for s in state["collections"].get("sessions", {}).values())
    assert a.client.cookies.get("nwf_staff").split(".")[-1] not in json.dumps(state)
    _reset(a.client)
    assert _signed_in(a.client)  # the baseline restored the same account


def test_a_reset_that_removes_or_changes_the_account_ends_the_session(make_app):
    a = _seeded_app(make_app)
    baseline = json.loads((PACKS / "baseline.json").read_text(encoding="utf-8"))
    creds, staff_id = baseline["staff_credentials"], baseline["collections"]["staff"][0]["_id"]
    a.client.post("/staff/login", data=creds, follow_redirects=False)
    _reset(a.client, [{"collection": "staff", "id": staff_id,
                       "set": {"password_hash": hash_password("new")}}])
    assert not _signed_in(a.client)  # another password: signed out
    _reset(a.client)
    a.client.post("/staff/login", data=creds, follow_redirects=False)
    _reset(a.client, [{"collection": "staff", "id": staff_id, "delete": True}])
    assert not _signed_in(a.client)  # the account is gone


def test_signing_out_ends_the_session_for_good(app_client):
    client = app_client.client
    assert _sign_in(client) == 303
    token = client.cookies.get("nwf_staff")
    r = client.post("/staff/logout", follow_redirects=False)
    assert r.status_code == 303
    client.cookies.set("nwf_staff", token)  # the old cookie, kept by someone
    assert not _signed_in(client)
    assert _sign_in(client) == 303 and _signed_in(client)  # a new sign-in works


def test_a_wrong_password_gets_no_session(app_client):
    client = app_client.client
    assert _sign_in(client, "wrong") == 401
    assert client.cookies.get("nwf_staff") is None
    assert not _signed_in(client)


def test_a_restarted_app_does_not_know_old_sessions(app_client):
    a = app_client
    assert _sign_in(a.client) == 303
    token = a.client.cookies.get("nwf_staff")
    with TestClient(create_app(a.settings)) as again:
        again.cookies.set("nwf_staff", token)
        assert not _signed_in(again)


def test_tokens_expire(app_client):
    identity = StaffIdentity(lifetime_s=60)
    staff = app_client.db.staff.find_one({"_id": "staff-001"})
    token = identity.issue(staff)
    assert identity.staff_for(app_client.db, token)["_id"] == "staff-001"
    version, claims, sig = token.split(".")
    body = json.loads(base64.urlsafe_b64decode(claims + "=" * (-len(claims) % 4)))
    body["iat"] -= 61
    old = base64.urlsafe_b64encode(json.dumps(body, separators=(",", ":")).encode())
    old_payload = f"{version}.{old.rstrip(b'=').decode()}"
    aged = old_payload + "." + identity._sign(old_payload, staff)
    assert identity.staff_for(app_client.db, aged) is None
    identity.end(token)
    assert identity.staff_for(app_client.db, token) is None
