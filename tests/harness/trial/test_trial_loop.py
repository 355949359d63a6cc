"""The journey loop's own stopping rules, against a tiny contract-following page.

The page (served on 127.0.0.1 by the test) replies to every message after a short busy spell;
``?mode=same`` always asks the same question, ``?mode=count`` a new one each time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claims_records import JourneyEvent, TrialResult
from harness import TrialRig, TrialSettings, load_profile, run_trial
from harness.customers import ScriptedCustomer

from ..pages import NoState, PageServer

pytestmark = [pytest.mark.browser, pytest.mark.asyncio]

PACK = Path(__file__).resolve().parents[3] / "packs" / "CTL-M-001"

PAGE = """<!doctype html><html><body><main>
<div data-testid="todo-bar">Next step: answer the question</div>
<div data-testid="conversation" data-state="idle"></div>
<textarea data-testid="composer-input" aria-label="Message"></textarea>
<button data-testid="composer-send">Send</button>
<input type="file" data-testid="attach-input" aria-label="Attach a file">
</main><script>
const mode = new URLSearchParams(location.search).get("mode") || "same";
const conv = document.querySelector("[data-testid=conversation]");
let n = 0;
document.querySelector("[data-testid=composer-send]").onclick = () => {
  const box = document.querySelector("[data-testid=composer-input]");
  const mine = document.createElement("div");
  mine.setAttribute("data-testid", "customer-message"); mine.textContent = box.value;
  conv.appendChild(mine); box.value = ""; conv.setAttribute("data-state", "busy");
  setTimeout(() => {
    n += 1;
    const reply = document.createElement("div");
    reply.setAttribute("data-testid", "agent-message");
    reply.textContent = mode === "same" ? "What is your favourite colour?"
                                        : "Question number " + n + ": what is your shoe size?";
    conv.appendChild(reply); conv.setAttribute("data-state", "idle");
  }, 60);
};
</script></body></html>"""


@pytest.fixture(scope="module")
def server():
    s = PageServer(PAGE)
    yield s
    s.close()


async def _run(server, tmp_path, mode: str, settings: TrialSettings
               ) -> tuple[TrialResult, Path]:
    from playwright.async_api import async_playwright

    from harness import Lane
    from harness.browser import launch_browser

    profile = load_profile("reference")
    profile = profile.model_copy(update={
        "completion": profile.completion.model_copy(update={"timeout_s": 5,
                                                            "new_reply_timeout_s": 3}),
        "customer_screen": profile.customer_screen.model_copy(
            update={"start_path": f"/?mode={mode}"}),
    })
    lane = Lane(name="t", base_url=server.url, seed_url=server.url)
    folder = tmp_path / "trial-1"

    async with async_playwright() as pw:
        browser = await launch_browser(pw)
        try:
            rig = TrialRig(browser, profile, lane, NoState(profile),
                           lambda view, _dir: ScriptedCustomer(view), settings)
            result = await run_trial(rig, PACK, 1, folder)
        finally:
            await browser.close()
    return result, folder


async def test_the_same_screen_again_and_again_is_stuck(server, tmp_path):
    result, folder = await _run(server, tmp_path, "same", TrialSettings(stuck_after=3))
    assert result.status == "stuck" and result.stop_reason == "stuck"
    events = [JourneyEvent.model_validate_json(x)
              for x in (folder / "journey.jsonl").read_text().splitlines()]
    said = [e.action.text for e in events if e.action and e.action.kind == "say"]
    assert said[1:] == ["Sorry, I don't know that off the top of my head."] * 2
    staff = json.loads((folder / "staff.json").read_text())
    assert staff["error"] and not staff["found"]
    assert (folder / "network.har").is_file() and (folder / "state-after.json").is_file()


async def test_a_new_question_every_time_ends_at_the_turn_limit(server, tmp_path):
    result, _ = await _run(server, tmp_path, "count", TrialSettings(turn_limit=4, stuck_after=3))
    assert result.status == "stuck" and result.stop_reason == "turn_limit"
    assert result.customer_messages == 5  # the initial message plus four answers
    assert len(result.turn_times_s) == 5
