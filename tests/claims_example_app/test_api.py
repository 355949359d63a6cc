"""Kestrel's customer API: greeting, pacing, one question at a time, re-asks, unknown
answers, files, follow-up questions, the review card and "Create claim"."""

from __future__ import annotations

import re
import threading
import time

import pytest

from claims_example_app import REF_PATTERN
from tests.claims_reference_app.conftest import make_jpeg, make_pdf

POLICY = "NWF-POL-555001"
STORY = ("On 14 March 2026 at about 5:40 in the evening a van drove into the back of my car "
         "AB12 CDE at the lights in Leeds.")


def motor_fixtures(start: str = "2025-06-01", losses: tuple[str, ...] = ()) -> dict:
    return {
        "policyholders": [{"_id": "h1", "fullName": "Sam Taylor",
                           "contact": {"email": "sam@example.test", "phone": "07700 900123"}}],
        "cover": [{"_id": "c1", "policyRef": POLICY, "holderId": "h1", "product": "MOTOR",
                   "inceptionDate": start, "expiryDate": "2027-05-31", "state": "in_force",
                   "vehicle": {"reg": "AB12 CDE"}, "excess": {"amount": 250}}],
        "loss_history": [{"_id": f"l{i}", "holderId": "h1", "policyRef": POLICY,
                          "lossDate": d, "product": "MOTOR", "outcome": "SETTLED"}
                         for i, d in enumerate(losses)],
    }


@pytest.fixture
def k(make_kestrel):
    k = make_kestrel()
    k.load("motor", motor_fixtures())
    k.client.get("/api/thread")
    return k


def say(k, text: str) -> dict:
    r = k.client.post("/api/turns", data={"text": text})
    assert r.status_code == 200, r.text
    return r.json()


def send_file(k, name: str, data: bytes, mime: str, text: str = ""):
    return k.client.post("/api/turns", data={"text": text}, files={"file": (name, data, mime)})


def last(state: dict) -> str:
    return [t["text"] for t in state["turns"] if t["who"] == "bot"][-1]


def asked(k) -> dict:
    return k.conversation()["open"]


def to_files(k) -> dict:
    """Answer the motor questions left after STORY; the screen that asks for a photo."""
    say(k, STORY)
    say(k, POLICY)
    say(k, "Collision")
    say(k, "Park Road, Leeds")
    say(k, "Yes")
    say(k, "Yes")
    return say(k, "No")


def test_greeting_comes_from_the_thread_and_the_cookie_keeps_the_conversation(make_kestrel):
    k = make_kestrel(greeting_delay_ms=300)
    t0 = time.monotonic()
    first = k.client.get("/api/thread")
    waited = time.monotonic() - t0
    assert waited >= 0.3
    assert [t["who"] for t in first.json()["turns"]] == ["bot"]
    assert "kestrel_chat" in first.cookies
    t0 = time.monotonic()
    again = k.client.get("/api/thread").json()
    assert time.monotonic() - t0 < 0.3, "only a new conversation waits for its greeting"
    assert again["turns"] == first.json()["turns"]
    assert k.db.conversations.count_documents({}) == 1


def test_the_assistant_takes_its_time(make_kestrel):
    k = make_kestrel(agent_latency_ms=400)
    k.client.get("/api/thread")
    t0 = time.monotonic()
    say(k, "Hello")
    assert time.monotonic() - t0 >= 0.4


def test_one_question_at_a_time_in_rule_order_with_quick_replies(k):
    state = say(k, STORY)
    assert last(state).startswith("What's the policy number")
    state = say(k, POLICY)
    assert state["turns"][-1]["parts"] == ["Thanks, I've found your car insurance policy.",
                                           "What kind of incident was it?"]
    assert state["quick"] == ["Collision", "Theft", "Windscreen damage", "Vandalism",
                              "Something else"]
    state = say(k, "Collision")
    assert last(state) == "Where exactly did it happen?" and state["quick"] == []
    state = say(k, "Park Road, Leeds")
    assert last(state) == "Is the car safe to drive at the moment?"
    assert state["quick"] == ["Yes", "No", "Don't know"]
    bot = [t["text"] for t in state["turns"] if t["who"] == "bot"][1:]
    assert all(t.endswith("?") and t.count("?") == 1 for t in bot)
    answers = k.conversation()["answers"]
    assert answers["lossDate"]["value"] == "2026-03-14"
    assert answers["lossTime"]["value"] == "17:40"
    assert answers["vehicleReg"]["value"] == "AB12 CDE"
    assert answers["story"]["value"] == STORY
    assert all(a["status"] == "PROPOSED" for a in answers.values())


