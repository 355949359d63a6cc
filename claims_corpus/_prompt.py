"""The simulated customer's prompt: customer view + memory + visible screen -> chat messages.

Two views of the screen, named in ``run.json`` (``CustomerInfo.prompt_view``):

- ``screen`` (the default, and what the standard asks for): the visible text of the latest
  reply, the cards and dialogs that ask the customer to act, and the labels of the actions it
  can take (answer buttons, other buttons, attaching a file). Nothing else of the screen.
- ``wide``: also the whole conversation, the next-step bar, the panels and the sidebar. A
  team may choose it; every report labels a run that did.

Either way the customer keeps its own memory: persona, facts, files, what it has said and
done, and what it has uploaded. Templates live in ``claims_corpus/prompts/``. Text that comes from
the product or from the model (screen, conversation, what the customer said) is wrapped in
the section markers below, so the leak guard checks exactly the parts built from the pack.
"""

from __future__ import annotations

from collections.abc import Collection
from importlib import resources
from string import Template
from typing import get_args

from claims_records import PromptView, ScreenReading

from ._view import CustomerView
from .formats import Fact

SYSTEM_TEMPLATE = "customer_system.md"
TURN_TEMPLATES: dict[str, str] = {"screen": "customer_turn.md", "wide": "customer_turn_wide.md"}
REPAIR_TEMPLATE = "customer_repair.md"
# Added to the turn when the customer came back after staff asked for more information.
RETURN_TEMPLATE = "customer_return.md"
# The grounded mode's own system and turn (``_prompt_grounded``).
GROUNDED_SYSTEM_TEMPLATE = "customer_system_grounded.md"
GROUNDED_TURN_TEMPLATE = "customer_turn_grounded.md"
TEMPLATES: tuple[str, ...] = (SYSTEM_TEMPLATE, *TURN_TEMPLATES.values(), REPAIR_TEMPLATE,
                              RETURN_TEMPLATE, GROUNDED_SYSTEM_TEMPLATE,
                              GROUNDED_TURN_TEMPLATE)
PROMPT_VIEWS: tuple[str, ...] = get_args(PromptView)
DEFAULT_PROMPT_VIEW = "screen"

# Section markers (control tokens) around text that is not built from the pack.
CONVERSATION_OPEN = "<conversation>"
CONVERSATION_CLOSE = "</conversation>"
SCREEN_OPEN = "<screen>"
SCREEN_CLOSE = "</screen>"
SAID_OPEN = "<said>"
SAID_CLOSE = "</said>"
# The grounded mode's choices: the customer's own (pack text, checked by the guard on their
# own before the prompt is built) mixed with the screen's buttons (the product's text).
CHOICES_OPEN = "<choices>"
CHOICES_CLOSE = "</choices>"
PRODUCT_SECTIONS: tuple[tuple[str, str], ...] = (
    (CONVERSATION_OPEN, CONVERSATION_CLOSE),
    (SCREEN_OPEN, SCREEN_CLOSE),
    (SAID_OPEN, SAID_CLOSE),
    (CHOICES_OPEN, CHOICES_CLOSE),
)
MARKERS: tuple[str, ...] = tuple(m for pair in PRODUCT_SECTIONS for m in pair)

SPEAKERS = {"agent": "Assistant", "customer": "You"}
NOTHING = "(none)"
ATTACH_ACTION = "Attach a file (upload one of the files you have now)"
TYPE_ACTION = "Type a message"


def template_text(name: str) -> str:
    """The raw text of one prompt template."""
    return resources.files("claims_corpus.prompts").joinpath(name).read_text(encoding="utf-8")


def _defang(text: str) -> str:
    """Product text may not close or open a section marker."""
    for marker in MARKERS:
        text = text.replace(marker, marker.replace("<", "< "))
    return text


def _bullets(items: list[str]) -> str:
    return "\n".join(f"- {i}" for i in items) if items else NOTHING


def _section(open_: str, close: str, body: str) -> str:
    return f"{open_}\n{_defang(body)}\n{close}"


