"""Reading a page through Playwright-only selectors (roles, text) that the page renders anew
faster than the harness can mark them again.

A framework may render its whole message list anew many times a second while a reply
streams in. The marks the harness sets for such selectors then last only a moment, and a read
made after the list was rendered again sees no reply at all. A wait that runs out while the
new reply is still streaming must still know that the reply came (its page saw it while the
marks held), or the reply would be taken for "no new reply after the action".
"""

from __future__ import annotations

import pytest
import pytest_asyncio

from harness.browser._marks import MARK_ATTR
from harness.browser._screen import Probe, Screen

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

# A list of replies and a status block; with window.churn on, every marking of a reply makes
# the page render the whole list anew (new nodes without the marks) straight away.
PAGE = f"""<!doctype html>
<div class="chatbot"><div class="wrap"></div></div><div class="status">processing</div>
<script>
window.replies = ["Hello! How can I help?"];
window.churn = false;
window.render = () => {{
  const wrap = document.querySelector(".wrap");
  wrap.replaceChildren(...window.replies.map((t) => {{
    const p = document.createElement("p");
    p.setAttribute("role", "article");
    p.textContent = t;
    return p;
  }}));
}};
window.render();
new MutationObserver(() => {{ if (window.churn) setTimeout(window.render, 0); }})
  .observe(document.body, {{subtree: true, attributes: true,
                            attributeFilter: ["{MARK_ATTR}"]}});
</script>"""


BEFORE = Probe(count=1, latest="Hello! How can I help?", complete=True)
# The waits below run out (the status stays up): long enough for the page to be marked and
# watched a few times on a busy machine, where marking alone can take most of half a second.
WAIT_S = 3.0


@pytest_asyncio.fixture(loop_scope="module")
async def page(browser):
    """The page above in a tab of its own."""
    tab = await browser.new_page()
    try:
        await tab.set_content(PAGE)
        yield tab
    finally:
        await tab.close()


def _screen(page) -> Screen:
    regions = {"conversation": [".chatbot"], "agent_message": ["role=article"]}
    completion = {"busy": ["text=/processing/"], "enabled": [], "stable_ms": 0}
    return Screen(page, regions, completion, ready=[], claim_number_pattern="CLM-[0-9]+")


async def test_a_reply_seen_while_it_streamed_has_appeared_though_its_marks_are_lost(page):
    screen = _screen(page)
    # the reply has come and is still streaming (the status shows): the wait runs out
    await page.evaluate("window.replies.push('Reply to: my car was hit')")
    await page.evaluate("window.render()")
    assert await screen.wait(BEFORE, WAIT_S) is None
    # from now on the page renders its list anew whenever it is marked
    await page.evaluate("window.churn = true; window.render()")
    appeared, _ = await screen.appeared(BEFORE)
    assert appeared


async def test_a_wait_that_saw_no_new_reply_does_not_make_one_appear(page):
    screen = _screen(page)
    assert await screen.wait(BEFORE, WAIT_S) is None  # busy, and nothing new
    await page.evaluate("window.churn = true; window.render()")
    appeared, _ = await screen.appeared(BEFORE)
    assert not appeared
    # what one wait saw is not carried into the next: a new wait starts afresh
    await page.evaluate("window.churn = false; window.replies.push('Reply to: hi')")
    await page.evaluate("window.render()")
    assert await screen.wait(BEFORE, 0.3) is None
    await page.evaluate("window.replies.pop(); window.render()")
    assert await screen.wait(BEFORE, 0.3) is None
    appeared, _ = await screen.appeared(BEFORE)
    assert not appeared
