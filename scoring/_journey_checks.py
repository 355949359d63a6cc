"""Journey and waiting-list checks, read from the journey events as the customer saw them.

The rules (docs/scoring.md, "Journey"):

- a *question* is a sentence of an agent reply that ends with ``?``; sentences are compared
  after lower-casing and collapsing everything but letters and digits;
- a *repeated question* is a new reply containing a question the agent already asked in an
  earlier reply that the customer answered (its next action was ``say`` or ``click``); a
  reply that says it could not read the answer (``CLARIFY_PHRASES``) is a clarification, not
  a repeat; a step the runner marked as showing no new reply (``NO_NEW_REPLY_NOTE``) is not
  a new reply;
- a *dead-end reply* is a non-empty reply that asks nothing and offers nothing: no question,
  no request phrase (``REQUEST_PHRASES``), no chips, cards, dialogs, sign-in prompt, to-do
  text or claim number; and the last reply of a trial the customer ended with nothing
  left to answer (status ``agent_stopped``) is one too;
- an *unacknowledged upload* is a file the customer uploaded that the next screen neither
  refused visibly nor acknowledged (``unacknowledged_uploads``);
- an *unrequested hand-off* ends the journey with a person taking over though the customer
  never asked for one (``unrequested_handoff``);
- the staff waiting list holds what the customer asked for and nothing else
  (``waiting_items``: the one definition ``check_waiting_list`` and further contact share).
"""

from __future__ import annotations

import functools
import re
import statistics
from dataclasses import dataclass, field

from claims_corpus.formats import Labels
from claims_corpus.formats.matching import norm_text
from claims_records import (
    ComponentResult,
    CustomerAction,
    JourneyEvent,
    JsonValue,
    StaffReading,
    StaffWaitingItem,
    TrialStatus,
)

from ._claim_checks import component, hidden, region_hidden, unmapped
from ._record import TrialRecord

# Phrases that ask the customer to do something even without a question mark.
REQUEST_PHRASES: tuple[str, ...] = (
    "please", "could you", "can you", "would you", "tell me", "let me know", "upload",
    "attach", "confirm", "send us", "choose", "select", "press", "tap", "click",
)
# A reply with one of these phrases asks again because it could not read the answer.
CLARIFY_PHRASES: tuple[str, ...] = (
    "couldn't read", "could not read", "couldn't tell", "could not tell", "couldn't match",
    "could not match", "didn't understand", "did not understand", "couldn't understand",
    "could not understand", "couldn't find",
)
# The runner's note on a step where the action brought no new reply.
NO_NEW_REPLY_NOTE = "no new reply"
# A click whose label contains one of these words asks for a person (contact request).
CONTACT_WORDS: tuple[str, ...] = ("person", "human", "someone", "call me", "contact")
ANSWER_ACTIONS: tuple[str, ...] = ("say", "click")
# A reply that says one of these (or names the file) acknowledges an upload.
ACK_PHRASES: tuple[str, ...] = (
    "received", "got your", "have your", "thanks for the", "thank you for the", "uploaded",
    "attached", "we have the", "i have the",
)
# A note the runner writes on a step where the product never showed an uploaded file.
UPLOAD_NOT_ACKNOWLEDGED = "upload_not_acknowledged"
# Customer wording that asks for a person (a hand-off after one of these was asked for).
PERSON_REQUESTS: tuple[str, ...] = (
    "talk to a person", "speak to a person", "talk to someone", "speak to someone",
    "a real person", "a human", "call me", "contact me", "phone me", "ring me",
)
_BOUNDARY = re.compile(r"(?<=[.?!])\s+|:\s+|\n+")


@functools.lru_cache(maxsize=4096)
def questions_in(reply: str) -> tuple[str, ...]:
    """Normalised question sentences of a reply (split at . ? ! then space, ': ', newlines)."""
    out = []
    for sentence in _BOUNDARY.split(reply):
        s = sentence.strip()
        if s.endswith("?"):
            n = norm_text(s)
            if n:
                out.append(n)
    return tuple(out)


def _offers_something(ev: JourneyEvent) -> bool:
    s = ev.screen
    assert s is not None
    text = s.latest_reply.lower()
    return bool(
        "?" in text or any(p in text for p in REQUEST_PHRASES) or s.chips or s.cards
        or s.dialogs or s.sign_in_prompt or s.claim_number or s.todo.strip()
    )


@dataclass
class JourneyFindings:
    repeated: list[dict[str, JsonValue]] = field(default_factory=list)
    dead_ends: list[dict[str, JsonValue]] = field(default_factory=list)


