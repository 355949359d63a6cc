"""Reading and watching the customer screen through a profile's selectors.

Selectors may be any Playwright selector (``_marks``): a whole screen is read in one
``page.evaluate`` (``_screen.js``), plus one call per Playwright-only selector.

What is read (``docs/product-contract.md``, "What the harness reads"): the visible text
(``innerText`` of displayed elements) of each region; the latest reply is the last visible
``agent_message`` that is not a busy placeholder; the reply count counts every such element.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from corpus.errors import ProductError
from corpus.formats import ScreenReading

from ._marks import PageSelectors
from .profile import READ_REGIONS, Profile

SCREEN_JS = Path(__file__).with_name("_screen.js").read_text(encoding="utf-8")
_MARK_REFRESH_S = 0.25


@dataclass
class Reading:
    """One read of the screen: the customer-visible part plus bookkeeping."""

    screen: ScreenReading
    agent_texts: list[str]
    agent_count: int
    problem: bool = False


@dataclass(frozen=True)
class Probe:
    """The reply state before an action: what a new reply must differ from."""

    count: int
    latest: str
    complete: bool


# A region the profile says the product lacks is never read.
REGION_CAPABILITY = {"chips": "chips", "todo_bar": "todo_bar", "facts_panel": "facts_panel",
                     "confirm_button": "confirm_step", "talk_to_person": "talk_to_person",
                     "sign_in_prompt": "customer_accounts"}


def disabled_regions(profile: Profile) -> set[str]:
    caps = profile.capabilities
    return {region for region, cap in REGION_CAPABILITY.items() if not getattr(caps, cap)}


class Screen:
    """The customer screen of one page, read through one profile."""

    def __init__(self, page: Page, profile: Profile) -> None:
        self.page = page
        self.profile = profile
        sc, c = profile.customer_screen, profile.completion
        off = disabled_regions(profile)
        self.regions = {name: ([] if name in off else list(getattr(sc, name)))
                        for name in READ_REGIONS}
        for name in ("sign_in_submit",):
            self.regions[name] = list(getattr(sc, name))
        self.completion = {"selector": list(c.selector), "attribute": c.attribute,
                           "value": c.value, "busy": list(c.busy), "enabled": list(c.enabled),
                           "stable_ms": c.stable_ms}
        self.ready = list(c.ready)
        every = [*(s for alts in self.regions.values() for s in alts), *c.selector, *c.busy,
                 *c.enabled, *c.ready]
        self.selectors = PageSelectors(page, every)

    # ------------------------------------------------------------------ selectors
    async def _args(self, mode: str, **extra: Any) -> dict[str, Any]:
        await self.selectors.refresh()
        css = self.selectors.css
        completion = {k: (css(v) if isinstance(v, list) else v)
                      for k, v in self.completion.items()}
        return {"mode": mode, "regions": {k: css(v) for k, v in self.regions.items()},
                "completion": completion, "ready": css(self.ready), **extra}

    async def _eval(self, mode: str, **extra: Any) -> Any:
        try:
            return await self.page.evaluate(SCREEN_JS, await self._args(mode, **extra))
        except PlaywrightError as exc:
            raise ProductError("the page could not be read", url=self.page.url,
                               error=str(exc).splitlines()[0]) from exc

    # ------------------------------------------------------------------ reading
    async def read(self) -> Reading:
        raw = await self._eval("read")
        claim_text = raw["claim_number_text"]
        pattern = re.compile(self.profile.customer_screen.claim_number_pattern)
        if not self.regions["claim_number"]:
            claim_text = raw["screen"]["latest_reply"]
        match = pattern.search(claim_text) if claim_text else None
        screen = ScreenReading.model_validate(
            {**raw["screen"], "claim_number": match.group(0) if match else None})
        return Reading(screen=screen, agent_texts=raw["agent_texts"],
                       agent_count=raw["agent_count"], problem=raw["problem"])

    async def probe(self) -> Probe:
        raw = await self._eval("probe")
        return Probe(count=raw["count"], latest=raw["latest"], complete=raw["complete"])

    async def upload_marks(self, name: str) -> dict[str, Any]:
        return await self._eval("upload", name=name)

    # ------------------------------------------------------------------ waiting
    async def wait(self, prev: Probe | None, timeout_s: float, ready: bool = False) -> bool:
        """Wait until the reply is complete (and new after ``prev``), then scroll the
        conversation to it; False on timeout."""
        prev_arg = {"count": prev.count, "latest": prev.latest} if prev is not None else None
        return bool(await self._watch("wait", timeout_s, ready, prev=prev_arg))

    async def wait_upload(self, name: str, before: dict[str, Any],
                          timeout_s: float) -> str | None:
        """Wait until the screen shows ``name`` uploaded ("acknowledged") or an upload error
        ("refused") that ``before`` (``upload_marks``) did not; None on timeout."""
        return await self._watch("upload_wait", timeout_s, False, name=name, before=before)

    async def _watch(self, mode: str, timeout_s: float, ready: bool, **extra: Any) -> Any:
        """Evaluate ``mode`` inside the page every animation frame until it is truthy; its
        value, or None on timeout.

        With Playwright-only selectors the page is watched between refreshes of their marks:
        at most ``_MARK_REFRESH_S`` at a time, and at once when a marked region was rendered
        anew (the page answers "stale").
        """
        await self.selectors.marks()
        deadline = time.monotonic() + timeout_s
        while True:
            args = await self._args(mode, **extra)
            if not ready:
                args["ready"] = []
            left = deadline - time.monotonic()
            chunk = left if self.selectors.all_css else min(left, _MARK_REFRESH_S)
            if not self.selectors.all_css:
                args["marks"] = dict(self.selectors.counts)
            try:
                handle = await self.page.wait_for_function(
                    SCREEN_JS, arg=args, polling="raf", timeout=max(1.0, chunk * 1000))
            except PlaywrightTimeoutError:
                if time.monotonic() >= deadline:
                    return None
                continue
            except PlaywrightError as exc:
                raise ProductError("the page could not be watched", url=self.page.url,
                                   error=str(exc).splitlines()[0]) from exc
            value = await handle.json_value()
            if value != "stale":
                return value
            if time.monotonic() >= deadline:
                return None
