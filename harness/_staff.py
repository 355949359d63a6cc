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
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from claims_records import StaffCheck, StaffFact, StaffReading, StaffWaitingItem

from ._camera import Camera
from ._marks import PageSelectors, first_match
from ._vocabulary import WordMap
from .profile import Profile, url

STAFF_JS = Path(__file__).with_name("_staff.js").read_text(encoding="utf-8")
CLAIM_REGIONS = ("triage_class", "reason", "urgency", "review_signal", "check_row", "check_id",
                 "check_outcome", "check_rests_on", "fact_row", "fact_key", "fact_value",
                 "fact_state")
WAITING_REGIONS = ("waiting_item", "waiting_kind", "waiting_text")
# Every region name a reading may list under not_shown when the product has no staff side.
ALL_STAFF_REGIONS = ("claim", "triage_class", "reasons", "urgency", "review_signal", "checks",
                     "facts", "waiting_list")
_SETTLE_S = 10.0
# Opens a staff URL on a page, signed in; returns the HTTP status (None when unknown).
Goto = Callable[[Page, str], Awaitable["int | None"]]


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

    async def settled(self, names: tuple[str, ...] = ()) -> dict[str, Any]:
        """Read the page once it has settled: for a client-rendered staff page, wait briefly
        until the profile's ready selector matches, or (without one) until one of ``names``
        shows. Returns the last read."""
        deadline = time.monotonic() + _SETTLE_S
        while True:
            raw = await self.read()
            if not self.ready and not names:
                return raw
            if (raw["ready"] if self.ready else any(raw.get(n) for n in names)):
                return raw
            if time.monotonic() >= deadline:
                return raw
            await self.page.wait_for_timeout(100)


async def _shot(camera: Camera, folder: Path, name: str, reading: StaffReading) -> None:
    path = folder / "screens" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(await camera.full_page())
    reading.screenshots.append(f"screens/{name}")


async def _click_and_follow(page: Page, target: Any, timeout: float) -> None:
    """Click, then wait for the page it opens (a row that expands in place keeps the URL)."""
    before = page.url
    await target.click(timeout=timeout)
    with contextlib.suppress(PlaywrightError):
        await page.wait_for_url(lambda u: u != before, timeout=_SETTLE_S * 1000)
    await page.wait_for_load_state("domcontentloaded")


async def open_claim(page: Page, profile: Profile, base: str, claim_number: str,
                     goto: Goto) -> bool:
    """Open the claim's page (``goto`` opens a staff URL signed in, and returns the HTTP
    status); False when the product does not show it."""
    access, ss = profile.staff, profile.staff_screen
    timeout = profile.completion.timeout_s * 1000
    if access.find == "url":
        status = await goto(page, url(base, ss.claim_path.format(claim_number=claim_number)))
        return status is not None and status < 400
    await goto(page, url(base, access.queue_path or "/"))
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


async def read_claim(page: Page, camera: Camera, profile: Profile, base: str,
                     claim_number: str | None, goto: Goto, folder: Path) -> StaffReading:
    """Open the claim, read it (and the waiting list when it is shown there), photograph it.
    Returns a partial reading whose fields the caller merges."""
    reading = StaffReading(claim_number=claim_number)
    words = WordMap(profile.staff_vocabulary)
    ss = profile.staff_screen
    try:
        if claim_number:
            reading.found = await open_claim(page, profile, base, claim_number, goto)
            if reading.found:
                reader = _Reader(page, profile, CLAIM_REGIONS + WAITING_REGIONS)
                raw = await reader.settled(("triage_class", "review_signal", "facts", "checks"))
                _build(raw, words, profile, reading)
                if not ss.waiting_path and profile.capabilities.waiting_list:
                    _build_waiting(raw, words, profile, reading)
            await _shot(camera, folder, "staff-01-claim.png", reading)
        else:
            reading.not_shown.append("claim")
        if not profile.capabilities.waiting_list or not ss.waiting_path and not claim_number:
            reading.not_shown.append("waiting_list")
    except PlaywrightError as exc:
        reading.error = str(exc).splitlines()[0][:500]
    reading.unmapped = words.unmapped
    return reading


async def read_waiting(page: Page, camera: Camera, profile: Profile, base: str, goto: Goto,
                       folder: Path) -> StaffReading:
    """Open the waiting list page, read and photograph it (a partial reading)."""
    reading = StaffReading()
    words = WordMap(profile.staff_vocabulary)
    try:
        await goto(page, url(base, profile.staff_screen.waiting_path))
        _build_waiting(await _Reader(page, profile, WAITING_REGIONS).settled(), words, profile,
                       reading)
        await _shot(camera, folder, "staff-02-waiting.png", reading)
    except PlaywrightError as exc:
        reading.error = str(exc).splitlines()[0][:500]
    reading.unmapped = words.unmapped
    return reading
