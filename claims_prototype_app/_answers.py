"""One detail of the claim: reading the customer's answer for it, and showing it back.

A detail holds a canonical value (``YYYY-MM-DD``, ``HH:MM`` or ``HH:MM-HH:MM``, ``yes``/``no``,
an incident type code, text, or :class:`Money`) and a state: ``suggested`` (read, not yet
confirmed), ``confirmed``, ``not_known`` or ``to_follow``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from . import _parsing as P
from . import _wording as W
from ._money import Money, find_money

YES_NO = ("vehicle_driveable", "third_party_involved", "injuries", "property_habitable")
TEXT = ("incident_location", "incident_description", "damaged_items")
# Leading words of a free-text answer that are not part of the value.
_LEAD = re.compile(
    r"^(?:(?:it|this|that)\s+(?:was|is|happened|happend|were)\s+(?:at|on|in)?\s*|"
    r"the place was\s+|it happen(?:ed|d)?\s+(?:at|on|in)\s+|is at\s+|at\s+|only\s+|just\s+|"
    r"the thing in question is\s+|it was\s+|they took\s+)", re.I)

Value = str | Money


@dataclass
class Detail:
    value: Value | None
    state: str  # suggested | confirmed | not_known | to_follow


def read_answer(key: str, said: str, line: str | None) -> Value | None:
    """The value ``said`` gives for ``key`` as a direct answer to its question."""
    if key == "policy_number":
        return P.parse_policy(said)
    if key == "incident_date":
        return P.parse_date(said)
    if key == "incident_time":
        return P.parse_time(said)
    if key == "incident_type":
        return P.parse_incident_type(said, line)
    if key in YES_NO:
        return P.parse_yes_no(said)
    if key == "vehicle_registration":
        return P.parse_registration(said, answer=True)
    if key == "police_reference":
        return P.parse_reference(said, answer=True)
    if key == "items_value":
        return find_money(said, bare=True)
    if key in TEXT:
        text = _LEAD.sub("", W.plain(said).strip()).strip().rstrip(".!")
        text = re.sub(r",?\s*that'?s all$", "", text, flags=re.I).strip()
        return text[:1].upper() + text[1:] if len(text) >= 2 else None
    return said.strip() or None


def read_story(said: str, line: str | None) -> dict[str, Value]:
    """What can be read reliably from free text (an opening message, a correction): dates,
    times, policy numbers, registrations, crime references, amounts, the incident type."""
    found: dict[str, Value] = {}
    readers = {
        "policy_number": P.parse_policy(said),
        "incident_date": P.parse_date(said),
        "incident_time": P.parse_time(said),
        "vehicle_registration": P.parse_registration(said),
        "police_reference": P.parse_reference(said),
        "incident_type": P.parse_incident_type(said, line),
    }
    for key, value in readers.items():
        if value is not None:
            found[key] = value
    money = find_money(said)
    if money is not None:
        found["items_value"] = money
    return found


def shown(key: str, detail: Detail | None, line: str | None) -> str:
    """How a detail is shown back in the summary."""
    texts = W.load("replies")["shown"]
    if detail is None or detail.state == "not_known" or detail.value is None:
        return str(texts["to_follow"] if detail and detail.state == "to_follow"
                   else texts["not_known"])
    value = detail.value
    if isinstance(value, Money):
        return value.shown()
    if key == "incident_date":
        day = dt.date.fromisoformat(value)
        return f"{day.day} {day:%B %Y}"
    if key == "incident_time" and "-" in value:
        earliest, latest = value.split("-")
        return str(texts["window"]).format(earliest=earliest, latest=latest)
    if key in YES_NO:
        return str(texts[value])
    if key == "incident_type" and line:
        return W.choice(line, value)
    return value


def stored(detail: Detail) -> str | None:
    """The canonical text kept in ``claim_facts.value``."""
    if detail.value is None:
        return None
    return detail.value.stored() if isinstance(detail.value, Money) else detail.value
