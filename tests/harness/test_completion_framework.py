"""Completion on a page that behaves like a stock framework's chat component
(``framework_chat.html``, no test ids): a status block with a progress text that outlives the
reply, goes for a moment and comes back for a run of its own, a queue for what the customer
sends meanwhile, replies streamed token by token, the message list rendered anew.

The wait after an action ends when the reply is on screen and complete, never later than
that plus the strategy's settle time (``stable_ms``), and a reply on screen is never "no new
reply". Each wait is checked against the time the page itself takes (its query string) plus
that settle time plus ``MARGIN_S``; the profile gives up on a new reply after 4 s
(``pages.chat_profile``), so a missed reply shows as a wait of 4 s or more.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from claims_records import JourneyEvent, TrialResult

from .pages import FRAMEWORK_PAGE, Numbered, PageServer, framework_profile, numbered_trial

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

PACK = Path(__file__).resolve().parents[2] / "packs" / "CTL-M-001"
CLAIM = "CLM-26-8F3K2Q"
CLAIM_WORDS = len(f"Done. Your claim number is {CLAIM}.".split())
DELAY_S = 0.3  # the page's default time before a reply's first token
MARGIN_S = 1.0  # a few roundtrips and animation frames, on a shared machine under load
# A wait is timed from the end of the click, the page's clock runs from the click itself.
CLICK_S = 0.4


@pytest.fixture(scope="module")
def server():
    s = PageServer(FRAMEWORK_PAGE)
    yield s
    s.close()


async def _journey(server, browser, tmp_path, query: str, selectors: str = "css",
                   customer: Numbered | None = None, **completion
                   ) -> tuple[TrialResult, list[JourneyEvent]]:
    profile = framework_profile(server.url, query, selectors, **completion)
    return await numbered_trial(browser, profile, customer or Numbered(limit=2),
                                tmp_path / "trial-1")


def _answers(events: list[JourneyEvent]) -> list[tuple[str, JourneyEvent]]:
    """(message sent, the event of the screen read after it) for every typed message."""
    return [(" ".join((ev.action.text or "").split()), nxt)
            for ev, nxt in zip(events, events[1:], strict=False)
            if ev.action is not None and ev.action.kind == "say"]


def _never_behind(events: list[JourneyEvent], least: int = 3) -> None:
    """Every message's screen shows the reply to that very message, never "no new reply"."""
    pairs = _answers(events)
    assert len(pairs) >= least
    for sent, nxt in pairs:
        read = " ".join(nxt.screen.latest_reply.split())
        assert read.startswith(f"Reply to: {sent}?") or CLAIM in read, (sent, read)
        assert "no new reply" not in nxt.note, (sent, nxt.note)


async def test_an_answer_that_came_while_the_status_stayed_up_is_the_answer(
        server, browser, tmp_path):
    """The status goes for 120 ms after each reply and comes back for a second run of 1.2 s.
    Watching only the status (and its progress text), the wait ends in that moment; the
    customer sends its next message during the second run, the page queues it and answers it
    — with the claim number — while the status stays up. When the status finally goes, that
    answer is on screen: it is the answer, read at once, not "no new reply" after 4 s.

    Plain CSS selectors: the page is watched every animation frame without a break, so the
    120 ms are always seen (with Playwright-only selectors the watch pauses to mark them
    again, and may or may not see so short a moment)."""
    query = "stream=40&linger=300&rerun=1200&gap=120&claim_after=2"
    result, events = await _journey(server, browser, tmp_path, query,
                                    customer=Numbered(limit=2, pause_s=0.2))
    assert result.status == "completed" and result.claim_number == CLAIM, result.detail
    last = events[-1]
    assert "acted while the product was still busy" in last.note
    assert "no new reply" not in last.note
    # from the send: what is left of the second run, then the answer's own time
    took = 1.2 + DELAY_S + CLAIM_WORDS * 0.04 + 0.3
    assert last.timings.reply_wait_s <= took + MARGIN_S
    _never_behind(events, least=2)


async def test_a_reply_still_changing_when_the_customer_acted_is_not_the_answer(
        server, browser, tmp_path):
    """The second run changes the reply the customer has just read in place (adds
    " (sent)"), and the status goes for 200 ms before the queued message is answered: that
    change belongs to the screen the customer acted on; the answer is the reply that comes
    next."""
    query = "stream=40&linger=300&rerun=1200&gap=120&edit=1&queue_gap=200"
    result, events = await _journey(server, browser, tmp_path, query,
                                    customer=Numbered(limit=2, pause_s=0.2))
    assert result.status == "agent_stopped", result.detail
    _never_behind(events)
    assert any("acted while the product was still busy" in e.note for e in events)


