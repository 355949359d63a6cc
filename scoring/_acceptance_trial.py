"""Per-trial measures behind the acceptance criteria (docs/scoring.md, "Acceptance").

Pure functions of the trial record and the staff reading:

- ``agent_questions``: question sentences (``questions_in``) in every new agent reply, each
  reply counted once (a step the runner marked "no new reply" is not a new reply);
- ``report_duration_s``: from the first customer message (its step's timestamp less the time
  the message took to type and send: a paced customer's typing included) to the first screen
  showing a claim number (the wall clock's time);
- ``report_parts``: the same span split into the product's time (the waits for its replies)
  and the customer's work (``CustomerWork``: what was read, typed, clicked and sent), which the
  acceptance criterion turns into a person's time with ``CustomerTimeModel``;
- ``further_contact``: why the claim needs the customer contacted again — an item on the staff
  waiting list the customer never asked for (``waiting_items``, the definition the
  ``waiting_list`` component uses: it fails there as ``unasked_item`` too), a contact request,
  a hand-off, no claim number, or a staff decision to return the claim for information. A
  question of the customer's on the waiting list (the opening message's included) is asked
  for: it passes ``waiting_list`` and is not further contact.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from claims_corpus.formats import Labels
from claims_records import CustomerWork, JourneyEvent, StaffReading

from ._claim_checks import region_hidden
from ._journey_checks import (
    NO_NEW_REPLY_NOTE,
    claim_number_of,
    expected_waiting_items,
    questions_in,
    waiting_items,
)
from ._record import TrialRecord

# A staff decision that sends the claim back to the customer for more information.
RETURN_FOR_INFO = "return_for_info"
# Reasons a claim needs further contact, in the order they are reported.
CONTACT_REASONS: tuple[str, ...] = ("unasked_item", "contact_request", "handoff",
                                    "no_claim_number", RETURN_FOR_INFO)


def agent_questions(events: list[JourneyEvent]) -> int:
    total = 0
    for ev in events:
        if (ev.screen is not None and ev.screen.latest_reply.strip()
                and NO_NEW_REPLY_NOTE not in ev.note.lower()):
            total += len(questions_in(ev.screen.latest_reply))
    return total


def _ts(ev: JourneyEvent) -> datetime | None:
    try:
        return datetime.fromisoformat(ev.ts)
    except ValueError:
        return None


def _report_span(events: list[JourneyEvent]) -> tuple[int, int] | None:
    """Indices of the first customer message and of the first screen showing a claim
    number; None when either is missing."""
    start = next((i for i, ev in enumerate(events)
                  if ev.action is not None and ev.action.kind == "say"), None)
    end = next((i for i, ev in enumerate(events)
                if ev.screen is not None and ev.screen.claim_number), None)
    return None if start is None or end is None else (start, end)


def report_duration_s(events: list[JourneyEvent]) -> float | None:
    span = _report_span(events)
    if span is None:
        return None
    first, done = events[span[0]], events[span[1]]
    start, end = _ts(first), _ts(done)
    if start is None or end is None:
        return None
    # the first event is written once the message is sent: the time the customer took to
    # type it (customer_s, a paced customer's) and to send it (action_s) came before
    before = (first.timings.customer_s or 0.0) + (first.timings.action_s or 0.0)
    return round(max(0.0, (end - start).total_seconds() + before), 3)


def report_parts(events: list[JourneyEvent]) -> tuple[float, CustomerWork] | None:
    """(the product's time, the customer's work) from the first customer message to the
    first screen showing a claim number; None when no claim number was shown. The customer
    reads each new reply after the first message and then acts; reading the claim number
    itself is not part of the report. A step the runner marked "no new reply" has nothing
    new to read."""
    span = _report_span(events)
    if span is None or span[1] < span[0]:
        return None
    start, end = span
    product = sum(ev.timings.reply_wait_s or 0.0 for ev in events[start + 1:end + 1])
    work = CustomerWork.of_step("", events[start].action)
    for ev in events[start + 1:end]:
        fresh = ev.screen is not None and NO_NEW_REPLY_NOTE not in ev.note.lower()
        read = ev.screen.latest_reply if fresh and ev.screen is not None else ""
        work += CustomerWork.of_step(read, ev.action)
    return round(product, 3), work


def further_contact(rec: TrialRecord, staff: StaffReading | None,
                    decisions: Iterable[str] = (), labels: Labels | None = None
                    ) -> list[str] | None:
    """Reasons for further contact ([] for none); None when it cannot be told: the waiting
    list was not read (or is not shown) and nothing else says the claim needs contact.

    ``decisions`` are the staff decisions recorded for the trial (``return_for_info`` sends
    the claim back to the customer)."""
    reasons = []
    list_read = staff is not None and not region_hidden(staff, "waiting_list")
    if list_read and waiting_items(rec, staff, labels).unasked:
        reasons.append("unasked_item")
    if expected_waiting_items(rec)[1]:
        reasons.append("contact_request")
    stop = (rec.result.stop_reason if rec.result is not None else
            rec.entry.stop_reason if rec.entry is not None else None)
    if stop == "handoff":
        reasons.append("handoff")
    if not claim_number_of(rec):
        reasons.append("no_claim_number")
    if RETURN_FOR_INFO in decisions:
        reasons.append(RETURN_FOR_INFO)
    if not reasons and not list_read:
        return None
    return reasons