def test_an_unreadable_answer_gets_one_re_ask_then_it_is_not_known(k):
    say(k, "A van drove into my car at the lights in Leeds, it was awful really.")
    say(k, POLICY)
    state = say(k, "sometime last week")
    assert last(state) == "I couldn't make out a date there. Could you write it like 3 May 2026?"
    state = say(k, "honestly a few days ago")
    assert state["turns"][-1]["parts"][0] == "No problem, I'll note that as not known."
    assert "time of day" in last(state)
    assert k.conversation()["answers"]["lossDate"] == {"value": None, "status": "NOT_KNOWN",
                                                       "via": "answer"}


def test_dont_know_is_noted_at_once_and_yes_no_still_read_around_it(k):
    say(k, STORY)
    say(k, POLICY)
    say(k, "Collision")
    state = say(k, "I'm sorry, I really couldn't tell you.")
    assert state["turns"][-1]["parts"][0] == "No problem, I'll note that as not known."
    assert k.conversation()["answers"]["lossPlace"]["status"] == "NOT_KNOWN"
    say(k, "Yes")
    say(k, "No, no other car is involved. I do not know who did it.")
    assert k.conversation()["answers"]["otherParty"]["value"] is False


def test_a_question_goes_on_the_follow_up_list_and_the_claim_goes_on(k):
    say(k, STORY)
    state = say(k, "Will my premium go up?")
    assert state["turns"][-1]["parts"] == [
        "I've put your question on our team's list and they'll reply to it separately.",
        "What's the policy number on your insurance schedule (it starts NWF-POL)?"]
    item = k.db.followups.find_one()
    assert (item["type"], item["body"], item["state"], item["caseRef"]) == (
        "CUSTOMER_QUESTION", "Will my premium go up?", "OPEN", None)
    state = say(k, "Is it 14 March 2026?")  # answers a date question? not the open one
    assert k.db.followups.count_documents({}) == 2
    assert "policy number" in last(state)


def test_files_photo_then_quote_later_is_chased_once(k):
    state = to_files(k)
    assert last(state) == ("Photos help us a lot. Could you attach a photo of the damage, or "
                           "of where it happened?")
    r = send_file(k, "bumper.jpg", make_jpeg(), "image/jpeg")
    assert r.status_code == 200, r.text
    state = r.json()
    assert state["turns"][-2] == {"n": state["turns"][-2]["n"], "who": "customer", "text": "",
                                  "parts": None, "file": "bumper.jpg"}
    assert state["turns"][-1]["parts"] == [
        "Thanks, I've got bumper.jpg.",
        "Could you attach the repair quote or estimate, if you have one?"]
    state = say(k, "The garage is emailing it to me, I haven't got it yet.")
    assert state["turns"][-1]["parts"] == [
        "That's fine, you can send it when you have it.",
        "Before we finish: could you attach the repair quote now, or is it still on its way?"]
    state = say(k, "Still waiting for it, sorry.")
    assert state["actions"] == [{"id": "review", "label": "Review details"}]
    evidence = k.conversation()["evidence"]
    assert evidence["photo"]["status"] == "received" and len(evidence["photo"]["uploads"]) == 1
    assert evidence["quote"]["status"] == "to_follow"
    upload = k.db.uploads.find_one()
    assert upload["category"] == "photo" and upload["objectKey"] in k.apps.store.file_keys()


def test_a_document_is_read_and_described(k):
    to_files(k)
    send_file(k, "bumper.jpg", make_jpeg(), "image/jpeg")
    pdf = make_pdf("REPAIR QUOTE", "Quote date", "16 March 2026", pages_total=3,
                   supplied=(1, 3))
    state = send_file(k, "quote.pdf", pdf, "application/pdf").json()
    assert state["turns"][-1]["parts"][0] == (
        "Thanks, I've got quote.pdf: a repair quote dated 16 March 2026; page 2 of 3 seems to "
        "be missing.")
    reading = k.db.uploads.find_one({"fileName": "quote.pdf"})["reading"]
    assert (reading["docType"], reading["printedDate"], reading["pagesMissing"]) == (
        "quote", "2026-03-16", [2])


