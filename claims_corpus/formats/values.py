"""Structured fact values and "when" of pack format v0.3.

A fact's value is a plain scalar (text, ``YYYY-MM-DD``, ``HH:MM``, ``"yes"``/``"no"``), or one
of the structured values below: an amount of money with its ISO 4217 currency, or a time
window. ``Arrival`` says when something the customer does not have yet (a later fact or a
later material) comes to them during the journey.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from ._base import Strict

TIME_PATTERN = r"^([01]\d|2[0-3]):[0-5]\d$"
DATE_PATTERN = r"^\d{4}-\d{2}-\d{2}$"
CURRENCY_PATTERN = r"^[A-Z]{3}$"
# The claim rules' home currency: a pack's amount given without a currency is in it, and so
# is an amount a product shows without one unless its profile names another home currency.
HOME_CURRENCY = "GBP"


class Money(Strict):
    """An amount of money and its currency: ``{"amount": 2400, "currency": "NZD"}``."""

    amount: int | float = Field(ge=0, description="The amount, as a number (2400 or 1299.5).")
    currency: str = Field(pattern=CURRENCY_PATTERN,
                          description="ISO 4217 currency code: GBP, EUR, NZD, USD, ...")

    def __str__(self) -> str:
        amount = int(self.amount) if float(self.amount).is_integer() else self.amount
        return f"{amount} {self.currency}"


class TimeWindow(Strict):
    """A time known only as a window: ``{"earliest": "13:00", "latest": "16:00"}``.

    The window lies within one day (``earliest`` before ``latest``). A product must keep it
    as a window; recording one point of it, or "not known", is a failure of its own.
    """

    earliest: str = Field(pattern=TIME_PATTERN, description="Start of the window, HH:MM (24 h).")
    latest: str = Field(pattern=TIME_PATTERN, description="End of the window, HH:MM (24 h).")

    @model_validator(mode="after")
    def _ordered(self) -> TimeWindow:
        if self.earliest >= self.latest:
            raise ValueError("'earliest' must be before 'latest' (a window within one day)")
        return self

    def __str__(self) -> str:
        return f"{self.earliest}-{self.latest}"


# A fact value, as facts.json and the oracle write it.
FactValue = str | int | float | bool | Money | TimeWindow


class Arrival(Strict):
    """When something the customer does not have yet comes to them. Exactly one field is set.

    - ``after_messages``: once the customer has typed this many messages (the opening
      message included);
    - ``after_actions``: once the customer has taken this many actions of any kind (typed
      messages, clicks, uploads, sign-ins; the opening message included);
    - ``after_requests``: at the agent's Nth request for it (the Nth reply that asks for this
      file or this fact); the customer has it when answering that request.
    """

    after_messages: int | None = Field(None, ge=1, description="Typed customer messages.")
    after_actions: int | None = Field(None, ge=1, description="Customer actions of any kind.")
    after_requests: int | None = Field(None, ge=1,
                                       description="The agent's requests for this item.")

    @model_validator(mode="after")
    def _exactly_one(self) -> Arrival:
        given = [v for v in (self.after_messages, self.after_actions, self.after_requests)
                 if v is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of after_messages, after_actions, "
                             "after_requests")
        return self

    def reached(self, messages: int, actions: int, requests: int) -> bool:
        """Has it arrived, given the customer's messages and actions so far and the agent's
        requests for it (the current request included)?"""
        if self.after_messages is not None:
            return messages >= self.after_messages
        if self.after_actions is not None:
            return actions >= self.after_actions
        return requests >= (self.after_requests or 0)

    def describe(self) -> str:
        if self.after_messages is not None:
            return f"after {self.after_messages} message(s)"
        if self.after_actions is not None:
            return f"after {self.after_actions} action(s)"
        return f"at the agent's request number {self.after_requests}"


class LaterFact(Strict):
    """A fact the customer does not know at the start ("the police will send a reference")."""

    describe_before: str = Field(
        description="What the customer says when asked before they know it, with when they "
        "expect it, as an absolute date ('The police will send it by 20 March 2026')."
    )
    arrives: Arrival | None = Field(
        None, description="When the customer learns it during the journey; null: not during "
        "the journey (the product should record it as to follow / not known)."
    )


__all__ = [
    "CURRENCY_PATTERN",
    "DATE_PATTERN",
    "HOME_CURRENCY",
    "TIME_PATTERN",
    "Arrival",
    "FactValue",
    "LaterFact",
    "Money",
    "TimeWindow",
]
