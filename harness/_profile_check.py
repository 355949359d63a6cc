"""``claims-harness profile check``: what the harness will find when it drives a product.

Opens the start page (and the staff side), reports for every region whether it matches (how
many elements, the first visible text), checks the runtime report and the reset adapter,
and lists what will be ``not_implemented`` — the first thing to run when writing a profile.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError

import claims_corpus
from claims_records import HarnessError

from ._conversation import check_lanes
from ._runtime import check_runtime
from .browser import VIEWPORT, BrowserChoice, CustomerPage, PageSelectors, open_browser
from .profile import READ_REGIONS, Lane, Profile, url
from .profile._selectors import selector_fields
from .reset import make_reset, setup_and_files
from .staff import CLAIM_REGIONS, WAITING_REGIONS, StaffSession, open_claim

# Staff decision controls looked for on the claim page (never clicked by the check).
DECISION_KEYS = ("approve", "amend_amount", "decline", "return_for_info", "note", "amount",
                 "confirm", "queue")
# Regions a journey cannot do without.
REQUIRED = ("conversation", "composer_input", "composer_send")
# Capability -> what is not_implemented without it.
CONSEQUENCES: dict[str, str] = {
    "customer_accounts": "packs whose session mode is 'account' (not_implemented trials); "
                         "'anonymous_then_sign_in' packs run anonymously",
    "staff_side": "triage, review, facts, incident_datetime and waiting_list components",
    "waiting_list": "the waiting_list component",
    "chips": "chips are not read (the customer types its answers)",
    "todo_bar": "the to-do bar is not read",
    "facts_panel": "the facts panel is not read",
    "confirm_step": "no confirm control is looked for",
    "talk_to_person": "no contact request can be made",
    "runtime_report": "runs need a declared runtime ([runtime.declared], --declare-runtime; "
                      "labelled 'runtime declared, not reported') or "
                      "--allow-unreported-runtime (labelled 'runtime not reported')",
}
_REGIONS_JS = """(regions) => {
  const visible = (el) => { const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && el.getClientRects().length > 0; };
  const out = {};
  for (const [name, alts] of Object.entries(regions)) {
    out[name] = null;
    for (let i = 0; i < alts.length; i++) {
      const els = Array.from(document.querySelectorAll(alts[i]));
      if (!els.length) continue;
      const shown = els.filter(visible);
      out[name] = { alternative: i, count: els.length, visible: shown.length,
                    text: shown.length ? (shown[0].innerText || '').trim() : '' };
      break;
    }
  }
  return out;
}"""


@dataclass
class Line:
    what: str
    ok: bool | None  # None: information only
    detail: str


@dataclass
class CheckReport:
    """Everything ``profile check`` found; ``problems`` counts what would break a run."""

    profile: str
    lane: Lane
    lines: list[Line] = field(default_factory=list)
    customer: list[tuple[str, str, str]] = field(default_factory=list)
    staff: list[tuple[str, str, str]] = field(default_factory=list)
    staff_note: str = ""
    staff_credentials: dict[str, Any] | None = None
    not_implemented: list[str] = field(default_factory=list)

    @property
    def problems(self) -> int:
        return sum(1 for ln in self.lines if ln.ok is False)

    def render(self) -> str:
        out = [f"Profile {self.profile}", f"Lane {self.lane.name}: {self.lane.base_url}"
               + (f" (staff side {self.lane.staff_base_url})"
                  if self.lane.staff_base_url != self.lane.base_url else ""), ""]
        for ln in self.lines:
            mark = {True: "ok  ", False: "FAIL", None: "    "}[ln.ok]
            out.append(f"{mark} {ln.what:<16} {ln.detail}")
        for title, rows in (("Customer screen", self.customer), ("Staff side", self.staff)):
            note = self.staff_note if title == "Staff side" else ""
            if not rows and not note:
                continue
            out += ["", title + (f" ({note})" if note else "")]
            if rows:
                w = max(18, *(len(name) for name, _, _ in rows))
                out.append(f"  {'region':<{w}} {'matches':<9} first visible text")
                out += [f"  {name:<{w}} {count:<9} {text}" for name, count, text in rows]
        out += ["", "Not implemented for this product:"]
        out += [f"  - {item}" for item in self.not_implemented] or ["  (nothing)"]
        out += ["", f"{self.problems} problem(s)"]
        return "\n".join(out) + "\n"


def _shorten(text: str, limit: int = 48) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _rows(found: dict[str, Any], regions: dict[str, list[str]],
          absent: set[str]) -> list[tuple[str, str, str]]:
    rows = []
    for name, alts in regions.items():
        if name in absent:
            rows.append((name, "-", "(capability absent)"))
        elif not alts:
            rows.append((name, "-", "(no selector: the product has no such region)"))
        elif found.get(name) is None:
            rows.append((name, "0", "(no match on this page)"))
        else:
            f = found[name]
            which = f" [alternative {f['alternative'] + 1}]" if len(alts) > 1 else ""
            rows.append((name, f"{f['count']}{which}", f'"{_shorten(f["text"])}"'
                         if f["text"] else "(no visible text)"))
    return rows


async def _read_regions(page: Any, regions: dict[str, list[str]]) -> dict[str, Any]:
    selectors = PageSelectors(page, [s for alts in regions.values() for s in alts])
    await selectors.refresh()
    found: dict[str, Any] = await page.evaluate(  # the page's JSON
        _REGIONS_JS, {n: selectors.css(a) for n, a in regions.items()})
    return found


def _service_lines(profile: Profile, lane: Lane, packs_root: Path, reset_pack: str | None,
                   report: CheckReport) -> list[Line]:
    lines = []
    try:
        info = check_runtime(profile, [lane], self_test=True, allow_unreported=True)
        if info.declared is not None:
            lines.append(Line("runtime report", None, f"none (profile); declared: {info.runtime}"
                              " (runs are labelled 'runtime declared, not reported')"))
        elif not info.reported:
            lines.append(Line("runtime report", None, "none (profile): runs need "
                              "--allow-unreported-runtime or a declared runtime"))
        else:
            controlled = info.runtime in profile.runtime.controlled_values
            stored = ", ".join(info.fields) or "none"
            lines.append(Line("runtime report", True, f"runtime '{info.runtime}'"
                              + (" (controlled: refused without --self-test)" if controlled
                                 else "") + f"; other fields stored: {stored}"))
    except HarnessError as exc:
        lines.append(Line("runtime report", False, str(exc)))
    adapter = profile.reset.adapter
    if adapter == "none":
        lines.append(Line("reset", None, "none (profile): runs need --no-reset"))
    else:
        reset = None
        try:
            reset = make_reset(profile, lane, packs_root)
            lines.append(Line("reset", True, f"{adapter}: {reset.health()}"))
            checked = reset_pack or _first_pack(packs_root)
            if checked:
                setup, files = setup_and_files(packs_root / checked)
                lines.append(Line("reset", True, f"pre-flight of {checked}: "
                                  f"{reset.preflight(setup, files)}"))
            if reset_pack:
                setup, files = setup_and_files(packs_root / reset_pack)
                outcome = reset.reset(setup, files)
                report.staff_credentials = outcome.staff_credentials
                lines.append(Line("reset", outcome.verified is not False,
                                  f"{reset_pack} loaded: {outcome.describe()}"))
        except HarnessError as exc:
            lines.append(Line("reset", False, f"{adapter}: {exc}"))
        finally:
            if reset is not None:
                reset.close()
    source = profile.state_source()
    lines.append(Line("state dumps", None, {
        "seed_route": "from the seed route", "stores": "read from the product's stores "
        "through the mapping", "none": "none (state and state assertions not_implemented)"}
        [source]))
    if profile.staff_stores is not None:
        where = profile.staff_side().stores
        assert where is not None
        lines.append(Line("staff side", None, f"read from the stores: {where.describe()} "
                          "(the state dumped after each journey)"))
    lines += _conversation_lines(profile)
    if profile.agent_decision is not None:
        lines.append(Line("agent decision", None, "read from the agent's messages: "
                          + profile.agent_decision.describe()))
    c = profile.completion
    lines.append(Line("completion", None, ", ".join(c.strategies())
                      + (f"; ready: {' | '.join(c.ready)}" if c.ready else "; no ready selector")))
    return lines


def _first_pack(packs_root: Path) -> str | None:
    """The corpus's first pack (the one a run's pre-flight checks), if it has any."""
    try:
        ids = claims_corpus.open_corpora([packs_root]).pack_ids
    except HarnessError:
        return None
    return ids[0] if ids else None


def _conversation_lines(profile: Profile) -> list[Line]:
    """How the product holds conversations, and whether the profile's lanes can run."""
    conv = profile.conversation
    if conv.new is None:
        return []
    scope = ("one per process" if conv.one_per_process else "one per browser session")
    out = [Line("conversation", None, f"{scope}; before every trial a new one by "
                f"{conv.new.describe()}")]
    try:
        check_lanes(profile, profile.resolved_lanes(), started_per_lane=False)
    except HarnessError as exc:
        out.append(Line("conversation", False, exc.message))
    return out


