"""The staff side after a journey: get in, find the claim, read it off the screen.

The staff side may live on another origin, want a form sign-in, a token header or nothing,
and show the claim at a URL, behind a search box or behind a queue row. What it shows is read
in one page call per page (``_staff.js``) and turned into canonical codes through the profile's
vocabulary; words it cannot map are recorded as ``unmapped``, never guessed.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from corpus.formats import StaffReading
from corpus.formats.run import StaffCheck, StaffFact, StaffWaitingItem

from ._browser import VIEWPORT
from ._camera import Camera
from ._marks import PageSelectors, first_match
from ._vocabulary import WordMap
from .profile import Lane, Profile, url

STAFF_JS = Path(__file__).with_name("_staff.js").read_text(encoding="utf-8")
CLAIM_REGIONS = ("triage_class", "reason", "urgency", "review_signal", "check_row", "check_id",
                 "check_outcome", "check_rests_on", "fact_row", "fact_key", "fact_value",
                 "fact_state")
WAITING_REGIONS = ("waiting_item", "waiting_kind", "waiting_text")
# Every region name a reading may list under not_shown when the product has no staff side.
ALL_STAFF_REGIONS = ("claim", "triage_class", "reasons", "urgency", "review_signal", "checks",
                     "facts", "waiting_list")
_SETTLE_S = 10.0


def staff_headers(profile: Profile) -> dict[str, str]:
    """The staff token header (header sign-in) from the environment; {} otherwise."""
    access = profile.staff
    if access.sign_in != "header":
        return {}
    token = os.environ.get(access.token_env, "")
    return {access.header: f"{access.scheme} {token}".strip()} if token else {}


def no_staff_side(claim_number: str | None) -> StaffReading:
    """The reading of a product whose profile says it has no staff side."""
    return StaffReading(claim_number=claim_number, available=False,
                        not_shown=list(ALL_STAFF_REGIONS),
                        error=None)


class _Reader:
    def __init__(self, page: Page, profile: Profile, names: tuple[str, ...]) -> None:
        ss = profile.staff_screen
        self.page = page
        self.ready = list(profile.staff.ready)
        self.regions = {n: list(getattr(ss, n)) for n in names}
        every = [s for alts in self.regions.values() for s in alts] + self.ready
        self.selectors = PageSelectors(page, every)

    async def read(self) -> dict[str, Any]:
        await self.selectors.refresh()
        regions = {n: self.selectors.css(alts) for n, alts in self.regions.items()}
        empty = {n: [] for n in (*CLAIM_REGIONS, *WAITING_REGIONS) if n not in regions}
        return await self.page.evaluate(STAFF_JS, {"regions": {**empty, **regions},
                                                   "ready": self.selectors.css(self.ready)})

    async def settle(self, names: tuple[str, ...] = ()) -> None:
        """Wait briefly for a client-rendered staff page: until the profile's ready selector
        matches, or (without one) until one of ``names`` shows."""
        if not self.ready and not names:
            return
        deadline = time.monotonic() + _SETTLE_S
        while time.monotonic() < deadline:
            raw = await self.read()
            if (raw["ready"] if self.ready else any(raw.get(n) for n in names)):
                return
            await self.page.wait_for_timeout(100)


async def _shot(camera: Camera, folder: Path, name: str, reading: StaffReading) -> None:
    path = folder / "screens" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(await camera.full_page())
    reading.screenshots.append(f"screens/{name}")


async def sign_in(page: Page, profile: Profile, base: str, creds: dict[str, Any],
                  on_form: bool = False) -> None:
    """Sign in through the staff sign-in form (``on_form``: the page already shows it)."""
    si = profile.staff_sign_in
    if profile.staff.sign_in != "form" or si is None:
        return
    timeout = profile.completion.timeout_s * 1000
    if not on_form:
        await page.goto(url(base, si.path), wait_until="domcontentloaded", timeout=timeout)
    await (await first_match(page, si.username, "staff user name field")).fill(
        creds.get("username", ""), timeout=timeout)
    await (await first_match(page, si.password, "staff password field")).fill(
        creds.get("password", ""), timeout=timeout)
    await (await first_match(page, si.submit, "staff sign-in control")).click(timeout=timeout)
    # signed in once the page after the form starts arriving; the claim is opened next
    await page.wait_for_url(lambda u: si.path not in u, wait_until="commit", timeout=timeout)


def _signed_out(page: Page, profile: Profile, status: int | None) -> bool:
    """Whether a staff page answered with the sign-in form (or refused) instead."""
    si = profile.staff_sign_in
    if profile.staff.sign_in != "form" or si is None:
        return False
    return si.path in page.url or status in (401, 403)


async def _click_and_follow(page: Page, target: Any, timeout: float) -> None:
    """Click, then wait for the page it opens (a row that expands in place keeps the URL)."""
    before = page.url
    await target.click(timeout=timeout)
    with contextlib.suppress(PlaywrightError):
        await page.wait_for_url(lambda u: u != before, timeout=_SETTLE_S * 1000)
    await page.wait_for_load_state("domcontentloaded")


async def _goto_signed_in(page: Page, profile: Profile, base: str, target: str,
                          creds: dict[str, Any], session: StaffSession) -> int | None:
    """Open ``target`` as signed-in staff: sign in first when this context has not, again
    when the product answers with its sign-in form (a reset may end staff sessions)."""
    timeout = profile.completion.timeout_s * 1000
    if not session.signed_in:
        await sign_in(page, profile, base, creds)
        session.signed_in = True
    resp = await page.goto(target, wait_until="domcontentloaded", timeout=timeout)
    status = resp.status if resp is not None else None
    if _signed_out(page, profile, status):
        await sign_in(page, profile, base, creds, on_form=profile.staff_sign_in is not None
                      and profile.staff_sign_in.path in page.url)
        resp = await page.goto(target, wait_until="domcontentloaded", timeout=timeout)
        status = resp.status if resp is not None else None
    return status


async def open_claim(page: Page, profile: Profile, base: str, claim_number: str,
                     creds: dict[str, Any], session: StaffSession) -> bool:
    """Open the claim's page; False when the product does not show it."""
    access, ss = profile.staff, profile.staff_screen
    timeout = profile.completion.timeout_s * 1000
    if access.find == "url":
        target = url(base, ss.claim_path.format(claim_number=claim_number))
        status = await _goto_signed_in(page, profile, base, target, creds, session)
        return status is not None and status < 400
    await _goto_signed_in(page, profile, base, url(base, access.queue_path or "/"), creds,
                          session)
    if access.find == "search":
        box = await first_match(page, access.search_input, "staff search box")
        await box.fill(claim_number, timeout=timeout)
        if access.search_submit:
            await (await first_match(page, access.search_submit, "staff search control")
                   ).click(timeout=timeout)
        else:
            await box.press("Enter")
    for selector in access.queue_row:
        row = page.locator(selector).filter(has_text=claim_number).first
        try:
            await row.wait_for(state="visible", timeout=_SETTLE_S * 1000)
        except PlaywrightError:
            continue
        link = row.locator("a, button").filter(has_text=claim_number)
        target = link.first if await link.count() else row
        await _click_and_follow(page, target, timeout)
        return True
    return False


