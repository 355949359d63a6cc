"""The summary a customer checks before the claim is submitted, and reading their corrections
to it ("That's not right. Time of the incident: about 17:40")."""

from __future__ import annotations

import re
from collections.abc import Iterable

from . import _wording as W
from ._answers import Detail, Value, read_answer, read_story, shown
from ._parsing import says_dont_know, says_later


def summary_lines(keys: Iterable[str], details: dict[str, Detail], line: str | None,
                  files: list[str]) -> list[str]:
    """One ``Label: value`` line per detail, then the files."""
    texts = W.load("replies")["shown"]
    out = [f"{W.label(k)}: {shown(k, details.get(k), line)}" for k in keys]
    out.append(f"{texts['files']}: {', '.join(files) if files else texts['no_files']}")
    return out


def summary_text(intro: str, lines: list[str]) -> str:
    """The intro, then the details as a list (each item is one line on screen)."""
    return intro + "\n\n" + "\n".join(f"- {line}" for line in lines)


def corrections(said: str, keys: list[str], details: dict[str, Detail],
                line: str | None) -> dict[str, Detail]:
    """The details ``said`` corrects: by the labels it names (each followed by the right
    value), else, when it says something is wrong, by the dates, times and codes it gives
    that differ from the summary."""
    text = W.plain(said)
    found: list[tuple[int, int, str]] = []
    for key in keys:
        for m in re.finditer(re.escape(W.label(key)), text, re.I):
            found.append((m.start(), m.end(), key))
    found.sort()
    out: dict[str, Detail] = {}
    for i, (_, end, key) in enumerate(found):
        stop = found[i + 1][0] if i + 1 < len(found) else len(text)
        chunk = text[end:stop].strip().lstrip(":-– ").strip()
        value: Value | None = read_answer(key, chunk, line)
        if value is not None:
            out[key] = Detail(value, "suggested")
        elif says_later(chunk):
            out[key] = Detail(None, "to_follow")
        elif says_dont_know(chunk):
            out[key] = Detail(None, "not_known")
    if found or not W.hears("wrong", text):
        return out
    for key, value in read_story(text, line).items():
        current = details.get(key)
        if key in keys and key != "incident_type" and (current is None
                                                       or current.value != value):
            out[key] = Detail(value, "suggested")
    return out