async def _selector_lines(browser: Any, profile: Profile) -> list[Line]:
    """A FAIL line for every selector of the profile that Playwright cannot parse (tried on a
    blank page, so nothing else can fail), naming its key and the selector."""
    page = await browser.new_page()
    lines = []
    try:
        for key, selector in selector_fields(profile):
            try:
                await page.locator(selector).count()
            except PlaywrightError as exc:
                why = str(exc).splitlines()[0].removeprefix("Locator.count: ")
                lines.append(Line("selector", False, f"{key} = {selector!r} is not a valid "
                                  f"selector: {_shorten(why, 160)}"))
    finally:
        await page.close()
    return lines


async def _customer_side(browser: Any, profile: Profile, lane: Lane, report: CheckReport
                         ) -> None:
    context = await browser.new_context(viewport=VIEWPORT,
                                        extra_http_headers=profile.browser.extra_headers() or None)
    try:
        cp = CustomerPage(await context.new_page(), profile.customer_side(), lane.base_url)
        try:
            await cp.open_start()
        except HarnessError as exc:
            report.lines.append(Line("start page", False, str(exc)))
            return
        started = time.monotonic()
        try:
            await cp.wait_first()
            report.lines.append(Line("start page", True, f"{profile.customer_screen.start_path}"
                                     f" ready and complete after "
                                     f"{time.monotonic() - started:.1f} s"))
        except HarnessError as exc:
            report.lines.append(Line("start page", False, str(exc)))
        regions = {n: list(getattr(profile.customer_screen, n)) for n in READ_REGIONS}
        found = await _read_regions(cp.page, regions)
        report.customer = _rows(found, regions, set(profile.capabilities.absent_regions()))
        for name in REQUIRED:
            if found.get(name) is None:
                report.lines.append(Line("start page", False, f"required region {name} has no "
                                         "match on the start page"))
    finally:
        await context.close()


