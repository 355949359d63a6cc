"""Small chat pages whose DOM changes on timers, served on loopback, and what drives them.

``CHAT_PAGE`` behaves by its query string, so one server covers every test:

- ``greet=MS``      the greeting is rendered client-side MS after load (0: none);
- ``signal=attr``   the conversation carries data-state=busy|idle (the reference contract);
- ``signal=busy``   a busy placeholder *sharing the reply class* stands in while working;
- ``signal=enabled`` the composer and send button are disabled while working;
- ``signal=none``   no signal at all (only "text stable for N ms" can tell);
- ``delay=MS``      how long a reply takes (default 300);
- ``chunks=MS``     the reply arrives in two parts MS apart;
- ``stall=MS``      the page's main thread is held for MS just after the first part;
- ``hold=MS``       the browser's page processes are stopped for MS just after the first part
                    (a machine so busy that they get no time at all; the server does it);
- ``late=MS``       after each reply, a second message MS later, composer disabled till then;
- ``focus_busy=MS`` the product is busy for MS each time the composer gets the focus (it
                    starts some work of its own just as the customer starts typing);
- ``upload=ack|ignore|send``  uploads are shown / silently dropped / shown only after Send;
- ``claim_after=N`` after the Nth customer message the reply carries a claim number;
- ``restart=clear|noop`` a "Start a new claim" button that empties the conversation / does
  nothing.

``/spa?QUERY`` serves the same page rendered client-side: its HTML holds no region, its script
builds the page 800 ms after load. ``/widget?QUERY`` serves a page embedding the chat page
(``/?QUERY``) in an iframe titled "Claims chat", as a site with a chat widget does.

Every reply to a message quotes it ("Reply to: <text>?"), so a test can tell which message a
screen answers. ``FRAMEWORK_PAGE`` (``framework_chat.html``) is a chat page built the way a
stock chat framework's component behaves: a status block that comes and goes, streamed
replies, a queue, the message list rendered anew.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from claims_corpus.formats import Setup
from claims_records import (
    CustomerAction,
    CustomerInfo,
    JourneyEvent,
    ScreenReading,
    StateDump,
    TrialResult,
)
from harness import Profile, ResetAdapter, ResetOutcome, TrialRig, TrialSettings, run_trial
from tests.claims_dev._procs import descendants

CHAT_PAGE = """<!doctype html><html><head><style>.hidden{display:none}</style></head>
<body><main>
<ol class="thread" role="log"></ol>
<div class="notice" role="alert"></div>
<form class="composer"><textarea aria-label="Your message"></textarea>
<input type="file" aria-label="Add files"><button type="button">Send</button></form>
</main><script>
const q = new URLSearchParams(location.search);
const num = (k, d) => q.has(k) ? Number(q.get(k)) : d;
const signal = q.get("signal") || "attr";
const thread = document.querySelector(".thread");
const box = document.querySelector("textarea");
const send = document.querySelector("button");
const file = document.querySelector("input[type=file]");
let sent = 0, pendingFile = null;
thread.setAttribute("data-state", "idle");
const bubble = (cls, text) => {
  const li = document.createElement("li"); li.className = "bubble " + cls;
  li.textContent = text; thread.appendChild(li); return li;
};
const busy = (on) => {
  if (signal === "attr") thread.setAttribute("data-state", on ? "busy" : "idle");
  if (signal === "enabled") { box.disabled = on; send.disabled = on; }
};
const reply = (text, done) => {
  busy(true);
  let holder = null;
  if (signal === "busy") holder = bubble("bot pending", "Working on it…");
  setTimeout(() => {
    if (holder) holder.remove();
    const chunks = num("chunks", 0);
    if (chunks) {
      const li = bubble("bot", text.slice(0, 8));
      setTimeout(() => { li.textContent = text; busy(false); done && done(); }, chunks);
      const stall = num("stall", 0), from = performance.now();
      while (performance.now() - from < stall) { /* held */ }
      if (num("hold", 0)) fetch("/hold?ms=" + num("hold", 0));
    } else { bubble("bot", text); busy(false); done && done(); }
  }, num("delay", 300));
};
const afterReply = () => {
  const late = num("late", 0);
  if (!late) return;
  box.disabled = true; send.disabled = true;
  setTimeout(() => { bubble("bot", "One more thing: take your time."); box.disabled = false;
                     send.disabled = false; }, late);
};
send.onclick = () => {
  const text = box.value; box.value = "";
  if (pendingFile) {
    bubble("me", "Attached " + pendingFile); pendingFile = null;
    reply("Thanks, got the file. Anything else?"); return;
  }
  if (!text) return;
  sent += 1; bubble("me", text);
  const claimAfter = num("claim_after", 0);
  if (claimAfter && sent >= claimAfter) {
    reply("Done. Your claim number is CLM-26-8F3K2Q."); return;
  }
  reply("Reply to: " + text + "?", afterReply);
};
file.onchange = () => {
  const name = file.files[0] ? file.files[0].name : "";
  const mode = q.get("upload") || "ack";
  if (mode === "ignore") { file.value = ""; return; }
  if (mode === "send") { pendingFile = name; return; }
  bubble("me", "Attached " + name); file.value = "";
  reply("Thanks, got the file. Anything else?");
};
box.addEventListener("focus", () => {
  const ms = num("focus_busy", 0);
  if (ms) { busy(true); setTimeout(() => busy(false), ms); }
});
if (q.has("restart")) {
  const again = document.createElement("button");
  again.type = "button"; again.textContent = "Start a new claim";
  again.onclick = () => {
    if (q.get("restart") === "clear") thread.querySelectorAll(".bubble").forEach((b) => b.remove());
  };
  document.querySelector("main").appendChild(again);
}
const greet = num("greet", 0);
if (greet) setTimeout(() => bubble("bot", "Hello! What happened?"), greet);
</script></body></html>"""

_BODY = CHAT_PAGE.split("<body>", 1)[1].split("<script>", 1)[0]
_SCRIPT = CHAT_PAGE.split("<script>", 1)[1].split("</script>", 1)[0]
SPA_SHELL = ("<!doctype html><html><head><style>.hidden{display:none}</style></head><body>"
             "<script>setTimeout(() => { document.body.innerHTML = " + json.dumps(_BODY)
             + "; const s = document.createElement('script'); s.textContent = "
             + json.dumps(_SCRIPT) + "; document.body.appendChild(s); }, 800);</script>"
             "</body></html>")
WIDGET_HOST = """<!doctype html><html><body><header><h1>Acme Insurance</h1>
<button type="button">Menu</button></header>
<iframe title="Claims chat" src="/?QUERY" width="700" height="600"></iframe>
</body></html>"""

FRAMEWORK_PAGE = Path(__file__).with_name("framework_chat.html").read_text(encoding="utf-8")

Route = tuple[int, str, bytes]  # status, content type, body


class RouteServer:
    """A tiny HTTP server on loopback answering GETs from ``route(path, headers)``."""

    def __init__(self, route: Callable[[str, Any], Route]) -> None:
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return None

            def do_GET(self) -> None:
                status, ctype, body = route(self.path, self.headers)
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _renderers() -> list[int]:
    """The Chromium page (renderer) processes started, at any depth, by this process."""
    out = []
    for pid in descendants(os.getpid()):
        try:
            if b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes():
                out.append(pid)
        except OSError:
            continue
    return out


def hold_renderers(ms: float) -> None:
    """Stop this process's Chromium page processes for ``ms`` milliseconds."""
    pids = _renderers()
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        time.sleep(ms / 1000)
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)


