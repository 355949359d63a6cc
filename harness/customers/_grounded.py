"""The grounded customer's choices: what the customer may say or do on one screen, as an enum
the model chooses from, and the choice mapped back to one ``CustomerAction``.

A choice is built only from the customer's view and the screen, with the phrase tables and
readings the scripted customer uses (``_match``, ``_summary``, ``ScriptedCustomer``'s
helpers), so the two customers read a screen alike:

- a sign-in window open -> signing in is the only choice;
- a file the persona hands over unasked, once its moment has come; a question the persona asks
  along the way, once it is due;
- a summary to confirm -> the correction of what is wrong in it, else its confirm control
  (never the confirm control while a detail shown is wrong);
- the facts the latest reply asks about, each in its own wording (``Fact.say``; a later fact
  not known yet: what the customer says before it comes); a persona that volunteers may also
  state its other facts;
- the files the reply asks for that the customer has and has not sent;
- every answer chip under the reply (a chip answering the asked fact first), and the buttons
  the reply names (other buttons — navigation, "Talk to a person" — are not the customer's to
  press: asking for a person is one of the persona's own questions when it has one);
- "don't know" (the persona's own phrase), asking what they mean (not twice running), and,
  when the screen asks nothing (no question, chip or file request), a short acknowledgement
  (waiting for what comes next) — none of these on a summary to check, which is corrected or
  confirmed.

The customer's words are always the chosen option's own words: a fact it does not hold is not
among the choices, so it cannot be stated. Choices come most relevant first. ``done`` is never
a choice: the journey ends on a visible outcome (a claim number, a hand-off) by itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from claims_corpus import CustomerView, LeakGuard
from claims_corpus.formats import HOME_CONVENTIONS, Fact, MoneyConventions
from claims_records import CustomerAction, ScreenReading

from ._action import strip_wrapping
from ._base import CustomerContext
from ._endpoint import LlmSettings
from ._llm import LlmCustomer
from ._match import normalise, phrase_score, questions
from ._replay import RecordedTrial
from ._scripted import ScriptedCustomer
from ._summary import corrections

CHOICE_FIELD = "choice"
CLICK_PREFIX = "click: "
UPLOAD_PREFIX = "send file: "
SIGN_IN = "sign in"


@dataclass(frozen=True)
class Choice:
    """One thing the customer may do now: the words the model chooses, and the action."""

    label: str
    action: CustomerAction
    from_screen: bool = False
    """The label is the product's text (a button), not the customer's own."""


def _say(text: str) -> Choice:
    return Choice(text, CustomerAction(kind="say", text=text))


def _click(label: str) -> Choice:
    return Choice(CLICK_PREFIX + label, CustomerAction(kind="click", label=label),
                  from_screen=True)


def _upload(script: ScriptedCustomer, file: str) -> Choice:
    label = script.view.material(file).label
    return Choice(f"{UPLOAD_PREFIX}{file} ({label})", CustomerAction(kind="upload", file=file))


def permitted(script: ScriptedCustomer, screen: ScreenReading,
              ctx: CustomerContext) -> list[Choice]:
    """Everything the customer may do on ``screen``, most relevant first, each label once.

    ``script`` is the scripted customer of the same view: its readings of the screen (facts
    asked, files asked, summary, chips) are reused; its own decision is never taken."""
    if screen.sign_in_prompt and not ctx.signed_in:
        return [Choice(SIGN_IN, CustomerAction(kind="sign_in"))]
    syn, view = script.syn, script.view
    reply = syn.without_acknowledgements(screen.latest_reply)
    asked = " ".join(questions(reply))
    out: list[Choice] = []

    confirm = script._confirm_control(screen)
    summary = confirm is not None and phrase_score(reply, syn.confirm_request) > 0
    handed = script._hand_over(ctx, summary)
    if handed is not None and handed.file:
        out.append(_upload(script, handed.file))
    out += [_say(a.text) for i, a in enumerate(view.persona.asks)
            if i not in script._asked and (ctx.messages_sent >= a.after_messages or summary)]
    wrong = (corrections(view, ctx.learned_facts, screen, syn, script.money)
             if confirm is not None else [])
    if wrong:
        text = " ".join([view.persona.correction_phrase, *(c.text for c in wrong)])
        out.append(Choice(text, CustomerAction(kind="say", text=text,
                                               corrects=[c.label for c in wrong])))
    elif summary and confirm is not None:
        out.append(_click(confirm))
    if summary:
        return _once(out)  # a summary asks to be checked: correct it or confirm it

    ranked = _asked_facts(script, reply, asked)
    for fact in ranked:
        chip = script._chip_for(fact, screen.chips) if script._knows(fact, ctx) else None
        if chip is not None:
            out.append(_click(chip))
    out += [_say(script._answer(fact, ctx)) for fact in ranked]
    wants_file = (phrase_score(reply, syn.requests) > 0
                  or (bool(screen.todo) and phrase_score(screen.todo, syn.requests) > 0))
    if wants_file and ctx.can_attach:
        words = script._file_words(f"{reply} {screen.todo}", screen)
        ranked_files = [m.file for _, fresh, m in
                        syn.ranked_materials(words, view.materials, ctx.uploaded) if fresh]
        # the files of the kind asked for; any file not sent yet when none is of that kind
        for file in ranked_files or ctx.available_files:
            if file in ctx.available_files and file not in ctx.uploaded:
                out.append(_upload(script, file))
    story_chip = script._chip_from_story(screen.chips) if screen.chips else None
    if story_chip is not None:
        out.append(_click(story_chip))
    buttons = [label for label in screen.buttons if label == confirm or _named(label, reply)]
    out += [_click(label) for label in [*screen.chips, *buttons]
            if label != confirm or not wrong]
    if view.persona.volunteers_information:
        out += [_say(script._answer(f, ctx)) for f in view.facts if f not in ranked]
    if not script._anything_asked(screen, asked, wants_file):
        out.append(_say(syn.phrases["wait"]))
    out.append(_say(view.persona.dont_know_phrase))
    said = [text for who, text in ctx.history if who == "customer"]
    if not said or said[-1] != syn.phrases["clarify"]:  # asking twice running gets nowhere
        out.append(_say(syn.phrases["clarify"]))
    return _once(out)


# The facts a reply asks about: at most this many, each scoring at least this share of the best
# and at least the score of one phrase of the fact's own (``synonyms.toml``) or two words of its
# topic: one shared word ("number") is not a question about it.
MAX_ASKED_FACTS = 2
ASKED_SHARE = 0.5
ASKED_MINIMUM = 1.0


def _asked_facts(script: ScriptedCustomer, reply: str, asked: str) -> list[Fact]:
    """The facts the reply asks about, best match first (a fact matched only by a word in
    passing, far below the best, is not asked about)."""
    ranked = script._ranked_facts(reply, asked)[:MAX_ASKED_FACTS]
    if not ranked:
        return []
    best = ranked[0][1]
    return [fact for fact, score in ranked
            if score >= max(best * ASKED_SHARE, ASKED_MINIMUM)]


def _named(label: str, reply: str) -> bool:
    """Whether the reply names a button by its label (a button it asks the customer to
    press); other buttons (navigation, "Talk to a person") are not the customer's to press
    unless its persona asks for that."""
    return normalise(label) in normalise(reply)


def _once(choices: list[Choice]) -> list[Choice]:
    """Each label once (the first, most relevant, keeps it); labels on one line."""
    seen: set[str] = set()
    out: list[Choice] = []
    for c in choices:
        label = " ".join(c.label.split())
        if label and label not in seen:
            seen.add(label)
            out.append(Choice(label, c.action, c.from_screen))
    return out


def choice_schema(choices: list[Choice]) -> dict[str, Any]:
    """The answer's JSON schema: one object whose ``choice`` is one of the labels."""
    return {"type": "object",
            "properties": {CHOICE_FIELD: {"type": "string", "enum": [c.label for c in choices],
                                          "description": "What the customer does next."}},
            "required": [CHOICE_FIELD], "additionalProperties": False}


