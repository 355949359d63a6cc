"""Driving the customer screen through a profile: read regions, wait, act, screenshot.

Decisions are taken only from what this module reads off the page (visible text); the
network is recorded in the HAR and never consulted.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from corpus.errors import ProductError
from corpus.formats import ScreenReading

from ._profile import Profile, url

SCREEN_JS = (Path(__file__).with_name("_screen.js")).read_text(encoding="utf-8")
CHROMIUM_ENV = "CLAIMS_HARNESS_CHROMIUM"
DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1280, "height": 900}

_WAIT_JS = """([sel, attr, val, agentSel, prev]) => {
  const c = document.querySelector(sel);
  if (!c || c.getAttribute(attr) !== val) return false;
  return prev === null || document.querySelectorAll(agentSel).length > prev;
}"""


def chromium_executable(option: str | None = None) -> str:
    """The Chromium to launch: the option, else $CLAIMS_HARNESS_CHROMIUM, else Debian's."""
    return option or os.environ.get(CHROMIUM_ENV) or DEFAULT_CHROMIUM


async def launch_browser(playwright: Any, executable: str | None = None, headed: bool = False):
    """Launch Chromium headless (or headed) with the harness's fixed arguments."""
    path = chromium_executable(executable)
    if not Path(path).exists():
        from corpus.errors import HarnessError

        raise HarnessError("Chromium not found", field="browser_executable", path=path)
    return await playwright.chromium.launch(
        executable_path=path, headless=not headed, args=CHROMIUM_ARGS
    )


@dataclass
class Reading:
    """One read of the screen: the customer-visible part plus bookkeeping."""

    screen: ScreenReading
    agent_texts: list[str]
    agent_count: int
    problem: bool = False


def slug(text: str, limit: int = 24) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:limit].strip("-") or "step"


