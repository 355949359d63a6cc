"""The simulated customer's prompt: customer view + visible screen text -> chat messages.

Templates live in ``corpus/prompts/``. Text that comes from the product (the conversation
and the screen) is wrapped in the section markers below, so the leak guard can check exactly
the parts of a prompt built from the pack.
"""

from __future__ import annotations

from collections.abc import Collection
from importlib import resources
from string import Template

from ._view import CustomerView
from .formats import Fact, ScreenReading

SYSTEM_TEMPLATE = "customer_system.md"
TURN_TEMPLATE = "customer_turn.md"

# Section markers (control tokens) around product text in a prompt.
CONVERSATION_OPEN = "<conversation>"
CONVERSATION_CLOSE = "</conversation>"
SCREEN_OPEN = "<screen>"
SCREEN_CLOSE = "</screen>"
PRODUCT_SECTIONS: tuple[tuple[str, str], ...] = (
    (CONVERSATION_OPEN, CONVERSATION_CLOSE),
    (SCREEN_OPEN, SCREEN_CLOSE),
)
MARKERS: tuple[str, ...] = tuple(m for pair in PRODUCT_SECTIONS for m in pair)

SPEAKERS = {"agent": "Assistant", "customer": "You"}
NOTHING = "(none)"


def template_text(name: str) -> str:
    """The raw text of one prompt template."""
    return resources.files("corpus.prompts").joinpath(name).read_text(encoding="utf-8")


def _defang(text: str) -> str:
    """Product text may not close or open a section marker."""
    for marker in MARKERS:
        text = text.replace(marker, marker.replace("<", "< "))
    return text


def _bullets(items: list[str]) -> str:
    return "\n".join(f"- {i}" for i in items) if items else NOTHING


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
    """The system message: persona, facts, files and the behaviour rules. ``learned``: keys
    of later facts the customer knows by now (the others appear only as 'not known yet')."""
    p = view.persona
    volunteering = (
        "You sometimes mention a related detail you know without being asked, as this "
        "person would." if p.volunteers_information
        else "Do not volunteer details nobody asked for."
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
    # pack text may not open a product section either: that would hide it from the guard
    return _defang(Template(template_text(SYSTEM_TEMPLATE)).substitute(
        name=p.name, personality=p.personality, speaking_style=p.speaking_style,
        dont_know_phrase=p.dont_know_phrase, volunteering=volunteering, facts=facts,
        materials=_bullets(files),
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


def render_screen(screen: ScreenReading) -> str:
    """The visible text of the screen regions, one labelled line or block each."""
    lines = [f"Latest reply from the assistant:\n{screen.latest_reply or NOTHING}"]
    chips = " | ".join(screen.chips) if screen.chips else NOTHING
    lines.append(f"Buttons under the reply: {chips}")
    lines.append(f"Next-step bar: {screen.todo or NOTHING}")
    if screen.cards:
        lines.append("Cards asking you to act:\n" + "\n".join(screen.cards))
    if screen.dialogs:
        lines.append("Open dialogs:\n" + "\n".join(screen.dialogs))
    if screen.upload_error:
        lines.append(f"Upload error: {screen.upload_error}")
    lines.append(f"Sign-in window open: {'yes' if screen.sign_in_prompt else 'no'}")
    if screen.facts_panel:
        lines.append(f"Panel 'what we have so far':\n{screen.facts_panel}")
    if screen.sidebar:
        lines.append(f"Sidebar:\n{screen.sidebar}")
    if screen.buttons:
        lines.append(f"Other buttons: {' | '.join(screen.buttons)}")
    lines.append(f"Claim number shown: {screen.claim_number or NOTHING}")
    return _defang("\n".join(lines))


def render_conversation(history: list[tuple[str, str]]) -> str:
    if not history:
        return NOTHING
    return _defang("\n\n".join(f"{SPEAKERS.get(who, who)}: {text}" for who, text in history))


def build_customer_messages(
    view: CustomerView,
    screen: ScreenReading,
    history: list[tuple[str, str]],
    available_files: list[str],
    later_files: list[str],
    learned_facts: Collection[str] = (),
) -> list[dict[str, str]]:
    """OpenAI chat messages for the customer's next action.

    ``history`` is the conversation as the customer saw it, as ("agent"|"customer", text);
    ``available_files`` / ``later_files`` are material file names the customer has now / will
    have later; ``learned_facts`` the keys of later facts the customer knows by now.
    Materials appear only as file name and plain label; the screen only as the visible text
    of its regions.
    """
    available, later = render_files(view, available_files, later_files)
    turn = Template(template_text(TURN_TEMPLATE)).substitute(
        conversation=f"{CONVERSATION_OPEN}\n{render_conversation(history)}\n{CONVERSATION_CLOSE}",
        screen=f"{SCREEN_OPEN}\n{render_screen(screen)}\n{SCREEN_CLOSE}",
        available=available,
        later=later,
    ).strip()
    return [{"role": "system", "content": render_system(view, learned_facts)},
            {"role": "user", "content": turn}]


def without_product_text(text: str) -> str:
    """``text`` with every product section (conversation, screen) removed."""
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
