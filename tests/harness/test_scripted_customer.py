"""The scripted customer on screen readings: answers by meaning, never invents, never volunteers."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from claims_corpus import Progress, load_customer_view
from claims_corpus.formats import Arrival
from claims_records import ScreenReading
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


# --------------------------------------------------------------------------- v0.3 behaviour

SUMMARY = ("Here is what I have so far. Please check the details and press \"Confirm these "
           "details\" if they are right, or tell me what to change.")
CONFIRM = ["Confirm these details", "Talk to a person"]


def panel(**rows: str) -> str:
    """A 'what we have so far' panel as its visible text (one tab-separated row per detail)."""
    good = {"Policy number": "NWF-POL-100234", "Date of the incident": "12 March 2026",
            "Time of the incident": "17:40", "What kind of incident": "Collision",
            "Where it happened": "Hallam Road, Sheffield",
            "What happened": "The car behind drove into me at the lights.",
            "Vehicle registration": "LK19 XRD", "Car can still be driven": "Yes",
            "Another vehicle or person involved": "Yes", "Anyone hurt": "No"}
    good.update(rows)
    lines = ["What we have so far", "Detail\tValue\tState"]
    lines += [f"{label}\t{value}\tsuggested" for label, value in good.items()]
    return "\n".join(lines + ["Files", "Photo of the damage: received"])


@pytest.mark.parametrize("reply", [
    "Thanks, I've received your photo. Please upload your repair quote.",
    "Thanks, I've received your photo (photo-rear-bumper.jpg). Please upload your repair quote "
    "using the attach button.",
])
def test_an_acknowledgement_is_not_a_request(customer, view, reply):
    action = decide(customer, view, ScreenReading(latest_reply=reply),
                    uploaded=["photo-rear-bumper.jpg"])
    assert action.kind == "upload" and action.file == "repair-quote.pdf"


def test_a_file_that_has_not_arrived_is_still_asked_for(customer, view):
    reply = "We haven't received your photo yet. Please upload a photo of the damage."
    action = decide(customer, view, ScreenReading(latest_reply=reply))
    assert action.kind == "upload" and action.file == "photo-rear-bumper.jpg"


def test_a_right_summary_is_confirmed(customer, view):
    screen = ScreenReading(latest_reply=SUMMARY, facts_panel=panel(), buttons=CONFIRM)
    action = decide(customer, view, screen)
    assert action.kind == "click" and action.label == "Confirm these details"


@pytest.mark.parametrize(("rows", "label", "says"), [
    ({"Date of the incident": "13 March 2026"}, "Date of the incident", "incident_date"),
    ({"Time of the incident": "Not known"}, "Time of the incident", "incident_time"),
    ({"Time of the incident": "—"}, "Time of the incident", "incident_time"),
    ({"Anyone hurt": "Yes"}, "Anyone hurt", "injuries"),
    ({"Vehicle registration": "LK19 XRO"}, "Vehicle registration", "vehicle_registration"),
])
def test_a_wrong_or_missing_detail_is_corrected_not_confirmed(customer, view, rows, label, says):
    screen = ScreenReading(latest_reply=SUMMARY, facts_panel=panel(**rows), buttons=CONFIRM)
    action = decide(customer, view, screen)
    assert action.kind == "say" and action.corrects == [label]
    assert action.text == (f"{view.persona.correction_phrase} {label}: "
                           f"{fact(view, says).say}")


def test_a_value_the_customer_never_knew_is_corrected(view):
    from dataclasses import replace

    without_time = replace(view, facts=tuple(f for f in view.facts if f.key != "incident_time"))
    screen = ScreenReading(latest_reply=SUMMARY, facts_panel=panel(), buttons=CONFIRM)
    action = decide(ScriptedCustomer(without_time), without_time, screen)
    assert action.kind == "say" and action.corrects == ["Time of the incident"]
    assert action.text.endswith(f"Time of the incident: {view.persona.dont_know_phrase}")


def test_free_text_worded_differently_is_not_nitpicked(customer, view):
    screen = ScreenReading(latest_reply=SUMMARY, buttons=CONFIRM, facts_panel=panel(**{
        "What happened": "Rear-ended while waiting at a red light",
        "Where it happened": "Crookes Road junction"}))
    assert decide(customer, view, screen).kind == "click"


def test_a_summary_in_the_reply_itself_is_checked(customer, view):
    reply = "Please check and confirm these details:\nDate: 12 March 2026\nTime: 18:40"
    action = decide(customer, view, ScreenReading(latest_reply=reply, buttons=CONFIRM))
    assert action.kind == "say" and action.corrects == ["Time"]


def test_gives_up_when_the_product_keeps_a_wrong_value(view):
    customer = ScriptedCustomer(view)
    screen = ScreenReading(latest_reply=SUMMARY, buttons=CONFIRM,
                           facts_panel=panel(**{"Date of the incident": "13 March 2026"}))
    kinds = [decide(customer, view, screen).kind for _ in range(3)]
    assert kinds == ["say", "say", "done"]
    last = decide(customer, view, screen)
    assert last.corrects == ["Date of the incident"] and last.text  # last words still sent


def _with_hand_over(view, when, after_actions=None):
    from dataclasses import replace

    from claims_corpus.formats import HandOver

    persona = view.persona.model_copy(update={"hands_over": [
        HandOver(file="repair-quote.pdf", when=when, after_actions=after_actions)]})
    return replace(view, persona=persona)


def test_hands_over_unasked_only_when_the_persona_says(view):
    question = ScreenReading(latest_reply="Was anyone hurt?", chips=["Yes", "No"])
    # never unasked without the trait
    assert decide(ScriptedCustomer(view), view, question,
                  uploaded=["photo-rear-bumper.jpg"]).kind == "click"
    first = _with_hand_over(view, "with_first_upload")
    assert decide(ScriptedCustomer(first), first, question).kind == "click"  # nothing uploaded
    action = decide(ScriptedCustomer(first), first, question, uploaded=["photo-rear-bumper.jpg"])
    assert action.kind == "upload" and action.file == "repair-quote.pdf"
    counted = _with_hand_over(view, "after_actions", 5)
    assert decide(ScriptedCustomer(counted), counted, question, actions=4).kind == "click"
    assert decide(ScriptedCustomer(counted), counted, question, actions=5).kind == "upload"
    before = _with_hand_over(view, "before_confirming")
    assert decide(ScriptedCustomer(before), before, question, actions=9).kind == "click"
    summary = ScreenReading(latest_reply=SUMMARY, facts_panel=panel(), buttons=CONFIRM)
    assert decide(ScriptedCustomer(before), before, summary).file == "repair-quote.pdf"


def test_a_later_fact_is_described_until_it_arrives(view):
    from dataclasses import replace

    from claims_corpus.formats import LaterFact

    reg = fact(view, "vehicle_registration").model_copy(update={"later": LaterFact(
        describe_before="I'll find it in the logbook.", arrives=Arrival(after_requests=2))})
    later_view = replace(view, facts=tuple(reg if f.key == reg.key else f for f in view.facts))
    customer = ScriptedCustomer(later_view)
    screen = ScreenReading(latest_reply="What is the registration of your car?")
    assert decide(customer, later_view, screen).text == "I'll find it in the logbook."
    known = decide(customer, later_view, screen, learned=["vehicle_registration"])
    assert known.text == reg.say


def test_the_tracker_counts_requests_messages_and_actions(view):
    from claims_records import CustomerAction
    from harness.customers import JourneyTracker

    tracker = JourneyTracker(view)
    tracker.acted(CustomerAction(kind="say", text="hello"))
    tracker.acted(CustomerAction(kind="click", label="Yes"))
    tracker.acted(CustomerAction(kind="done"))  # ending without words is no action
    tracker.agent_replied(["Thanks, I've received your repair quote.",
                           "Please upload your repair quote.",
                           "Before I sum up: do you have the registration of your car now?"])
    tracker.agent_replied(["If so, please upload it; otherwise tell me."],
                          todo="Upload your repair quote")
    assert (tracker.messages, tracker.actions) == (1, 2)
    assert tracker.requests["repair-quote.pdf"] == 2
    assert tracker.requests["vehicle_registration"] == 1
    assert tracker.progress.requests["repair-quote.pdf"] == 2


# --------------------------------------------------------------------------- a failed lookup

NOT_FOUND = ("I couldn't find a policy with the number NWF-POL-100234. Could you check it and "
             "type it again?")
LINE = ("I still couldn't find policy NWF-POL-100234, so a colleague will check it later. Is "
        "this claim about your car, your home or your belongings?")
LINE_CHIPS = ["My car", "My home", "My belongings"]


def test_a_question_pointing_back_is_read_with_the_sentence_before_it(customer, view):
    action = decide(customer, view, ScreenReading(latest_reply=NOT_FOUND))
    assert action.kind == "say" and action.text == fact(view, "policy_number").say


def test_a_question_pointing_back_at_nothing_it_knows_is_still_dont_know(customer, view):
    reply = "I couldn't find your loyalty card. Could you check it and type it again?"
    action = decide(customer, view, ScreenReading(latest_reply=reply))
    assert action.kind == "say" and action.text == view.persona.dont_know_phrase


@pytest.mark.parametrize(("pack", "chips", "expected"), [
    ("CTL-M-001", LINE_CHIPS, "My car"),
    ("CTL-H-001", LINE_CHIPS, "My home"),
    # a burglary at the house, and the customer thinks their car insurance covers it: the
    # story is about the phones and the watch that were taken
    ("CTL-C-009", LINE_CHIPS, "My belongings"),
    ("CTL-M-001", ["My vehicle", "My home", "My belongings"], "My vehicle"),
])
def test_chips_naming_what_the_claim_is_about_are_picked_by_the_story(pack, chips, expected):
    own = load_customer_view(PACK.parent / pack)
    action = decide(ScriptedCustomer(own), own, ScreenReading(latest_reply=LINE, chips=chips))
    assert action.kind == "click" and action.label == expected


def test_the_story_never_picks_a_subject_it_is_not_about():
    laptop = load_customer_view(PACK.parent / "CTL-C-015")  # a laptop with a pint spilt on it
    action = decide(ScriptedCustomer(laptop), laptop,
                    ScreenReading(latest_reply=LINE, chips=["My car", "My home"]))
    # no click: it answers in its own words (which items), as it would without the chips
    assert action.kind == "say" and action.text == fact(laptop, "damaged_items").say


def test_a_story_split_between_two_subjects_picks_neither(view):
    from dataclasses import replace

    split = replace(view, initial_message="The kitchen ceiling came down on my laptop.",
                    facts=(), materials=())
    action = decide(ScriptedCustomer(split), split,
                    ScreenReading(latest_reply=LINE, chips=LINE_CHIPS))
    assert action.kind == "say" and action.text == split.persona.dont_know_phrase


def test_one_chip_naming_the_car_is_no_choice_of_subject(customer, view):
    # the incident is a collision, which no chip offers: "Windscreen" names the car, but it is
    # no alternative to another subject, so the customer says what happened
    screen = ScreenReading(latest_reply="What kind of incident was it?",
                           chips=["Theft", "Windscreen", "Vandalism"])
    action = decide(customer, view, screen)
    assert action.kind == "say" and action.text == fact(view, "incident_type").say


def test_a_fact_answered_by_a_chip_wins_over_the_story(customer, view):
    screen = ScreenReading(latest_reply="Can the car still be driven?",
                           chips=["Yes", "No", "My car", "My home"])
    assert decide(customer, view, screen).label == "Yes"


def test_every_pack_of_the_corpus_picks_its_own_line():
    import json

    chips = {"motor": "My car", "home": "My home", "contents": "My belongings"}
    for pack in sorted(PACK.parent.glob("CTL-*")):
        own = load_customer_view(pack)
        line = json.loads((pack / "oracle" / "labels.json").read_text(encoding="utf-8"))["line"]
        action = decide(ScriptedCustomer(own), own,
                        ScreenReading(latest_reply=LINE, chips=LINE_CHIPS))
        assert (action.kind, action.label) == ("click", chips[line]), pack.name
