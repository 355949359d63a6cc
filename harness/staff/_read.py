"""Reading the staff side: what a claim's page and the waiting list show, in canonical codes.

What a staff page shows is read in one page call per page (``_staff.js``) and turned into
canonical codes through the profile's vocabulary; words it cannot map are recorded as
``unmapped``, never guessed.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from claims_records import StaffCheck, StaffFact, StaffReading, StaffWaitingItem

from ..browser import Camera, PageSelectors
from ..profile import StaffSide, url
from ._find import SETTLE_S, Goto, open_claim
from ._vocabulary import WordMap

STAFF_JS = Path(__file__).with_name("_staff.js").read_text(encoding="utf-8")
CLAIM_REGIONS = ("triage_class", "reason", "urgency", "review_signal", "check_row", "check_id",
                 "check_outcome", "check_rests_on", "fact_row", "fact_key", "fact_value",
                 "fact_state")
WAITING_REGIONS = ("waiting_item", "waiting_kind", "waiting_text")
# Every region name a reading may list under not_shown when the product has no staff side.
ALL_STAFF_REGIONS = ("claim", "triage_class", "reasons", "urgency", "review_signal", "checks",
                     "facts", "waiting_list")


def no_staff_side(claim_number: str | None) -> StaffReading:
    """The reading of a product whose profile says it has no staff side."""
    return StaffReading(claim_number=claim_number, available=False,
                        not_shown=list(ALL_STAFF_REGIONS),
                        error=None)


class _Reader:
    """Reads the named staff regions of one page in one call."""

    def __init__(self, page: Page, side: StaffSide, names: tuple[str, ...]) -> None:
        ss = side.screen
        self.page = page
        self.ready = list(side.access.ready)
        self.regions = {n: list(getattr(ss, n)) for n in names}
        every = [s for alts in self.regions.values() for s in alts] + self.ready
        self.selectors = PageSelectors(page, every)

    async def read(self) -> dict[str, Any]:
        await self.selectors.refresh()
        regions = {n: self.selectors.css(alts) for n, alts in self.regions.items()}
        empty: dict[str, list[str]] = {n: [] for n in (*CLAIM_REGIONS, *WAITING_REGIONS)
                                       if n not in regions}
        reading: dict[str, Any] = await self.page.evaluate(
            STAFF_JS, {"regions": {**empty, **regions}, "ready": self.selectors.css(self.ready)})
        return reading

    async def settled(self, names: tuple[str, ...] = ()) -> dict[str, Any]:
        """Read the page once it has settled: for a client-rendered staff page, wait briefly
        until the profile's ready selector matches, or (without one) until one of ``names``
        shows. Returns the last read."""
        deadline = time.monotonic() + SETTLE_S
        while True:
            raw = await self.read()
            if not self.ready and not names:
                return raw
            if (raw["ready"] if self.ready else any(raw.get(n) for n in names)):
                return raw
            if time.monotonic() >= deadline:
                return raw
            await self.page.wait_for_timeout(100)


def _shown(value: list[Any] | None, name: str, selector: list[str],
           reading: StaffReading) -> list[Any] | None:
    """What a region showed: None when the profile gives it no selector (the product lacks
    it: listed under not_shown); an empty list when the product has it but it holds nothing."""
    if not selector:
        reading.not_shown.append(name)
        return None
    return value or []


def _build(raw: dict[str, Any], words: WordMap, side: StaffSide,
           reading: StaffReading) -> None:
    """Turn a raw claim-page read into canonical fields of ``reading``."""
    ss = side.screen
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
        if side.vocabulary.review_signal:
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


def _build_waiting(raw: dict[str, Any], words: WordMap, side: StaffSide,
                   reading: StaffReading) -> None:
    """Turn a raw read of the waiting list into canonical items of ``reading``."""
    rows = _shown(raw["waiting"], "waiting_list", side.screen.waiting_item, reading)
    for row in rows or []:
        # every lane is reset before a trial, so everything waiting belongs to this journey
        kind = row["kind"] or ""
        if kind:
            kind = words.code("waiting_kinds", kind) or kind
        reading.waiting_list.append(StaffWaitingItem(kind=kind, text=row["text"] or row["_text"]))


async def read_claim(page: Page, camera: Camera, side: StaffSide, base: str,
                     claim_number: str | None, goto: Goto, folder: Path) -> StaffReading:
    """Open the claim, read it (and the waiting list when it is shown there), photograph it.
    Returns a partial reading whose fields the caller merges."""
    reading = StaffReading(claim_number=claim_number)
    words = WordMap(side.vocabulary)
    ss = side.screen
    try:
        if claim_number:
            reading.found = await open_claim(page, side, base, claim_number, goto)
            if reading.found:
                reader = _Reader(page, side, CLAIM_REGIONS + WAITING_REGIONS)
                raw = await reader.settled(("triage_class", "review_signal", "facts", "checks"))
                _build(raw, words, side, reading)
                if not ss.waiting_path and side.waiting_list:
                    _build_waiting(raw, words, side, reading)
            reading.screenshots.append(await camera.save_full_page(folder, "staff-01-claim.png"))
        else:
            reading.not_shown.append("claim")
        if not side.waiting_list or not ss.waiting_path and not claim_number:
            reading.not_shown.append("waiting_list")
    except PlaywrightError as exc:
        reading.error = str(exc).splitlines()[0][:500]
    reading.unmapped = words.unmapped
    return reading


async def read_waiting(page: Page, camera: Camera, side: StaffSide, base: str, goto: Goto,
                       folder: Path) -> StaffReading:
    """Open the waiting list page, read and photograph it (a partial reading)."""
    reading = StaffReading()
    words = WordMap(side.vocabulary)
    try:
        await goto(page, url(base, side.screen.waiting_path))
        _build_waiting(await _Reader(page, side, WAITING_REGIONS).settled(), words, side,
                       reading)
        reading.screenshots.append(await camera.save_full_page(folder, "staff-02-waiting.png"))
    except PlaywrightError as exc:
        reading.error = str(exc).splitlines()[0][:500]
    reading.unmapped = words.unmapped
    return reading
