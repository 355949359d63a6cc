"""The one interface every simulated customer implements."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from claims_corpus import CustomerView, Progress
from claims_records import CustomerAction, CustomerInfo, CustomerModelCall, ScreenReading


@dataclass
class CustomerContext:
    """What the customer knows about the journey so far, besides the screen."""

    step: int
    messages_sent: int = 0
    history: list[tuple[str, str]] = field(default_factory=list)
    available_files: list[str] = field(default_factory=list)
    later_files: list[str] = field(default_factory=list)
    uploaded: list[str] = field(default_factory=list)
    signed_in: bool = False
    can_attach: bool = True  # the product has an attach-file control
    record_call: Callable[[CustomerModelCall], None] = lambda call: None
    actions_taken: int = 0
    learned_facts: list[str] = field(default_factory=list)
    """Keys of the later facts the customer knows by now."""
    returned: bool = False
    """The customer came back after staff asked for more information: the claim number on
    the screen does not end the journey; the product saying the claim is back under review
    does."""


class Customer(Protocol):
    """A simulated customer: decides its next action from the screen and its own view only."""

    info: CustomerInfo

    async def next_action(self, screen: ScreenReading, ctx: CustomerContext) -> CustomerAction:
        """The next action; raises ``SimulatorError`` when it cannot decide."""
        ...

    async def aclose(self) -> None:
        """Release any resources (HTTP clients)."""
        ...


def material_availability(view: CustomerView, progress: Progress) -> tuple[list[str], list[str]]:
    """(files the customer has now, 'comes later' files not yet available)."""
    available: list[str] = []
    later: list[str] = []
    for m in view.materials:
        (available if m.available(progress) else later).append(m.file)
    return available, later