def _shown(value: list[Any] | None, name: str, selector: list[str],
           reading: StaffReading) -> list[Any] | None:
    """What a region showed: None when the profile gives it no selector (the product lacks
    it: listed under not_shown); an empty list when the product has it but it holds nothing."""
    if not selector:
        reading.not_shown.append(name)
        return None
    return value or []


def _build(raw: dict[str, Any], words: WordMap, profile: Profile,
           reading: StaffReading) -> None:
    """Turn a raw claim-page read into canonical fields of ``reading``."""
    ss = profile.staff_screen
    triage = _shown(raw["triage_class"], "triage_class", ss.triage_class, reading)
    if triage:
        reading.triage_class = words.code("triage_class", triage[0])
    reasons = _shown(raw["reason"], "reasons", ss.reason, reading)
    if reasons:
        reading.reasons = [c for r in reasons if r if (c := words.code("reasons", r)) is not None]
    urgency = _shown(raw["urgency"], "urgency", ss.urgency, reading)
    if urgency:
        reading.urgency = urgency[0]
    signal = _shown(raw["review_signal"], "review_signal", ss.review_signal, reading)
    if signal:
        shown = signal[0]
        if profile.staff_vocabulary.review_signal:
            code = words.code("review_signal", shown)
            reading.review_required = None if code is None else code == "review_required"
        else:
            reading.review_required = shown.strip() in ss.review_required_values
    for row in _shown(raw["checks"], "checks", ss.check_row, reading) or []:
        if not row["id"] or row["outcome"] is None:
            continue
        cid = words.code("check_ids", row["id"])
        outcome = words.code("check_outcomes", row["outcome"]) or row["outcome"]
        if cid is not None:
            reading.checks[cid] = StaffCheck(outcome=outcome, rests_on=row["rests_on"] or "")
    for row in _shown(raw["facts"], "facts", ss.fact_row, reading) or []:
        if not row["key"]:
            continue
        key = words.code("fact_keys", row["key"])
        state = row["state"] or ""
        if state:
            state = words.code("fact_states", state) or state
        if key is not None:
            reading.facts[key] = StaffFact(value=row["value"] or "", state=state)