def analyse_events(events: list[JourneyEvent], stopped: bool = False) -> JourneyFindings:
    """Repeated questions and dead-end replies; ``stopped``: the customer ended the trial
    because nothing was left to answer."""
    found = JourneyFindings()
    answered: dict[str, int] = {}  # question -> step it was first answered at
    for i, ev in enumerate(events):
        if ev.screen is None or not ev.screen.latest_reply.strip():
            continue
        reply = ev.screen.latest_reply
        qs = questions_in(reply)
        lowered = reply.lower()
        fresh = NO_NEW_REPLY_NOTE not in ev.note.lower()
        clarifying = any(p in lowered for p in CLARIFY_PHRASES)
        for q in qs if fresh and not clarifying else ():
            if q in answered:
                found.repeated.append({"step": ev.step, "question": q,
                                       "first_answered_step": answered[q]})
        if fresh and not _offers_something(ev):
            found.dead_ends.append({"step": ev.step, "reply": reply[:200]})
        action = ev.action
        if action is None and i + 1 < len(events) and events[i + 1].screen is None:
            action = events[i + 1].action
        if action is not None and action.kind in ANSWER_ACTIONS and not asks_back(action):
            for q in qs:
                answered.setdefault(q, ev.step)
    last = next((ev for ev in reversed(events)
                 if ev.screen is not None and ev.screen.latest_reply.strip()), None)
    if stopped and last is not None and all(d["step"] != last.step for d in found.dead_ends):
        assert last.screen is not None
        found.dead_ends.append({"step": last.step, "reply": last.screen.latest_reply[:200],
                                "customer_ended": True})
    return found


def unacknowledged_uploads(events: list[JourneyEvent]) -> list[dict[str, JsonValue]]:
    """Uploads the product never acknowledged.

    An upload (a customer action ``upload``) is acknowledged when the next screen shows an
    upload error or a sign-in prompt (the product refused it, visibly), or its new reply names
    the file or says it got it (``ACK_PHRASES``), or another region names the file. A step the
    runner marked ``upload_not_acknowledged`` counts as well.
    """
    found: list[dict[str, JsonValue]] = []
    for i, ev in enumerate(events):
        if (ev.product_event == UPLOAD_NOT_ACKNOWLEDGED
                or UPLOAD_NOT_ACKNOWLEDGED in ev.note.lower()):
            found.append({"step": ev.step, "file": None, "why": "the runner saw no file"})
            continue
        if ev.action is None or ev.action.kind != "upload" or not ev.action.file:
            continue
        after = next((e for e in events[i + 1:] if e.screen is not None), None)
        if after is None:
            continue  # the journey ended on the upload: nothing to read
        s = after.screen
        assert s is not None
        name = ev.action.file.lower()
        fresh = NO_NEW_REPLY_NOTE not in after.note.lower()
        reply = s.latest_reply.lower() if fresh else ""
        elsewhere = " ".join([s.facts_panel, s.todo, s.sidebar, *s.cards]).lower()
        if (s.upload_error.strip() or s.sign_in_prompt or name in reply or name in elsewhere
                or any(p in reply for p in ACK_PHRASES)):
            continue
        before = {q for q in _BOUNDARY.split(ev.screen.latest_reply if ev.screen else "")
                  if any(p in q.lower() for p in REQUEST_PHRASES)}
        found.append({"step": after.step, "file": ev.action.file,
                      "why": "no new reply" if not fresh else "the reply neither names the "
                      "file nor says it arrived",
                      "asked_again": any(q.strip() and q in s.latest_reply for q in before)})
    return found


def unrequested_handoff(rec: TrialRecord) -> dict[str, JsonValue] | None:
    """The product handed the claim to a person though the customer never asked for one (no
    click on a contact control, no message asking for a person)."""
    stop = (rec.result.stop_reason if rec.result is not None else
            rec.entry.stop_reason if rec.entry is not None else None)
    if stop != "handoff":
        return None
    _, contacts = expected_waiting_items(rec)
    asked = [t for t in customer_messages(rec) if is_person_request(t)]
    if contacts or asked:
        return None
    last = next((ev for ev in reversed(rec.events) if ev.screen is not None), None)
    return {"step": last.step if last else None,
            "reply": last.screen.latest_reply[:200] if last and last.screen else ""}


def claim_number_of(rec: TrialRecord) -> str | None:
    if rec.result is not None and rec.result.claim_number:
        return rec.result.claim_number
    for ev in reversed(rec.events):
        if ev.screen is not None and ev.screen.claim_number:
            return ev.screen.claim_number
    return None


def customer_messages(rec: TrialRecord) -> list[str]:
    return [ev.action.text for ev in rec.events
            if ev.action is not None and ev.action.kind in ("say", "done") and ev.action.text]