@pytest.mark.parametrize("selectors,completion", [
    ("css", {}),
    ("roles", {}),
    ("css", {"busy": [], "stable_ms": 400}),
], ids=["status", "status-playwright-selectors", "stable-text-only"])
async def test_a_streamed_reply_is_read_whole_as_soon_as_it_is_complete(
        server, browser, tmp_path, selectors, completion):
    """The reply grows a word every 150 ms and the whole message list is rendered anew with
    every word; the first reply takes about 5 s, longer than a new reply may take to appear
    (4 s). It has appeared by then, so the wait goes on until it is complete: each reply is
    read whole, once the status goes (or, without a status, once the text has stood still
    for stable_ms), and never as "no new reply"."""
    result, events = await _journey(server, browser, tmp_path, "stream=150&rerender=1",
                                    selectors, **completion)
    assert result.status == "agent_stopped", result.detail
    _never_behind(events)
    settle_s = completion.get("stable_ms", 0) / 1000
    for sent, nxt in _answers(events):
        words = len(f"Reply to: {sent}?".split())
        assert nxt.timings.reply_wait_s <= DELAY_S + words * 0.15 + settle_s + MARGIN_S
    first = _answers(events)[0][1].timings.reply_wait_s
    assert first > 4.0  # the case this test is about: longer than a new reply may take


async def test_a_list_rendered_anew_before_the_customer_acts_is_read_again(
        server, browser, tmp_path):
    """With Playwright-only selectors the harness marks what they match. 100 ms after each
    reply the page renders its whole message list anew without showing its status (a
    framework's quiet rerun), before the customer acts: the page's record of the moment the
    customer acted cannot be read through marks that lost their elements, so the screen as
    read stands as the baseline — the product was not busy, and the next answer is found."""
    query = "stream=40&rerun=50&gap=100&quiet=1&rerender=1"
    result, events = await _journey(server, browser, tmp_path, query, "roles",
                                    Numbered(limit=2, pause_s=0.2))
    assert result.status == "agent_stopped", result.detail
    _never_behind(events)
    assert not any("acted while the product was still busy" in e.note for e in events)


async def test_a_reply_that_keeps_its_hidden_dots_is_a_reply(server, browser, tmp_path):
    """Each reply starts as a bubble of animated dots, which the profile names busy so that
    the bubble is never read as a reply; the text then streams into that same bubble and the
    dots stay in it, hidden. Once they are hidden the bubble is a reply like any other."""
    result, events = await _journey(server, browser, tmp_path, "stream=40&pending=1",
                                    busy=[".status, .dots"])
    assert result.status == "agent_stopped", result.detail
    _never_behind(events)
    for sent, nxt in _answers(events):
        words = len(f"Reply to: {sent}?".split())
        assert nxt.timings.reply_wait_s <= DELAY_S + words * 0.04 + MARGIN_S


async def test_a_status_that_outlives_the_reply_ends_the_wait_when_it_goes(
        server, browser, tmp_path):
    """The reply is complete, but the status stays up 1.5 s longer (the framework's
    post-processing): the wait ends once it has gone, plus the settle time (stable_ms) — not
    before it goes, and not later than that."""
    result, events = await _journey(server, browser, tmp_path, "stream=40&linger=1500",
                                    stable_ms=300)
    assert result.status == "agent_stopped", result.detail
    _never_behind(events)
    for sent, nxt in _answers(events):
        words = len(f"Reply to: {sent}?".split())
        product_s = DELAY_S + (words - 1) * 0.04 + 1.5
        assert product_s - CLICK_S <= nxt.timings.reply_wait_s <= product_s + 0.3 + MARGIN_S


async def test_a_status_that_goes_for_a_moment_between_runs_does_not_end_the_wait(
        server, browser, tmp_path):
    """After each reply the status goes for 60 ms and comes back for a run of its own, three
    times. The settle time (stable_ms, 250 ms) is longer than those moments, so the wait ends
    once the last run is over, plus the settle time: the customer never acts while the page
    is still busy."""
    query = "stream=40&linger=300&rerun=800&reruns=3&gap=60"
    result, events = await _journey(server, browser, tmp_path, query, stable_ms=250)
    assert result.status == "agent_stopped", result.detail
    _never_behind(events)
    assert not any("acted while the product was still busy" in e.note for e in events)
    runs_s = 3 * (0.06 + 0.8)
    for sent, nxt in _answers(events):
        words = len(f"Reply to: {sent}?".split())
        product_s = DELAY_S + (words - 1) * 0.04 + 0.3 + runs_s
        assert product_s - CLICK_S <= nxt.timings.reply_wait_s <= product_s + 0.25 + MARGIN_S
