"""Reading and watching the customer screen through a profile's selectors.

Selectors may be any Playwright selector (``_marks``): a whole screen is read in one
``page.evaluate`` (``_screen.js``), plus one call per Playwright-only selector.

What is read (``docs/product-contract.md``, "What the harness reads"): the visible text
(``innerText`` of displayed elements) of each region; the latest reply is the last visible
``agent_message`` that is not a busy placeholder; the reply count counts every such element.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from claims_records import ProductError, ScreenReading

from ._marks import PageSelectors

SCREEN_JS = Path(__file__).with_name("_screen.js").read_text(encoding="utf-8")
_MARK_REFRESH_S = 0.25
# The screen function is installed in each document once, with the selectors of the Screen
# (``_screen_host.js``); each call then sends only what changes from call to call, so a
# step's calls stay small. A document that has not got them (a page just opened or
# navigated) answers NOT_INSTALLED, and the call is made again after installing them.
NOT_INSTALLED = "claims-harness:not-installed"
STALE = "stale"  # _screen.js: marked regions were rendered anew; mark again and go on
_HOST = "__claimsHarnessScreen"
_INSTALL_JS = (Path(__file__).with_name("_screen_host.js").read_text(encoding="utf-8")
               .replace("__SCREEN__", SCREEN_JS))
_CALL_JS = f"(c) => window.{_HOST} ? window.{_HOST}.call(c) : c.missing"
_WATCH_JS = f"(c) => window.{_HOST} ? window.{_HOST}.watch(c) : c.missing"
_INSTALL_TRIES = 3
# A page that renders marked regions anew between their marking and a call is marked and
# called again this many times; the last call takes the marks as they are.
_STALE_TRIES = 4
# A watch ends inside the page when its time is up; this much longer and the page is taken
# as not answering (a page busy in a loop of its own answers nothing).
_PAGE_GRACE_S = 5.0
# The customer acted this soon after the screen was read: the page's own record of the reply
# state at the action is the baseline, with no call before acting. Slower customers (a model
# deciding) get a probe just before acting, which also waits for a busy product.
QUICK_ACTION_S = 0.5
_NAVIGATED = ("execution context was destroyed", "cannot find context with specified id")


@dataclass
class Reading:
    """One read of the screen: the customer-visible part plus bookkeeping."""

    screen: ScreenReading
    agent_texts: list[str]
    agent_count: int
    problem: bool = False
    acted_while_busy: bool = False
    """The page recorded the customer's action while the product was still busy."""


@dataclass(frozen=True)
class Probe:
    """The reply state before an action: what a new reply must differ from."""

    count: int
    latest: str
    complete: bool
    at_action: bool = False
    """Taken from the reading: the page's record at the customer's action replaces it."""