def turn_times(rec: TrialRecord) -> list[float]:
    if rec.result is not None and rec.result.turn_times_s:
        return list(rec.result.turn_times_s)
    return [ev.timings.reply_wait_s for ev in rec.events if ev.timings.reply_wait_s is not None]


def check_journey(rec: TrialRecord) -> ComponentResult:
    findings = analyse_events(rec.events, rec.status == TrialStatus.AGENT_STOPPED)
    claim = claim_number_of(rec)
    times = turn_times(rec)
    sent = (rec.result.customer_messages if rec.result is not None and
            rec.result.customer_messages else len(customer_messages(rec)))
    problems: list[str] = []
    modes: list[str] = []
    if not claim:
        problems.append("no claim number obtained")
        modes.append("no_claim_number")
    if findings.repeated:
        first = findings.repeated[0]
        problems.append(f"{len(findings.repeated)} repeated question(s), first at step "
                        f"{first['step']}: {first['question']!r}")
        modes.append("repeated_question")
    if findings.dead_ends:
        problems.append(f"{len(findings.dead_ends)} reply(ies) left nothing to answer, first "
                        f"at step {findings.dead_ends[0]['step']}")
        modes.append("dead_end_reply")
    uploads = unacknowledged_uploads(rec.events)
    if uploads:
        problems.append(f"{len(uploads)} upload(s) not acknowledged, first at step "
                        f"{uploads[0]['step']} ({uploads[0]['file'] or 'file'})")
        modes.append("upload_not_acknowledged")
    handoff = unrequested_handoff(rec)
    if handoff is not None:
        problems.append(f"handed to a person at step {handoff['step']} though the customer "
                        "never asked for one")
        modes.append("unrequested_handoff")
    last = next((ev for ev in reversed(rec.events) if ev.screen is not None), None)
    where: dict[str, JsonValue] | None = None
    if rec.status in (TrialStatus.STUCK, TrialStatus.AGENT_STOPPED):
        where = {"step": last.step if last else None,
                 "reply": (last.screen.latest_reply[:200] if last and last.screen else ""),
                 "why": rec.detail}
        label = "stuck" if rec.status == TrialStatus.STUCK else "agent_stopped"
        problems.append(f"{label} at step {where['step']}: {rec.detail or 'no reason given'}")
        modes.append(label)
    corrections: list[JsonValue] = [{"step": ev.step, "details": list(ev.action.corrects)}
                   for ev in rec.events if ev.action is not None and ev.action.kind == "say"
                   and ev.action.corrects]
    gave_up = next((ev.action for ev in rec.events if ev.action is not None
                    and ev.action.kind == "done" and ev.action.corrects), None)
    if gave_up is not None:
        problems.append("the product kept a value the customer had said was wrong: "
                        + ", ".join(gave_up.corrects))
        modes.append("correction_ignored")
    details: dict[str, JsonValue] = {
        "claim_number": claim,
        "corrections": corrections,
        "customer_messages": sent,
        "repeated_questions": list(findings.repeated),
        "dead_end_replies": list(findings.dead_ends),
        "retries": rec.result.retries if rec.result is not None else 0,
        "unacknowledged_uploads": list(uploads),
        "unrequested_handoff": handoff,
        "stuck": where,
        "median_turn_s": statistics.median(times) if times else None,
        "longest_turn_s": max(times) if times else None,
    }
    if problems:
        return component("journey", "fail", "; ".join(problems), modes, **details)
    return component("journey", "pass", f"claim number {claim} after {sent} customer "
                     "message(s); no repeated question, no dead-end reply, every upload "
                     "acknowledged", **details)


def expected_waiting_items(rec: TrialRecord) -> tuple[list[str], int]:
    """The customer's questions (texts) and the number of contact requests it made.

    The opening message is the claim itself (the journey answers it), so a question in it is
    not expected on the waiting list; every later message ending in ``?`` is, unless it asks
    for a person: a typed request for a person (docs/claim-rules.md, "Pressure") is a contact
    request, like a click on a contact control.
    """
    later = customer_messages(rec)[1:]
    typed = [t for t in later if is_person_request(t)]
    questions = [t for t in later if t.strip().endswith("?") and t not in typed]
    contacts = len(typed) + sum(
        1 for ev in rec.events
        if ev.action is not None and ev.action.kind == "click" and ev.action.label
        and any(w in ev.action.label.lower() for w in CONTACT_WORDS)
    )
    return questions, contacts


