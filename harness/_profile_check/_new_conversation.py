"""``profile check`` of the step that starts a new conversation (``[conversation.new]``).

A control is looked for on the start page first: one that matches nothing is reported at
once, with its key and selector, instead of the wait a run would spend on it before ending
every trial as ``product_error``. Then the step is tried as a run takes it: a test message
starts a conversation to leave, the control is clicked (or the URL opened and the start page
opened again), and the page must show a fresh conversation — the test message gone — within
the step's time. A restart is not tried (it would restart the product).
"""

from __future__ import annotations

import asyncio
import time

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator

from claims_records import HarnessError

from ..browser import CustomerPage
from ..profile import Lane, NewConversation
from ..trial import earlier_messages, start_new_conversation
from ._report import Line

TEST_MESSAGE = "Hello, this is a test message from the harness's profile check."
_WHAT = "new conversation"
_POLL_S = 0.1
_CLICK_TIMEOUT_MS = 5000


async def _visible_control(cp: CustomerPage, step: NewConversation) -> Locator | None:
    """The first alternative of the control that shows on the page, or None."""
    view = await cp.chat()
    for selector in step.control:
        try:
            shown = view.locator(selector).filter(visible=True)
            if await shown.count():
                return shown.first
        except PlaywrightError:
            continue
    return None


async def new_conversation_lines(cp: CustomerPage, lane: Lane,
                                 step: NewConversation | None) -> list[Line]:
    """The lines on ``step``, tried on ``cp`` (the start page, read and ready)."""
    if step is None:
        return []
    if step.by == "restart":
        return [Line(_WHAT, None, "by restart: not tried by profile check (it would restart "
                     "the product)")]
    key = f"conversation.new.{step.by}"
    shown = " | ".join(step.control) if step.by == "control" else step.url
    said = f"{key} = {shown!r}"
    if step.by == "control" and await _visible_control(cp, step) is None:
        return [Line(_WHAT, False, f"{said} matches no visible control on the start page (a "
                     f"run would wait {step.timeout_s:g} s for it, then end the trial as "
                     "product_error)")]
    try:
        await cp.wait_reply(await cp.say(TEST_MESSAGE))
    except HarnessError as exc:
        return [Line(_WHAT, False, f"a test message could not be sent to start a "
                     f"conversation to leave: {exc}")]
    if not await earlier_messages(cp):
        return [Line(_WHAT, None, "customer_screen.customer_message shows nothing after a "
                     f"test message was sent: whether {key} starts a fresh conversation cannot "
                     "be told (a run cannot tell either)", warn=True)]
    started = time.monotonic()
    try:
        if step.by == "control":
            control = await _visible_control(cp, step)
            if control is None:
                return [Line(_WHAT, False, f"{said} no longer shows once a conversation has "
                             "begun")]
            await control.click(timeout=_CLICK_TIMEOUT_MS)
            done = "clicked"
        else:
            await start_new_conversation(cp, lane, step)
            await cp.open_start()
            done = "opened"
    except (PlaywrightError, HarnessError) as exc:
        return [Line(_WHAT, False, f"{said} could not be used: {str(exc).splitlines()[0]}")]
    deadline = started + step.timeout_s
    while (left := await earlier_messages(cp)) and time.monotonic() < deadline:
        await asyncio.sleep(_POLL_S)
    took = time.monotonic() - started
    if left:
        return [Line(_WHAT, False, f"{said} was {done}, but the conversation did not change: "
                     f"{left} customer message(s) still shown after {took:.1f} s")]
    return [Line(_WHAT, True, f"{said} {done}: a fresh conversation (the test message gone) "
                 f"after {took:.1f} s")]