async def _staff_side(browser: Any, profile: Profile, lane: Lane, claim: str | None,
                      packs_root: Path, report: CheckReport) -> None:
    access = profile.staff
    if access.sign_in == "header" and not access.headers():
        report.lines.append(Line("staff side", False, f"no staff token: set {access.token_env}"))
        return
    session = StaffSession(browser, profile.staff_side(), lane, profile.browser.extra_headers())
    try:
        page, _ = await session.page_for("claim")
        base = session.base
        if access.sign_in == "form":
            creds = report.staff_credentials
            if not creds:
                report.staff_note = ("form sign-in: staff credentials come from a reset; "
                                     "give --reset PACK to check the staff side")
                return
            session.creds = creds
            await session.sign_in(page)
            report.lines.append(Line("staff side", True, f"signed in as {creds['username']} "
                                     "(credentials from the reset)"))
        if claim:
            opened = await open_claim(page, session.side, base, claim, session.goto)
            report.lines.append(Line("staff side", opened, f"claim {claim} "
                                     f"{'opened' if opened else 'not found'} ({access.find})"))
            regions = {n: list(getattr(profile.staff_screen, n)) for n in CLAIM_REGIONS}
            if profile.decision.present:  # found, never clicked
                regions |= {f"decision.{n}": profile.decision.choice(n) for n in DECISION_KEYS}
            report.staff += _rows(await _read_regions(page, regions), regions, set())
        else:
            report.staff_note = "no claim given: claim-page regions not checked"
        pages = []
        if access.find in ("queue", "search"):
            pages.append((access.queue_path or "/", {"queue_row": list(access.queue_row)}))
        if profile.capabilities.waiting_list and profile.staff_screen.waiting_path:
            pages.append((profile.staff_screen.waiting_path,
                          {n: list(getattr(profile.staff_screen, n)) for n in WAITING_REGIONS}))
        for path, regions in pages:
            resp = await page.goto(url(base, path), wait_until="domcontentloaded")
            status = resp.status if resp is not None else 0
            report.lines.append(Line("staff side", status < 400, f"{path} answers HTTP "
                                     f"{status} (sign-in: {access.sign_in})"))
            rows = _rows(await _read_regions(page, regions), regions, set())
            report.staff += [(f"{name} ({path})", count, text) for name, count, text in rows]
    except PlaywrightError as exc:
        report.lines.append(Line("staff side", False, str(exc).splitlines()[0]))
    finally:
        await session.close()


