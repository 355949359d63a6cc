"""The staff workbench: its own app, a bearer token on every request, the queue's rows open
cases by internal id, and everything is shown in the workbench's own words."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from claims_example_app import create_apps

from ._html import elements, texts
from .conftest import STAFF_TOKEN
from .test_api import motor_fixtures, ready


@pytest.fixture
def lodged(make_kestrel):
    k = make_kestrel()
    k.load("motor", motor_fixtures(start="2026-03-01"))
    k.client.get("/api/thread")
    k.client.post("/api/turns", data={"text": "Can I choose my own garage?"})
    ready(k)
    k.client.post("/api/review")
    k.client.post("/api/create")
    return k


@pytest.mark.parametrize("path", ["/", "/followups", "/cases/anything",
                                  "/assets/workbench.js"])
@pytest.mark.parametrize("auth", [None, "Bearer wrong-token", f"Basic {STAFF_TOKEN}",
                                  STAFF_TOKEN])
def test_every_workbench_request_needs_the_bearer_token(kestrel, path, auth):
    anonymous = TestClient(kestrel.apps.workbench)
    r = anonymous.get(path, headers={"Authorization": auth} if auth else {})
    assert r.status_code == 401
    assert r.headers["www-authenticate"].startswith("Bearer")
    assert "Not authorised" in r.text


def test_the_customer_port_has_no_workbench_and_the_workbench_no_customer_api(kestrel):
    assert kestrel.client.get("/cases/x").status_code == 404
    assert kestrel.client.get("/followups").status_code == 404
    assert kestrel.staff.get("/api/thread").status_code == 404
    assert kestrel.staff.post("/ops/fixtures", json={}).status_code == 404


def test_no_staff_token_means_no_workbench(make_kestrel):
    k = make_kestrel(staff_token=None)
    assert k.apps.workbench is None
    with pytest.raises(ValueError, match="token"):
        from claims_example_app._workbench import create_workbench_app

        create_workbench_app(k.apps.store, "", "v")


def test_queue_row_opens_the_case_by_internal_id(lodged):
    case = lodged.db.fnol_cases.find_one()
    queue = lodged.staff.get("/")
    assert queue.status_code == 200
    (attrs, text), = elements(queue.text, "queue__row")
    assert text.startswith(case["ref"]) and "Routine" in text and "No referral" in text
    assert attrs["data-case"] == f"/cases/{case['_id']}" and case["ref"] not in attrs["data-case"]
    assert lodged.staff.get(f"/cases/{case['ref']}").status_code == 404
    page = lodged.staff.get(attrs["data-case"]).text
    assert texts(page, "case__ref") == [case["ref"]]
    assert texts(page, "band") == ["Routine"]
    assert texts(page, "callback") == ["Next working day"]
    assert texts(page, "reason") == ["Vehicle still driveable", "Other party involved"]
    assert texts(page, "referral") == ["No referral"]
    checks = dict(zip(texts(page, "check__name"), texts(page, "check__outcome"), strict=True))
    assert checks == {"Receipt dated after the loss": "Not relevant",
                      "Quote dated before the loss": "Not relevant",
                      "Two or more claims in the last year": "Passed",
                      "Loss within 30 days of cover starting": "Flagged"}
    facts = {lbl: (v, s) for lbl, v, s in zip(texts(page, "fact__label"),
                                              texts(page, "fact__value"),
                                              texts(page, "fact__state"), strict=True)}
    assert facts["Date of loss"] == ("14 March 2026", "Confirmed by customer")
    assert facts["Time of loss"] == ("17:40", "Confirmed by customer")
    assert facts["Cause of loss"] == ("Collision", "Confirmed by customer")
    assert facts["Vehicle can be driven"] == ("Yes", "Confirmed by customer")
    assert facts["Anyone else involved"] == ("Yes", "Confirmed by customer")
    assert "Sam Taylor" in texts(page, "case__meta")[0]
    assert f"<title>{case['ref']} · Kestrel</title>" in page
    assert texts(page, "note") == ["None"]


def test_follow_ups_list_customer_questions_under_the_claim(lodged):
    ref = lodged.db.fnol_cases.find_one()["ref"]
    page = lodged.staff.get("/followups").text
    assert texts(page, "followup__kind") == ["Customer question"]
    assert texts(page, "followup__text") == ["Can I choose my own garage?"]
    assert texts(page, "followup__ref") == [ref]
    assert texts(page, "followup__state") == ["Open"]


def test_unknown_details_and_an_empty_queue(make_kestrel):
    k = make_kestrel()
    assert texts(k.staff.get("/").text, "queue__empty") == ["No claims yet."]
    assert texts(k.staff.get("/followups").text, "followups__empty") == ["Nothing to follow up."]
    k.load("motor", motor_fixtures())
    k.client.get("/api/thread")
    k.client.post("/api/turns", data={"text": "A van hit my car at the lights in Leeds today."})
    for answer in ("NWF-POL-555001", "no idea", "not sure", "Collision", "Leeds", "AB12 CDE",
                   "Yes", "Yes", "No", "I don't have one", "no"):
        k.client.post("/api/turns", data={"text": answer})
    k.client.post("/api/review")
    assert k.client.post("/api/create").status_code == 200
    case = k.db.fnol_cases.find_one()
    page = k.staff.get(f"/cases/{case['_id']}").text
    facts = dict(zip(texts(page, "fact__label"), texts(page, "fact__state"), strict=True))
    assert facts["Date of loss"] == "Not known" and facts["Time of loss"] == "Not known"


def test_two_instances_keep_their_tokens_apart(make_kestrel, stores):
    k = make_kestrel()
    other = create_apps(k.settings.model_copy(update={"staff_token": "other-token"}))
    try:
        client = TestClient(other.workbench, headers={"Authorization": f"Bearer {STAFF_TOKEN}"})
        assert client.get("/").status_code == 401
    finally:
        other.store.close()