HAND_OVER_WHEN = {
    "with_first_upload": "right after you first upload a file",
    "before_confirming": "when you are shown details to confirm, before confirming",
    "after_actions": "once you have sent or done {n} things in this chat",
}


def _fact_line(fact: Fact, learned: Collection[str]) -> str:
    topic = f"{fact.topic[:1].upper()}{fact.topic[1:]}"
    if fact.later is not None and fact.key not in learned:
        # the value is not known yet: it never enters the prompt
        return f"{topic}: you do not know this yet; if asked, you say: " \
               f"\"{fact.later.describe_before}\""
    return f"{topic}: {fact.say}"


def render_system(view: CustomerView, learned: Collection[str] = ()) -> str:
    """The system message: the behaviour rules and the reply's form, then persona, facts,
    files and asks. ``learned``: keys of later facts the customer knows by now (the others
    appear only as 'not known yet').

    What is the same for every pack comes first, so a model server that keeps the start of
    the last prompt (llama.cpp, vLLM's prefix cache, hosted prompt caching) reads only the
    pack's part again when a new trial starts."""
    p = view.persona
    volunteering = (
        "you sometimes mention a related detail you know without being asked, as this "
        "person would" if p.volunteers_information
        else "you do not volunteer them"
    )
    facts = _bullets([_fact_line(f, learned) for f in view.facts])
    handed = {h.file: HAND_OVER_WHEN[h.when].format(n=h.after_actions) for h in p.hands_over}
    files = []
    for m in view.materials:
        when = ("you have it now" if m.availability == "at_start"
                else f"you will only have it later; until then, if asked, you say: "
                     f"\"{m.describe_before}\"")
        if m.file in handed:
            when += f"; you hand it over without being asked, {handed[m.file]}"
        files.append(f"{m.file} ({m.label}) - {when}")
    asks = _bullets([f"\"{a.text}\" - once you have typed {a.after_messages} messages"
                     for a in p.asks]) if p.asks else "Nothing."
    # pack text may not open a product section either: that would hide it from the guard
    return _defang(Template(template_text(SYSTEM_TEMPLATE)).substitute(
        name=p.name, personality=p.personality, speaking_style=p.speaking_style,
        dont_know_phrase=p.dont_know_phrase, volunteering=volunteering, facts=facts,
        materials=_bullets(files), asks=asks,
    ).strip())


def render_files(view: CustomerView, available_files: list[str],
                 later_files: list[str]) -> tuple[str, str]:
    """The two file lists of a turn, from the view's file names and labels only."""
    labels = {m.file: m for m in view.materials}
    available = _bullets([f"{f} ({labels[f].label})" if f in labels else f
                          for f in available_files])
    later = _bullets([
        f"{labels[f].label} - if asked now, you say: \"{labels[f].describe_before}\""
        if f in labels and labels[f].describe_before else (labels[f].label if f in labels else f)
        for f in later_files
    ])
    return _defang(available), _defang(later)


def _needing_action(screen: ScreenReading) -> list[str]:
    """Cards and dialogs that ask the customer to act, as visible text."""
    items = [*screen.cards, *screen.dialogs]
    if screen.sign_in_prompt:
        items.append("A sign-in window is open.")
    if screen.upload_error:
        items.append(f"Upload problem: {screen.upload_error}")
    return items


def _labels(labels: list[str]) -> str:
    return " | ".join(f'"{label}"' for label in labels) if labels else NOTHING


