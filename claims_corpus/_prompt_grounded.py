"""The grounded customer's prompt: the customer chooses one of the things it may do now.

The system message is the same for every step of a trial (the persona only), so a model
server that keeps the start of the last prompt reads only the turn again; the turn holds what
the customer has said so far (it only grows), then the screen's latest reply and the cards
asking to act, then the choices, last, right before the answer. A worked example with real
values shows the answer's form: there is no placeholder to copy, and the answer's schema
(an enum of the choices) lets a grammar-constrained server produce nothing else.
"""

from __future__ import annotations

from string import Template

from claims_records import ScreenReading

from ._prompt import (
    CHOICES_CLOSE,
    CHOICES_OPEN,
    CONVERSATION_CLOSE,
    CONVERSATION_OPEN,
    GROUNDED_SYSTEM_TEMPLATE,
    GROUNDED_TURN_TEMPLATE,
    NOTHING,
    RETURN_TEMPLATE,
    SAID_CLOSE,
    SAID_OPEN,
    SCREEN_CLOSE,
    SCREEN_OPEN,
    TURN_TEMPLATES,
    _bullets,
    _defang,
    _needing_action,
    _section,
    render_conversation,
    render_said,
    template_text,
)
from ._view import CustomerView


def render_grounded_system(view: CustomerView) -> str:
    """The system message: how to choose, a worked example, then who the customer is."""
    p = view.persona
    return _defang(Template(template_text(GROUNDED_SYSTEM_TEMPLATE)).substitute(
        name=p.name, speaking_style=p.speaking_style).strip())


def render_grounded_screen(screen: ScreenReading) -> str:
    """The latest reply and what asks the customer to act, as the customer sees them."""
    lines = [screen.latest_reply.strip() or NOTHING]
    needing = _needing_action(screen)
    if needing:
        lines.append(_bullets(needing))
    return "\n".join(lines)


def build_grounded_messages(view: CustomerView, screen: ScreenReading,
                            history: list[tuple[str, str]], choices: list[str], *,
                            prompt_view: str = "screen", returned: bool = False
                            ) -> list[dict[str, str]]:
    """OpenAI chat messages asking the customer to choose one of ``choices`` (the labels of
    ``harness.customers.permitted``, most relevant first). ``history`` as for
    ``build_customer_messages``; in the ``wide`` view the whole conversation comes first."""
    if prompt_view not in TURN_TEMPLATES:
        raise ValueError(f"unknown prompt view {prompt_view!r}")
    said = _section(SAID_OPEN, SAID_CLOSE, render_said(history))
    if prompt_view == "wide":
        said = _section(CONVERSATION_OPEN, CONVERSATION_CLOSE,
                        render_conversation(history)) + "\n\n" + said
    turn = Template(template_text(GROUNDED_TURN_TEMPLATE)).substitute(
        said=said,
        screen=_section(SCREEN_OPEN, SCREEN_CLOSE, render_grounded_screen(screen)),
        choices=_section(CHOICES_OPEN, CHOICES_CLOSE, _bullets(choices)),
    ).strip()
    if returned:
        turn = template_text(RETURN_TEMPLATE).strip() + "\n\n" + turn
    return [{"role": "system", "content": render_grounded_system(view)},
            {"role": "user", "content": turn}]
