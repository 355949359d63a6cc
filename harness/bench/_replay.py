"""A bare Playwright replay of a recorded journey: the yardstick the harness is measured by.

The customer actions recorded in a finished trial's ``journey.jsonl`` are played again with
plain Playwright calls and only the waiting a correct test needs — after each action, the
product's completion signal for a new reply (one ``wait_for_function`` in the page) — and no
evidence: no screen reading, screenshots, HAR, staff side or state dumps. Selectors come from
the same profile, so the replay drives the same product the same way.

With ``evidence`` the replay keeps what a hand-written test would keep of the customer's side:
the HAR (recorded and redacted as the harness does) and a screenshot after every reply (the
harness's camera); still no screen reading, staff side or state dumps. The harness measured
against it shows what its own work costs beyond the evidence itself.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page

import claims_corpus
from claims_corpus import CustomerView
from claims_records import CustomerAction, HarnessError, JourneyEvent, JsonValue, read_journey

from ..browser import Camera, CustomerTab
from ..profile import Lane, Profile, url
from ..reset import ResetAdapter, setup_and_files

# A reply is new when more replies (busy placeholders excluded) are shown than before
# (a.count; -1 asks for no new reply), and complete by the profile's completion signal.
# Returns the number of replies shown. Selectors must be plain CSS here.
_WAIT_JS = """(a) => {
  const all = (sels) => { for (const s of sels) { const e = document.querySelectorAll(s);
    if (e.length) return Array.from(e); } return []; };
  const busy = all(a.busy);
  const replies = all(a.agent).filter((r) => !busy.some((b) => b === r || b.contains(r)));
  if (replies.length <= a.count) return false;
  if (a.attribute) { const el = all(a.selector)[0];
    if (!el || el.getAttribute(a.attribute) !== a.value) return false; }
  if (busy.some((b) => b.getClientRects().length)) return false;
  const en = all(a.enabled)[0];
  if (en && (en.disabled || en.getAttribute('aria-disabled') === 'true')) return false;
  if (a.stable_ms) {
    const last = replies.length ? replies[replies.length - 1].innerText : '';
    const sig = replies.length + '\\u0000' + last;
    const now = performance.now(), st = window.__bareStable;
    if (!st || st.sig !== sig) { window.__bareStable = { sig, since: now }; return false; }
    if (now - st.since < a.stable_ms) return false;
  }
  return replies.length + 1;
}"""


@dataclass
class ReplayResult:
    """What the bare replay did."""

    actions: int = 0
    claim_number: str | None = None
    shots: int = 0
    problems: list[str] = field(default_factory=list)


def recorded_actions(journey: Path) -> list[JourneyEvent]:
    """The events of a ``journey.jsonl`` that carry a customer action, in order."""
    return [e for e in read_journey(journey) if e.action is not None]


def _fresh_after(journey: Path) -> list[bool]:
    """Per recorded action, whether the product answered it with a new reply."""
    events = read_journey(journey)
    out = []
    for i, e in enumerate(events):
        if e.action is None:
            continue
        nxt = events[i + 1] if i + 1 < len(events) else None
        out.append(nxt is not None and "no new reply" not in nxt.note)
    return out


class BareReplay:
    """Replays recorded actions on one lane, as a hand-written Playwright test would."""

    def __init__(self, browser: Browser, profile: Profile, lane: Lane, reset: ResetAdapter,
                 packs_root: Path, evidence: bool = False, keep: Path | None = None) -> None:
        self.browser = browser
        self.evidence = evidence
        self.keep = keep
        """With ``evidence``: the folder the redacted HAR and the screenshots go into."""
        self.profile = profile
        self.lane = lane
        self.reset = reset
        self.packs_root = Path(packs_root)
        c, sc = profile.completion, profile.customer_screen
        self.wait_args: dict[str, JsonValue] = {
            "agent": list(sc.agent_message), "busy": list(c.busy), "enabled": list(c.enabled),
            "selector": list(c.selector), "attribute": c.attribute, "value": c.value,
            "stable_ms": c.stable_ms}
        for sels in (sc.agent_message, c.busy, c.enabled, c.selector):
            for sel in sels:
                if not _is_css(sel):
                    raise HarnessError("the bare replay waits with plain CSS selectors; this "
                                       "profile's completion uses a Playwright selector",
                                       profile=profile.name, selector=sel)

    async def run(self, pack_id: str, journey: Path) -> ReplayResult:
        """Reset the lane for the pack, then replay the actions of ``journey``."""
        pack_dir = self.packs_root / pack_id
        setup, files = setup_and_files(pack_dir)
        actions = recorded_actions(journey)
        fresh = _fresh_after(journey)
        view = claims_corpus.load_customer_view(pack_dir)
        # the browser context opens while the product is reset, as in the harness
        tab = CustomerTab(self.browser, self.profile.browser.extra_headers(),
                          evidence=self.evidence)
        result = ReplayResult()
        shots = (self.keep or Path(tab.tmp)) / pack_id / "screens"
        try:
            tab.open()
            outcome = await asyncio.to_thread(self.reset.reset, setup, files)
            page = await tab.page()
            camera = Camera(page)
            await self._open(page, outcome)
            count = await self._wait(page, -1)
            await self._shoot(camera, shots, result)
            for event, new_reply in zip(actions, fresh, strict=True):
                assert event.action is not None
                if event.action.kind == "done" and not event.action.text:
                    break
                creds = outcome.customer_credentials or {}
                await self._act(page, event.action, view, creds)
                result.actions += 1
                count = await self._wait(page, count if new_reply else -1)
                await self._shoot(camera, shots, result)
            result.claim_number = await self._claim_number(page)
        finally:
            try:
                await tab.close(keep_trace=False)
                if self.evidence and self.keep is not None:
                    await asyncio.to_thread(tab.redact, self.keep / pack_id, [])
            finally:
                tab.discard()
        return result

    async def _shoot(self, camera: Camera, folder: Path, result: ReplayResult) -> None:
        """With evidence: a screenshot of the reply just waited for, written to ``folder``."""
        if not self.evidence:
            return
        data = await camera.viewport()
        folder.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread((folder / f"{result.shots:03d}.png").write_bytes, data)
        result.shots += 1

    # ------------------------------------------------------------------ steps
    async def _open(self, page: Page, outcome: Any) -> None:
        sc, timeout = self.profile.customer_screen, self.profile.completion.timeout_s * 1000
        base = self.lane.base_url
        if outcome.claimant_session == "account":
            si = self.profile.customer_sign_in
            assert si is not None
            creds = outcome.customer_credentials or {}
            await page.goto(url(base, si.path), wait_until="domcontentloaded")
            await page.locator(si.username[0]).fill(creds["username"])
            await page.locator(si.password[0]).fill(creds["password"])
            await page.locator(si.submit[0]).click()
            await page.wait_for_url(lambda u: si.path not in u, wait_until="commit",
                                    timeout=timeout)
        await page.goto(url(base, sc.start_path), wait_until="domcontentloaded")
        for sel in self.profile.completion.ready:
            await page.locator(sel).first.wait_for(timeout=timeout)

    async def _wait(self, page: Page, count: int) -> int:
        """Wait until more than ``count`` replies are shown (-1: any number) and the product
        is done; returns how many replies are shown."""
        handle = await page.wait_for_function(
            _WAIT_JS, arg={**self.wait_args, "count": count}, polling="raf",
            timeout=self.profile.completion.timeout_s * 1000)
        return int(await handle.json_value()) - 1

    async def _act(self, page: Page, action: CustomerAction, view: CustomerView,
                   creds: dict[str, Any]) -> None:
        sc = self.profile.customer_screen
        if action.kind in ("say", "done"):
            await page.locator(sc.composer_input[0]).fill(action.text or "")
            await page.locator(sc.composer_send[0]).click()
        elif action.kind == "click":
            label = action.label or ""
            button = page.get_by_role("button", name=label, exact=True)
            await button.or_(page.get_by_role("link", name=label, exact=True)).first.click()
        elif action.kind == "upload":
            material = view.material(action.file or "")  # an upload names its file
            await page.locator(sc.attach_input[0]).set_input_files(material.path)
            if sc.send_after_attach:
                await page.locator(sc.composer_send[0]).click()
        elif action.kind == "sign_in":
            await page.locator(sc.sign_in_username[0]).fill(creds["username"])
            await page.locator(sc.sign_in_password[0]).fill(creds["password"])
            await page.locator(sc.sign_in_submit[0]).click()
            await page.locator(sc.sign_in_prompt[0]).wait_for(state="hidden")

    async def _claim_number(self, page: Page) -> str | None:
        sc = self.profile.customer_screen
        pattern = re.compile(sc.claim_number_pattern)
        source = sc.claim_number or sc.agent_message
        text = await page.locator(source[0]).last.inner_text() if source else ""
        match = pattern.search(text)
        return match.group(0) if match else None


def _is_css(selector: str) -> bool:
    """Plain CSS (as far as the replay needs to know): no Playwright engine or chaining."""
    return ">>" not in selector and not re.match(r"^[\w-]+=", selector) and \
        ":has-text(" not in selector and ":text" not in selector