class CustomerPage:
    """The customer's browser tab, read and driven through the profile's selectors."""

    def __init__(self, page: Page, profile: Profile, base_url: str) -> None:
        self.page = page
        self.profile = profile
        self.base_url = base_url
        self.sc = profile.customer_screen
        self.completion = profile.completion
        self._pattern = re.compile(self.sc.claim_number_pattern)
        self._selectors = self.sc.model_dump(exclude={"handoff_patterns", "claim_number_pattern",
                                                      "start_path"})

    # ------------------------------------------------------------------ navigation
    async def goto(self, path: str) -> None:
        target = url(self.base_url, path)
        try:
            resp = await self.page.goto(target, wait_until="domcontentloaded",
                                        timeout=self.completion.timeout_s * 1000)
        except PlaywrightError as exc:
            raise ProductError("the product did not load", url=target,
                               error=str(exc).splitlines()[0]) from exc
        if resp is not None and resp.status >= 500:
            raise ProductError("the product answered with a server error", url=target,
                               status=resp.status)

    async def sign_in_page(self, username: str, password: str) -> None:
        """Sign in on the account sign-in page, then open the start page."""
        si = self.profile.customer_sign_in
        await self.goto(si.path)
        await self._fill_submit(si.username, si.password, si.submit, username, password)
        try:
            await self.page.wait_for_url(lambda u: si.path not in u,
                                         timeout=self.completion.timeout_s * 1000)
        except PlaywrightError as exc:
            raise ProductError("account sign-in did not leave the sign-in page",
                               url=self.page.url) from exc
        await self.goto(self.sc.start_path)

    async def _fill_submit(self, user_sel: str, pw_sel: str, submit_sel: str, username: str,
                           password: str) -> None:
        timeout = self.completion.timeout_s * 1000
        try:
            await self.page.locator(user_sel).first.fill(username, timeout=timeout)
            await self.page.locator(pw_sel).first.fill(password, timeout=timeout)
            await self.page.locator(submit_sel).first.click(timeout=timeout)
        except PlaywrightError as exc:
            raise ProductError("sign-in controls missing or unusable", url=self.page.url,
                               error=str(exc).splitlines()[0]) from exc

    # ------------------------------------------------------------------ waiting
    async def wait_reply(self, prev_count: int | None) -> tuple[float, bool]:
        """Wait for the completion signal (and a new agent reply when ``prev_count`` is given).

        Returns (seconds waited, whether a new reply appeared). Raises ``ProductError`` when
        the reply never completes.
        """
        c = self.completion
        started = time.monotonic()
        args = [c.selector, c.attribute, c.value, self.sc.agent_message, prev_count]
        first_timeout = c.new_reply_timeout_s if prev_count is not None else c.timeout_s
        try:
            await self.page.wait_for_function(_WAIT_JS, arg=args, timeout=first_timeout * 1000,
                                              polling=50)
            return time.monotonic() - started, True
        except PlaywrightError as exc:
            if prev_count is None:
                raise ProductError("the reply never completed", url=self.page.url,
                                   waited_s=round(time.monotonic() - started, 1)) from exc
        await self.check_alive()
        remaining = max(0.5, c.timeout_s - (time.monotonic() - started))
        args[-1] = None
        try:
            await self.page.wait_for_function(_WAIT_JS, arg=args, timeout=remaining * 1000,
                                              polling=100)
        except PlaywrightError as exc:
            raise ProductError("the reply never completed", url=self.page.url,
                               waited_s=round(time.monotonic() - started, 1)) from exc
        return time.monotonic() - started, False

    async def check_alive(self) -> None:
        """A liveness probe of the runtime report (classifies a crash; never a decision)."""
        target = url(self.base_url, self.profile.runtime.path)
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
        try:
            raw = await self.page.evaluate(SCREEN_JS, self._selectors)
        except PlaywrightError as exc:
            raise ProductError("the page could not be read", url=self.page.url,
                               error=str(exc).splitlines()[0]) from exc
        texts = raw.pop("agent_texts")
        count = raw.pop("agent_count")
        problem = raw.pop("problem")
        claim_text = raw.pop("claim_number_text")
        match = self._pattern.search(claim_text) if claim_text else None
        raw["claim_number"] = match.group(0) if match else None
        return Reading(screen=ScreenReading.model_validate(raw), agent_texts=texts,
                       agent_count=count, problem=problem)

    def handoff(self, screen: ScreenReading) -> bool:
        return any(re.search(p, screen.latest_reply) for p in self.sc.handoff_patterns)

    async def screenshot(self, path: Path) -> None:
        """Screenshot the viewport with the conversation pane scrolled to its latest reply."""
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            await self.page.evaluate(
                "(s) => { for (const c of document.querySelectorAll(s)) "
                "for (const el of [c, c.parentElement, ...c.querySelectorAll('*')]) "
                "if (el && el.scrollHeight > el.clientHeight) el.scrollTop = el.scrollHeight; }",
                self.sc.conversation,
            )
            await self.page.screenshot(path=str(path), timeout=15000)
        except PlaywrightError as exc:
            raise ProductError("screenshot failed", file=path.name,
                               error=str(exc).splitlines()[0]) from exc

    # ------------------------------------------------------------------ acting
    async def say(self, text: str) -> None:
        try:
            box = self.page.locator(self.sc.composer_input).first
            await box.fill(text, timeout=10000)
            await self.page.locator(self.sc.composer_send).first.click(timeout=10000)
        except PlaywrightError as exc:
            raise ProductError("the composer is missing or unusable", url=self.page.url,
                               error=str(exc).splitlines()[0]) from exc

    async def click(self, label: str) -> bool:
        """Click the visible control labelled ``label``; False when there is none."""
        candidates = [
            self.page.locator(self.sc.chips).filter(has_text=re.compile(
                r"^\s*" + re.escape(label) + r"\s*$")),
            self.page.get_by_role("button", name=label, exact=True),
            self.page.get_by_role("link", name=label, exact=True),
        ]
        for loc in candidates:
            try:
                for i in range(await loc.count()):
                    item = loc.nth(i)
                    if await item.is_visible():
                        await item.click(timeout=10000)
                        return True
            except PlaywrightError:
                continue
        return False

    async def upload(self, path: Path) -> None:
        try:
            await self.page.locator(self.sc.attach_input).first.set_input_files(
                str(path), timeout=10000)
        except PlaywrightError as exc:
            raise ProductError("the attach control is missing or unusable", url=self.page.url,
                               error=str(exc).splitlines()[0]) from exc

    async def sign_in_prompt(self, username: str, password: str) -> None:
        """Sign in through the in-conversation prompt; waits until the prompt has gone."""
        sc = self.sc
        await self._fill_submit(sc.sign_in_username, sc.sign_in_password, sc.sign_in_submit,
                                username, password)
        try:
            await self.page.locator(sc.sign_in_prompt).first.wait_for(
                state="hidden", timeout=self.completion.timeout_s * 1000)
        except PlaywrightError as exc:
            raise ProductError("the sign-in prompt did not close", url=self.page.url) from exc