def _not_implemented(profile: Profile) -> list[str]:
    """What will be not_implemented for want of a capability (the staff side read from the
    stores: what they do not hold, and what only a staff screen shows)."""
    out = []
    where = profile.staff_side().stores
    for name in profile.capabilities.absent():
        if name == "staff_side" and where is not None:
            gone = where.not_held()
            out.append("staff_side: no staff screen (the staff side is read from the "
                       "stores): the explanation component, scored only from a staff screen"
                       + (f"; what the stores do not hold: {', '.join(gone)}" if gone else ""))
        else:
            out.append(f"{name}: {CONSEQUENCES[name]}")
    return out


async def check_profile(profile: Profile, packs_root: Path, claim: str | None = None,
                        browser_executable: str | None = None,
                        reset_pack: str | None = None,
                        browser: BrowserChoice | None = None) -> CheckReport:
    """Check the profile's first lane (see module docstring). ``reset_pack`` resets the
    product to that pack first (it changes the product's data: use a test environment)."""
    from playwright.async_api import async_playwright

    lane = profile.resolved_lanes()[0]
    report = CheckReport(profile=profile.name, lane=lane)
    report.lines = await asyncio.to_thread(_service_lines, profile, lane, Path(packs_root),
                                           reset_pack, report)
    report.not_implemented = _not_implemented(profile)
    if profile.state_source() == "none":
        report.not_implemented.append("state: the state and assertions_state components")
    if not profile.decision.present:
        report.not_implemented.append("decision: no staff decision controls ([decision]): "
                                      "routing, target, decision_state, note, follow_through "
                                      "and audit of packs with a staff script")
    if profile.agent_decision is None:
        report.not_implemented.append("agent_decision: no [agent_decision] words: a decision "
                                      "the product's agent tells the customer is not read")
    async with async_playwright() as pw:
        choice = browser or BrowserChoice(executable=browser_executable)
        chromium, _ = await open_browser(pw, choice)
        try:
            bad = await _selector_lines(chromium, profile)
            report.lines += bad
            if bad:
                report.lines.append(Line("start page", None, f"not opened: {len(bad)} "
                                         "selector(s) of the profile do not parse (above)"))
            else:
                await _customer_side(chromium, profile, lane, report)
                if profile.capabilities.staff_side:
                    await _staff_side(chromium, profile, lane, claim, Path(packs_root),
                                      report)
        finally:
            await chromium.close()
    return report
