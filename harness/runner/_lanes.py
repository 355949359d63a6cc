"""The lanes of a run working off its pending trials: one browser kept alive for all of them,
one staff session per lane, run.json written after every trial."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from claims_records import RunRecord, TrialStatus, write_run_record

from ..browser import BrowserChoice, BrowserKeeper
from ..profile import Lane, Profile
from ..reset import ResetAdapter
from ..staff import StaffSession
from ..trial import TrialRig, TrialSettings, run_trial
from ._attempts import (
    ErrorPolicy,
    ErrorStreak,
    earlier_attempt,
    entry_from,
    first_line,
    infrastructure_error,
    keep_attempt,
    pending_entry,
)
from ._context import TrialProgress


async def run_lanes(record: RunRecord, run_dir: Path, lanes: list[Lane], corpora: Any,
                       profile: Profile, reset_for: Callable[[Lane], ResetAdapter],
                       customers_for: Callable[[str, int], Callable[[Any, Path], Any]],
                       settings: TrialSettings,
                       choice: BrowserChoice, progress: Callable[[TrialProgress], None],
                       policy: ErrorPolicy | None = None) -> None:
    """Run the record's pending trials on ``lanes``; ``policy`` says what to do about
    infrastructure errors: run again with a growing wait, and stop taking trials after too
    many in a row (``record.stopped`` then says why; the trials not run stay pending)."""
    from playwright.async_api import async_playwright

    policy = policy or ErrorPolicy()
    streak = ErrorStreak(policy.stop_after)

    pending: asyncio.Queue[int] = asyncio.Queue()
    for i, entry in enumerate(record.trials):
        if entry.status == TrialStatus.PENDING:
            pending.put_nowait(i)
    total = pending.qsize()
    done = 0

    async with async_playwright() as pw:
        keeper = BrowserKeeper(pw, choice)

        async def browser_now() -> Any:
            """The connected browser (relaunched, and recorded, when it had ended)."""
            browser, info = await keeper.get()
            if info is not None and info not in record.browsers:
                record.browsers.append(info)
                write_run_record(run_dir, record)
            return browser

        try:
            await browser_now()

            async def lane_worker(lane: Lane) -> None:
                nonlocal done
                client = reset_for(lane)
                staff: StaffSession | None = None
                try:
                    while streak.stop is None:
                        try:
                            i = pending.get_nowait()
                        except asyncio.QueueEmpty:
                            return
                        entry = record.trials[i]
                        progress(TrialProgress(lane.name, entry.pack_id, entry.trial, done,
                                               total))
                        t0 = time.monotonic()
                        earlier = list(entry.earlier_attempts)
                        while True:
                            browser = await browser_now()
                            if staff is None or staff.browser is not browser:
                                if staff is not None:
                                    await staff.close()
                                # one staff context per lane, kept across its trials
                                staff = StaffSession(browser, profile.staff_side(), lane,
                                                     profile.browser.extra_headers())
                            result = await run_trial(
                                TrialRig(browser, profile, lane, client,
                                         customers_for(entry.pack_id, entry.trial), settings,
                                         staff),
                                corpora.pack_dir(entry.pack_id), entry.trial,
                                run_dir / entry.path, attempt=len(earlier) + 1)
                            if (len(earlier) >= policy.retry_infra
                                    or not infrastructure_error(result)):
                                break
                            # run it again; the attempt's evidence stays in its own folder
                            kept = keep_attempt(run_dir / entry.path, len(earlier) + 1)
                            earlier.append(earlier_attempt(result, kept.relative_to(run_dir)
                                                    .as_posix()))
                            record.trials[i] = pending_entry(entry.pack_id, entry.trial,
                                                        entry.path, earlier)
                            write_run_record(run_dir, record)
                            progress(TrialProgress(
                                lane.name, entry.pack_id, entry.trial, done, total,
                                attempt=len(earlier) + 1,
                                previous=f"{result.status.value}: {first_line(result.detail)}"
                                [:200]))
                            # a growing wait: a server restarting or a rate limit resetting
                            await policy.sleep(policy.backoff.delay(len(earlier)))
                        record.trials[i] = entry_from(result, entry.path, earlier)
                        streak.add(result)
                        write_run_record(run_dir, record)
                        done += 1
                        progress(TrialProgress(
                            lane.name, entry.pack_id, entry.trial, done, total,
                            result.status.value, result.stop_reason, time.monotonic() - t0))
                finally:
                    if staff is not None:
                        await staff.close()
                    with contextlib.suppress(Exception):
                        client.close()

            await asyncio.gather(*(lane_worker(lane) for lane in lanes))
            record.stopped = streak.settled(record)
            if record.stopped is not None:
                write_run_record(run_dir, record)
        finally:
            await keeper.close()


