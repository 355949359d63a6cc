"""Kestrel in Chromium: the late greeting, the busy placeholder and disabled composer, replies
in two parts, files staged until Send, refusals in role=alert, "Review details" then
"Create claim", and the workbench's queue row opening a case by its internal id."""

from __future__ import annotations

import re
import time

import pytest

from claims_dev import BackgroundServer
from claims_example_app import REF_PATTERN
from tests.claims_reference_app.conftest import make_jpeg

from .conftest import STAFF_TOKEN
from .test_api import POLICY, motor_fixtures, ready

pytestmark = [pytest.mark.slow, pytest.mark.browser]

REPLY = ".thread .bubble--bot:not(.bubble--pending)"
PENDING = ".thread .bubble--bot.bubble--pending[aria-busy=true]"
IDLE_JS = """(before) => !document.querySelector('.bubble--pending')
  && !document.querySelector('.composer__text').disabled
  && document.querySelectorAll('.thread .bubble--bot:not(.bubble--pending)').length > before"""


@pytest.fixture
def serve():
    servers: list[BackgroundServer] = []

    def start(app) -> BackgroundServer:
        servers.append(BackgroundServer(app).start())
        return servers[-1]

    yield start
    for s in servers:
        s.stop()


def replies(page) -> int:
    return page.locator(REPLY).count()


def wait_reply(page, before: int, settle_ms: int = 500) -> str:
    """Wait until the placeholder is gone, the composer is enabled and a new reply is
    shown, then until its text has not changed for ``settle_ms``; the latest reply."""
    page.wait_for_function(IDLE_JS, arg=before, timeout=20_000)
    text, since = page.locator(REPLY).last.inner_text(), time.monotonic()
    while time.monotonic() - since < settle_ms / 1000:
        page.wait_for_timeout(50)
        now = page.locator(REPLY).last.inner_text()
        if now != text:
            text, since = now, time.monotonic()
    return text


def send(page, text: str) -> str:
    before = replies(page)
    page.get_by_label("Your message").fill(text)
    page.get_by_role("button", name="Send", exact=True).click()
    return wait_reply(page, before)


def quick(page, label: str) -> str:
    before = replies(page)
    page.get_by_role("group", name="Quick replies").get_by_role(
        "button", name=label, exact=True).click()
    return wait_reply(page, before)


STORY = ("On 14 March 2026 at about 5:40 in the evening a van drove into the back of my car "
         "AB12 CDE at the lights in Leeds.")


def test_late_greeting_busy_signals_and_a_two_part_reply(browser, make_kestrel, serve, tmp_path):
    # slow pacing, so that every in-between state can be seen even on a loaded machine
    k = make_kestrel(agent_latency_ms=2000, greeting_delay_ms=1000, chunk_gap_ms=2000)
    k.load("motor", motor_fixtures())
    server = serve(k.apps.customer)
    page = browser.new_context(base_url=server.url).new_page()
    t0 = time.monotonic()
    page.goto("/", wait_until="domcontentloaded")
    assert replies(page) == 0, "the page arrives without the conversation"
    page.locator(PENDING).wait_for(timeout=5_000)
    assert page.get_by_label("Your message").is_disabled()
    assert page.get_by_role("button", name="Send", exact=True).is_disabled()
    page.locator(REPLY).first.wait_for(timeout=10_000)
    assert time.monotonic() - t0 >= 0.8, "the greeting comes about a second after load"
    assert page.locator(".bubble--pending").count() == 0
    assert page.get_by_label("Your message").is_enabled()
    assert page.locator("[data-testid]").count() == 0
    assert page.get_by_role("log", name="Conversation").is_visible()

    # busy: the placeholder shares the reply class; the composer is disabled meanwhile
    before = replies(page)
    page.get_by_label("Your message").fill(STORY)
    page.get_by_role("button", name="Send", exact=True).click()
    assert page.locator(".thread .bubble--bot").count() == before + 1
    assert page.locator(PENDING).inner_text() == "Working on it\u2026"
    assert page.get_by_label("Your message").is_disabled()
    assert page.get_by_role("button", name="Send", exact=True).is_disabled()
    # a file chosen while busy is refused where the customer sees it, not queued
    photo = tmp_path / "bumper.jpg"
    photo.write_bytes(make_jpeg())
    page.get_by_label("Add files").set_input_files(str(photo))
    alert = page.get_by_role("alert")
    assert "Please wait for my reply, then add bumper.jpg again." in alert.inner_text()
    assert page.locator(".attachment-chip").count() == 0
    assert "policy number" in wait_reply(page, before)

    # a two-part reply: the first part when the composer comes back, the rest later
    before = replies(page)
    page.get_by_label("Your message").fill(POLICY)
    page.get_by_role("button", name="Send", exact=True).click()
    page.wait_for_function(IDLE_JS, arg=before, timeout=20_000)
    assert page.locator(REPLY).last.inner_text() == "Thanks, I've found your car insurance policy."
    assert page.get_by_role("group", name="Quick replies").get_by_role("button").count() == 0
    page.wait_for_function(
        "() => document.querySelectorAll('.quick-replies button').length > 0", timeout=10_000)
    assert page.locator(REPLY).last.inner_text().endswith("What kind of incident was it?")
    assert k.db.uploads.count_documents({}) == 0