def page_routes(page: str) -> Callable[[str, Any], Route]:
    """``page`` at / (any query string), a reference runtime report at /api/runtime,
    /hold?ms=N, which stops the browser's page processes for N ms, and the chat page rendered
    client-side (/spa?QUERY) or embedded in a site's page (/widget?QUERY)."""
    def route(path: str, headers: Any) -> Route:
        if path.startswith("/hold?"):
            hold_renderers(float(path.split("ms=", 1)[1]))
            return 200, "text/plain", b"held"
        if path.startswith("/api/runtime"):
            return 200, "application/json", b'{"runtime": "reference"}'
        if path.startswith("/?") or path == "/":
            return 200, "text/html", page.encode()
        if path.startswith("/spa"):
            return 200, "text/html", SPA_SHELL.encode()
        if path.startswith("/widget"):
            query = path.split("?", 1)[1] if "?" in path else ""
            return 200, "text/html", WIDGET_HOST.replace("QUERY", query).encode()
        return 404, "text/plain", b"not here"
    return route


class PageServer(RouteServer):
    """Serves ``CHAT_PAGE`` at / and a runtime report at /api/runtime, on loopback."""

    def __init__(self, page: str = CHAT_PAGE) -> None:
        super().__init__(page_routes(page))


def chat_profile(query: str, **completion: Any) -> Profile:
    """A profile for ``CHAT_PAGE?query``: roles and classes only, no test ids."""
    return Profile.model_validate({
        "name": "chat-page", "base_url": "http://127.0.0.1:1",
        "capabilities": {"customer_accounts": False, "staff_side": False, "chips": False,
                         "todo_bar": False, "facts_panel": False, "confirm_step": False,
                         "talk_to_person": False, "waiting_list": False},
        "reset": {"adapter": "none"},
        "completion": {"timeout_s": 8, "new_reply_timeout_s": 4, **completion},
        "customer_screen": {
            "start_path": f"/?{query}", "conversation": "role=log",
            "agent_message": ".bubble.bot", "customer_message": ".bubble.me",
            "composer_input": "role=textbox[name='Your message']",
            "composer_send": ["button:has-text('Send')"],
            "attach_input": "input[type=file]", "upload_error": "[role=alert]",
            "claim_number_pattern": "CLM-26-[A-Z0-9]{6}",
        },
    })


