"""A customer that takes time: the least time each action takes, waited for real.

``--pace 2`` gives every answer of the customer at least 2 s (a model's or a person's
latency, without a model); ``--pace human`` gives each action the time a person takes for it
by the acceptance criteria's model of the customer's time (``CustomerTimeModel``: reading the
new reply, typing, deciding, pressing, finding a file), the opening message's typing
included. Time the customer already took deciding counts towards it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

from claims_records import CustomerAction, CustomerWork, read_acceptance

Pace = Callable[[str, CustomerAction, bool], float]
"""The least seconds an action takes: (the reply read before it, the action, whether it is
the opening message)."""


def make_pace(pace: float | str | None, corpus_root: Path) -> Pace | None:
    """The pace of a run's customers (``RunSettings.pace``); None: at machine speed."""
    if pace is None:
        return None
    if pace == "human":
        model = read_acceptance(corpus_root)[0].report_duration.customer_time

        def human(read: str, action: CustomerAction, opening: bool) -> float:
            return model.seconds(CustomerWork.of_step(read, action))

        return human
    fixed = float(pace)

    def steady(read: str, action: CustomerAction, opening: bool) -> float:
        return 0.0 if opening else fixed

    return steady


async def take_time(pace: Pace | None, read: str, action: CustomerAction, since: float,
                    opening: bool = False) -> None:
    """Wait until the action has taken its paced time since ``since`` (``time.monotonic``)."""
    if pace is None:
        return
    left = pace(read, action, opening) - (time.monotonic() - since)
    if left > 0:
        await asyncio.sleep(left)