def test_not_having_a_file_is_noted(k):
    to_files(k)
    state = say(k, "I don't have one, sorry.")
    assert state["turns"][-1]["parts"][0] == "That's fine, we'll carry on without it."
    assert k.conversation()["evidence"]["photo"]["status"] == "not_provided"


def test_an_unknown_policy_is_asked_again_then_the_line_is_asked(k):
    say(k, "A van drove into my car at the lights in Leeds, it was awful really.")
    state = say(k, "NWF-POL-999999")
    assert last(state).startswith("I can't find a policy numbered NWF-POL-999999")
    state = say(k, "NWF-POL-999998")
    assert "vehicle, your home or your belongings" in last(state)
    assert state["quick"] == ["My vehicle", "My home", "My belongings"]
    state = say(k, "My home")
    assert k.conversation()["line"] == "home"
    assert last(state).startswith("On what date")


@pytest.mark.parametrize(("name", "data", "mime", "status", "words"), [
    ("notes.txt", b"hello", "text/plain", 415, "JPEG or PNG photo, or a PDF"),
    ("fake.jpg", b"not a jpeg", "image/jpeg", 415, "JPEG or PNG photo, or a PDF"),
    ("big.jpg", b"\xff\xd8\xff" + b"0" * 2048, "image/jpeg", 413, "too big"),
])
def test_a_refused_file_changes_nothing(make_kestrel, name, data, mime, status, words):
    k = make_kestrel(max_upload_bytes=1024)
    k.load("motor", motor_fixtures())
    k.client.get("/api/thread")
    before = k.conversation()
    r = send_file(k, name, data, mime, text="here you go")
    assert r.status_code == status
    assert words in r.json()["error"] and name in r.json()["error"]
    assert k.conversation()["turns"] == before["turns"]
    assert k.db.uploads.count_documents({}) == 0 and k.apps.store.file_keys() == []


def test_a_turn_while_the_last_one_is_answered_is_refused(k):
    from claims_example_app._customer import _lock

    lock = _lock(k.conversation()["_id"])
    lock.acquire()
    try:
        r = k.client.post("/api/turns", data={"text": "hello?"})
    finally:
        lock.release()
    assert r.status_code == 409 and "wait for the reply" in r.json()["error"]
    assert k.conversation()["turns"][-1]["who"] == "bot"


def test_an_empty_turn_is_refused(k):
    r = k.client.post("/api/turns", data={"text": "   "})
    assert r.status_code == 422 and r.json()["error"]


def ready(k) -> dict:
    to_files(k)
    send_file(k, "bumper.jpg", make_jpeg(), "image/jpeg")
    return say(k, "I don't have a quote.")


def test_review_details_then_create_claim(k):
    state = ready(k)
    assert state["actions"] == [{"id": "review", "label": "Review details"}]
    assert k.client.post("/api/create").status_code == 409, "no claim before the review"
    assert k.db.fnol_cases.count_documents({}) == 0
    state = k.client.post("/api/review").json()
    rows = {r["label"]: r["value"] for r in state["review"]["rows"]}
    assert rows["Date"] == "14 March 2026" and rows["Time"] == "17:40"
    assert rows["Type of incident"] == "Collision" and rows["Car safe to drive"] == "Yes"
    assert rows["Files you sent"] == "bumper.jpg"
    assert [a["label"] for a in state["actions"]] == ["Create claim", "Edit details"]
    state = say(k, "Yes that's all correct")
    assert state["claimRef"] is None and k.db.fnol_cases.count_documents({}) == 0
    assert state["turns"][-1]["parts"][0] == "Thanks, I've added that to the notes on your claim."
    state = k.client.post("/api/create").json()
    assert re.fullmatch(REF_PATTERN, state["claimRef"])
    assert state["claimRef"] in last(state) and state["review"] is None
    case = k.db.fnol_cases.find_one()
    assert case["ref"] == state["claimRef"] and case["stage"] == "lodged"
    assert case["_id"] != case["ref"] and case["notes"] == ["Yes that's all correct"]
    assert all(a["status"] == "CONFIRMED" for a in case["answers"].values())
    assert k.client.post("/api/create").status_code == 409
    assert k.db.fnol_cases.count_documents({}) == 1
    state = say(k, "Thanks!")
    assert last(state).startswith(f"Your claim {case['ref']} has already been created")


