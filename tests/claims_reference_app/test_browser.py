"""The customer workspace and staff workbench driven in Chromium, as the harness drives them."""

from __future__ import annotations

import re

import pytest

from .conftest import (
    CUSTOMER_EMAIL,
    CUSTOMER_PASSWORD,
    POLICY,
    STAFF_PASSWORD,
    STAFF_USER,
    LiveServer,
    make_jpeg,
    make_pdf,
    seed_documents,
)

pytestmark = [pytest.mark.slow, pytest.mark.browser]

IDLE = "[data-testid=conversation][data-state=idle]"


@pytest.fixture
def live(make_app):
    servers: list[LiveServer] = []

    def start(**overrides: object):
        a = make_app(**overrides)
        server = LiveServer(a.settings).__enter__()
        servers.append(server)
        return a, server

    yield start
    for s in servers:
        s.__exit__(None, None, None)


def _wait_reply(page, before: int) -> str:
    """Wait for the completion signal and a new agent reply; return the latest reply."""
    page.wait_for_selector(IDLE, timeout=20_000)
    replies = page.locator("[data-testid=agent-message]")
    assert replies.count() > before
    return replies.last.inner_text()


def _send(page, text: str) -> str:
    before = page.locator("[data-testid=agent-message]").count()
    page.get_by_label("Message").fill(text)
    page.locator("[data-testid=composer-send]").click()
    return _wait_reply(page, before)


def _chip(page, label: str) -> str:
    before = page.locator("[data-testid=agent-message]").count()
    page.locator("[data-testid=chips]").get_by_role("button", name=label, exact=True).click()
    return _wait_reply(page, before)


def _upload(page, tmp_path, name: str, data: bytes) -> str:
    before = page.locator("[data-testid=agent-message]").count()
    path = tmp_path / name
    path.write_bytes(data)
    page.locator("[data-testid=attach-input]").set_input_files(str(path))
    return _wait_reply(page, before)


def test_complete_motor_journey_in_the_browser_then_staff_side(browser, live, tmp_path) -> None:
    a, server = live()
    seed_documents(a.db)
    ctx = browser.new_context(base_url=server.url)
    page = ctx.new_page()
    page.goto("/")
    assert page.get_by_role("heading", name="Tell us what happened").is_visible()
    assert "reference" in page.locator("[data-testid=runtime-footer]").inner_text()
    assert not page.locator("[data-testid=busy-indicator]").is_visible()
    reply = _send(
        page,
        "On 14 March 2026 at about 5:40 in the evening a van drove into the back "
        "of my car AB12 CDE at the lights.",
    )
    assert "policy number" in reply
    assert _send(page, POLICY).startswith("Which of these best describes")
    chips = page.locator("[data-testid=chips] button").all_inner_texts()
    assert chips == ["Collision", "Theft", "Windscreen", "Vandalism", "Something else"]
    assert "Where did it happen" in _chip(page, "Collision")
    assert "driven" in _send(page, "Park Road, Leeds")
    assert "another vehicle" in _chip(page, "Yes")
    assert "anyone hurt" in _chip(page, "Yes")
    reply = _chip(page, "No")
    assert reply == "Please upload a photo of the damage using the attach button."
    assert "Upload a photo of the damage" in page.locator("[data-testid=todo-bar]").inner_text()
    assert "repair quote" in _upload(page, tmp_path, "bumper.jpg", make_jpeg())
    assert "Upload your repair quote" in page.locator("[data-testid=todo-bar]").inner_text()
    reply = _upload(
        page, tmp_path, "quote.pdf", make_pdf("REPAIR QUOTE", "Quote date", "18 March 2026")
    )
    assert "Confirm these details" in reply
    rows = page.locator("[data-testid=fact-row]")
    assert rows.count() == 10
    time_row = rows.filter(has_text="Time of the incident").inner_text()
    assert "17:40" in time_row and "suggested" in time_row
    before = page.locator("[data-testid=agent-message]").count()
    page.locator("[data-testid=confirm-button]").click()
    reply = _wait_reply(page, before)
    number = page.locator("[data-testid=claim-number]").inner_text()
    assert re.fullmatch(r"NWF-\d{4}-\d{6}", number) and number in reply
    assert "confirmed" in page.locator("[data-testid=fact-row]").first.inner_text()
    # Talk to a person from the same workspace.
    before = page.locator("[data-testid=agent-message]").count()
    page.locator("[data-testid=talk-to-person]").click()
    assert "A member of our team will contact you" in _wait_reply(page, before)

    staff = browser.new_context(base_url=server.url).new_page()
    staff.goto("/staff/login")
    staff.locator("[data-testid=staff-username]").fill(STAFF_USER)
    staff.locator("[data-testid=staff-password]").fill(STAFF_PASSWORD)
    staff.locator("[data-testid=staff-sign-in]").click()
    staff.wait_for_selector("[data-testid=claim-queue]")
    staff.locator("[data-testid=queue-row]").get_by_role("link", name=number).click()
    staff.wait_for_selector("[data-testid=triage-class]")
    assert staff.locator("[data-testid=triage-class]").inner_text() == "standard"
    reasons = staff.locator("[data-testid=triage-reason]").all_inner_texts()
    assert [r.split()[0] for r in reasons] == ["vehicle_driveable", "third_party_involved"]
    assert staff.locator("[data-testid=review-signal]").inner_text() == "none"
    assert staff.locator("[data-testid=urgency]").inner_text() == "normal"
    checks = {
        r.locator("[data-testid=check-id]").inner_text(): r.locator(
            "[data-testid=check-outcome]"
        ).inner_text()
        for r in staff.locator("[data-testid=review-check]").all()
    }
    assert checks == {
        "receipt_after_incident": "not_applicable",
        "quote_before_incident": "clear",
        "prior_claims_12m": "clear",
        "policy_start_30d": "clear",
    }
    facts = {
        r.locator("[data-testid=fact-key]").inner_text(): (
            r.locator("[data-testid=fact-value]").inner_text(),
            r.locator("[data-testid=fact-state]").inner_text(),
        )
        for r in staff.locator("[data-testid=staff-fact]").all()
    }
    assert facts["incident_time"] == ("17:40", "confirmed")
    assert facts["vehicle_registration"] == ("AB12 CDE", "confirmed")
    assert staff.locator("[data-testid=staff-material]").count() == 2
    staff.goto("/staff/waiting")
    kinds = staff.locator("[data-testid=waiting-kind]").all_inner_texts()
    assert "contact_request" in kinds
    assert number in staff.locator("[data-testid=waiting-item]").first.inner_text()
    ctx.close()


