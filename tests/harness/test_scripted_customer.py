"""The scripted customer on screen readings: answers by meaning, never invents, never volunteers."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from corpus import Progress, load_customer_view
from corpus.formats import Arrival, ScreenReading
from harness.customers import CustomerContext, ScriptedCustomer, material_availability

PACK = Path(__file__).resolve().parents[2] / "packs" / "CTL-M-001"


@pytest.fixture(scope="module")
def view():
    return load_customer_view(PACK)


@pytest.fixture()
def customer(view):
    return ScriptedCustomer(view)


def ctx(view, sent=1, uploaded=(), signed_in=False, actions=None, requests=None, learned=()):
    progress = Progress(messages=sent, actions=sent if actions is None else actions,
                        requests=requests or {})
    available, later = material_availability(view, progress)
    return CustomerContext(step=1, messages_sent=sent, available_files=available,
                           later_files=later, uploaded=list(uploaded), signed_in=signed_in,
                           actions_taken=progress.actions, learned_facts=list(learned))


def decide(customer, view, screen, **kw):
    return asyncio.run(customer.next_action(screen, ctx(view, **kw)))


def fact(view, key):
    return next(f for f in view.facts if f.key == key)


@pytest.mark.parametrize(("question", "key"), [
    ("Could you give me your policy number, please?", "policy_number"),
    ("What date did this take place?", "incident_date"),
    ("Thanks. Roughly what time of day was it?", "incident_time"),
    ("Whereabouts were you when this happened?", "incident_location"),
    ("In your own words, how did it happen?", "incident_description"),
    ("What's the reg of your car?", "vehicle_registration"),
    ("And the number plate of your vehicle?", "vehicle_registration"),
    ("Was anybody hurt?", "injuries"),
])
def test_answers_the_fact_asked_about(customer, view, question, key):
    action = decide(customer, view, ScreenReading(latest_reply=question))
    assert action.kind == "say"
    assert action.text == fact(view, key).say


def test_only_the_question_sentence_counts(customer, view):
    reply = "Thanks, I've noted the date. What time did it happen?"
    action = decide(customer, view, ScreenReading(latest_reply=reply))
    assert action.text == fact(view, "incident_time").say


def test_unknown_fact_gets_the_personas_dont_know(customer, view):
    screen = ScreenReading(latest_reply="What is your mother's maiden name?")
    action = decide(customer, view, screen)
    assert action.kind == "say"
    assert action.text == view.persona.dont_know_phrase


@pytest.mark.parametrize(("question", "chips", "expected"), [
    ("Can the car still be driven safely?", ["Yes", "No"], "Yes"),
    ("Was anyone injured?", ["Yes", "No"], "No"),
    ("Was another vehicle involved?", ["No", "Yes"], "Yes"),
    ("What kind of incident was it?", ["Theft", "Collision", "Windscreen", "Vandalism"],
     "Collision"),
    ("Which of these best describes what happened?", ["Theft", "Collision", "Other"],
     "Collision"),
])
def test_clicks_the_matching_chip(customer, view, question, chips, expected):
    action = decide(customer, view, ScreenReading(latest_reply=question, chips=chips))
    assert action.kind == "click"
    assert action.label == expected


def test_uploads_what_is_asked_for(customer, view):
    photo = decide(customer, view, ScreenReading(
        latest_reply="Could you upload a picture showing the damage?"))
    assert photo.kind == "upload" and photo.file == "photo-rear-bumper.jpg"
    quote = decide(customer, view, ScreenReading(
        latest_reply="Please attach the repair estimate from your garage."), uploaded=[photo.file])
    assert quote.kind == "upload" and quote.file == "repair-quote.pdf"


def test_file_it_does_not_have(customer, view):
    action = decide(customer, view, ScreenReading(
        latest_reply="Please upload a copy of the police report."))
    assert action.kind == "say"
    assert action.text == customer.syn.phrases["no_such_file"]


def test_later_material_is_described_before_it_is_available(view):
    from dataclasses import replace

    quote = view.material("repair-quote.pdf")
    later = replace(quote, availability="later", describe_before="The garage is sending it "
                    "tomorrow.", arrives=Arrival(after_messages=4))
    later_view = replace(view, materials=(view.materials[0], later))
    customer = ScriptedCustomer(later_view)
    screen = ScreenReading(latest_reply="Could you upload the repair quote?")
    early = decide(customer, later_view, screen, sent=2)
    assert early.kind == "say" and early.text == "The garage is sending it tomorrow."
    ready = decide(customer, later_view, screen, sent=4)
    assert ready.kind == "upload" and ready.file == "repair-quote.pdf"


def test_an_unnamed_file_request_is_read_with_the_todo_bar(customer, view):
    screen = ScreenReading(latest_reply="If you have it now, please upload it using the attach "
                           "button; otherwise tell me and we'll go on without it.",
                           todo="Next step: Upload your repair quote")
    action = decide(customer, view, screen, uploaded=["photo-rear-bumper.jpg"])
    assert action.kind == "upload" and action.file == "repair-quote.pdf"


def test_a_yes_no_question_about_a_file_with_an_upload_request(customer, view):
    screen = ScreenReading(latest_reply="Before I sum up: do you have the repair quote now? If "
                           "so, please upload it using the attach button; otherwise tell me.",
                           todo="Next step: Upload your repair quote")
    action = decide(customer, view, screen, uploaded=["photo-rear-bumper.jpg"])
    assert action.kind == "upload" and action.file == "repair-quote.pdf"


def test_a_thank_you_for_a_file_does_not_trigger_another_upload(customer, view):
    screen = ScreenReading(latest_reply="Thanks, I've received your photo. What time did it "
                           "happen?", todo="Next step: Answer the question")
    action = decide(customer, view, screen, uploaded=["photo-rear-bumper.jpg"])
    assert action.kind == "say" and action.text == fact(view, "incident_time").say


def test_confirms_a_summary(customer, view):
    screen = ScreenReading(latest_reply="Here is what we have so far. Please check and confirm.",
                           buttons=["Confirm these details", "Talk to a person"])
    action = decide(customer, view, screen)
    assert action.kind == "click" and action.label == "Confirm these details"


def test_signs_in_when_the_prompt_shows(customer, view):
    screen = ScreenReading(latest_reply="Please sign in to continue.", sign_in_prompt=True)
    assert decide(customer, view, screen).kind == "sign_in"
    assert decide(customer, view, screen, signed_in=True).kind != "sign_in"


def test_done_on_a_claim_number(customer, view):
    action = decide(customer, view, ScreenReading(latest_reply="Your claim is NWF-2026-000123.",
                                                  claim_number="NWF-2026-000123"))
    assert action.kind == "done" and "NWF-2026-000123" in (action.reason or "")


def test_never_volunteers_when_nothing_is_asked(customer, view):
    action = decide(customer, view, ScreenReading(latest_reply="Thank you. We're on it."))
    assert action.kind == "done"
    assert action.text is None


def test_deterministic(customer, view):
    screen = ScreenReading(latest_reply="When did it happen and what time?")
    assert decide(customer, view, screen) == decide(customer, view, screen)