def asks_back(action: CustomerAction) -> bool:
    """The customer answered a question with one of their own (or asked for a person): the
    agent's question is still open, and asking it again is no repeat."""
    text = (action.text or "").strip() if action.kind == "say" else ""
    return bool(text) and (text.endswith("?") or is_person_request(text))


def is_person_request(text: str) -> bool:
    """A typed request to talk to a person or to be contacted."""
    return any(p in text.lower() for p in PERSON_REQUESTS)


@dataclass(frozen=True)
class WaitingItems:
    """The staff waiting list read against what the customer asked: the one definition the
    ``waiting_list`` component and further contact (acceptance) share."""

    questions: list[str]
    """Questions asked after the opening message: each expected on the list."""
    contacts: int
    """Contact requests made (typed or clicked): a contact request expected on the list."""
    asked: list[StaffWaitingItem]
    """Items the customer asked for: a question of theirs in their words (the opening
    message's included), or a contact request after one of theirs, a question of theirs or a
    second incident they reported (pressure ``two_claims``)."""
    unasked: list[StaffWaitingItem]
    """Items the customer never asked for (``unasked_item``)."""


def _same_words(item: str, message: str) -> bool:
    a, b = norm_text(item), norm_text(message)
    return bool(a) and bool(b) and (a in b or b in a)


def waiting_items(rec: TrialRecord, staff: StaffReading | None,
                  labels: Labels | None = None) -> WaitingItems:
    """What the customer asked for and which waiting-list items answer it.

    A question item is asked for when its text and one of the customer's messages holding a
    ``?`` (the opening message included: a question there may be queued, though the journey
    is not required to) contain one another, compared by ``norm_text``. A contact request
    item is asked for when the customer asked for a person, asked any question, or reported a
    second incident (``two_claims``). Everything else is unasked.
    """
    questions, contacts = expected_waiting_items(rec)
    asked_texts = [t for t in customer_messages(rec) if "?" in t]
    two_claims = labels is not None and "two_claims" in labels.pressure
    contact_ok = bool(contacts or asked_texts or two_claims)
    asked: list[StaffWaitingItem] = []
    unasked: list[StaffWaitingItem] = []
    for item in staff.waiting_list if staff is not None else []:
        kind = norm_text(item.kind).replace(" ", "_")
        ok = (any(_same_words(item.text, t) for t in asked_texts)
              or (kind == "contact_request" and contact_ok))
        (asked if ok else unasked).append(item)
    return WaitingItems(questions, contacts, asked, unasked)


def check_waiting_list(rec: TrialRecord, staff: StaffReading | None,
                       labels: Labels | None = None) -> ComponentResult:
    """Every question and contact request of the customer's on the waiting list, and nothing
    there the customer never asked for (``waiting_items``)."""
    if region_hidden(staff, "waiting_list"):
        return hidden("waiting_list", staff, "a waiting list")
    w = waiting_items(rec, staff, labels)
    questions, contacts = w.questions, w.contacts
    items = staff.waiting_list if staff is not None else []
    shown_q = [norm_text(i.text) for i in items if norm_text(i.kind) == "question"]
    shown_c = sum(1 for i in items if norm_text(i.kind).replace(" ", "_") == "contact_request")
    missing = [q for q in questions
               if not any(norm_text(q) in s or (s and s in norm_text(q)) for s in shown_q)]
    problems, modes = unmapped(staff, ("waiting_kinds",))
    if missing:
        problems.append(f"question(s) not on the waiting list: {'; '.join(missing)}")
    if contacts and shown_c == 0:
        problems.append(f"{contacts} contact request(s), none on the waiting list")
    if missing or (contacts and shown_c == 0):
        modes.append("waiting_list_missing")
    if w.unasked:
        problems.append(f"{len(w.unasked)} item(s) on the waiting list the customer never "
                        "asked for: " + "; ".join(f"{i.kind}: {i.text[:120]!r}"
                                                 for i in w.unasked))
        modes.append("unasked_item")
    details: dict[str, JsonValue] = {
        "questions": list(questions), "contact_requests": contacts, "missing": list(missing),
        "shown_contact_requests": shown_c,
        "asked_items": [{"kind": i.kind, "text": i.text} for i in w.asked],
        "unasked_items": [{"kind": i.kind, "text": i.text} for i in w.unasked]}
    if problems:
        return component("waiting_list", "fail", "; ".join(problems), modes, **details)
    if not questions and not contacts:
        return component("waiting_list", "pass", "the customer asked no question after the "
                         "opening message and made no contact request; "
                         f"{len(items)} item(s) shown, all asked for by the customer",
                         **details)
    return component("waiting_list", "pass", f"{len(questions)} question(s) and {contacts} "
                     "contact request(s) all on the waiting list, nothing there unasked",
                     **details)