def test_anonymous_customer_signs_in_mid_journey_and_keeps_the_conversation(
    browser, live, tmp_path
) -> None:
    a, server = live()
    seed_documents(a.db, account=True)
    page = browser.new_context(base_url=server.url).new_page()
    page.goto("/")
    _send(page, "On 14 March 2026 at 17:40 someone reversed into my car AB12 CDE.")
    _send(page, POLICY)
    _chip(page, "Collision")
    _send(page, "Tesco car park, Leeds")
    _chip(page, "Yes")
    _chip(page, "Yes")
    reply = _chip(page, "No")
    assert "sign in" in reply
    dialog = page.get_by_role("dialog")
    assert dialog.is_visible()
    assert page.locator("[data-testid=sign-in-prompt]").is_visible()
    customer_before = page.locator("[data-testid=customer-message]").all_inner_texts()
    page.locator("[data-testid=sign-in-email]").fill(CUSTOMER_EMAIL)
    page.locator("[data-testid=sign-in-password]").fill(CUSTOMER_PASSWORD)
    page.locator("[data-testid=sign-in-submit]").click()
    page.wait_for_selector(IDLE)
    assert page.locator("[data-testid=sign-in-prompt]").count() == 0
    assert page.locator("[data-testid=customer-message]").all_inner_texts() == customer_before
    assert "photo of the damage" in page.locator("[data-testid=agent-message]").last.inner_text()
    assert "repair quote" in _upload(page, tmp_path, "car.jpg", make_jpeg())


def test_wrong_type_and_oversized_uploads_show_an_error_and_store_nothing(
    browser, live, tmp_path
) -> None:
    a, server = live(max_upload_bytes=50_000)
    page = browser.new_context(base_url=server.url).new_page()
    page.goto("/")
    bad = tmp_path / "notes.txt"
    bad.write_text("not a photo")
    page.locator("[data-testid=attach-input]").set_input_files(str(bad))
    page.wait_for_selector(IDLE)
    error = page.get_by_role("alert").filter(has_text="cannot be uploaded")
    assert error.is_visible()
    assert page.locator("[data-testid=upload-error]").inner_text().startswith('"notes.txt"')
    big = tmp_path / "huge.jpg"
    big.write_bytes(make_jpeg() + b"\0" * 60_000)
    page.locator("[data-testid=attach-input]").set_input_files(str(big))
    page.wait_for_selector(IDLE)
    assert "too large" in page.locator("[data-testid=upload-error]").inner_text()
    assert page.locator("[data-testid=upload-error]").count() == 1
    assert a.db.evidence.count_documents({}) == 0
    assert page.locator("[data-testid=customer-message]").count() == 0


def test_controlled_runtime_shows_itself_in_the_footer(browser, live) -> None:
    a, server = live(runtime="controlled")
    page = browser.new_context(base_url=server.url).new_page()
    page.goto("/")
    assert "controlled" in page.locator("[data-testid=runtime-footer]").inner_text()
    reply = _send(page, "hello, I need to make a claim")
    assert reply == "Hello! Thank you for contacting us."
    assert page.locator("[data-testid=chips]").count() == 0
