"""Products that hold one conversation for their whole process (profile ``[conversation]``).

Lanes sharing such a process would mix their conversations, so a run of several lanes is
refused unless each lane is a process of its own. Before every trial a step starts a new
conversation (``[conversation.new]``): a URL opened in the customer's browser, a control
clicked on the start page, or the product restarted by a command and waited for. The
journey then checks its first screen shows no customer message of an earlier conversation
(``earlier_messages``): a trial never runs on a stale conversation. Whatever goes wrong in
these steps is the product's failure.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
from playwright.async_api import Error as PlaywrightError

from claims_records import ProductError, ProfileError

from ._browser import CustomerPage
from ._marks import first_match
from .profile import PROFILES_DIR, Lane, NewConversation, Profile, url

_POLL_S = 0.1


def check_lanes(profile: Profile, lanes: list[Lane], started_per_lane: bool,
                file: str | None = None) -> None:
    """Refuse several lanes sharing one product process that holds one conversation.

    ``started_per_lane``: the run started one product per lane (``--dev``).
    """
    conv = profile.conversation
    if (not conv.one_per_process or len(lanes) < 2 or started_per_lane
            or conv.instance_per_lane):
        return
    raise ProfileError(
        f"refusing to run {len(lanes)} lanes: the product holds one conversation for its "
        "whole process (conversation.scope = 'process'), so lanes would mix their "
        "conversations; run one lane, let --dev start a product per lane ([dev]), or set "
        "conversation.instance_per_lane = true if each of [[lanes]] is a process of its own",
        profile=profile.name, file=_profile_file(file), field="conversation.scope")


def _profile_file(ref: str | None) -> str | None:
    """The profile's file: a path as given, a shipped profile's name as its file."""
    if not ref or ref.endswith(".toml") or Path(ref).exists():
        return ref
    return str(PROFILES_DIR / f"{ref}.toml")


def _target(lane: Lane, where: str) -> str:
    """A full URL as it is; a path under the lane's base URL."""
    return where if re.match(r"^https?://", where) else url(lane.base_url, where)


async def earlier_messages(cp: CustomerPage) -> int:
    """How many customer messages the page shows (those of the first alternative that
    matches); a new conversation shows none."""
    for selector in cp.sc.customer_message:
        try:
            shown = await cp.page.locator(selector).filter(visible=True).count()
        except PlaywrightError:
            continue  # the page is navigating: nothing shown yet
        if shown:
            return shown
    return 0


async def start_new_conversation(cp: CustomerPage | None, lane: Lane,
                                 step: NewConversation) -> str:
    """Start a new conversation on ``lane`` (``cp``: the customer's page, needed by ``url``
    and ``control``); what was done, in one line. ``ProductError`` when it fails."""
    if step.by == "restart":
        return await asyncio.to_thread(_restart, lane, step)
    if cp is None:
        raise ValueError(f"a new conversation by {step.by} needs the customer's page")
    if step.by == "url":
        return await _open(cp, lane, step)
    return await _click(cp, step)


async def _open(cp: CustomerPage, lane: Lane, step: NewConversation) -> str:
    target = _target(lane, step.url)
    try:
        resp = await cp.page.goto(target, wait_until="domcontentloaded",
                                  timeout=step.timeout_s * 1000)
    except PlaywrightError as exc:
        raise ProductError("the new-conversation URL did not load", url=target,
                           error=str(exc).splitlines()[0]) from exc
    status = resp.status if resp is not None else None
    if status is not None and status >= 400:
        raise ProductError(f"the new-conversation URL answered HTTP {status}", url=target,
                           field="conversation.new.url")
    return f"opened {target}" + (f" (HTTP {status})" if status is not None else "")


async def _click(cp: CustomerPage, step: NewConversation) -> str:
    await cp.open_start()
    await cp.wait_first()
    try:
        control = await first_match(cp.page, step.control, "new-conversation control")
        await control.click(timeout=step.timeout_s * 1000)
    except PlaywrightError as exc:
        raise ProductError("the new-conversation control is missing or unusable",
                           url=cp.page.url, field="conversation.new.control",
                           error=str(exc).splitlines()[0]) from exc
    deadline = time.monotonic() + step.timeout_s
    while (left := await earlier_messages(cp)) and time.monotonic() < deadline:
        await asyncio.sleep(_POLL_S)
    if left:
        raise ProductError(f"after the new-conversation control was clicked the page still "
                           f"shows {left} customer message(s)", url=cp.page.url,
                           field="conversation.new.control")
    return f"clicked {' | '.join(step.control)}; no customer message shown"


def _restart(lane: Lane, step: NewConversation) -> str:
    """Run the restart command, then wait until the product answers as ready (blocking)."""
    from seed.stores import SPAWN_OPTIONS, stop_process_tree

    started = time.monotonic()
    port = urlsplit(lane.base_url).port
    values = {"{lane}": lane.name, "{base_url}": lane.base_url,
              "{port}": str(port) if port else ""}
    argv = [re.sub(r"\{[a-z_]+\}", lambda m: values.get(m[0], m[0]), a) for a in step.command]
    # Error output goes to a file, not a pipe: a product the command leaves running would
    # hold a pipe open, and waiting for its end would wait for the product.
    with tempfile.TemporaryFile() as err:
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=err, **SPAWN_OPTIONS)
        except OSError as exc:
            raise ProductError(f"cannot run the restart command: {exc.strerror or exc}",
                               field="conversation.new.command", command=argv[0]) from exc
        try:
            code = proc.wait(timeout=step.timeout_s)
        except subprocess.TimeoutExpired as exc:
            raise ProductError("the restart command did not finish in time", command=argv[0],
                               timeout_s=step.timeout_s) from exc
        finally:
            stop_process_tree(proc)
        if code != 0:
            err.seek(0)
            lines = err.read().decode("utf-8", "replace").strip().splitlines()
            raise ProductError(f"the restart command failed with exit code {code}"
                               + (f": {lines[-1][:200]}" if lines else ""), command=argv[0])
    ready = _target(lane, step.ready_url or "/")
    status = _wait_ready(ready, started + step.timeout_s)
    return (f"ran {argv[0]}; {ready} answered HTTP {status} "
            f"{time.monotonic() - started:.1f} s after the restart began")


def _wait_ready(target: str, deadline: float) -> int:
    """Poll ``target`` until it answers 2xx; its status. ``ProductError`` at ``deadline``."""
    last = "no answer"
    with httpx.Client(timeout=2.0, trust_env=False) as client:
        while True:
            try:
                resp = client.get(target)
            except httpx.HTTPError as exc:
                last = type(exc).__name__
            else:
                if resp.is_success:
                    return resp.status_code
                last = f"HTTP {resp.status_code}"
            if time.monotonic() >= deadline:
                raise ProductError(f"the product was not ready again after the restart "
                                   f"({last})", url=target, field="conversation.new.ready_url")
            time.sleep(_POLL_S)
