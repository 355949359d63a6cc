"""``claims-harness profile check``: what the harness will find when it drives a product.

Opens the start page (and the staff side), reports for every region whether it matches (how
many elements, the first visible text), checks the runtime report and the reset adapter,
and lists what will be ``not_implemented`` — the first thing to run when writing a profile.
The service lines are ``_services``', the customer side ``_customer``'s, the staff side
``_staff``'s; ``_report`` holds the report and how regions are read.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from ..browser import BrowserChoice, open_browser
from ..profile import Profile
from ._customer import customer_side, selector_lines
from ._report import CONSEQUENCES, CheckReport, Line, not_implemented
from ._services import conversation_lines, service_lines
from ._staff import staff_side

__all__ = ["CONSEQUENCES", "CheckReport", "Line", "check_profile", "conversation_lines",
           "not_implemented"]


async def check_profile(profile: Profile, packs_root: Path, claim: str | None = None,
                        browser_executable: str | None = None,
                        reset_pack: str | None = None,
                        browser: BrowserChoice | None = None) -> CheckReport:
    """Check the profile's first lane (see module docstring). ``reset_pack`` resets the
    product to that pack first (it changes the product's data: use a test environment)."""
    from playwright.async_api import async_playwright

    lane = profile.resolved_lanes()[0]
    report = CheckReport(profile=profile.name, lane=lane)
    report.lines = await asyncio.to_thread(service_lines, profile, lane, Path(packs_root),
                                           reset_pack, report)
    report.not_implemented = not_implemented(profile)
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
            bad = await selector_lines(chromium, profile)
            report.lines += bad
            if bad:
                report.lines.append(Line("start page", None, f"not opened: {len(bad)} "
                                         "selector(s) of the profile do not parse (above)"))
            else:
                await customer_side(chromium, profile, lane, report)
                if profile.capabilities.staff_side:
                    await staff_side(chromium, profile, lane, claim, Path(packs_root),
                                      report)
        finally:
            await chromium.close()
    return report
