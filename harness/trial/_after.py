"""After the reset: the journey, then at once the staff side, beside closing the customer's
context and redacting its network log. A product without a staff screen whose profile says
where its stores keep the staff side has it read from the state dumped after the journey
(state-after.json, taken there and not again)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from claims_records import (
    StaffReading,
    StateDump,
    TrialStatus,
    write_model_atomic,
)

from ..browser import CustomerPage, CustomerTab
from ..reset import ResetAdapter
from ..staff import no_staff_side, read_stores
from ._context import TrialContext
from ._journey import play
from ._record import Journey


async def journey_and_staff(ctx: TrialContext, tab: CustomerTab) -> StaffReading:
    """Play the journey in ``tab``, then read the staff side while the customer's context
    closes and its network log (and trace) is redacted into the trial folder."""
    j = ctx.journey
    secrets = [v for v in ctx.customer_creds.values() if isinstance(v, str)]
    secrets += [v for k, v in ctx.staff_creds.items() if k == "password" and isinstance(v, str)]
    secrets += list(ctx.headers.values())
    secrets += list(ctx.staff_side.access.headers().values())

    def keep_trace() -> bool:
        return ctx.settings.tracing == "on" or j.status != TrialStatus.COMPLETED

    try:
        cp = CustomerPage(await tab.page(), ctx.customer_side, ctx.lane.base_url)
        settings = ctx.settings.journey()
        settings.before_start, settings.check_start = ctx.before_start, ctx.check_start
        await play(cp, ctx.view, ctx.outcome, ctx.customer, j, settings)
        if ctx.decides:  # the customer comes back after the staff decision
            j.storage = await tab.storage_state()
    except BaseException:
        await j.discard_final()
        await _close_and_redact(tab, keep_trace(), j.folder, secrets)
        raise
    # The staff side is read at once, while the customer's last screen is photographed and
    # its context closes (which writes the network log and trace) and they are redacted: the
    # two contexts share nothing.
    reading = asyncio.ensure_future(_staff_side(ctx))
    closing = asyncio.ensure_future(_settle_close_and_redact(j, tab, keep_trace, secrets))
    try:
        await asyncio.shield(closing)  # a cancelled trial still waits for the redaction
        return await reading
    finally:
        reading.cancel()  # still running only when closing failed or the trial was cancelled
        await asyncio.wait([reading, closing])
        for task in (reading, closing):  # errors retrieved: the first one raised propagates
            if task.done() and not task.cancelled():
                task.exception()


async def _settle_close_and_redact(j: Journey, tab: CustomerTab, keep_trace: Callable[[], bool],
                                   secrets: list[str]) -> None:
    """Write the journey's last event with its screenshot, then close and redact (also when
    the screenshot failed; ``keep_trace`` is asked after, as the failure may change it)."""
    try:
        await j.settle()
    finally:
        await _close_and_redact(tab, keep_trace(), j.folder, secrets)


async def _close_and_redact(tab: CustomerTab, keep_trace: bool, folder: Path,
                            secrets: list[str]) -> None:
    """Close the customer's context (writing its network log and trace) and redact them
    into the trial folder."""
    await tab.close(keep_trace)
    await asyncio.to_thread(tab.redact, folder, secrets)


async def _staff_side(ctx: TrialContext) -> StaffReading:
    """What the staff side shows of the journey's claim, or why it was not read."""
    j, staff = ctx.journey, ctx.staff
    if not ctx.settings.evidence or staff is None:
        return StaffReading(claim_number=j.claim_number, error="not read: evidence off")
    if j.status == TrialStatus.PRODUCT_ERROR:
        return StaffReading(claim_number=j.claim_number, error="not read: product error")
    if ctx.staff_side.reads_stores:
        return await _from_stores(ctx)
    if not ctx.staff_side.present:
        return no_staff_side(j.claim_number)
    if ctx.staff_side.access.sign_in == "form" and not ctx.staff_creds.get("username"):
        return StaffReading(claim_number=j.claim_number, error="no staff credentials from the "
                            "reset (setup or baseline)")
    return await staff.read(ctx.staff_creds, j.claim_number, j.folder)


async def _from_stores(ctx: TrialContext) -> StaffReading:
    """The staff side read from the stores: the state after the journey dumped (into
    state-after.json) and the journey's claim read there, where the profile says."""
    j, side = ctx.journey, ctx.staff_side
    assert side.stores is not None
    try:
        state = await state_after(ctx.reset, j)
    except Exception as exc:  # the product may be down: the trial dumps it again at the end
        return StaffReading(source="stores", claim_number=j.claim_number,
                            error=f"not read: the state after the journey was not taken: "
                            f"{str(exc)[:300]}")
    if state is None:
        return StaffReading(source="stores", claim_number=j.claim_number,
                            error="not read: the product's state is not readable")
    return read_stores(state, j.claim_number, side.stores, side.vocabulary)


async def state_after(reset: ResetAdapter, j: Journey) -> StateDump | None:
    """Dump the state after the journey into its state-after.json and mark it taken;
    None when the product's state is not readable."""
    state = await write_state(reset, j.folder / "state-after.json")
    j.state_after = True
    return state


async def write_state(reset: ResetAdapter, path: Path) -> StateDump | None:
    """Dump the product's state into ``path``; None when its state is not readable."""
    state = await asyncio.to_thread(reset.state)
    if state is not None:
        write_model_atomic(path, state)
    return state
