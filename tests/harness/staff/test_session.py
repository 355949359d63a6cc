"""A lane's staff session signs in only when it has to: it keeps a session over resets that
leave it alone, signs in again when the product shows its sign-in form, and learns when every
reset ends sessions (then it signs in while the journey runs)."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import pytest
from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from claims_dev import BackgroundServer
from harness.browser import launch_browser
from harness.profile import Profile
from harness.staff import StaffSession

pytestmark = [pytest.mark.browser, pytest.mark.asyncio]

CREDS = {"username": "desk", "password": "desk-pass"}
LOGIN = """<!doctype html><html><body><form method="post" action="/login">
<input name="username" id="u"><input name="password" id="p" type="password">
<button id="go">Sign in</button></form></body></html>"""
CLAIM = """<!doctype html><html><body><h1>{n}</h1><p class="band">standard</p>
<div style="height:1400px"></div><p class="signal">none</p></body></html>"""
WAITING = """<!doctype html><html><body><ul><li class="w"><span class="k">question</span>
<span class="t">Can I get a courtesy car?</span></li></ul></body></html>"""


class Desk:
    """A staff desk whose sessions live in memory; ``reset(end_sessions)`` stands for the
    harness's reset before a trial."""

    def __init__(self) -> None:
        self.sessions: set[str] = set()
        self.sign_ins = 0
        self.refused = 0
        app = FastAPI()

        def signed(request: Request) -> bool:
            ok = request.cookies.get("sid") in self.sessions
            self.refused += not ok
            return ok

        @app.get("/login", response_class=HTMLResponse)
        def login_page() -> str:
            return LOGIN

        @app.post("/login")
        def login(username: str = Form(""), password: str = Form("")) -> Response:
            if {"username": username, "password": password} != CREDS:
                return HTMLResponse(LOGIN, status_code=401)
            self.sign_ins += 1
            token = secrets.token_urlsafe(8)
            self.sessions.add(token)
            resp = RedirectResponse("/home", status_code=303)
            resp.set_cookie("sid", token)
            return resp

        @app.get("/home", response_class=HTMLResponse)
        def home() -> str:
            return "<p>Signed in</p>"

        @app.get("/claims/{n}")
        def claim(n: str, request: Request) -> Response:
            if not signed(request):
                return RedirectResponse("/login", status_code=303)
            return HTMLResponse(CLAIM.format(n=n))

        @app.get("/waiting")
        def waiting(request: Request) -> Response:
            if not signed(request):
                return RedirectResponse("/login", status_code=303)
            return HTMLResponse(WAITING)

        self.server = BackgroundServer(app).start()

    def reset(self, end_sessions: bool) -> None:
        if end_sessions:
            self.sessions.clear()


@pytest.fixture(scope="module")
def desk():
    d = Desk()
    yield d
    d.server.stop()


def _profile(url: str) -> Profile:
    return Profile.model_validate({
        "name": "desk", "base_url": url,
        "capabilities": {"customer_accounts": False},
        "completion": {"busy": ".b"},
        "customer_screen": {"conversation": ".c", "agent_message": ".a",
                            "composer_input": "textarea", "composer_send": "button",
                            "claim_number_pattern": "CLM-\\d{2}-[A-Z0-9]{6}"},
        "staff": {"sign_in": "form", "find": "url"},
        "staff_sign_in": {"path": "/login", "username": "#u", "password": "#p",
                          "submit": "#go"},
        "staff_screen": {"claim_path": "/claims/{claim_number}", "waiting_path": "/waiting",
                         "triage_class": ".band", "review_signal": ".signal",
                         "waiting_item": "li.w", "waiting_kind": ".k", "waiting_text": ".t"},
    })


async def _trials(desk: Desk, tmp_path: Path, ends: list[bool]) -> tuple[StaffSession, list]:
    """One staff session over several trials: reset (ending sessions or not), prepare, a
    journey's worth of waiting, read."""
    from playwright.async_api import async_playwright

    profile = _profile(desk.server.url)
    readings = []
    async with async_playwright() as pw:
        browser = await launch_browser(pw)
        staff = StaffSession(browser, profile.staff_side(), profile.resolved_lanes()[0])
        try:
            for n, end in enumerate(ends):
                desk.reset(end)
                staff.prepare(CREDS)
                await asyncio.sleep(0.3)  # the customer's journey
                readings.append(await staff.read(CREDS, "CLM-26-AAAAA" + str(n),
                                                 tmp_path / str(n)))
        finally:
            await staff.close()
            await browser.close()
    return staff, readings


def _complete(readings: list, tmp_path: Path) -> None:
    for n, r in enumerate(readings):
        assert r.error is None and r.found, r
        assert r.triage_class == "standard" and r.review_required is False
        assert [w.text for w in r.waiting_list] == ["Can I get a courtesy car?"]
        assert r.screenshots == ["screens/staff-01-claim.png", "screens/staff-02-waiting.png"]
        assert all((tmp_path / str(n) / s).is_file() for s in r.screenshots)


async def test_a_session_that_survives_resets_is_signed_into_once(desk, tmp_path: Path):
    before = desk.sign_ins
    staff, readings = await _trials(desk, tmp_path, [True, False, False, False])
    _complete(readings, tmp_path)
    assert desk.sign_ins - before == 1 and staff.sign_ins == 1
    assert staff.resets_end_sessions is False


async def test_resets_that_end_sessions_are_met_by_signing_in_again(desk, tmp_path: Path):
    before, refused = desk.sign_ins, desk.refused
    staff, readings = await _trials(desk, tmp_path, [True, True, True, True])
    _complete(readings, tmp_path)
    # one sign-in per trial, never two for the two staff pages
    assert desk.sign_ins - before == 4 and staff.sign_ins == 4
    assert staff.resets_end_sessions is True
    # only the trial that found out met the sign-in form (on one or both pages); after it,
    # the session signs in while the journey runs
    assert 1 <= desk.refused - refused <= 2


async def test_a_session_ended_once_is_signed_into_again(desk, tmp_path: Path):
    before = desk.sign_ins
    staff, readings = await _trials(desk, tmp_path, [True, False, True, False])
    _complete(readings, tmp_path)
    # the first trial, the third (which found its session ended), and the fourth: from the
    # third on, the lane takes it that resets end sessions and signs in while journeys run
    assert desk.sign_ins - before == 3
    assert staff.resets_end_sessions is True
