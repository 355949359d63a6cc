"""Completion strategies, the first read and the action baseline, against pages whose DOM
changes on timers (``pages.CHAT_PAGE``): the harness is never one reply behind.

"Behind" means: the screen read after the customer sent a message does not show the reply to
that message. Every reply of the page quotes the message it answers, so it is checked exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claims_records import JourneyEvent, TrialResult

from .pages import Numbered, PageServer, chat_profile, numbered_trial

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

PACK = Path(__file__).resolve().parents[2] / "packs" / "CTL-M-001"
CSS = {"conversation": ".thread", "composer_input": "textarea",
       "composer_send": "form.composer button"}


@pytest.fixture(scope="module")
def server():
    s = PageServer()
    yield s
    s.close()



async def _journey(server, browser, tmp_path, query: str, customer=None, css: bool = False,
                   screen: dict | None = None, **completion):
    profile = chat_profile(query, **completion)
    updates = {**(CSS if css else {}), **(screen or {})}
    profile = profile.model_copy(update={
        "base_url": server.url,
        "customer_screen": profile.customer_screen.model_validate(
            {**profile.customer_screen.model_dump(), **updates}),
    })
    customer = customer or Numbered(limit=2)
    result, events = await numbered_trial(browser, profile, customer, tmp_path / "trial-1")
    return result, events, customer


def _uploader() -> Numbered:
    return Numbered(upload="photo-rear-bumper.jpg", limit=1)


def _answers(events: list[JourneyEvent]) -> list[tuple[str, str]]:
    """(message sent, latest reply read right after it) for every typed message."""
    pairs = []
    for ev, nxt in zip(events, events[1:], strict=False):
        if ev.action is not None and ev.action.kind == "say":
            pairs.append((" ".join(ev.action.text.split()),
                          " ".join(nxt.screen.latest_reply.split())))
    return pairs


def _never_behind(events: list[JourneyEvent]) -> None:
    pairs = _answers(events)
    assert len(pairs) >= 3
    for sent, read in pairs:
        assert read == f"Reply to: {sent}?", (sent, read)


@pytest.mark.parametrize("css", [False, True], ids=["playwright-selectors", "css"])
async def test_late_greeting_is_read_before_the_first_message(server, browser, tmp_path, css):
    result, events, customer = await _journey(
        server, browser, tmp_path, "greet=1000&signal=attr", css=css, selector=".thread",
        attribute="data-state", value="idle", ready=".bubble.bot")
    assert result.status == "agent_stopped", result.detail
    assert events[0].screen.latest_reply == "Hello! What happened?"
    _never_behind(events)
    transcript = (tmp_path / "trial-1" / "transcript.md").read_text()
    assert transcript.index("Hello! What happened?") < transcript.index("Reply to:")


async def test_busy_placeholder_sharing_the_reply_class_is_never_a_reply(server, browser, tmp_path):
    result, events, customer = await _journey(server, browser, tmp_path, "signal=busy&delay=600",
                                              busy=".pending")
    assert result.status == "agent_stopped", result.detail
    _never_behind(events)
    assert not any("Working on it" in s.latest_reply for s in customer.seen)


async def test_reply_in_two_chunks_waits_for_stable_text(server, browser, tmp_path):
    result, events, _ = await _journey(server, browser, tmp_path, "signal=none&chunks=400",
                                       css=True, stable_ms=700)
    assert result.status == "agent_stopped", result.detail
    _never_behind(events)


async def test_a_page_that_gets_no_time_for_a_while_is_not_read_half_replied(
        server, browser, tmp_path):
    """The page is held for 900 ms just after a reply's first part, so the timer of the
    second part (300 ms) comes long after the stable window (500 ms) has passed by the clock:
    the window counts only time the page was seen running, and the whole reply is read."""
    result, events, _ = await _journey(server, browser, tmp_path,
                                       "signal=none&chunks=300&hold=900", css=True,
                                       stable_ms=500)
    assert result.status == "agent_stopped", result.detail
    _never_behind(events)


async def test_a_too_short_stable_window_reads_half_a_reply(server, browser, tmp_path):
    """The control for the test above: the same page read too early shows a partial reply."""
    _, events, _ = await _journey(server, browser, tmp_path, "signal=none&chunks=600",
                                  stable_ms=100)
    assert any(read != f"Reply to: {sent}?" for sent, read in _answers(events))


async def test_composer_disabled_while_busy(server, browser, tmp_path):
    result, events, _ = await _journey(server, browser, tmp_path, "signal=enabled&delay=500",
                                       enabled="textarea", stable_ms=50)
    assert result.status == "agent_stopped", result.detail
    _never_behind(events)


async def test_a_late_reply_while_the_composer_waits_is_not_the_answer(server, browser,
                                                                       tmp_path):
    """After each reply a second message comes 700 ms later, the composer disabled till then;
    the customer has already decided, and typing waits for the composer. The baseline is
    taken after typing, so the late message is not taken for the answer to the new one."""
    result, events, _ = await _journey(server, browser, tmp_path, "signal=none&late=700",
                                       stable_ms=150)
    assert result.status == "agent_stopped", result.detail
    _never_behind(events)
    history = (tmp_path / "trial-1" / "transcript.md").read_text()
    assert history.count("One more thing") >= 2


async def test_acting_while_the_product_is_still_busy_is_noted_and_not_one_behind(
        server, browser, tmp_path):
    """The page goes busy for 150 ms whenever the composer gets the focus, so every message
    is typed while the product is busy: the page records that at the customer's input, the
    journey notes it, and the wait lets the product finish before it looks for the answer."""
    result, events, _ = await _journey(server, browser, tmp_path,
                                       "signal=attr&focus_busy=150&delay=400",
                                       selector=".thread", attribute="data-state", value="idle")
    assert result.status == "agent_stopped", result.detail
    _never_behind(events)
    busy = [e for e in events if "acted while the product was still busy" in e.note]
    assert len(busy) >= 2


async def test_an_answer_that_came_while_the_product_was_busy_is_the_answer(server, browser,
                                                                           tmp_path):
    """As above, but the product stays busy for 1 s whenever the composer gets the focus,
    longer than it takes to answer (300 ms): when it is idle at last, the answer is on
    screen, and it is the answer — not "no new reply" after the 4 s a new reply may take."""
    result, events, _ = await _journey(server, browser, tmp_path,
                                       "signal=attr&focus_busy=1000&delay=300",
                                       selector=".thread", attribute="data-state", value="idle")
    assert result.status == "agent_stopped", result.detail
    _never_behind(events)
    assert not any("no new reply" in e.note for e in events)
    waits = [e.timings.reply_wait_s for e in events if e.timings.reply_wait_s is not None]
    assert waits and max(waits) < 1.0 + 0.7


async def test_claim_number_in_the_reply_ends_the_journey(server, browser, tmp_path):
    result, events, _ = await _journey(server, browser, tmp_path, "signal=attr&claim_after=3",
                                       selector=".thread", attribute="data-state", value="idle")
    assert result.status == "completed" and result.claim_number == "CLM-26-8F3K2Q"


async def test_an_acknowledged_upload_is_recorded_as_uploaded(server, browser, tmp_path):
    result, events, customer = await _journey(
        server, browser, tmp_path, "signal=attr&upload=ack", _uploader(),
        selector=".thread", attribute="data-state", value="idle")
    upload = next(e for e in events if e.action and e.action.kind == "upload")
    assert upload.product_event is None and result.product_events == []
    assert "[uploaded: photo-rear-bumper.jpg]" in (tmp_path / "trial-1" / "transcript.md"
                                                   ).read_text()


async def test_an_ignored_upload_is_the_products_doing(server, browser, tmp_path):
    result, events, _ = await _journey(
        server, browser, tmp_path, "signal=attr&upload=ignore", _uploader(),
        selector=".thread", attribute="data-state", value="idle",
        screen={"upload_timeout_s": 1.0})
    upload = next(e for e in events if e.action and e.action.kind == "upload")
    assert upload.product_event == "upload_not_acknowledged"
    assert result.product_events == ["upload_not_acknowledged"]
    assert result.status != "simulator_error"
    trial = TrialResult.model_validate(
        json.loads((tmp_path / "trial-1" / "trial.json").read_text()))
    assert trial.product_events == ["upload_not_acknowledged"]


@pytest.mark.parametrize("send_after_attach,acknowledged", [(True, True), (False, False)])
async def test_a_product_that_uploads_on_send(server, browser, tmp_path, send_after_attach,
                                             acknowledged):
    result, events, _ = await _journey(
        server, browser, tmp_path, "signal=attr&upload=send", _uploader(),
        selector=".thread", attribute="data-state", value="idle",
        screen={"send_after_attach": send_after_attach, "upload_timeout_s": 1.0})
    upload = next(e for e in events if e.action and e.action.kind == "upload")
    assert (upload.product_event is None) is acknowledged