def render_screen(screen: ScreenReading, prompt_view: str = DEFAULT_PROMPT_VIEW,
                  can_attach: bool = True) -> str:
    """The visible screen as the customer model is shown it, in ``prompt_view``."""
    actions = [f"Answer buttons under the reply: {_labels(screen.chips)}",
               f"Other buttons: {_labels(screen.buttons)}"]
    if can_attach:
        actions.append(ATTACH_ACTION)
    actions.append(TYPE_ACTION)
    lines = [f"Latest reply from the assistant:\n{screen.latest_reply or NOTHING}",
             f"Cards and windows asking you to act:\n{_bullets(_needing_action(screen))}",
             f"What you can do:\n{_bullets(actions)}"]
    if prompt_view == "wide":
        lines += [f"Next-step bar: {screen.todo or NOTHING}",
                  f"Panel 'what we have so far':\n{screen.facts_panel or NOTHING}",
                  f"Sidebar:\n{screen.sidebar or NOTHING}",
                  f"Claim number shown: {screen.claim_number or NOTHING}"]
    return "\n\n".join(lines)


def render_conversation(history: list[tuple[str, str]]) -> str:
    if not history:
        return NOTHING
    return "\n\n".join(f"{SPEAKERS.get(who, who)}: {text}" for who, text in history)


def render_said(history: list[tuple[str, str]]) -> str:
    """The customer's own messages and actions so far (its memory), oldest first."""
    return _bullets([text for who, text in history if who == "customer"])


def build_customer_messages(
    view: CustomerView,
    screen: ScreenReading,
    history: list[tuple[str, str]],
    available_files: list[str],
    later_files: list[str],
    *,
    uploaded: list[str] | tuple[str, ...] = (),
    prompt_view: str = DEFAULT_PROMPT_VIEW,
    can_attach: bool = True,
    learned_facts: Collection[str] = (),
    returned: bool = False,
) -> list[dict[str, str]]:
    """OpenAI chat messages for the customer's next action.

    ``history`` is the conversation as the customer saw it, as ("agent"|"customer", text);
    in the ``screen`` view only the customer's own entries are used. ``available_files`` /
    ``later_files`` are material file names the customer has now / will have later,
    ``uploaded`` those it has sent, ``learned_facts`` the keys of later facts it knows by
    now. Materials appear only as file name and plain label. ``returned``: the customer came
    back after staff asked for more information (the claim number no longer ends it).
    """
    if prompt_view not in TURN_TEMPLATES:
        raise ValueError(f"unknown prompt view {prompt_view!r}; use one of {PROMPT_VIEWS}")
    available, later = render_files(view, available_files, later_files)
    sent = _defang(_bullets(list(uploaded)))
    turn = Template(template_text(TURN_TEMPLATES[prompt_view])).substitute(
        said=_section(SAID_OPEN, SAID_CLOSE, render_said(history)),
        conversation=_section(CONVERSATION_OPEN, CONVERSATION_CLOSE,
                              render_conversation(history)),
        screen=_section(SCREEN_OPEN, SCREEN_CLOSE,
                        render_screen(screen, prompt_view, can_attach)),
        uploaded=sent, available=available, later=later,
    ).strip()
    if returned:
        turn = template_text(RETURN_TEMPLATE).strip() + "\n\n" + turn
    return [{"role": "system", "content": render_system(view, learned_facts)},
            {"role": "user", "content": turn}]


def build_repair_messages(answer: str, problem: str) -> list[dict[str, str]]:
    """The two messages that ask again after an unusable answer: the model's own answer as
    given, and a note saying what was wrong with it (the problem inside a section the leak
    guard skips, as it may quote the answer)."""
    note = Template(template_text(REPAIR_TEMPLATE)).substitute(
        problem=_section(SAID_OPEN, SAID_CLOSE, problem)).strip()
    return [{"role": "assistant", "content": answer}, {"role": "user", "content": note}]


def without_product_text(text: str) -> str:
    """``text`` with every section not built from the pack (screen, conversation, said)
    removed."""
    for open_, close in PRODUCT_SECTIONS:
        out: list[str] = []
        rest = text
        while True:
            start = rest.find(open_)
            if start < 0:
                out.append(rest)
                break
            end = rest.find(close, start + len(open_))
            if end < 0:  # unclosed: keep the rest, so nothing escapes the check
                out.append(rest)
                break
            out.append(rest[:start])
            rest = rest[end + len(close):]
        text = "".join(out)
    return text
