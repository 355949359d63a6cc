"""A new conversation before the journey, for a product holding one conversation for its
whole process (profile ``[conversation.new]``): a URL opened in the customer's browser, a
control clicked on the start page, or the product restarted by a command and waited for. The
step is recorded in trial.json and the journey, and the journey's first screen is then checked
to show no customer message of an earlier conversation (``earlier_messages``): a trial never
runs on a stale conversation. Whatever goes wrong in these steps is the product's failure.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import tempfile
import time
from urllib.parse import urlsplit

import httpx
from playwright.async_api import Error as PlaywrightError

from claims_records import NewConversationInfo, ProductError

from ..browser import CustomerPage, first_match
from ..profile import Lane, NewConversation, url
from ._journey import StartCheck
from ._record import Journey

_POLL_S = 0.1

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


def _target(lane: Lane, where: str) -> str:
    """A full URL as it is; a path under the lane's base URL."""
    return where if re.match(r"^https?://", where) else url(lane.base_url, where)


async def earlier_messages(cp: CustomerPage) -> int:
    """How many customer messages the page shows (those of the first alternative that
    matches); a new conversation shows none."""
    view = await cp.chat()
    for selector in cp.sc.customer_message:
        try:
            shown = await view.locator(selector).filter(visible=True).count()
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
        control = await first_match(await cp.chat(), step.control, "new-conversation control")
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
    from claims_dev import SPAWN_OPTIONS, stop_process_tree

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
