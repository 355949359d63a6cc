"""Session cookies sign people in: their values never sit in the database, so a state dump
(what the harness stores as evidence) holds nothing that signs anyone in."""

from __future__ import annotations

import base64
import json

from fastapi.testclient import TestClient

from seed import S3Config, dump_state

from .conftest import STAFF_PASSWORD, STAFF_USER


def _cookie(client, name: str) -> str:
    value = client.cookies.get(name)
    assert value, f"no {name} cookie was set"
    return value


def test_cookie_values_are_absent_from_the_state_dump(app_client):
    a = app_client
    customer = a.client
    customer.get("/")
    customer.post("/api/messages", json={"text": "Hello, my car was hit on 12 March 2026."})
    customer_token = _cookie(customer, "nwf_session")

    staff = TestClient(customer.app)
    r = staff.post("/staff/login", data={"username": STAFF_USER, "password": STAFF_PASSWORD},
                   follow_redirects=False)
    assert r.status_code == 303
    staff_token = _cookie(staff, "nwf_staff")
    assert staff.get("/staff").status_code == 200  # the hashed session still signs in

    s = a.settings
    s3 = S3Config(endpoint=s.s3_endpoint, access_key=s.s3_access_key,
                  secret_key=s.s3_secret_key, region=s.s3_region)
    dump = dump_state(a.db, s3, s.bucket).model_dump_json()
    assert customer_token not in dump and staff_token not in dump
    assert json.loads(dump)["collections"]["sessions"]  # the sessions are there, hashed
    assert staff_token.split(".")[-1] not in dump
    assert all(k.startswith("s-") for k in json.loads(dump)["collections"]["sessions"])


def test_a_forged_staff_cookie_does_not_sign_in(app_client):
    """A staff token whose signature does not match (another account named, a token made up,
    the stored customer session key) signs nobody in."""
    a = app_client
    staff = a.client
    staff.post("/staff/login", data={"username": STAFF_USER, "password": STAFF_PASSWORD},
               follow_redirects=False)
    token = _cookie(staff, "nwf_staff")
    version, claims, sig = token.split(".")
    forged = json.loads(base64.urlsafe_b64decode(claims + "=" * (-len(claims) % 4)))
    forged["sub"] = "staff-002"
    a.db.staff.insert_one({**a.db.staff.find_one({"_id": "staff-001"}), "_id": "staff-002"})
    other = base64.urlsafe_b64encode(json.dumps(forged).encode()).rstrip(b"=").decode()
    a.client.get("/")
    a.client.post("/api/messages", json={"text": "Hello"})
    stored = a.db.sessions.find_one({"kind": "customer"})["_id"]
    for value in (f"{version}.{other}.{sig}", f"{version}.{claims}.{sig[:-2]}AA", stored,
                  "s1.e30.AAAA", "garbage"):
        staff.cookies.clear()
        staff.cookies.set("nwf_staff", value)
        r = staff.get("/staff", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].endswith("/staff/login"), value
    staff.cookies.clear()
    staff.cookies.set("nwf_staff", token)
    assert staff.get("/staff", follow_redirects=False).status_code == 200
