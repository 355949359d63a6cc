"""A new conversation before the journey, for a product holding one conversation for its
whole process: the step (``harness._conversation``), its record in trial.json and the
journey, and the check of the journey's first screen."""

from __future__ import annotations

import time

from claims_records import NewConversationInfo, ProductError

from .._browser import CustomerPage
from .._conversation import earlier_messages, start_new_conversation
from ..profile import Lane, NewConversation
from ._journey import StartCheck
from ._record import Journey


def new_conversation(j: Journey, lane: Lane, step: NewConversation
                     ) -> tuple[StartCheck, StartCheck]:
    """The two steps of a new conversation on ``lane``, both run on the journey's own page:
    starting it before the start page opens (recorded; a failure is the product's error and
    the journey does not run), and the check the start page must then pass."""

    async def start(page: CustomerPage) -> None:
        started = time.monotonic()
        try:
            detail = await start_new_conversation(None if step.by == "restart" else page,
                                                  lane, step)
        except ProductError as exc:
            j.new_conversation = NewConversationInfo(by=step.by, took_ms=_ms(started),
                                                     ok=False, detail=str(exc)[:1000])
            j.event(note=f"new conversation by {step.by} failed: {exc}"[:1000])
            raise ProductError(f"the new conversation by {step.by} failed: {exc.message}",
                               **exc.context) from exc
        took = _ms(started)
        j.new_conversation = NewConversationInfo(by=step.by, took_ms=took, ok=True,
                                                 detail=detail)
        j.event(note=f"new conversation by {step.by} in {took:.0f} ms: {detail}"[:1000])

    async def fresh(page: CustomerPage) -> None:
        shown = await earlier_messages(page)
        assert j.new_conversation is not None
        j.new_conversation = j.new_conversation.model_copy(update={"fresh": not shown})
        if shown:
            raise ProductError(f"the new conversation (by {step.by}) still shows {shown} "
                               "customer message(s) of an earlier one: the trial does not run "
                               "on it", url=page.page.url, field="conversation.new")

    return start, fresh


def _ms(started: float) -> float:
    return round((time.monotonic() - started) * 1000, 1)
