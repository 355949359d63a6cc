from __future__ import annotations

import pytest

import corpus
from corpus.formats import ScreenReading

from .conftest import PACK_ID, PACKS


@pytest.fixture
def view() -> corpus.CustomerView:
    return corpus.load_customer_view(PACKS / PACK_ID)


def _build(view: corpus.CustomerView, prompt_view: str = "screen",
           **screen: object) -> list[dict[str, str]]:
    return corpus.build_customer_messages(
        view,
        ScreenReading(**screen),
        [("customer", view.initial_message), ("agent", "Thanks. Which car was it?"),
         ("customer", "[uploaded: photo-rear-bumper.jpg]")],
        ["photo-rear-bumper.jpg"],
        ["repair-quote.pdf"],
        uploaded=["photo-rear-bumper.jpg"],
        prompt_view=prompt_view,
    )


# One distinct canary per screen region, and one for an earlier agent reply.
CANARIES = dict(
    latest_reply="CANARY-REPLY What is the registration?",
    chips=["CANARY-CHIP-YES", "CANARY-CHIP-NO"],
    buttons=["CANARY-BUTTON Talk to a person"],
    cards=["CANARY-CARD Please check these details"],
    dialogs=["CANARY-DIALOG Your session is about to expire"],
    upload_error="CANARY-UPLOAD-ERROR file too large",
    todo="CANARY-TODO Upload a photo",
    sidebar="CANARY-SIDEBAR Your claims",
    facts_panel="CANARY-PANEL Date of incident: needed",
    claim_number="CANARY-CLAIM-0001",
)
ALLOWED = ("CANARY-REPLY", "CANARY-CHIP-YES", "CANARY-CHIP-NO", "CANARY-BUTTON", "CANARY-CARD",
           "CANARY-DIALOG", "CANARY-UPLOAD-ERROR")
WIDE_ONLY = ("CANARY-TODO", "CANARY-SIDEBAR", "CANARY-PANEL", "CANARY-CLAIM-0001")


def test_the_screen_view_holds_only_the_latest_reply_action_cards_and_labels(
        view: corpus.CustomerView) -> None:
    """The standard's view: latest reply, cards and dialogs needing action, action labels,
    plus the customer's own memory — nothing else of the screen or the conversation."""
    messages = _build(view, sign_in_prompt=True, **CANARIES)
    system, turn = messages[0]["content"], messages[1]["content"]
    screen = turn[turn.index("<screen>"):turn.index("</screen>")]
    for canary in ALLOWED:
        assert canary in screen, canary
    assert "A sign-in window is open." in screen and "Attach a file" in screen
    text = system + turn
    for canary in WIDE_ONLY:
        assert canary not in text, canary
    assert "Thanks. Which car was it?" not in text  # an earlier agent reply
    # what the customer itself said and uploaded is its own memory
    said = turn[turn.index("<said>"):turn.index("</said>")]
    assert view.initial_message in said and "[uploaded: photo-rear-bumper.jpg]" in said
    have, later = turn.split("# Files you have now")[1].split("# Files you will only have later")
    assert "photo-rear-bumper.jpg" in turn.split("# Files you have already sent")[1]
    assert "photo-rear-bumper.jpg" in have and "repair-quote.pdf" not in have
    assert "the garage's quote" in later
    for fact in view.facts:
        assert fact.say in system
    assert view.persona.dont_know_phrase in system


def test_the_wide_view_adds_the_conversation_and_every_panel(view: corpus.CustomerView
                                                            ) -> None:
    turn = _build(view, "wide", **CANARIES)[1]["content"]
    for canary in (*ALLOWED, *WIDE_ONLY):
        assert canary in turn, canary
    assert "Assistant: Thanks. Which car was it?" in turn
    assert corpus.PROMPT_VIEWS == ("screen", "wide")
    with pytest.raises(ValueError, match="unknown prompt view"):
        _build(view, "everything")


def test_a_screen_without_attach_control_offers_no_attach(view: corpus.CustomerView) -> None:
    messages = corpus.build_customer_messages(view, ScreenReading(latest_reply="Hi"), [], [],
                                              [], can_attach=False)
    assert "Attach a file" not in messages[1]["content"]


