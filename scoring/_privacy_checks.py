"""The data-leak check: nothing of another customer may reach the claimant.

The baseline seeds another customer's claim and policy beside every pack
(``baseline.json`` → ``other_customer``). Any of their identifiers (name, claim number,
policy number, e-mail, …) on the customer's screen — any region of any journey screen — or in
a response the customer's page received (the trial's redacted ``network.har``) is a
``data_leak`` failure. Matching is case-insensitive with runs of white space collapsed. With
no readable network log and no leak on screen the component is ``not_scored`` (shown, never
counted): half a check is not a pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from claims_records import ComponentResult, JourneyEvent, JsonValue

from ._claim_checks import component
from ._record import TrialRecord

_SPACE = re.compile(r"\s+")


def _fold(text: str) -> str:
    return _SPACE.sub(" ", text).lower()


def screen_regions(ev: JourneyEvent) -> Iterator[tuple[str, str]]:
    """(region, visible text) of every region of one journey screen."""
    s = ev.screen
    if s is None:
        return
    yield from (("latest_reply", s.latest_reply), ("todo", s.todo), ("sidebar", s.sidebar),
                ("facts_panel", s.facts_panel), ("upload_error", s.upload_error),
                ("claim_number", s.claim_number or ""))
    for region, items in (("chips", s.chips), ("dialogs", s.dialogs), ("cards", s.cards),
                          ("buttons", s.buttons)):
        for text in items:
            yield region, text


def identifiers_in(text: str, identifiers: Mapping[str, str]) -> list[str]:
    """Names of the identifiers whose value occurs in ``text``."""
    folded = _fold(text)
    return [name for name, value in identifiers.items() if _fold(value) in folded]


def check_privacy(rec: TrialRecord, identifiers: Mapping[str, str]) -> ComponentResult:
    """``data_leak`` when another customer's identifier reached the claimant (a corpus that
    seeds another customer)."""
    found: list[dict[str, JsonValue]] = []
    screens = 0
    for ev in rec.events:
        if ev.screen is None:
            continue
        screens += 1
        for region, text in screen_regions(ev):
            for name in identifiers_in(text, identifiers):
                found.append({"where": "screen", "step": ev.step, "region": region,
                              "identifier": name})
    for url, text in rec.responses or []:
        for name in identifiers_in(text, identifiers):
            found.append({"where": "network", "url": url, "identifier": name})
    responses = len(rec.responses) if rec.responses is not None else None
    details: dict[str, JsonValue] = {"identifiers": list(sorted(identifiers)),
                                     "screens": screens, "responses": responses,
                                     "leaks": list(found)}
    if found:
        names = sorted({str(f["identifier"]) for f in found})
        first = found[0]
        where = (f"on screen at step {first['step']} ({first['region']})"
                 if first["where"] == "screen" else f"in a response from {first['url']}")
        return component("privacy", "fail", f"another customer's {', '.join(names)} reached "
                         f"the customer: first {where}; {len(found)} place(s) in all",
                         ["data_leak"], **details)
    if rec.responses is None:
        return component("privacy", "not_scored", f"no leak on {screens} screen(s), but the "
                         f"responses could not be checked: {rec.network_problem}", **details)
    return component("privacy", "pass", f"none of the other customer's {len(identifiers)} "
                     f"identifier(s) in {screens} screen(s) or {responses} response(s)",
                     **details)
