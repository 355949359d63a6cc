"""Driving the customer screen through a profile: wait, act, upload, screenshot.

Decisions are taken only from what ``_screen`` reads off the page (visible text); the network
is recorded in the HAR and never consulted.
"""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Browser, Frame, Locator, Page, Playwright, ViewportSize
from playwright.async_api import Error as PlaywrightError

from claims_records import ProductError, ScreenReading

from ..profile import CustomerSide, url
from ._camera import Camera
from ._launch import BrowserChoice, open_browser
from ._marks import first_match
from ._screen import Probe, Reading, Screen

VIEWPORT: ViewportSize = {"width": 1280, "height": 900}
ACTION_TIMEOUT_MS = 10000
# A chip the screen just showed is clicked at once; if that does not work within this time,
# every kind of control is looked for (with ACTION_TIMEOUT_MS).
_SHOWN_CLICK_TIMEOUT_MS = 3000
# How an upload ended, as recorded in the journey.
UPLOAD_ACKNOWLEDGED = "acknowledged"
UPLOAD_REFUSED = "refused"
UPLOAD_NOT_ACKNOWLEDGED = "upload_not_acknowledged"


async def launch_browser(playwright: Playwright, executable: str | None = None,
                         headed: bool = False) -> Browser:
    """Launch a local Chromium headless (or headed); ``_launch`` knows every other way."""
    browser, _ = await open_browser(playwright, BrowserChoice(executable=executable,
                                                              headed=headed))
    return browser


def slug(text: str, limit: int = 24) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:limit].strip("-") or "step"


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