class Screen:
    """The customer screen of one page, read inside the page through plain selectors.

    ``regions``: region name -> selector alternatives (a region the product lacks has none,
    and is never read); ``completion``: the reply-completion rule as the page's function
    takes it (``selector``, ``attribute``, ``value``, ``busy``, ``enabled``, ``stable_ms``);
    ``ready``: what shows the page is ready; ``claim_number_pattern``: a regular expression.
    ``CustomerPage`` makes them from a profile's customer side."""

    def __init__(self, page: Page | Frame, regions: dict[str, list[str]],
                 completion: dict[str, str | int | list[str] | None], ready: list[str],
                 claim_number_pattern: str) -> None:
        self.page = page
        self.claim_number = re.compile(claim_number_pattern)
        self.regions = regions
        self.completion = completion
        self.ready = ready
        self.selectors = PageSelectors(page, self._every())
        self._fixed: dict[str, Any] | None = None
        self._key = ""
        self.last: Probe | None = None
        """The reply state of the last reading (complete), and when it was taken."""
        self.read_at = 0.0
        self._waits = 0  # numbers each wait: the page remembers what a wait saw (watch_id)

    def _every(self) -> list[str]:
        return [*(s for alts in self.regions.values() for s in alts),
                *(s for v in self.completion.values() if isinstance(v, list) for s in v),
                *self.ready]

    def rebind(self, target: Page | Frame) -> None:
        """Read and watch ``target`` from now on (a chat widget's frame): its selectors are
        resolved and installed there anew."""
        self.page = target
        self.selectors = PageSelectors(target, self._every())
        self._fixed = None
        self.last = None

    # ------------------------------------------------------------------ selectors
    async def _args(self, mode: str, **extra: Any) -> dict[str, Any]:
        """The arguments of one call (the selectors are installed apart, ``_install``)."""
        await self.selectors.refresh()
        if self._fixed is None:
            css = self.selectors.css
            completion = {k: (css(v) if isinstance(v, list) else v)
                          for k, v in self.completion.items()}
            self._fixed = {"regions": {k: css(v) for k, v in self.regions.items()},
                           "completion": completion, "ready": css(self.ready)}
            digest = hashlib.sha256(json.dumps(self._fixed, sort_keys=True).encode())
            self._key = digest.hexdigest()[:16]
        return {"key": self._key, "mode": mode, "missing": NOT_INSTALLED, **extra}

    async def _install(self) -> None:
        """Put the screen function and this Screen's selectors into the current document."""
        await self.page.evaluate(_INSTALL_JS, {"name": _HOST, "key": self._key,
                                               "fixed": self._fixed})

    async def _eval(self, mode: str, **extra: Any) -> Any:
        """One call of the screen function; with Playwright-only selectors, their marks are
        checked in the page first, so a region rendered anew is never read through marks
        that have lost it."""
        installs = stale = 0
        try:
            while installs < _INSTALL_TRIES:
                args = await self._args(mode, **extra)
                if stale < _STALE_TRIES and not self.selectors.all_css:
                    args["marks"] = dict(self.selectors.counts)
                value = await self.page.evaluate(_CALL_JS, args)
                if value == STALE:
                    stale += 1
                elif value != NOT_INSTALLED:
                    return value
                else:
                    installs += 1
                    await self._install()
        except PlaywrightError as exc:
            raise ProductError("the page could not be read", url=self.page.url,
                               error=str(exc).splitlines()[0]) from exc
        raise ProductError("the page could not be read: it kept opening new documents",
                           url=self.page.url)

    # ------------------------------------------------------------------ reading
    async def read(self) -> Reading:
        return self._reading(await self._eval("read"))

    def _reading(self, raw: dict[str, Any], complete: bool = False) -> Reading:
        """A raw reading as a Reading; ``complete``: taken as a wait ended (the product idle),
        so it is also the baseline of an action that follows at once."""
        claim_text = raw["claim_number_text"]
        if not self.regions["claim_number"]:
            claim_text = raw["screen"]["latest_reply"]
        match = self.claim_number.search(claim_text) if claim_text else None
        screen = ScreenReading.model_validate(
            {**raw["screen"], "claim_number": match.group(0) if match else None})
        self.last = (Probe(count=raw["agent_count"], latest=screen.latest_reply, complete=True,
                           at_action=True) if complete else None)
        self.read_at = time.monotonic()
        return Reading(screen=screen, agent_texts=raw["agent_texts"],
                       agent_count=raw["agent_count"], problem=raw["problem"],
                       acted_while_busy=bool(raw.get("acted_while_busy")))

    def quick_baseline(self) -> Probe | None:
        """The baseline of an action that follows the last reading at once, or None."""
        if self.last is not None and time.monotonic() - self.read_at <= QUICK_ACTION_S:
            return self.last
        return None

    async def probe(self) -> Probe:
        raw = await self._eval("probe")
        return Probe(count=raw["count"], latest=raw["latest"], complete=raw["complete"])

    async def upload_marks(self, name: str) -> dict[str, Any]:
        marks: dict[str, Any] = await self._eval("upload", name=name)  # the page's JSON
        return marks

    # ------------------------------------------------------------------ waiting
    async def wait(self, prev: Probe | None, timeout_s: float,
                   ready: bool = False) -> Reading | None:
        """Wait until the reply is complete (and new after ``prev``), scroll the conversation
        to it and read the screen, all in the page; the reading, or None on timeout."""
        raw = await self._watch("wait", timeout_s, ready, prev=_prev_arg(prev))
        return self._reading(raw, complete=True) if raw else None

    async def appeared(self, prev: Probe) -> tuple[bool, bool]:
        """Whether a new reply has appeared since ``prev`` as a wait judges it, complete or
        not (now, or at any moment of the wait that has just run out: a page may render it
        anew faster than its marks are set again), and whether the customer acted while the
        product was still busy."""
        raw = await self._eval("fresh", prev=_prev_arg(prev), watch_id=self._waits)
        return bool(raw["fresh"]), bool(raw["acted_while_busy"])

    async def wait_upload(self, name: str, before: dict[str, Any],
                          timeout_s: float) -> str | None:
        """Wait until the screen shows ``name`` uploaded ("acknowledged") or an upload error
        ("refused") that ``before`` (``upload_marks``) did not; None on timeout."""
        outcome: str | None = await self._watch("upload_wait", timeout_s, False, name=name,
                                                before=before)
        return outcome

    async def _watch(self, mode: str, timeout_s: float, ready: bool, **extra: Any) -> Any:
        """Evaluate ``mode`` inside the page every animation frame until it is truthy (one
        call, ``_screen_host.js``); its value, or None on timeout.

        With Playwright-only selectors the page is watched between refreshes of their marks:
        at most ``_MARK_REFRESH_S`` at a time, and at once when a marked region was rendered
        anew (the page answers STALE). A page that navigates is watched again in its new
        document.
        """
        await self.selectors.marks()
        deadline = time.monotonic() + timeout_s
        self._waits += 1
        while True:
            args = await self._args(mode, watch_id=self._waits, **extra)
            if not ready:
                args["ready"] = []
            left = max(0.0, deadline - time.monotonic())
            chunk = left if self.selectors.all_css else min(left, _MARK_REFRESH_S)
            if not self.selectors.all_css:
                args["marks"] = dict(self.selectors.counts)
            args["timeout_ms"] = max(1.0, chunk * 1000)
            try:
                value = await asyncio.wait_for(self._in_document(self.page.evaluate(
                    _WATCH_JS, args)), timeout=chunk + _PAGE_GRACE_S)
            except TimeoutError:
                value = None  # the page did not answer: as if the time were up
            if value == NOT_INSTALLED:
                await self._in_document(self._install())
                value = STALE
            if value is not None and value != STALE:
                return value
            if time.monotonic() >= deadline:
                return None

    async def _in_document(self, call: Awaitable[Any]) -> Any:
        """What ``call`` answers, or STALE when the page navigated under it (its new document
        is watched next); any other failure is the product's."""
        try:
            return await call
        except PlaywrightError as exc:
            if any(n in str(exc).lower() for n in _NAVIGATED):
                return STALE
            raise ProductError("the page could not be watched", url=self.page.url,
                               error=str(exc).splitlines()[0]) from exc


def _prev_arg(prev: Probe | None) -> dict[str, Any] | None:
    """A baseline as the page takes it (``at_action``: its own record replaces it)."""
    if prev is None:
        return None
    return {"count": prev.count, "latest": prev.latest, "at_action": prev.at_action}