def test_a_correction_needs_to_say_so_and_edit_details_re_asks_one_detail(k):
    ready(k)
    k.client.post("/api/review")
    state = say(k, "The receipt was reprinted on 20 March 2026.")
    assert k.conversation()["answers"]["lossDate"]["value"] == "2026-03-14"
    state = say(k, "Sorry, the date should be 13 March 2026.")
    assert state["turns"][-1]["parts"][0] == "I've updated your details."
    assert k.conversation()["answers"]["lossDate"]["value"] == "2026-03-13"
    state = k.client.post("/api/edit").json()
    assert last(state) == "Which detail would you like to change?"
    assert "Where it happened" in state["quick"] and state["review"] is None
    state = say(k, "Where it happened")
    assert last(state) == "Where exactly did it happen?"
    state = say(k, "Kirkstall Road, Leeds")
    assert state["turns"][-1]["parts"] == [
        "Thanks, I've changed that.",
        "That's everything I need for now. Press Review details to look over your claim "
        "before it's created."]
    assert k.conversation()["answers"]["lossPlace"]["value"] == "Kirkstall Road, Leeds"


def test_a_file_after_the_claim_is_added_to_it(k):
    ready(k)
    k.client.post("/api/review")
    ref = k.client.post("/api/create").json()["claimRef"]
    pdf = make_pdf("REPAIR QUOTE", "Quote date", "16 March 2026")
    state = send_file(k, "late-quote.pdf", pdf, "application/pdf").json()
    assert last(state) == f"Thanks, I've added late-quote.pdf to claim {ref}."
    case = k.db.fnol_cases.find_one()
    upload = k.db.uploads.find_one({"fileName": "late-quote.pdf"})
    assert upload["caseRef"] == ref and upload["_id"] in case["evidence"]["quote"]["uploads"]


def test_checks_and_triage_use_the_loaded_cover_and_loss_history(make_kestrel):
    k = make_kestrel()
    k.load("motor", motor_fixtures(start="2026-03-01", losses=("2025-06-01", "2026-01-10")))
    k.client.get("/api/thread")
    ready(k)
    k.client.post("/api/review")
    k.client.post("/api/create")
    case = k.db.fnol_cases.find_one()
    checks = {c: v["result"] for c, v in case["referral"]["checks"].items()}
    assert checks == {"receiptAfterLoss": "NOT_RELEVANT", "quoteBeforeLoss": "NOT_RELEVANT",
                      "priorLosses12m": "FLAGGED", "recentInception": "FLAGGED"}
    assert case["referral"]["refer"] is True
    assert case["triage"] == {"band": "routine", "callback": "NEXT_WORKING_DAY",
                              "reasons": ["VEHICLE_DRIVEABLE", "OTHER_PARTY", "REFERRED"]}


def test_two_customers_have_two_conversations(make_kestrel):
    from fastapi.testclient import TestClient

    k = make_kestrel()
    other = TestClient(k.apps.customer)
    k.client.get("/api/thread")
    other.get("/api/thread")
    say(k, STORY)
    assert k.db.conversations.count_documents({}) == 2
    assert len(other.get("/api/thread").json()["turns"]) == 1


def test_concurrent_turns_of_one_conversation_are_answered_one_at_a_time(make_kestrel):
    from fastapi.testclient import TestClient

    k = make_kestrel(agent_latency_ms=300)
    k.client.get("/api/thread")
    results: list[int] = []

    def post(client) -> None:
        results.append(client.post("/api/turns", data={"text": "hello there"}).status_code)

    tabs = [TestClient(k.apps.customer, cookies=dict(k.client.cookies)) for _ in range(2)]
    threads = [threading.Thread(target=post, args=(tab,)) for tab in tabs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [200, 409]
    assert sum(1 for t in k.conversation()["turns"] if t["who"] == "customer") == 1
