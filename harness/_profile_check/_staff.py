"""The staff side of ``profile check``: sign-in, the claim page, the queue and the waiting
list, each region read (decision controls found, never clicked)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError

from ..profile import Lane, Profile, url
from ..staff import CLAIM_REGIONS, WAITING_REGIONS, StaffSession, open_claim
from ._report import CheckReport, Line, read_regions
from ._report import rows as region_rows

# Staff decision controls looked for on the claim page (never clicked by the check).
DECISION_KEYS = ("approve", "amend_amount", "decline", "return_for_info", "note", "amount",
                 "confirm", "queue")


async def staff_side(browser: Any, profile: Profile, lane: Lane, claim: str | None,
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
            report.staff += region_rows(await read_regions(page, regions), regions, set())
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
            found = region_rows(await read_regions(page, regions), regions, set())
            report.staff += [(f"{name} ({path})", count, text) for name, count, text in found]
    except PlaywrightError as exc:
        report.lines.append(Line("staff side", False, str(exc).splitlines()[0]))
    finally:
        await session.close()