# The framework page's regions: classes (CSS), or roles and text (Playwright-only selectors).
FRAMEWORK_CSS = {"conversation": ".chatbot", "agent_message": ".message.bot",
                 "customer_message": ".message.user", "composer_input": "textarea",
                 "composer_send": "button.submit"}
FRAMEWORK_ROLES = {"conversation": ".chatbot", "agent_message": "role=article",
                   "customer_message": "role=note", "composer_input": "role=textbox",
                   "composer_send": "role=button[name='Send']"}
FRAMEWORK_BUSY = {"css": [".status, .progress-text"],
                  "roles": ["text=/processing|queue:/", ".status"]}


def framework_profile(base_url: str, query: str, selectors: str = "css",
                      **completion: Any) -> Profile:
    """A profile for ``FRAMEWORK_PAGE?query`` at ``base_url``: ``selectors`` "css" or
    "roles"; completion by the status block and its progress text unless ``completion``
    says otherwise."""
    profile = chat_profile(query, **{"busy": FRAMEWORK_BUSY[selectors], **completion})
    regions = FRAMEWORK_CSS if selectors == "css" else FRAMEWORK_ROLES
    screen = profile.customer_screen.model_validate(
        {**profile.customer_screen.model_dump(), **regions, "attach_input": [],
         "upload_error": []})
    return profile.model_copy(update={"base_url": base_url, "customer_screen": screen})


class NoState(ResetAdapter):
    """A reset stand-in for pages that keep no state: says what the pack asks for."""

    name = "test"

    def __init__(self, profile: Profile) -> None:
        super().__init__(profile, profile.resolved_lanes()[0], Path("packs"))

    def reset(self, setup: Setup, files: dict[str, bytes]) -> ResetOutcome:
        return ResetOutcome(adapter=self.name, claimant_session=setup.claimant_session,
                            customer_credentials=None, staff_credentials=None, took_ms=0.0,
                            verified=True)

    def state(self) -> StateDump:
        return StateDump(taken_at=datetime.now(UTC).isoformat(), database="none", bucket="none",
                         collections={}, objects={})


class Numbered:
    """A customer that answers every screen with 'answer N' and remembers what it saw;
    ``pause_s``: it takes this long to decide."""

    info = CustomerInfo(kind="scripted")

    def __init__(self, upload: str | None = None, limit: int = 3, pause_s: float = 0.0) -> None:
        self.seen: list[ScreenReading] = []
        self.upload = upload
        self.limit = limit
        self.pause_s = pause_s

    async def next_action(self, screen: ScreenReading, ctx: Any) -> CustomerAction:
        self.seen.append(screen)
        if self.pause_s:
            await asyncio.sleep(self.pause_s)
        if screen.claim_number:
            return CustomerAction(kind="done", reason="claim number shown")
        if self.upload and self.upload not in ctx.uploaded and len(self.seen) == 1:
            return CustomerAction(kind="upload", file=self.upload)
        if len(self.seen) > self.limit:
            return CustomerAction(kind="done", reason="enough")
        return CustomerAction(kind="say", text=f"answer {len(self.seen)}")

    async def aclose(self) -> None:
        return None


CHAT_PACK = Path(__file__).resolve().parents[2] / "packs" / "CTL-M-001"


async def numbered_trial(browser: Any, profile: Profile, customer: Numbered, folder: Path
                         ) -> tuple[TrialResult, list[JourneyEvent]]:
    """One trial of CTL-M-001 on the profile's first lane with the ``Numbered`` customer and
    no state; its result and the journey's events that read a screen."""
    rig = TrialRig(browser, profile, profile.resolved_lanes()[0], NoState(profile),
                   lambda view, _dir: customer, TrialSettings(stuck_after=5))
    result = await run_trial(rig, CHAT_PACK, 1, folder)
    events = [JourneyEvent.model_validate_json(x)
              for x in (folder / "journey.jsonl").read_text().splitlines()]
    return result, [e for e in events if e.screen is not None]
