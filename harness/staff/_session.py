"""A lane's staff browser context, kept from trial to trial.

The staff side is read after every journey. Opening a browser context and signing in each
time is most of its cost, so a lane keeps one context (and a page per staff screen) for all
its trials, and signs in only when it has to. Whether a sign-in survives the reset before each
trial depends on the product: sessions kept by an identity service outside the reset data
survive (the reference app), a token header never needs one (Kestrel), sessions stored in the
reset database end with every reset. The session learns which from the product itself:

- it signs in once, and keeps the session over a reset when the credentials stay the same;
- a staff page that answers with the sign-in form (or 401/403) is met by signing in again
  (once, even when both staff pages meet it at the same time) and opening the page again;
- when a kept session turned out to have ended with the reset, the lane takes it that resets
  end sessions here, and from then on ``prepare`` signs in while the customer's journey runs,
  so the wait is not added to the trial.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from playwright.async_api import Browser, BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from claims_records import StaffReading

from ..browser import VIEWPORT, Camera, first_match
from ..profile import Lane, StaffSide, url
from ..reset import Credentials
from ._read import read_claim, read_waiting


class StaffSession:
    """One lane's staff context: a page for the claim, one for the waiting list.

    ``side``: the profile's staff side (``Profile.staff_side()``); ``headers``: the headers
    every page request carries (``[browser]``), the staff access's own added."""

    def __init__(self, browser: Browser, side: StaffSide, lane: Lane,
                 headers: dict[str, str] | None = None) -> None:
        self.browser = browser
        self.side = side
        self.lane = lane
        self.base = lane.staff_base_url or lane.base_url
        self.headers = {**(headers or {}), **self.side.access.headers()}
        self.context: BrowserContext | None = None
        self.pages: dict[str, tuple[Page, Camera]] = {}
        self.signed_in = False
        self._signing: asyncio.Task[None] | None = None
        self.creds: Credentials = {}
        self.sign_ins = 0
        """Sign-ins submitted by this session (kept sessions show as few)."""
        self.resets_end_sessions: bool | None = None
        """Learned from the product: None until a session has been kept over a reset."""
        self._signed_as: Credentials | None = None
        self._kept_over_reset = False
        self._lock = asyncio.Lock()

    @property
    def uses_form(self) -> bool:
        """Staff sign in through the profile's form."""
        return self.side.uses_form

    # ------------------------------------------------------------------ pages
    async def page_for(self, name: str) -> tuple[Page, Camera]:
        """The session's page (and its camera) for the staff screen ``name``, opened once."""
        if self.context is None:
            self.context = await self.browser.new_context(
                viewport=VIEWPORT, extra_http_headers=self.headers or None)
        got = self.pages.get(name)
        if got is None or got[0].is_closed():
            page = await self.context.new_page()
            got = self.pages[name] = (page, Camera(page))
        return got

    # ------------------------------------------------------------------ signing in
    def prepare(self, creds: Credentials) -> None:
        """The product was just reset with these staff credentials (form sign-in only): keep
        the session when it may have survived, else sign in again in the background."""
        self.creds = creds
        if not self.uses_form or not creds.get("username"):
            return
        self._forget_signing()
        if self.signed_in and creds == self._signed_as and self.resets_end_sessions is not True:
            self._kept_over_reset = True  # the first staff page tells whether it survived
            return
        self._kept_over_reset = False
        self.signed_in = False
        self._signing = asyncio.ensure_future(self._sign_in_quietly())

    async def _sign_in_quietly(self) -> None:
        try:
            page, _ = await self.page_for("claim")
            await self.sign_in(page)
        except PlaywrightError:
            self.signed_in = False  # read() tries again, and reports what goes wrong then

    async def sign_in(self, page: Page, on_form: bool = False) -> None:
        """Sign in through the profile's staff sign-in form (``on_form``: ``page`` already
        shows it) with the credentials last given."""
        si = self.side.sign_in
        assert si is not None
        timeout = self.side.timeout_ms
        if not on_form:
            await page.goto(url(self.base, si.path), wait_until="domcontentloaded",
                            timeout=timeout)
        await (await first_match(page, si.username, "staff user name field")).fill(
            self.creds.get("username", ""), timeout=timeout)
        await (await first_match(page, si.password, "staff password field")).fill(
            self.creds.get("password", ""), timeout=timeout)
        await (await first_match(page, si.submit, "staff sign-in control")).click(
            timeout=timeout)
        # signed in once the page after the form starts arriving; a staff page is opened next
        self.sign_ins += 1
        await page.wait_for_url(lambda u: si.path not in u, wait_until="commit",
                                timeout=timeout)
        self.signed_in = True
        self._signed_as = dict(self.creds)

    async def goto(self, page: Page, target: str) -> int | None:
        """Open ``target`` signed in: sign in first if this context is not, and again when the
        product answers with its sign-in form or refuses (401/403)."""
        timeout = self.side.timeout_ms
        if self.uses_form and not self.signed_in:
            await self._sign_in_once(page, self.sign_ins)
        signed = self.sign_ins
        if page.url == target:  # the same screen as last trial: loaded again
            resp = await page.reload(wait_until="domcontentloaded", timeout=timeout)
        else:
            resp = await page.goto(target, wait_until="domcontentloaded", timeout=timeout)
        status = resp.status if resp is not None else None
        si = self.side.sign_in
        if not self.uses_form or si is None:
            return status
        refused = si.path in page.url or status in (401, 403)
        if self._kept_over_reset:
            self._kept_over_reset = False
            self.resets_end_sessions = refused
        if refused:
            await self._sign_in_once(page, signed, on_form=si.path in page.url)
            resp = await page.goto(target, wait_until="domcontentloaded", timeout=timeout)
            status = resp.status if resp is not None else None
        return status

    async def _sign_in_once(self, page: Page, seen: int, on_form: bool = False) -> None:
        """Sign in on ``page`` unless another page signed in since ``seen`` sign-ins."""
        async with self._lock:
            if self.sign_ins == seen or not self.signed_in:
                await self.sign_in(page, on_form=on_form)

    @contextlib.asynccontextmanager
    async def signed_in_as(self, creds: Credentials) -> AsyncIterator[None]:
        """Work signed in as ``creds``: another person than the session's own signs in afresh
        and is signed out again after (the lane's next trial signs in as itself)."""
        own = self.creds
        other = creds.get("username") != own.get("username")
        if other and self.context is not None:
            await self.context.clear_cookies()
            self.signed_in = False
        self.creds = creds
        try:
            yield
        finally:
            if other:
                if self.context is not None:
                    with contextlib.suppress(PlaywrightError):
                        await self.context.clear_cookies()
                self.signed_in = False
                self.creds = own

    def _forget_signing(self) -> None:
        """Drop a background sign-in nobody waited for (the journey ended early)."""
        task, self._signing = self._signing, None
        if task is None:
            return
        if not task.done():
            task.cancel()
        elif not task.cancelled():
            task.exception()  # retrieved: the next read signs in and reports what fails

    # ------------------------------------------------------------------ reading
    async def read(self, creds: Credentials, claim_number: str | None,
                   folder: Path) -> StaffReading:
        """Open the claim and the waiting list (side by side, each in its own page), read
        and photograph them."""
        self.creds = creds
        if self._signing is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._signing
            self._signing = None
        try:
            jobs = [self._claim(claim_number, folder)]
            if self.side.waiting_list and self.side.screen.waiting_path:
                if self.uses_form and not self.signed_in:
                    # sign in once here rather than on both pages at the same time
                    await self._sign_in_once((await self.page_for("claim"))[0],
                                             self.sign_ins)
                jobs.append(self._waiting(folder))
            parts = await asyncio.gather(*jobs)
        except PlaywrightError as exc:
            await self.close()
            return StaffReading(claim_number=claim_number,
                                error=str(exc).splitlines()[0][:500])
        reading = _merge(parts)
        if reading.error:
            await self.close()
        return reading

    async def _claim(self, claim_number: str | None, folder: Path) -> StaffReading:
        page, camera = await self.page_for("claim")
        return await read_claim(page, camera, self.side, self.base, claim_number,
                                self.goto, folder)

    async def _waiting(self, folder: Path) -> StaffReading:
        page, camera = await self.page_for("waiting")
        return await read_waiting(page, camera, self.side, self.base, self.goto, folder)

    async def close(self) -> None:
        """Close the context (the next page opens a new one, signed out)."""
        self._forget_signing()
        context, self.context, self.pages = self.context, None, {}
        self.signed_in = self._kept_over_reset = False
        if context is not None:
            with contextlib.suppress(PlaywrightError):
                await context.close()


def _merge(parts: list[StaffReading]) -> StaffReading:
    """The claim page's reading with the waiting list page's added."""
    reading = parts[0]
    for part in parts[1:]:
        reading.waiting_list.extend(part.waiting_list)
        reading.not_shown.extend(n for n in part.not_shown if n not in reading.not_shown)
        reading.screenshots.extend(part.screenshots)
        for kind, words in part.unmapped.items():
            mine = reading.unmapped.setdefault(kind, [])
            mine.extend(w for w in words if w not in mine)
        if part.error and not reading.error:
            reading.error = part.error
    return reading
