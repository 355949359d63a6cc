"""The leak audit of a pack's customer files, and the run's own leak guard on the first prompt.

``LeakGuard.for_input_audit`` forbids every setup, oracle and provenance value the customer
does not legitimately know; this module reads each customer-visible field of ``input/`` and
reports every such value found, with the file and field it sits in and where it comes from.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from claims_records import LeakError, PackError, ScreenReading

from . import _io
from ._check_pack import Problem
from ._leak import LeakGuard
from ._prompt import build_customer_messages
from ._view import load_customer_view


def _input_fields(pack_dir: Path) -> Iterator[tuple[str, str, str]]:
    """(file, field, text) of every text of input/ that reaches the customer model. A fact's
    ``value`` is not among them: it is the canonical answer the scorer compares with, and the
    customer only ever says the fact's ``say``."""
    view = load_customer_view(pack_dir)
    yield _io.INITIAL_MESSAGE, "<text>", view.initial_message
    p = view.persona
    for name in ("name", "personality", "speaking_style", "dont_know_phrase"):
        yield _io.PERSONA, name, getattr(p, name)
    for i, a in enumerate(p.asks):
        yield _io.PERSONA, f"asks.{i}.text", a.text
    for i, f in enumerate(view.facts):
        yield _io.FACTS, f"facts.{i}.say", f.say
        yield _io.FACTS, f"facts.{i}.topic", f.topic
    for i, m in enumerate(view.materials):
        yield _io.MATERIALS, f"materials.{i}.file", m.file
        yield _io.MATERIALS, f"materials.{i}.label", m.label
        if m.describe_before:
            yield _io.MATERIALS, f"materials.{i}.later.describe_before", m.describe_before


def leak_problems(pack: str, pack_dir: Path) -> list[Problem]:
    """Every value only setup, oracle or provenance holds, found in the pack's input/ files."""
    try:
        guard = LeakGuard.for_input_audit(pack_dir)
        fields = list(_input_fields(pack_dir))
    except PackError:
        return []  # check_pack reports the file that does not load
    out: list[Problem] = []
    for file, field, text in fields:
        for leak in guard.find(text, whole_text=True):
            out.append(Problem(pack, file, field,
                               f"{leak.term!r} comes from {leak.source}, which the customer "
                               "cannot know (if they do, list the value in "
                               f"{_io.LABELS} customer_may_know)"))
    return out


def runtime_guard_problems(pack: str, pack_dir: Path) -> list[Problem]:
    """What the run's own leak guard would refuse in the first prompt (system codes)."""
    try:
        view = load_customer_view(pack_dir)
        guard = LeakGuard.for_runtime(pack_dir)
    except PackError:
        return []
    now = [m.file for m in view.materials if m.availability == "at_start"]
    later = [m.file for m in view.materials if m.availability != "at_start"]
    messages = build_customer_messages(view, ScreenReading(), [], now, later)
    try:
        guard.check(messages)
    except LeakError as exc:
        return [Problem(pack, "input/", "<prompt>",
                        f"the run would refuse the first prompt: {exc.message} "
                        f"({exc.term!r} from {exc.source})")]
    return []
