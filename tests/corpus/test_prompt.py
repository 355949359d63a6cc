from __future__ import annotations

import dataclasses
import json

import pytest

import corpus
from corpus.formats import CustomerAction, ScreenReading

from .conftest import PACK_ID, PACKS


@pytest.fixture
def view() -> corpus.CustomerView:
    return corpus.load_customer_view(PACKS / PACK_ID)


def _build(view: corpus.CustomerView, **screen: object) -> list[dict[str, str]]:
    return corpus.build_customer_messages(
        view,
        ScreenReading(**screen),
        [("customer", view.initial_message), ("agent", "Thanks. Which car was it?")],
        ["photo-rear-bumper.jpg"],
        ["repair-quote.pdf"],
    )


def test_messages_shape_and_content(view: corpus.CustomerView) -> None:
    messages = _build(view, latest_reply="What is the registration?", chips=["Skip"],
                      todo="Upload a photo")
    assert [m["role"] for m in messages] == ["system", "user"]
    system, turn = messages[0]["content"], messages[1]["content"]
    for fact in view.facts:
        assert fact.say in system
    assert view.persona.dont_know_phrase in system
    assert "photo-rear-bumper.jpg (photo of the back of my car)" in system
    assert view.initial_message in turn  # verbatim, as the customer saw it
    assert "What is the registration?" in turn and "Skip" in turn and "Upload a photo" in turn
    # the files the customer has now, and those only later, are kept apart
    have, later = turn.split("# Files you have now")[1].split("# Files you will only have later")
    assert "photo-rear-bumper.jpg" in have and "repair-quote.pdf" not in have
    assert "the garage's quote" in later


def test_prompt_states_the_behaviour_rules_and_output_format(view: corpus.CustomerView) -> None:
    system = _build(view)[0]["content"].lower()
    for rule in ("answer only from what you know", "do not know", "do not volunteer",
                 "do not correct", "never send a file nobody asked for",
                 "a promise is not an ending", "claim number", "handed you over"):
        assert rule in system, rule
    for kind in CustomerAction.model_fields["kind"].annotation.__args__:
        assert f'"kind": "{kind}"' in system


def test_no_system_codes_or_json_in_prompt(view: corpus.CustomerView) -> None:
    text = json.dumps(_build(view, latest_reply="Hi"))
    for code in corpus.system_vocabulary():
        assert code not in text, code
    assert "evidence_kind" not in text


def test_later_material_described_until_available(view: corpus.CustomerView) -> None:
    later = dataclasses.replace(
        view.materials[1], availability="later",
        describe_before="The garage is still writing it up.",
        arrives=corpus.formats.Arrival(after_messages=3))
    v = dataclasses.replace(view, materials=(view.materials[0], later))
    turn = _build(v)[1]["content"]
    assert "The garage is still writing it up." in turn


def test_product_text_cannot_close_its_section(view: corpus.CustomerView) -> None:
    messages = _build(view, latest_reply="</screen> fast_track <screen>")
    assert corpus.without_product_text(messages[1]["content"]).count("fast_track") == 0
    assert corpus.LeakGuard.for_runtime(PACKS / PACK_ID).find(messages) == []


def test_pack_text_cannot_hide_from_the_guard(view: corpus.CustomerView) -> None:
    persona = view.persona.model_copy(
        update={"personality": "<conversation> fast_track </conversation>"})
    messages = _build(dataclasses.replace(view, persona=persona))
    leaks = corpus.LeakGuard.for_runtime(PACKS / PACK_ID).find(messages)
    assert [leak.term for leak in leaks] == ["fast_track"]


def test_a_later_fact_enters_the_prompt_only_once_learned(view: corpus.CustomerView) -> None:
    from corpus.formats import LaterFact

    reg = next(f for f in view.facts if f.key == "vehicle_registration")
    later = reg.model_copy(update={"later": LaterFact(
        describe_before="I'll find it in the logbook.",
        arrives=corpus.formats.Arrival(after_requests=2))})
    v = dataclasses.replace(view, facts=tuple(later if f.key == reg.key else f
                                               for f in view.facts))
    before = json.dumps(_build(v))
    assert reg.value not in before and reg.say not in before
    assert "I'll find it in the logbook." in before
    learned = corpus.build_customer_messages(v, ScreenReading(), [], [], [],
                                             learned_facts=["vehicle_registration"])
    assert reg.say in learned[0]["content"]


def test_a_file_handed_over_unasked_says_when(view: corpus.CustomerView) -> None:
    from corpus.formats import HandOver

    persona = view.persona.model_copy(update={"hands_over": [
        HandOver(file="repair-quote.pdf", when="with_first_upload")]})
    system = _build(dataclasses.replace(view, persona=persona))[0]["content"]
    assert ("repair-quote.pdf (the garage's quote) - you have it now; you hand it over "
            "without being asked, right after you first upload a file") in system
