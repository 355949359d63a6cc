"""The record of one journey: its state while it runs, and the evidence it writes.

Every step is one event in the journey's events file; screenshots go under ``screens/``;
every call of the customer model goes into ``customer-model.jsonl``.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from playwright.async_api import StorageState

from claims_records import (
    JOURNEY_FILE,
    MODEL_CALLS_FILE,
    CustomerModelCall,
    JourneyEvent,
    NewConversationInfo,
    StopReason,
    TokenUsage,
    TrialStatus,
    append_jsonl,
)

from ..browser import slug
from ..customers import JourneyTracker

# Why a journey ended: a trial's stop reasons, and "goal" for the customer's return after a
# staff decision, which ends when the product shows what the step waited for.
JourneyStop = StopReason | Literal["goal"]

STATUS_FOR_STOP: dict[str, TrialStatus] = {
    "claim_number": TrialStatus.COMPLETED,
    "handoff": TrialStatus.COMPLETED,
    "customer_done": TrialStatus.AGENT_STOPPED,
    "turn_limit": TrialStatus.STUCK,
    "stuck": TrialStatus.STUCK,
    "goal": TrialStatus.COMPLETED,
}


@dataclass
class Journey:
    """Mutable state of one journey, turned into evidence at the end."""

    folder: Path
    history: list[tuple[str, str]] = field(default_factory=list)
    uploaded: list[str] = field(default_factory=list)
    messages_sent: int = 0
    signed_in: bool = False
    step: int = 0
    agent_seen: int = 0
    turn_times: list[float] = field(default_factory=list)
    claim_number: str | None = None
    stop_reason: JourneyStop | None = None
    status: TrialStatus = TrialStatus.PENDING
    detail: str = ""
    retries: int = 0
    tokens: TokenUsage = field(default_factory=TokenUsage)
    cost: float | None = None
    shots: int = 0
    product_events: list[str] = field(default_factory=list)
    new_conversation: NewConversationInfo | None = None
    """The step that started a new conversation before the journey, if one ran."""
    tracker: JourneyTracker | None = None
    """What decides when later files and facts arrive (set when the journey starts)."""
    events_file: str = JOURNEY_FILE
    storage: StorageState | None = None
    """The customer context's storage state at the end (in memory only, never written), for
    the customer's return after a staff decision."""
    shot_prefix: str = ""
    final: tuple[asyncio.Task[bytes], str, dict[str, Any]] | None = None
    """The last event, waiting for its screenshot (``settle``)."""
    state_after: bool = False
    """The state after the journey has been dumped (state-after.json), so it is not taken
    again: by the staff side read from the stores, or before a staff decision."""

    async def settle(self) -> None:
        """Write the journey's last event once its screenshot is taken. A journey that ended
        on a screen returns while that screen is still being photographed, so that what
        comes next (the staff side) need not wait for it; nothing else is written between."""
        final, self.final = self.final, None
        if final is not None:
            pending, what, kw = final
            self.event(screenshot=await keep_shot(self, pending, what), **kw)

    async def discard_final(self) -> None:
        """Drop a last screenshot nobody will keep (the trial failed after the journey)."""
        final, self.final = self.final, None
        if final is not None:
            await drop_shot(final[0])

    def record_call(self, call: CustomerModelCall) -> None:
        """Keep one call of the customer model, adding up its tokens and cost."""
        append_jsonl(self.folder / MODEL_CALLS_FILE, call)
        u = call.usage
        self.tokens = TokenUsage(
            prompt_tokens=self.tokens.prompt_tokens + u.prompt_tokens,
            completion_tokens=self.tokens.completion_tokens + u.completion_tokens,
            total_tokens=self.tokens.total_tokens + u.total_tokens,
        )
        if call.cost_usd is not None:
            self.cost = (self.cost or 0.0) + call.cost_usd

    def event(self, **kw: Any) -> None:
        """Append one event (the fields of ``JourneyEvent``) to the events file."""
        append_jsonl(self.folder / self.events_file,
                     JourneyEvent(step=self.step, ts=now(), **kw))

    def stop(self, reason: JourneyStop, detail: str, status: TrialStatus | None = None) -> None:
        """End the journey for ``reason`` (its status follows from it unless given)."""
        self.stop_reason = reason
        self.status = status or STATUS_FOR_STOP[reason]
        self.detail = detail

    @property
    def trial_stop(self) -> StopReason | None:
        """The stop reason as a trial records it (a trial's own journey has no goal)."""
        if self.stop_reason == "goal":
            raise ValueError("a trial's own journey ended on a goal")
        return self.stop_reason

    def shot_name(self, what: str) -> str:
        """The next screenshot's path under the folder, named after ``what``."""
        self.shots += 1
        return f"screens/{self.shot_prefix}{self.shots:03d}-{slug(what)}.png"

    def saw(self, agent_texts: list[str]) -> None:
        """Add the agent replies not seen before to the history."""
        for text in agent_texts[self.agent_seen:]:
            self.history.append(("agent", text))
        self.agent_seen = max(self.agent_seen, len(agent_texts))


def now() -> str:
    """The time now (UTC, ISO 8601, milliseconds)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


async def keep_shot(j: Journey, pending: asyncio.Task[bytes] | None, what: str) -> str | None:
    """Wait for a screenshot and write it as the journey's next screen; its path or None."""
    if pending is None:
        return None
    data = await pending
    name = j.shot_name(what)
    path = j.folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return name


async def drop_shot(pending: asyncio.Task[bytes] | None) -> None:
    """Cancel a screenshot nobody kept (the step failed before it was written)."""
    if pending is not None and not pending.done():
        pending.cancel()
        with contextlib.suppress(BaseException):
            await pending