def test_customer_journey_in_the_browser(browser, make_kestrel, serve, tmp_path):
    k = make_kestrel(agent_latency_ms=250, greeting_delay_ms=0, chunk_gap_ms=300)
    k.load("motor", motor_fixtures())
    server = serve(k.apps.customer)
    page = browser.new_context(base_url=server.url).new_page()
    page.goto("/")
    page.locator(REPLY).first.wait_for(timeout=10_000)
    assert "policy number" in send(page, STORY)
    assert "What kind of incident" in send(page, POLICY)
    assert quick(page, "Collision") == "Where exactly did it happen?"
    assert "safe to drive" in send(page, "Park Road, Leeds")
    quick(page, "Yes")
    quick(page, "Yes")
    assert "attach a photo" in quick(page, "No")

    # a wrong file is refused in role=alert and leaves no trace in the thread
    before_bubbles = page.locator(".bubble--me").count()
    page.get_by_label("Add files").set_input_files(
        {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"hello"})
    page.get_by_role("button", name="Send", exact=True).click()
    page.wait_for_function("() => !document.querySelector('.bubble--pending')")
    assert "notes.txt can't be added" in page.get_by_role("alert").inner_text()
    assert page.locator(".bubble--me").count() == before_bubbles

    # attach only stages the file; Send uploads it
    photo = tmp_path / "bumper.jpg"
    photo.write_bytes(make_jpeg())
    page.get_by_label("Add files").set_input_files(str(photo))
    chip = page.get_by_label("Pending attachment")
    assert chip.locator(".attachment-chip__name").inner_text() == "bumper.jpg"
    page.wait_for_timeout(300)
    assert k.db.uploads.count_documents({}) == 0, "choosing a file uploads nothing"
    before = replies(page)
    page.get_by_role("button", name="Send", exact=True).click()
    assert "repair quote" in wait_reply(page, before)
    assert "bumper.jpg" in page.locator(".bubble--me").last.inner_text()
    assert k.db.uploads.count_documents({}) == 1
    assert page.locator(".attachment-chip").count() == 0

    assert "Review details" in send(page, "No, I don't have a quote.")
    before = replies(page)
    page.get_by_role("button", name="Review details").click()
    wait_reply(page, before)
    card = page.get_by_role("region", name="Review your claim")
    assert card.is_visible()
    rows = dict(zip(card.locator("dt").all_inner_texts(), card.locator("dd").all_inner_texts(),
                    strict=True))
    assert rows["Date"] == "14 March 2026" and rows["Registration"] == "AB12 CDE"
    assert k.db.fnol_cases.count_documents({}) == 0
    before = replies(page)
    card.get_by_role("button", name="Create claim").click()
    wait_reply(page, before)
    ref_box = page.get_by_role("region", name="Your claim reference")
    ref = ref_box.locator(".claim-ref__value").inner_text()
    assert re.fullmatch(REF_PATTERN, ref)
    assert ref in page.locator(REPLY).last.inner_text()
    assert not card.is_visible()
    assert k.db.fnol_cases.find_one()["ref"] == ref
    assert page.locator("[data-testid]").count() == 0
    assert page.get_by_role("button", name=re.compile("sign in|talk to", re.I)).count() == 0


def test_workbench_queue_row_opens_the_case(browser, make_kestrel, serve):
    k = make_kestrel()
    k.load("motor", motor_fixtures())
    k.client.get("/api/thread")
    ready(k)
    k.client.post("/api/review")
    ref = k.client.post("/api/create").json()["claimRef"]
    server = serve(k.apps.workbench)
    denied = browser.new_context(base_url=server.url).new_page()
    assert denied.goto("/").status == 401
    ctx = browser.new_context(base_url=server.url,
                              extra_http_headers={"Authorization": f"Bearer {STAFF_TOKEN}"})
    page = ctx.new_page()
    page.goto("/")
    page.get_by_role("table", name="Claims queue").get_by_role("row").filter(
        has_text=ref).click()
    page.wait_for_url(re.compile(r"/cases/[0-9a-f]{24}$"))
    assert ref not in page.url
    assert page.get_by_role("heading", level=1).inner_text() == ref
    triage = page.get_by_role("region", name="Triage")
    assert triage.locator(".band").inner_text() == "Routine"
    assert page.get_by_role("region", name="Review").locator(".referral").inner_text() == (
        "No referral")
    details = page.get_by_role("region", name="Details collected")
    assert "Confirmed by customer" in details.inner_text()
    page.get_by_role("link", name="Follow-ups").click()
    page.wait_for_url(re.compile(r"/followups$"))
    assert page.get_by_role("heading", level=1).inner_text() == "Follow-ups"
    ctx.close()