class CustomerPage:
    """The customer's browser tab, read and driven through a profile's customer side.

    ``page`` is the tab (navigation, screenshots); ``view`` is where the chat lives: the page
    itself, or, with ``customer_screen.frame``, the frame of the iframe holding a chat
    widget, found again each time the start page is opened."""

    def __init__(self, page: Page, side: CustomerSide, base_url: str) -> None:
        self.page = page
        self.view: Page | Frame = page
        self.side = side
        self.base_url = base_url
        self.sc = side.screen
        self.completion = side.completion
        sc, c = side.screen, side.completion
        self.screen = Screen(
            page, {**side.regions(), "sign_in_submit": list(sc.sign_in_submit)},
            {"selector": list(c.selector), "attribute": c.attribute, "value": c.value,
             "busy": list(c.busy), "enabled": list(c.enabled), "stable_ms": c.stable_ms},
            list(c.ready), sc.claim_number_pattern)
        self.camera = Camera(page)

    async def _locator(self, alternatives: list[str], what: str) -> Locator:
        return await first_match(await self.chat(), alternatives, what)

    async def chat(self) -> Page | Frame:
        """Where the chat lives (``view``); a frame the page has replaced is found again."""
        if isinstance(self.view, Frame) and self.view.is_detached():
            await self._bind_frame()
        return self.view

    async def _bind_frame(self) -> None:
        """With ``customer_screen.frame``: wait for the iframe holding the chat and read and
        drive the chat inside it from now on."""
        alternatives = self.sc.frame
        if not alternatives:
            return
        shown = " | ".join(alternatives)
        timeout = self.completion.timeout_s * 1000
        try:
            element = await first_match(self.page, alternatives, "chat frame")
            handle = await element.element_handle(timeout=timeout)
            frame = await handle.content_frame()
            if frame is None:
                raise ProductError("customer_screen.frame matches an element that is no "
                                   "frame", url=self.page.url, field="customer_screen.frame",
                                   selector=shown)
            await frame.wait_for_load_state("domcontentloaded", timeout=timeout)
        except PlaywrightError as exc:
            raise ProductError("the chat's frame did not show on the page", url=self.page.url,
                               field="customer_screen.frame", selector=shown,
                               error=_first_line(exc)) from exc
        self.view = frame
        self.screen.rebind(frame)

    # ------------------------------------------------------------------ navigation
    async def goto(self, path: str) -> None:
        target = url(self.base_url, path)
        try:
            resp = await self.page.goto(target, wait_until="domcontentloaded",
                                        timeout=self.completion.timeout_s * 1000)
        except PlaywrightError as exc:
            raise ProductError("the product did not load", url=target,
                               error=_first_line(exc)) from exc
        if resp is not None and resp.status >= 500:
            raise ProductError("the product answered with a server error", url=target,
                               status=resp.status)

    async def open_start(self) -> None:
        await self.goto(self.sc.start_path)
        await self._bind_frame()

    async def sign_in_page(self, username: str, password: str) -> None:
        """Sign in on the account sign-in page, then open the start page."""
        si = self.side.sign_in
        if si is None:
            raise ProductError("the profile has no customer sign-in page")
        await self.goto(si.path)
        await self._fill_submit(si.username, si.password, si.submit, username, password,
                                self.page)
        try:
            # the session is set once the page after sign-in starts arriving; the start page
            # is opened next anyway, so that page need not finish loading
            await self.page.wait_for_url(lambda u: si.path not in u, wait_until="commit",
                                         timeout=self.completion.timeout_s * 1000)
        except PlaywrightError as exc:
            raise ProductError("account sign-in did not leave the sign-in page",
                               url=self.page.url) from exc
        await self.open_start()

    async def _fill_submit(self, user_sel: list[str], pw_sel: list[str], submit_sel: list[str],
                           username: str, password: str, where: Page | Frame) -> None:
        timeout = self.completion.timeout_s * 1000
        try:
            await (await first_match(where, user_sel, "user name field")).fill(
                username, timeout=timeout)
            await (await first_match(where, pw_sel, "password field")).fill(
                password, timeout=timeout)
            await (await first_match(where, submit_sel, "sign-in control")).click(
                timeout=timeout)
        except PlaywrightError as exc:
            raise ProductError("sign-in controls missing or unusable", url=self.page.url,
                               error=_first_line(exc)) from exc

    # ------------------------------------------------------------------ waiting
    async def wait_first(self) -> Reading:
        """Wait until a freshly opened page is ready and any greeting has finished; the screen
        as it is then."""
        started = time.monotonic()
        await self.chat()
        reading = await self.screen.wait(None, self.completion.timeout_s, ready=True)
        if reading is None:
            raise ProductError("the page never became ready (ready selector or completion)",
                               url=self.page.url, waited_s=round(time.monotonic() - started, 1))
        return reading

    async def wait_reply(self, prev: Probe | None) -> tuple[float, bool, Reading]:
        """Wait for a new reply after ``prev`` (the state before the action) to complete.

        Returns (seconds waited, whether a new reply appeared, the screen read in the page the
        moment the wait ended). A new reply that has appeared within ``new_reply_timeout_s``
        (still streaming, or its busy indicator still up) is waited for until it completes,
        up to ``timeout_s`` in all. Without one, it checks the product is alive and waits
        only for completion. Raises ``ProductError`` when the reply never completes.
        """
        c = self.completion
        started = time.monotonic()
        await self.chat()

        def remaining() -> float:
            return max(0.5, c.timeout_s - (time.monotonic() - started))

        busy = False
        if prev is not None:
            reading = await self.screen.wait(prev, c.new_reply_timeout_s)
            if reading is None:
                appeared, busy = await self.screen.appeared(prev)
                if appeared:
                    reading = await self.screen.wait(prev, remaining())
                    if reading is None:
                        raise ProductError("the reply never completed", url=self.page.url,
                                           waited_s=round(time.monotonic() - started, 1))
            if reading is not None:
                return time.monotonic() - started, True, reading
            await self.check_alive()
        reading = await self.screen.wait(None, remaining())
        if reading is not None:
            reading.acted_while_busy = reading.acted_while_busy or busy
            return time.monotonic() - started, False, reading
        raise ProductError("the reply never completed", url=self.page.url,
                           waited_s=round(time.monotonic() - started, 1))

    async def baseline(self) -> Probe:
        """The reply state right before an action, once the product is idle.

        Acting while the product still works would let a reply that was on its way count as
        the answer to this action. An action that follows the screen's reading at once (a
        scripted customer) takes the reading as its baseline, and the page records the state
        at the action itself, which the next wait compares with (``Probe.at_action``); a
        slower one is probed here, and waits for a busy product.
        """
        quick = self.screen.quick_baseline()
        if quick is not None:
            return quick
        await self.chat()
        probe = await self.screen.probe()
        if probe.complete:
            return probe
        if await self.screen.wait(None, self.completion.timeout_s) is None:
            raise ProductError("the product stayed busy; the customer could not act",
                               url=self.page.url)
        return await self.screen.probe()

    async def check_alive(self) -> None:
        """A liveness probe (classifies a crash; never a decision)."""
        target = url(self.base_url, self.side.alive_path)
        try:
            async with httpx.AsyncClient(timeout=3.0, trust_env=False) as client:
                resp = await client.get(target)
        except httpx.HTTPError as exc:
            raise ProductError("the product stopped answering", url=target,
                               error=type(exc).__name__) from exc
        if resp.status_code >= 500:
            raise ProductError("the product answers with server errors", url=target,
                               status=resp.status_code)

    # ------------------------------------------------------------------ reading
    async def read(self) -> Reading:
        await self.chat()
        return await self.screen.read()

    def handoff(self, screen: ScreenReading) -> bool:
        return any(re.search(p, screen.latest_reply) for p in self.sc.handoff_patterns)

    async def shoot(self) -> bytes:
        """A screenshot of the viewport as it is now (PNG bytes). Taken after a wait, which
        leaves the conversation scrolled to its latest reply; it may run while the screen
        is read (reading changes nothing)."""
        try:
            return await self.camera.viewport()
        except PlaywrightError as exc:
            raise ProductError("screenshot failed", url=self.page.url,
                               error=_first_line(exc)) from exc

    # ------------------------------------------------------------------ acting
    async def say(self, text: str) -> Probe:
        """Type ``text`` and send it; returns the reply state just before sending.

        Filling may wait for a composer the product still keeps disabled; the baseline is
        taken after that, so a reply that arrives meanwhile is not taken for the answer.
        """
        try:
            box = await self._locator(self.sc.composer_input, "composer")
            await box.fill(text, timeout=ACTION_TIMEOUT_MS)
            send = await self._locator(self.sc.composer_send, "send control")
            base = await self.baseline()
            await send.click(timeout=ACTION_TIMEOUT_MS)
        except PlaywrightError as exc:
            raise ProductError("the composer is missing or unusable", url=self.page.url,
                               error=_first_line(exc)) from exc
        return base

    async def click(self, label: str, screen: ScreenReading | None = None) -> Probe | None:
        """Click the visible control labelled ``label``; returns the reply state just before
        the click, or None when there is no such control.

        A label the screen just read (``screen``) shows among the chips is clicked as a chip
        straight away; otherwise each kind of control is looked for in turn (chips, buttons,
        links), visible ones only.
        """
        exact = re.compile(r"^\s*" + re.escape(label) + r"\s*$")
        view = await self.chat()
        chips = [view.locator(s).filter(has_text=exact) for s in self.sc.chips]
        if screen is not None and chips and label.strip() in screen.chips:
            shown = chips[0]
            for other in chips[1:]:
                shown = shown.or_(other)
            base = await self.baseline()
            with contextlib.suppress(PlaywrightError):
                await shown.filter(visible=True).first.click(timeout=_SHOWN_CLICK_TIMEOUT_MS)
                return base
        candidates = list(chips)
        candidates += [view.get_by_role("button", name=label, exact=True),
                       view.get_by_role("link", name=label, exact=True)]
        for loc in candidates:
            shown = loc.filter(visible=True)
            try:
                if not await shown.count():
                    continue
                base = await self.baseline()
                await shown.first.click(timeout=ACTION_TIMEOUT_MS)
                return base
            except PlaywrightError:
                continue
        return None

    async def upload(self, path: Path) -> tuple[str, Probe]:
        """Attach ``path`` and wait until the product shows it (or an upload error).

        Returns how it ended — ``UPLOAD_ACKNOWLEDGED``, ``UPLOAD_REFUSED`` (the product
        showed an upload error) or, after one retry, ``UPLOAD_NOT_ACKNOWLEDGED`` — and the
        reply state just before the first attempt.
        """
        base = await self.baseline()
        for _attempt in range(2):
            before = await self.screen.upload_marks(path.name)
            try:
                attach = await self._locator(self.sc.attach_input, "attach control")
                await attach.set_input_files(str(path), timeout=ACTION_TIMEOUT_MS)
                if self.sc.send_after_attach:
                    send = await self._locator(self.sc.composer_send, "send control")
                    await send.click(timeout=ACTION_TIMEOUT_MS)
            except PlaywrightError as exc:
                raise ProductError("the attach control is missing or unusable",
                                   url=self.page.url, error=_first_line(exc)) from exc
            outcome = await self._upload_outcome(path.name, before)
            if outcome is not None:
                return outcome, base
        return UPLOAD_NOT_ACKNOWLEDGED, base

    async def _upload_outcome(self, name: str, before: dict[str, Any]) -> str | None:
        outcome = await self.screen.wait_upload(name, before, self.sc.upload_timeout_s)
        if outcome is None:
            return None
        return {"acknowledged": UPLOAD_ACKNOWLEDGED, "refused": UPLOAD_REFUSED}.get(outcome)

    async def sign_in_prompt(self, username: str, password: str) -> None:
        """Sign in through the in-conversation prompt; waits until the prompt has gone."""
        sc = self.sc
        await self._fill_submit(sc.sign_in_username, sc.sign_in_password, sc.sign_in_submit,
                                username, password, await self.chat())
        try:
            prompt = await self._locator(sc.sign_in_prompt, "sign-in prompt")
            await prompt.wait_for(state="hidden", timeout=self.completion.timeout_s * 1000)
        except PlaywrightError as exc:
            raise ProductError("the sign-in prompt did not close", url=self.page.url) from exc
