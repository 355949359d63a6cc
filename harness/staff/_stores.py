"""The staff side read from the stores, for a product without a staff screen.

The state dump taken after the journey (``state-after.json``, in canonical terms through the
profile's ``[mapping]``) holds what a staff screen would have shown: the claim's triage,
review signal and checks, its facts, and the waiting list. ``[staff_stores]`` says where
(``StaffStores``); the journey's claim number says which claim. Stored words are read through
``[staff_vocabulary]`` as shown words are, and fact values become the text a staff screen
shows (dates ``YYYY-MM-DD``, money ``2400 NZD``, ``yes``/``no``, ``not known`` and ``to
follow`` for those states), so the scorer's checks read both alike. A region the stores do
not hold is listed under ``not_shown``; nothing is guessed.
"""

from __future__ import annotations

import json
from typing import Any

from claims_records import StaffCheck, StaffFact, StaffReading, StaffWaitingItem, StateDump
from seed.stores.mapping import MISSING, get_path

from ..profile import StaffStores, Vocabulary
from ._vocabulary import WordMap

# What a staff screen shows instead of the value of a fact in these states.
STATE_TEXT = {"unknown": "not known", "to_follow": "to follow"}

Document = dict[str, Any]


def read_stores(state: StateDump, claim_number: str | None, where: StaffStores,
                vocabulary: Vocabulary | None = None) -> StaffReading:
    """What the stores hold of the claim numbered ``claim_number`` (the one the journey saw)
    and of its waiting list, as a staff reading (``source = "stores"``)."""
    words = WordMap(vocabulary or Vocabulary())
    reading = StaffReading(source="stores", claim_number=claim_number,
                           not_shown=where.not_held())
    collections = state.collections
    if claim_number is None:
        reading.not_shown.insert(0, "claim")
        reading.error = "no claim number: the journey saw none to look for in the stores"
    else:
        claims = collections.get(where.claims, {})
        claim = _find(claims, where.claim_number, claim_number)
        if claim is None:
            reading.error = (f"claim {claim_number} is not in the stores: no document of "
                             f"{where.claims!r} has {where.claim_number} = {claim_number!r} "
                             f"({len(claims)} document(s) there)")
        else:
            reading.found = True
            _read_claim(claim, where, words, reading)
    if where.waiting_list:
        items = collections.get(where.waiting_list, {})
        reading.waiting_list = [
            _waiting_item(item, where, words) for item in items.values()
            if not where.waiting_claim or _same(get_path(item, where.waiting_claim),
                                                claim_number)]
    reading.unmapped = words.unmapped
    return reading


def _find(claims: dict[str, Document], field: str, number: str) -> Document | None:
    """The claim whose ``field`` holds ``number`` (``_id``: also its key in the dump)."""
    for key, doc in claims.items():
        value = get_path(doc, field)
        if value is MISSING and field == "_id":
            value = key
        if _same(value, number):
            return doc
    return None


def _same(value: Any, number: str | None) -> bool:
    """A stored claim reference names ``number`` (None: names no claim)."""
    if number is None:
        return value is MISSING or value is None or value == ""
    return value is not MISSING and value is not None and str(value) == number


def _held(doc: Document, path: str) -> Any:
    """The value at ``path`` (None when the document does not hold it)."""
    value = get_path(doc, path) if path else MISSING
    return None if value is MISSING else value


def _listed(value: Any) -> list[Any]:
    """A stored list as it is; one value as a list of one; nothing as an empty list."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _read_claim(claim: Document, where: StaffStores, words: WordMap,
                reading: StaffReading) -> None:
    triage = _held(claim, where.triage_class)
    if triage is not None:
        reading.triage_class = words.stored("triage_class", text(triage))
    for reason in _listed(_held(claim, where.reasons)):
        code = words.stored("reasons", text(reason))
        if code is not None:
            reading.reasons.append(code)
    urgency = _held(claim, where.urgency)
    reading.urgency = None if urgency is None else text(urgency)
    flag = _held(claim, where.review_required)
    if isinstance(flag, bool):
        reading.review_required = flag
    elif flag is not None:
        code = words.stored("review_signal", text(flag))
        reading.review_required = None if code is None else code == "review_required"
    checks = _held(claim, where.checks)
    for check_id, entry in checks.items() if isinstance(checks, dict) else []:
        cid = words.stored("check_ids", check_id)
        outcome, rests_on = (entry, None) if not isinstance(entry, dict) else (
            _held(entry, where.check_outcome), _held(entry, where.check_rests_on))
        if cid is None or outcome is None:
            continue
        shown = text(outcome)
        reading.checks[cid] = StaffCheck(
            outcome=words.stored("check_outcomes", shown) or shown,
            rests_on="" if rests_on is None else text(rests_on))
    facts = _held(claim, where.facts)
    for key, entry in facts.items() if isinstance(facts, dict) else []:
        code = words.stored("fact_keys", key)
        value, stored_state = (entry, None) if not isinstance(entry, dict) else (
            _held(entry, where.fact_value), _held(entry, where.fact_state))
        state = "" if stored_state is None else text(stored_state)
        if state:
            state = words.stored("fact_states", state) or state
        if code is not None:
            reading.facts[code] = StaffFact(value=STATE_TEXT.get(state, text(value)),
                                            state=state)


def _waiting_item(item: Document, where: StaffStores, words: WordMap) -> StaffWaitingItem:
    kind = text(_held(item, where.waiting_kind))
    if kind:
        kind = words.stored("waiting_kinds", kind) or kind
    return StaffWaitingItem(kind=kind, text=text(_held(item, where.waiting_text)))


def text(value: Any) -> str:
    """A stored value as a staff screen shows it: yes/no, a number without a needless
    ``.0``, money as ``2400 NZD``, a time window as ``HH:MM-HH:MM``, a list joined by
    commas, nothing for None."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dict):
        if {"amount", "currency"} <= set(value):
            return f"{text(value['amount'])} {text(value['currency'])}"
        if set(value) == {"earliest", "latest"}:
            return f"{text(value['earliest'])}-{text(value['latest'])}"
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    if isinstance(value, list):
        return ", ".join(text(v) for v in value)
    return str(value)