def _build_waiting(raw: dict[str, Any], words: WordMap, profile: Profile,
                   reading: StaffReading) -> None:
    rows = _shown(raw["waiting"], "waiting_list", profile.staff_screen.waiting_item, reading)
    for row in rows or []:
        # every lane is reset before a trial, so everything waiting belongs to this journey
        kind = row["kind"] or ""
        if kind:
            kind = words.code("waiting_kinds", kind) or kind
        reading.waiting_list.append(StaffWaitingItem(kind=kind, text=row["text"] or row["_text"]))


class StaffSession:
    """One lane's staff browser context, kept from trial to trial.

    Opened on first use; signed in once and again only when the product shows its sign-in
    form (a product whose reset ends staff sessions, like the reference app, is signed into
    on every trial; one whose sessions survive, or that takes a token header, is not). After
    a browser error the context is closed and the next trial starts a new one.
    """

    def __init__(self, browser: Browser, profile: Profile, lane: Lane,
                 headers: dict[str, str] | None = None) -> None:
        self.browser = browser
        self.profile = profile
        self.lane = lane
        self.headers = {**(headers or {}), **staff_headers(profile)}
        self.context: BrowserContext | None = None
        self.page: Page | None = None
        self.camera: Camera | None = None
        self.signed_in = False

    async def _open(self) -> tuple[Page, Camera]:
        if self.context is None or self.page is None or self.page.is_closed():
            await self.close()
            self.context = await self.browser.new_context(
                viewport=VIEWPORT, extra_http_headers=self.headers or None)
            self.page = await self.context.new_page()
            self.camera = Camera(self.page)
        assert self.camera is not None
        return self.page, self.camera

    async def read(self, creds: dict[str, Any], claim_number: str | None,
                   folder: Path) -> StaffReading:
        """Get in, open the claim and the waiting list, and read what they show."""
        try:
            page, camera = await self._open()
        except PlaywrightError as exc:
            await self.close()
            return StaffReading(claim_number=claim_number,
                                error=str(exc).splitlines()[0][:500])
        reading = await _read(page, camera, self, creds, claim_number, folder)
        if reading.error:
            await self.close()
        return reading

    async def close(self) -> None:
        context, self.context, self.page, self.camera = self.context, None, None, None
        self.signed_in = False
        if context is not None:
            with contextlib.suppress(PlaywrightError):
                await context.close()


async def _read(page: Page, camera: Camera, session: StaffSession, creds: dict[str, Any],
                claim_number: str | None, folder: Path) -> StaffReading:
    profile, lane = session.profile, session.lane
    reading = StaffReading(claim_number=claim_number)
    base = lane.staff_base_url or lane.base_url
    words = WordMap(profile.staff_vocabulary)
    ss = profile.staff_screen
    try:
        if claim_number:
            reading.found = await open_claim(page, profile, base, claim_number, creds, session)
            if reading.found:
                reader = _Reader(page, profile, CLAIM_REGIONS + WAITING_REGIONS)
                await reader.settle(("triage_class", "review_signal", "facts", "checks"))
                raw = await reader.read()
                _build(raw, words, profile, reading)
                if not ss.waiting_path and profile.capabilities.waiting_list:
                    _build_waiting(raw, words, profile, reading)
            await _shot(camera, folder, "staff-01-claim.png", reading)
        else:
            reading.not_shown.append("claim")
        if not profile.capabilities.waiting_list:
            reading.not_shown.append("waiting_list")
        elif ss.waiting_path:
            await _goto_signed_in(page, profile, base, url(base, ss.waiting_path), creds,
                                  session)
            reader = _Reader(page, profile, WAITING_REGIONS)
            await reader.settle()
            _build_waiting(await reader.read(), words, profile, reading)
            await _shot(camera, folder, "staff-02-waiting.png", reading)
        elif not claim_number:
            reading.not_shown.append("waiting_list")
    except PlaywrightError as exc:
        reading.error = str(exc).splitlines()[0][:500]
    reading.unmapped = words.unmapped
    return reading
