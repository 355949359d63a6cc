from __future__ import annotations

import pytest

import claims_corpus
from claims_records import ScreenReading

from .conftest import PACK_ID, PACKS


@pytest.fixture
def view() -> claims_corpus.CustomerView:
    return claims_corpus.load_customer_view(PACKS / PACK_ID)


def _build(view: claims_corpus.CustomerView, prompt_view: str = "screen",
           **screen: object) -> list[dict[str, str]]:
    return claims_corpus.build_customer_messages(
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
        view: claims_corpus.CustomerView) -> None:
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


def test_the_wide_view_adds_the_conversation_and_every_panel(view: claims_corpus.CustomerView
                                                            ) -> None:
    turn = _build(view, "wide", **CANARIES)[1]["content"]
    for canary in (*ALLOWED, *WIDE_ONLY):
        assert canary in turn, canary
    assert "Assistant: Thanks. Which car was it?" in turn
    assert claims_corpus.PROMPT_VIEWS == ("screen", "wide")
    with pytest.raises(ValueError, match="unknown prompt view"):
        _build(view, "everything")


def test_a_screen_without_attach_control_offers_no_attach(view: claims_corpus.CustomerView) -> None:
    messages = claims_corpus.build_customer_messages(view, ScreenReading(latest_reply="Hi"), [], [],
                                              [], can_attach=False)
    assert "Attach a file" not in messages[1]["content"]




def test_a_later_fact_enters_the_prompt_only_once_learned(view: claims_corpus.CustomerView) -> None:
    import dataclasses
    import json

    from claims_corpus.formats import Arrival, LaterFact

    reg = next(f for f in view.facts if f.key == "vehicle_registration")
    later = reg.model_copy(update={"later": LaterFact(
        describe_before="I'll find it in the logbook.", arrives=Arrival(after_requests=2))})
    v = dataclasses.replace(view, facts=tuple(later if f.key == reg.key else f
                                               for f in view.facts))
    before = json.dumps(_build(v))
    assert reg.value not in before and reg.say not in before
    assert "I'll find it in the logbook." in before
    learned = claims_corpus.build_customer_messages(v, ScreenReading(), [], [], [],
                                             learned_facts=["vehicle_registration"])
    assert reg.say in learned[0]["content"]


def test_a_file_handed_over_unasked_says_when(view: claims_corpus.CustomerView) -> None:
    import dataclasses

    from claims_corpus.formats import HandOver

    persona = view.persona.model_copy(update={"hands_over": [
        HandOver(file="repair-quote.pdf", when="with_first_upload")]})
    system = _build(dataclasses.replace(view, persona=persona))[0]["content"]
    assert ("repair-quote.pdf (the garage's quote) - you have it now; you hand it over "
            "without being asked, right after you first upload a file") in system


def test_a_later_material_is_described_until_it_arrives(view: claims_corpus.CustomerView) -> None:
    import dataclasses

    from claims_corpus.formats import Arrival

    later = dataclasses.replace(view.materials[1], availability="later",
                                describe_before="The garage is still writing it up.",
                                arrives=Arrival(after_messages=3))
    v = dataclasses.replace(view, materials=(view.materials[0], later))
    assert "The garage is still writing it up." in _build(v)[1]["content"]
