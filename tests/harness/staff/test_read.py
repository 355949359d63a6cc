"""The staff side reached by a search box on another origin, read in the product's own words
through the vocabulary map; words it cannot map are recorded, not guessed."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.browser import launch_browser
from harness.profile import Profile
from harness.staff import StaffSession

from ..pages import RouteServer

pytestmark = [pytest.mark.asyncio]

SEARCH = """<!doctype html><html><body><form action="/find">
<input name="q" aria-label="Find a claim"><button>Go</button></form></body></html>"""
RESULTS = """<!doctype html><html><body><ul>
<li class="hit"><a href="/c/77">CLM-26-AAAAAA</a></li>
<li class="hit"><a href="/c/42">CLM-26-8F3K2Q</a></li></ul></body></html>"""
CASE = """<!doctype html><html><body><main><h1>CLM-26-8F3K2Q</h1>
<p>Band: <span class="band">Routine</span></p>
<ul><li class="why">Other party involved</li><li class="why">Car off the road</li></ul>
<p class="referral">No referral</p>
<table><tr class="chk"><td class="n">Quote dated before the loss</td><td class="o">Passed</td></tr>
<tr class="chk"><td class="n">Receipt dated after the loss</td><td class="o">Not relevant</td></tr>
</table>
<table><tr class="f"><td class="k">Date of loss</td><td class="v">12 March 2026</td>
<td class="s">Confirmed by customer</td></tr>
<tr class="f"><td class="k">Colour of car</td><td class="v">Blue</td>
<td class="s">Confirmed by customer</td></tr>
</table></main></body></html>"""


def _desk(path: str, headers) -> tuple[int, str, bytes]:
    if headers.get("X-Desk-Key") != "desk-key":
        return 401, "text/plain", b"no"
    pages = {"/": SEARCH, "/find?q=CLM-26-8F3K2Q": RESULTS, "/c/42": CASE}
    page = pages.get(path)
    return (200, "text/html", page.encode()) if page else (404, "text/plain", b"not here")


@pytest.fixture(scope="module")
def desk():
    d = RouteServer(_desk)
    yield d
    d.close()


def _profile(desk_url: str) -> Profile:
    return Profile.model_validate({
        "name": "desk", "base_url": "http://127.0.0.1:1", "staff_base_url": desk_url,
        "capabilities": {"customer_accounts": False, "waiting_list": False},
        "completion": {"busy": ".b"},
        "customer_screen": {"conversation": ".c", "agent_message": ".a",
                            "composer_input": "textarea", "composer_send": "button",
                            "claim_number_pattern": "CLM-\\d{2}-[A-Z0-9]{6}"},
        "staff": {"sign_in": "header", "header": "X-Desk-Key", "scheme": "",
                  "token_env": "DESK_KEY", "find": "search", "queue_path": "/",
                  "search_input": 'role=textbox[name="Find a claim"]',
                  "queue_row": "li.hit"},
        "staff_screen": {"triage_class": ".band", "reason": "li.why",
                         "review_signal": ".referral", "check_row": "tr.chk",
                         "check_id": ".n", "check_outcome": ".o", "fact_row": "tr.f",
                         "fact_key": ".k", "fact_value": ".v", "fact_state": ".s"},
        "staff_vocabulary": {
            "triage_class": {"Routine": "standard"},
            "reasons": {"Other party involved": "third_party_involved"},
            "review_signal": {"No referral": "none", "Refer": "review_required"},
            "check_ids": {"Quote dated before the loss": "quote_before_incident",
                          "Receipt dated after the loss": "receipt_after_incident"},
            "check_outcomes": {"Passed": "clear", "Not relevant": "not_applicable"},
            "fact_keys": {"Date of loss": "incident_date"},
            "fact_states": {"Confirmed by customer": "confirmed"}},
    })


@pytest.mark.browser
async def test_search_box_header_token_and_vocabulary(desk, tmp_path: Path, monkeypatch):
    from playwright.async_api import async_playwright

    monkeypatch.setenv("DESK_KEY", "desk-key")
    profile = _profile(desk.url)
    lane = profile.resolved_lanes()[0]
    assert lane.staff_base_url == desk.url
    async with async_playwright() as pw:
        browser = await launch_browser(pw)
        staff = StaffSession(browser, profile.staff_side(), lane)
        try:
            reading = await staff.read({}, "CLM-26-8F3K2Q", tmp_path)
        finally:
            await staff.close()
            await browser.close()
    assert reading.error is None and reading.found
    assert reading.triage_class == "standard"
    assert reading.reasons == ["third_party_involved"]
    assert reading.review_required is False
    assert {k: v.outcome for k, v in reading.checks.items()} == {
        "quote_before_incident": "clear", "receipt_after_incident": "not_applicable"}
    assert reading.facts["incident_date"].state == "confirmed"
    assert reading.unmapped == {"reasons": ["Car off the road"], "fact_keys": ["Colour of car"]}
    assert "waiting_list" in reading.not_shown and "urgency" in reading.not_shown
    assert (tmp_path / "screens" / "staff-01-claim.png").is_file()
