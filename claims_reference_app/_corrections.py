"""The summary step of the reference agent: corrections the customer makes to the details
shown, and the ``wrong_summary`` fault that plants a wrong value for them to find.

A correction names a detail by its label on screen ("Time of the incident: about 17:40"); the
text after each label, up to the next label, is read as that fact's new value. "I don't know"
records the fact as unknown, "later" as to follow. With the ``ignore_corrections`` fault the
agent has no correction path: it shows the summary again unchanged.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from . import rules
from ._journey import Journey
from ._text import choice_labels, fact_label

LATER = re.compile(
    r"\blater\b|\btomorrow\b|\bnot yet\b|\byet\b|\bwill (?:send|upload|get|give)\b|"
    r"\bnext week\b|\bwhen i (?:get|have)\b|\bonce i\b|\bwaiting for\b|\bto follow\b",
    re.I,
)


def _label_spans(j: Journey, text: str) -> list[tuple[int, int, str]]:
    """(start, end, fact key) of every fact label named in ``text``, in order."""
    keys = [*j.needed(), *(k for k in j.facts if k not in j.needed())]
    found: list[tuple[int, int, str]] = []
    for key in keys:
        label = fact_label(key)
        for m in re.finditer(re.escape(label), text, re.I):
            if not any(s < m.end() and m.start() < e for s, e, _ in found):
                found.append((m.start(), m.end(), key))
    return sorted(found)


def read_value(j: Journey, key: str, text: str) -> tuple[Any, str]:
    """(value, state) of an answer about fact ``key``: unknown, to follow, or a value."""
    if rules.says_dont_know(text):
        return None, "unknown"
    value = rules.parse_fact(key, text, j.line, choice_labels(j.line))
    if LATER.search(text) and (value is None or rules.FACT_KINDS.get(key) == "text"):
        return None, "to_follow"
    return value, "suggested"


def apply_corrections(j: Journey, text: str) -> list[str]:
    """Change every fact the customer's message corrects; returns the keys changed."""
    spans = _label_spans(j, text)
    changed = []
    for i, (_, end, key) in enumerate(spans):
        stop = spans[i + 1][0] if i + 1 < len(spans) else len(text)
        segment = text[end:stop].strip(" :-–\t\n")
        value, state = read_value(j, key, segment)
        if value is None and state == "suggested":
            continue  # nothing readable: keep what we have
        old = j.facts.get(key) or {}
        if old.get("value") == value and old.get("state") == state:
            continue
        j.record_fact(key, value, "correction", state=state)
        changed.append(key)
    if changed:
        j.audit("apply_corrections", keys=changed)
    return changed


def plant_wrong_value(j: Journey) -> str | None:
    """The ``wrong_summary`` fault: change one recorded fact before the summary is first shown
    (the incident date moved a day, else the incident time moved an hour)."""
    st = j.state
    if st.get("planted"):
        return None
    for key, shift in (("incident_date", timedelta(days=1)), ("incident_time", None)):
        value = j.value(key)
        if not isinstance(value, str):
            continue
        if shift is not None and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            wrong = (date.fromisoformat(value) + shift).isoformat()
        elif re.fullmatch(r"\d{2}:\d{2}", value):
            wrong = f"{(int(value[:2]) + 1) % 24:02d}{value[2:]}"
        else:
            continue
        j.facts[key]["value"] = wrong
        st["planted"] = key
        j.audit("fault_wrong_summary", key=key)
        return key
    return None