def chosen(text: str, choices: list[Choice]) -> CustomerAction:
    """The action of the choice a model's answer names (raises ``ValueError`` when it names
    none). The answer is read as ``parse_action`` reads one (a fence or a ``<think>`` block
    dropped); the label must be one of the choices, whitespace aside."""
    data = json.loads(strip_wrapping(text), strict=False)
    if not isinstance(data, dict) or set(data) != {CHOICE_FIELD}:
        raise ValueError(f'the answer is not one object with only "{CHOICE_FIELD}"')
    value = data[CHOICE_FIELD]
    if not isinstance(value, str):
        raise ValueError(f'"{CHOICE_FIELD}" is not a string')
    wanted = " ".join(value.split())
    for c in choices:
        if c.label == wanted:
            return c.action
    raise ValueError(f"'{wanted[:120]}' is not one of the choices offered")


class GroundedCustomer(LlmCustomer):
    """The LLM customer in grounded mode: each turn the model chooses one of ``permitted``'s
    choices (an enum in the answer's schema, so a grammar-constrained server can produce
    nothing else); the choice's action is what the customer does."""

    def __init__(self, view: CustomerView, settings: LlmSettings, *, guard: LeakGuard,
                 build_messages: Callable[..., list[dict[str, str]]],
                 build_repair: Callable[[str, str], list[dict[str, str]]],
                 replay: RecordedTrial | None = None,
                 confirm_labels: list[str] | None = None,
                 money: MoneyConventions = HOME_CONVENTIONS) -> None:
        super().__init__(view, settings, guard=guard, build_messages=build_messages,
                         build_repair=build_repair, replay=replay)
        self.script = ScriptedCustomer(view, confirm_labels=confirm_labels, money=money)

    def turn(self, screen: ScreenReading, ctx: CustomerContext
             ) -> tuple[list[dict[str, str]], dict[str, Any], Callable[[str], CustomerAction]]:
        choices = permitted(self.script, screen, ctx)
        # the customer's own choices are pack text: checked here, as the prompt keeps every
        # choice in a section of its own (a button's label is the product's text)
        self._guard.check("\n".join(c.label for c in choices if not c.from_screen))
        messages = self._build(
            self.view, screen, list(ctx.history), [c.label for c in choices],
            prompt_view=self.settings.prompt_view, returned=ctx.returned)
        self._guard.check(messages)
        return messages, choice_schema(choices), lambda text: chosen(text, choices)

    def took(self, action: CustomerAction, ctx: CustomerContext) -> None:
        for i, a in enumerate(self.view.persona.asks):
            if action.kind == "say" and action.text == a.text:
                self.script._asked.add(i)


__all__ = ["CHOICE_FIELD", "Choice", "GroundedCustomer", "choice_schema", "chosen",
           "permitted"]
