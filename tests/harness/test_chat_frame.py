"""A chat widget inside an iframe (``customer_screen.frame``): a whole journey reads and types
through the frame — every message answered, uploads acknowledged, the claim number read, the
new-conversation control clicked there — on the site page embedding the chat page
(``pages.WIDGET_HOST``). Table-driven over completion strategies and selector kinds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from claims_records import ProductError

from .pages import Numbered, PageServer, chat_profile, numbered_trial

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

FRAME = "iframe[title='Claims chat']"


@pytest.fixture(scope="module")
def server():
    s = PageServer()
    yield s
    s.close()


def _profile(server: PageServer, query: str, frame: str | list[str], **completion: Any):
    profile = chat_profile(query, **completion)
    screen = profile.customer_screen.model_validate(
        {**profile.customer_screen.model_dump(), "start_path": f"/widget?{query}",
         "frame": frame})
    return profile.model_copy(update={"base_url": server.url, "customer_screen": screen})


# (case, page query, frame selector, completion, customer)
CASES: list[tuple[str, str, str | list[str], dict[str, Any], dict[str, Any]]] = [
    ("attribute", "signal=attr&greet=200", FRAME,
     {"selector": "role=log", "attribute": "data-state", "value": "idle",
      "ready": ".bubble.bot"}, {"limit": 3}),
    ("busy placeholder", "signal=busy&greet=200", FRAME,
     {"busy": ".pending", "ready": ".bubble.bot"}, {"limit": 2}),
    ("stable text, frame by alternatives", "signal=none&greet=200", ["iframe#nope", FRAME],
     {"stable_ms": 400}, {"limit": 2}),
    ("upload, then a claim number", "signal=attr&greet=200&claim_after=2", FRAME,
     {"selector": "role=log", "attribute": "data-state", "value": "idle"},
     {"limit": 4, "upload": "photo-rear-bumper.jpg"}),
]


@pytest.mark.parametrize(("case", "query", "frame", "completion", "who"), CASES,
                         ids=[c[0] for c in CASES])
async def test_a_customer_reads_and_types_through_the_frame(case, query, frame, completion, who,
                                                            server, browser, tmp_path: Path):
    customer = Numbered(**who)
    result, events = await numbered_trial(browser, _profile(server, query, frame, **completion),
                                          customer, tmp_path / "trial-1")
    # the customer stops on a claim number (completed) or when it has said enough
    assert result.status == ("completed" if "claim_after" in query else "agent_stopped"), result
    # the pack's first message was typed into the frame, and its answer read there
    assert customer.seen[0].latest_reply.startswith("Reply to: Hello, I need to report")
    said = [e.action.text for e in events if e.action is not None and e.action.kind == "say"]
    assert said, events
    for ev, nxt in zip(events, events[1:], strict=False):  # each message answered, read in time
        if ev.action is not None and ev.action.kind == "say" and "claim_after" not in query:
            assert nxt.screen.latest_reply == f"Reply to: {ev.action.text}?"
    if "upload" in who:
        [upload] = [e for e in events if e.action is not None and e.action.kind == "upload"]
        assert any("Thanks, got the file" in e.screen.latest_reply for e in events)
        assert upload is not None
    if "claim_after" in query:
        assert events[-1].screen.claim_number == "CLM-26-8F3K2Q"


async def test_without_the_frame_key_the_widget_page_has_no_chat(server, browser, tmp_path):
    profile = _profile(server, "signal=attr&greet=200", [],
                       selector="role=log", attribute="data-state", value="idle")
    result, _ = await numbered_trial(browser, profile, Numbered(limit=1), tmp_path / "trial-1")
    assert result.status == "product_error", result


async def test_the_new_conversation_control_is_clicked_inside_the_frame(server, browser):
    from harness.browser import CustomerPage
    from harness.profile import NewConversation
    from harness.trial import earlier_messages, start_new_conversation

    profile = _profile(server, "signal=attr&greet=200&restart=clear", FRAME,
                       selector="role=log", attribute="data-state", value="idle")
    context = await browser.new_context()
    try:
        cp = CustomerPage(await context.new_page(), profile.customer_side(), server.url)
        await cp.open_start()
        await cp.wait_reply(await cp.say("a message to leave"))
        assert await earlier_messages(cp) == 1
        # the chat page keeps its conversation in the page: clicked where it stands
        step = NewConversation(by="control", control="role=button[name='Start a new claim']",
                               timeout_s=3)
        control = (await cp.chat()).locator(step.control[0])
        await control.click()
        assert await earlier_messages(cp) == 0
        await cp.page.reload()  # the page replaced the frame: found again
        await cp.read()
        assert cp.view is not cp.page and not cp.view.is_detached()
        bad = NewConversation(by="control", control="role=button[name='Start a new clam']",
                              timeout_s=1)
        with pytest.raises(ProductError, match="new-conversation control"):
            await start_new_conversation(cp, profile.resolved_lanes()[0], bad)
    finally:
        await context.close()
