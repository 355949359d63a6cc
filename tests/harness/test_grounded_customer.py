"""The grounded customer: the choices built from the customer's view and the screen, the
answer's schema, the mapping of a choice to an action, and the customer against a stand-in
endpoint that answers with a choice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claims_corpus import build_grounded_messages, load_customer_view
from claims_records import CustomerModelCall, ScreenReading, SimulatorError
from harness.customers import (
    CustomerContext,
    GroundedCustomer,
    LlmSettings,
    choice_schema,
    chosen,
    make_customer,
    permitted,
)
from harness.customers._dialects import apply
from harness.customers._scripted import ScriptedCustomer

from .fake_openai import FakeOpenAI, completion

PACKS = Path(__file__).resolve().parents[2] / "packs"
PACK = PACKS / "CTL-M-001"
FILES = ["photo-rear-bumper.jpg", "repair-quote.pdf"]


@pytest.fixture(scope="module")
def view():
    return load_customer_view(PACK)


def _choices(view, screen: ScreenReading, **ctx) -> list:
    context = CustomerContext(step=2, available_files=list(FILES), **ctx)
    return permitted(ScriptedCustomer(view), screen, context)


def _labels(view, screen: ScreenReading, **ctx) -> list[str]:
    return [c.label for c in _choices(view, screen, **ctx)]


def test_a_question_about_a_fact_offers_that_fact_in_its_own_words_first(view):
    labels = _labels(view, ScreenReading(latest_reply="What is the registration of your car?",
                                         buttons=["Talk to a person"]))
    assert labels == ["The registration is LK19 XRD.",
                      view.persona.dont_know_phrase, "Sorry, what do you mean?"]


def test_no_choice_states_a_value_the_customer_does_not_hold(view):
    """Asked what it does not know (an engine number), the customer can only say so or ask."""
    screen = ScreenReading(latest_reply="What is the car's engine number?",
                           chips=["Yes", "No"])
    choices = _choices(view, screen)
    says = [c.action.text for c in choices if c.action.kind == "say"]
    held = {f.say for f in view.facts} | {view.persona.dont_know_phrase,
                                          "Sorry, what do you mean?"}
    assert says and set(says) <= held
    assert view.persona.dont_know_phrase in says
    assert [c.action.label for c in choices if c.action.kind == "click"] == ["Yes", "No"]


def test_asking_what_they_mean_is_not_offered_twice_running(view):
    screen = ScreenReading(latest_reply="I've passed your question on to our team.")
    assert "Sorry, what do you mean?" in _labels(view, screen)
    again = _labels(view, screen, history=[("customer", "Sorry, what do you mean?")])
    assert "Sorry, what do you mean?" not in again and view.persona.dont_know_phrase in again


def test_a_word_in_passing_is_not_a_question_about_a_fact(view):
    """A crime reference number is not the policy number, though both are numbers."""
    screen = ScreenReading(latest_reply="Did you report it to the police? If so, what is the "
                           "crime reference number?")
    assert "My policy number is NWF-POL-100234." not in _labels(view, screen)


def test_a_chip_answering_the_asked_fact_comes_before_its_words_and_the_other_chips(view):
    labels = _labels(view, ScreenReading(latest_reply="Was anyone hurt?",
                                         chips=["Yes", "No", "I don't know"]))
    assert labels[:2] == ["click: No", "No, nobody was hurt."]
    assert {"click: Yes", "click: I don't know"} <= set(labels)


def test_files_are_offered_only_when_asked_for_and_not_sent_yet(view):
    asked = ScreenReading(latest_reply="Please upload a photo of the damage.")
    choices = _choices(view, asked)
    assert [c.action.file for c in choices if c.action.kind == "upload"] == [
        "photo-rear-bumper.jpg"]
    assert choices[0].label.startswith("send file: photo-rear-bumper.jpg")
    sent = _choices(view, asked, uploaded=["photo-rear-bumper.jpg"])
    assert "photo-rear-bumper.jpg" not in [c.action.file for c in sent]
    not_asked = _choices(view, ScreenReading(latest_reply="Where did it happen?"))
    assert all(c.action.kind != "upload" for c in not_asked)


def test_navigation_buttons_are_not_offered_unless_the_reply_names_them(view):
    screen = ScreenReading(latest_reply="Where did it happen?", buttons=["Talk to a person"])
    assert "click: Talk to a person" not in _labels(view, screen)
    named = ScreenReading(latest_reply='Press "Talk to a person" to reach us.',
                          buttons=["Talk to a person"])
    assert "click: Talk to a person" in _labels(view, named)


def test_a_sign_in_window_leaves_signing_in_as_the_only_choice(view):
    choices = _choices(view, ScreenReading(latest_reply="Please sign in.", sign_in_prompt=True))
    assert [(c.label, c.action.kind) for c in choices] == [("sign in", "sign_in")]


def test_a_summary_with_a_wrong_detail_offers_the_correction_and_never_the_confirm(view):
    base = ("Here is what I have so far. Please check the details and press \"Confirm these "
            "details\" if they are right.\n")
    right = ScreenReading(latest_reply=base + "Vehicle registration: LK19 XRD",
                          buttons=["Confirm these details"])
    assert _labels(view, right)[0] == "click: Confirm these details"
    assert _labels(view, right) == ["click: Confirm these details"]  # check it: no waiting,
    # no "don't know" (the embedded model chose that on a summary until the journey stuck)
    assert "OK." in _labels(view, ScreenReading(latest_reply="Thanks, noted."))
    wrong = ScreenReading(latest_reply=base + "Vehicle registration: AB12 CDE",
                          buttons=["Confirm these details"])
    choices = _choices(view, wrong)
    assert choices[0].action.kind == "say" and choices[0].action.corrects
    assert "LK19 XRD" in (choices[0].action.text or "")
    assert all(c.action.kind != "click" for c in choices)


def test_the_schema_is_an_enum_of_the_labels_and_the_llama_cpp_dialect_carries_it(view):
    choices = _choices(view, ScreenReading(latest_reply="Was anyone hurt?", chips=["Yes", "No"]))
    schema = choice_schema(choices)
    assert schema["required"] == ["choice"] and schema["additionalProperties"] is False
    assert schema["properties"]["choice"]["enum"] == [c.label for c in choices]
    body = apply("json_object_schema", {"model": "m", "messages": []}, schema)
    assert body["response_format"] == {"type": "json_object", "schema": schema}
    # llama-cpp-python turns that schema into a grammar that allows exactly the labels
    llama_cpp = pytest.importorskip("llama_cpp")
    grammar = llama_cpp.LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
    assert grammar is not None


def test_a_choice_maps_to_its_action_and_anything_else_is_refused(view):
    choices = _choices(view, ScreenReading(latest_reply="Was anyone hurt?", chips=["Yes", "No"]))
    assert chosen('{"choice": "click: No"}', choices).label == "No"
    said = chosen('```json\n{"choice": "No,  nobody was hurt."}\n```', choices)
    assert (said.kind, said.text) == ("say", "No, nobody was hurt.")
    for bad in ['{"choice": "Nobody was hurt at all."}', '{"choice": "click: No", "x": 1}',
                '{"kind": "say", "text": "No"}', '["click: No"]', '{"choice": 3}']:
        with pytest.raises(ValueError):
            chosen(bad, choices)


def test_the_prompt_has_no_placeholder_and_a_prefix_shared_across_steps(view):
    one = build_grounded_messages(view, ScreenReading(latest_reply="Was anyone hurt?"),
                                  [("customer", view.initial_message)], ["No, nobody was hurt."])
    two = build_grounded_messages(view, ScreenReading(latest_reply="Where did it happen?"),
                                  [("customer", view.initial_message),
                                   ("agent", "Was anyone hurt?"),
                                   ("customer", "No, nobody was hurt.")],
                                  ["At the traffic lights on Hallam Road."])
    assert one[0] == two[0]  # the system message is the same at every step
    shared = 0
    while one[1]["content"][shared] == two[1]["content"][shared]:
        shared += 1
    assert one[1]["content"][:shared].rstrip().endswith(view.initial_message)
    text = one[0]["content"] + one[1]["content"]
    assert "<the " not in text and "..." not in text
    assert '{"choice": "The registration is AB12 CDE."}' in one[0]["content"]  # worked example
    assert one[1]["content"].index("Was anyone hurt?") < one[1]["content"].index(
        "No, nobody was hurt.")  # the choices come last, right before the answer


@pytest.mark.asyncio
async def test_the_grounded_customer_answers_with_a_choice_and_records_the_enum(view):
    settings_kw = dict(model="fake", temperature=0, seed=7, timeout_s=2.0,
                       response_format="json_object_schema", mode="grounded")
    screen = ScreenReading(latest_reply="What is the registration of your car?")
    with FakeOpenAI() as server:
        server.queue(200, completion('{"choice": "The registration is LK19 XRD."}'))
        settings = LlmSettings(base_url=server.url + "/v1", **settings_kw)
        customer = make_customer("llm", view, PACK, settings)
        assert isinstance(customer, GroundedCustomer) and customer.info.mode == "grounded"
        calls: list[CustomerModelCall] = []
        action = await customer.next_action(screen, CustomerContext(
            step=1, available_files=list(FILES), record_call=calls.append))
        await customer.aclose()
    assert (action.kind, action.text) == ("say", "The registration is LK19 XRD.")
    sent = calls[0].request["response_format"]
    assert sent["type"] == "json_object"
    assert sent["schema"]["properties"]["choice"]["enum"][0] == "The registration is LK19 XRD."
    assert "The registration is LK19 XRD." in calls[0].request["messages"][1]["content"]


@pytest.mark.asyncio
async def test_a_label_outside_the_choices_is_asked_again_then_given_up(view):
    with FakeOpenAI(default=lambda body: '{"choice": "My car is a red Ferrari."}') as server:
        settings = LlmSettings(base_url=server.url + "/v1", model="fake", timeout_s=2.0,
                               response_format="json_object_schema", mode="grounded",
                               malformed_retries=2)
        customer = make_customer("llm", view, PACK, settings)
        with pytest.raises(SimulatorError) as err:
            await customer.next_action(ScreenReading(latest_reply="Was anyone hurt?"),
                                       CustomerContext(step=1))
        await customer.aclose()
    assert err.value.context["kind"] == "malformed_output"
    assert len(server.requests) == 3  # the first answer and two re-asks


def test_the_mode_is_checked_and_recorded():
    with pytest.raises(SimulatorError, match="free, grounded"):
        LlmSettings(model="m", base_url="http://127.0.0.1:1/v1", mode="clever")
    settings = LlmSettings(model="m", base_url="http://127.0.0.1:1/v1", mode="grounded")
    assert settings.info().mode == "grounded" and settings.config().mode == "grounded"
    assert LlmSettings.from_options(environ={"CLAIMS_HARNESS_LLM_MODE": "grounded"},
                                    model="m").mode == "grounded"
