"""The fidelity audit: each rule catches what it must and spares what it must."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import claims_corpus
from claims_records import CustomerAction, JourneyEvent, ScreenReading
from scoring.fidelity import audit_trial, extract

PACKS = Path(__file__).resolve().parents[2] / "packs"
VIEW = claims_corpus.load_customer_view(PACKS / "CTL-M-001")
REG_Q = "What is the registration of your car?"
WHERE_Q = "Where did it happen? A street and town is enough."
TYPE_Q = "Which of these best describes what happened?"
TYPE_CHIPS = ["Collision", "Theft", "Windscreen", "Vandalism", "Something else"]


def _journey(*steps: tuple[ScreenReading | str, dict | None], view=VIEW) -> list[JourneyEvent]:
    """The opening message, then one (screen or reply, action) per step."""
    events = [JourneyEvent(step=0, ts="t", screen=ScreenReading(), note="initial message",
                           action=CustomerAction(kind="say", text=view.initial_message))]
    for i, (screen, action) in enumerate(steps, start=1):
        if isinstance(screen, str):
            screen = ScreenReading(latest_reply=screen, buttons=["Talk to a person"])
        events.append(JourneyEvent(step=i, ts="t", screen=screen,
                                   action=CustomerAction(**action) if action else None))
    return events


def _rules(events: list[JourneyEvent], view=VIEW) -> list[str]:
    return [f.rule for f in audit_trial(events, view).findings]


def say(text: str) -> dict:
    return {"kind": "say", "text": text}


def test_values_are_read_by_kind():
    found = {(v.kind, v.text) for v in extract(
        "On 3/2/2026 at 5.15pm I paid £1,200 for AB12 CDE, ref XK-2231-9, call 07700 900123 "
        "or mail me@example.org; I was near Oak Street with Priya.")}
    assert ("date", "3/2/2026") in found and ("money", "£1,200") in found
    assert ("registration", "AB12 CDE") in found and ("identifier", "XK-2231-9") in found
    assert ("phone", "07700 900123") in found and ("email", "me@example.org") in found
    assert {("name", "Oak"), ("name", "Street"), ("name", "Priya")} <= found
    assert any(k == "time" for k, _ in found)


@pytest.mark.parametrize("text", [
    "It happened on 3 February 2026.",           # a date in no source
    "It was around 9:15 in the morning.",        # a time
    "The repair will cost about £2,400.",        # an amount
    "My other policy is NWF-POL-999999.",        # an identifier
    "You can call me on 07700 900999.",          # a phone number
    "Write to daniel@example.com please.",       # an e-mail address
    "It was on Oak Lane, outside Barnsley.",     # a place
    "My wife Margaret was driving.",             # a name
])
def test_invented_values_are_caught(text):
    assert _rules(_journey((WHERE_Q, say(text)))) == ["invented"]


def test_an_invented_value_is_named_beside_the_fact_it_contradicts():
    when = "When did it happen?"
    [finding] = audit_trial(_journey((when, say("It happened on 3 February 2026."))),
                            VIEW).findings
    date = next(f for f in VIEW.facts if f.key == "incident_date")
    assert finding.rule == "invented" and finding.value == "3 February 2026"
    assert f"date '3 February 2026' where the customer knows {date.topic} = {date.value}" \
        in finding.evidence
    # an amount: the customer has no money fact in this pack, so none is named
    [money] = audit_trial(_journey((WHERE_Q, say("It cost about £2,400."))), VIEW).findings
    assert "where the customer knows" not in money.evidence


@pytest.mark.parametrize("text", [
    "At the traffic lights on Hallam Road, where it meets Crookes Road, in Sheffield.",
    "Hallam Road, Sheffield, on 12/03/2026.",            # a fact's date in another format
    "It was 5:40 pm.",                                   # the fact's 17:40
    "Yes, the quote is dated 16 March 2026 like you said.",  # the agent's own value
    "Daniel Carter here. I don't know the road's name.",     # the persona's name
])
def test_values_from_the_customers_sources_are_not_invented(text):
    screen = ScreenReading(latest_reply=f"I read the quote date as 16 March 2026. {WHERE_Q}")
    assert "invented" not in _rules(_journey((screen, say(text))))


def test_a_fact_given_before_it_was_asked_is_volunteered():
    assert _rules(_journey((WHERE_Q, say("The registration is LK19 XRD.")))) == ["volunteered"]
    # once asked, it may be given (and given again)
    assert _rules(_journey((REG_Q, say("LK19 XRD.")), (WHERE_Q, say(
        "Hallam Road in Sheffield. The registration is LK19 XRD as I said.")))) == []
    # a fact of the first message may be repeated
    assert _rules(_journey((REG_Q, say("LK19 XRD, and it was on 12 March 2026.")))) == []


def test_a_persona_that_volunteers_may_volunteer():
    persona = VIEW.persona.model_copy(update={"volunteers_information": True})
    chatty = dataclasses.replace(VIEW, persona=persona)
    assert _rules(_journey((WHERE_Q, say("The registration is LK19 XRD.")), view=chatty),
                  view=chatty) == []


def test_uploads_need_a_request():
    upload = {"kind": "upload", "file": "repair-quote.pdf"}
    assert _rules(_journey((REG_Q, upload))) == ["unrequested_upload"]
    assert _rules(_journey(("Please upload your repair quote.", upload))) == []
    asked = ScreenReading(latest_reply="Thanks.", todo="Next step: Upload your repair quote")
    assert _rules(_journey((asked, upload))) == []


@pytest.mark.parametrize("text", [
    "LK19 XRD. You should also ask whether the police came.",
    "You forgot to ask me about injuries.",
    "Don't forget to check my policy start date.",
    "This should be fast-tracked, surely.",
    "That's wrong, you have the wrong idea.",
])
def test_steering_or_correcting_the_agent_is_hinting(text):
    assert "hinting" in _rules(_journey((REG_Q, say(text))))


def test_correcting_a_wrong_value_on_a_summary_is_allowed():
    summary = ScreenReading(
        latest_reply="Here is what I have so far. Please check the details and confirm them.",
        cards=["What we have so far\nDate of the incident\t13 March 2026\nVehicle "
               "registration\tLK19 XRD"], buttons=["Confirm these details"])
    fix = say("That's wrong: it happened on 12 March 2026.")
    assert _rules(_journey((summary, fix))) == []
    right = summary.model_copy(update={"cards": [summary.cards[0].replace("13", "12")]})
    assert _rules(_journey((right, fix))) == ["hinting"]  # nothing on screen was wrong
    # a row echoing the customer's own words holds the right date; the date row is wrong
    echo = "\nWhat happened\tOn 12 March 2026 a car drove into the back of mine."
    assert _rules(_journey((summary.model_copy(
        update={"cards": [summary.cards[0] + echo]}), fix))) == []
    assert _rules(_journey((right.model_copy(
        update={"cards": [right.cards[0] + echo]}), fix))) == ["hinting"]


def test_ending_on_a_summary_that_still_shows_a_named_wrong_value_is_not_a_give_up():
    summary = ScreenReading(
        latest_reply="Here is what I have so far. Please check the details and confirm them.",
        cards=["What we have so far\nDate of the incident\t13 March 2026"],
        buttons=["Confirm these details"])
    fix = say("That's wrong: it happened on 12 March 2026.")
    done = {"kind": "done", "reason": "still wrong", "corrects": ["Date of the incident"]}
    assert _rules(_journey((summary, fix), (summary, done))) == []
    # the row was put right: ending now leaves the product waiting for a confirmation
    right = summary.model_copy(update={"cards": [summary.cards[0].replace("13", "12")]})
    assert _rules(_journey((summary, fix), (right, done))) == ["premature_give_up"]


@pytest.mark.parametrize("action", [
    say("As an AI language model, I don't know the registration."),
    say('{"kind": "say", "text": "LK19 XRD"}'),
    say("This is just a test scenario, right?"),
    {"kind": "done", "reason": "the simulation is over"},
    # what SmolLM2-135M answered the reference app, step after step (docs/llm-customer.md)
    say("<the message you type>"),
    say("It is < the registration number >"),
])
def test_leaving_the_role_is_out_of_character(action):
    assert "out_of_character" in _rules(_journey((REG_Q, action)))


@pytest.mark.parametrize("text", ["The value is < 500 pounds, I think.", "I <3 my car",
                                  "Between 2<3 pm, roughly."])
def test_angle_brackets_in_a_customer_s_words_are_not_a_placeholder(text):
    assert "out_of_character" not in _rules(_journey((REG_Q, say(text))))


def test_ending_while_an_answerable_question_is_open_is_a_premature_give_up():
    done = {"kind": "done", "reason": "I'll ring them"}
    assert _rules(_journey((REG_Q, done))) == ["premature_give_up"]
    chips = ScreenReading(latest_reply=TYPE_Q, chips=TYPE_CHIPS)
    assert _rules(_journey((chips, done))) == ["premature_give_up"]
    files = ScreenReading(latest_reply="Please upload a photo of the damage.")
    assert _rules(_journey((files, done))) == ["premature_give_up"]
    # nothing asked, or asked only what the customer cannot know: ending is fair
    assert _rules(_journey(("Thanks, we will be in touch.", done))) == []
    assert _rules(_journey(("Which garage do you normally use?", done))) == []


def test_the_scripted_customer_keeps_every_rule_on_every_recorded_screen():
    """The scripted customer, played through the screens the reference app showed for every
    recorded pack, gives no finding (the closed-loop run is in the corpus test)."""
    from harness import make_customer, panel

    outcomes = panel.run_panel(lambda view, pack_dir: make_customer("scripted", view, pack_dir),
                               PACKS, panel.load_screens(), audit_trial)
    recorded = panel.load_screens()  # every pack of the corpus, recorded once
    assert len(outcomes) == len(recorded) >= 18
    assert set(recorded) <= {p.name for p in claims_corpus.list_packs(PACKS)}
    for o in outcomes:
        # every pack was played: the opening message and at least three further actions
        # (a pack may answer everything after the opening with buttons and uploads)
        assert o.audit.messages >= 1 and o.audit.actions >= 3, o.trial.pack_id
        assert o.audit.findings == [], (o.trial.pack_id, o.audit.findings)
