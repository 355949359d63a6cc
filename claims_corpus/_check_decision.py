"""The staff script (setup.json) against the oracle's staff_decision and the customer's files.

Both are present or both absent; the oracle's expectations fit the scripted decision (the
status the customer must see, the amount the note must show, the requested item); a
return-for-information asks for a 'comes later' item that arrives only after the journey.
Each problem is ``(file, field, message)``; the caller adds the pack.
"""

from __future__ import annotations

from claims_records import STATUS_OF_DECISION

from . import _io
from ._loading import Pack
from .formats.pack_input import LaterAvailability, LaterFact

Found = list[tuple[str, str, str]]


def decision_problems(pack: Pack) -> Found:
    script, label = pack.setup.staff_script, pack.labels.staff_decision
    if script is None and label is None:
        return []
    if script is None:
        return [(_io.SETUP, "staff_script", "the oracle has a staff_decision but setup.json "
                 "has no staff_script")]
    if label is None:
        return [(_io.LABELS, "staff_decision", "setup.json has a staff_script but the oracle "
                 "has no staff_decision")]
    out: Found = []
    want = "under_review" if script.decision == "return_for_info" else STATUS_OF_DECISION[
        script.decision]
    if label.customer_status != want:
        out.append((_io.LABELS, "staff_decision.customer_status",
                    f"{label.customer_status!r} after {script.decision}; expected {want!r}"))
    if script.amount is not None and label.note_amount != script.amount:
        out.append((_io.LABELS, "staff_decision.note_amount",
                    f"must be the scripted amount {script.amount}"))
    if label.requested != script.requested:
        out.append((_io.LABELS, "staff_decision.requested",
                    f"{label.requested!r} differs from the script's {script.requested!r}"))
    if script.staff == "senior" and label.allowed_roles != ["senior_staff"]:
        out.append((_io.LABELS, "staff_decision.allowed_roles",
                    "a decision the script gives a senior must allow senior_staff only"))
    if script.requested is not None:
        out += _requested_problems(pack, script.requested)
    return out


def _requested_problems(pack: Pack, name: str) -> Found:
    items: list[tuple[str, str, LaterFact | LaterAvailability | None]] = [
        ("fact", f.key, f.later) for f in pack.facts.facts]
    items += [("material", m.file, m.later) for m in pack.materials.materials]
    for kind, key, later in items:
        if key != name:
            continue
        if later is None or later.arrives is not None:
            return [(_io.SETUP, "staff_script.requested", f"{kind} {name!r} must come later "
                     "and arrive only after the journey (later.arrives null)")]
        return []
    return [(_io.SETUP, "staff_script.requested",
             f"{name!r} is no fact key or material file of the pack")]
