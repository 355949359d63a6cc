"""``audit_trial``: every customer message and action of one trial against the rules.

The audit walks the journey events in order, as the customer lived them: at each step the
customer may draw on its own view (facts, persona, first message, files) and on everything
the agent has shown so far, and the agent has asked about what its screens asked about so
far. Pure: it reads nothing and writes nothing.
"""

from __future__ import annotations

from claims_corpus import CustomerView
from claims_corpus.formats.money import HOME_CONVENTIONS, MoneyConventions
from claims_records import (
    CustomerAction,
    FidelityAudit,
    FidelityFinding,
    FidelityRule,
    JourneyEvent,
)

from ._rules import (
    Memory,
    all_text,
    asking_text,
    asks_about,
    file_requested,
    hinting,
    invented,
    out_of_character,
    premature,
    still_shown_wrong,
    volunteered,
)
from ._states import states

INITIAL_NOTE = "initial message"
MESSAGE_LIMIT = 300


def _static_sources(view: CustomerView) -> tuple[str, ...]:
    p = view.persona
    texts = [view.initial_message, p.name, p.personality, p.speaking_style, p.dont_know_phrase,
             p.correction_phrase]
    for f in view.facts:
        texts += [str(f.value), f.say, f.topic]
        if f.later is not None:  # what the customer says before a later fact arrives
            texts.append(f.later.describe_before)
    for m in view.materials:
        texts += [m.file, m.label, m.describe_before or ""]
    return tuple(t for t in texts if t)


def describe(action: CustomerAction) -> str:
    """One line for what the customer did: the message it sent, else the action."""
    if action.kind in ("say", "done") and action.text:
        return action.text[:MESSAGE_LIMIT]
    return action.describe()


def _is_opening(ev: JourneyEvent, index: int, view: CustomerView) -> bool:
    a = ev.action
    return (a is not None and a.kind == "say" and index <= 1
            and (ev.note == INITIAL_NOTE or a.text == view.initial_message))


def audit_trial(events: list[JourneyEvent], view: CustomerView,
                money: MoneyConventions = HOME_CONVENTIONS) -> FidelityAudit:
    """The fidelity audit of one trial's customer (``view``: the pack's customer view;
    ``money``: the product's locale and home currency, as run.json records them)."""
    memory = Memory(view=view, static=_static_sources(view), money=money)
    findings: list[FidelityFinding] = []
    messages = actions = 0
    previous = None
    acted = [ev for ev in events if ev.action is not None or ev.screen is not None]
    for index, ev in enumerate(acted):
        screen = ev.screen
        if screen is not None:
            memory.agent_texts.append(all_text(screen))
            shown = asking_text(screen)
            everything = all_text(screen)
            memory.asked |= {f.key for f in view.facts
                             if asks_about(f, shown) or states(f, everything, money)}
        action = ev.action
        if action is None:
            previous = screen or previous
            continue

        def add(rule: FidelityRule, evidence: str, value: str | None = None, *,
                a: CustomerAction = action, step: int = ev.step) -> None:
            findings.append(FidelityFinding(rule=rule, step=step, message=describe(a),
                                            evidence=evidence, value=value))

        if _is_opening(ev, index, view):
            messages += 1
            memory.messages_sent += 1
            memory.actions += 1
            previous = screen
            continue
        text = action.text if action.kind in ("say", "done") else None
        if text:
            messages += 1
            hit = invented(text, memory)
            if hit:
                add("invented", hit[0], hit[1])
            hit = volunteered(text, memory)
            if hit:
                add("volunteered", hit[0], hit[1])
            why = hinting(text, screen, memory)
            if why:
                add("hinting", why)
        else:
            actions += 1
        why = out_of_character(" ".join(t for t in (text, action.reason) if t))
        if why:
            add("out_of_character", why)
        # only the persona's hand-overs allow a file nobody asked for (volunteers_information
        # is about facts)
        handed = {h.file for h in view.persona.hands_over}
        if action.kind == "upload" and action.file not in handed and not (
                file_requested(screen) or file_requested(previous)):
            add("unrequested_upload", "nothing on the screen asked for a file", action.file)
        if action.kind == "done" and not still_shown_wrong(action.corrects, screen, memory):
            why = premature(screen, memory)
            if why:
                add("premature_give_up", f"ended while {why}")
        memory.actions += 1
        if action.kind == "upload" and action.file:
            memory.uploaded.append(action.file)
        if action.kind == "say":
            memory.messages_sent += 1
        previous = screen
    return FidelityAudit(audited=True, messages=messages, actions=actions, findings=findings)


def not_audited(why: str) -> FidelityAudit:
    return FidelityAudit(audited=False, note=why)
