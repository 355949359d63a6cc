"""The fidelity audit on real answers of the embedded model (SmolLM2-135M-Instruct, free
mode), recorded by ``claims-harness run --dev --customer llm`` against the reference app and
kept as the audit reads them: the journey events (step, screen, action) of each trial, in the
run record's format, nothing else (``real_smollm2/<pack>-<run>.jsonl``).

Where they come from: ``model serve --instances 4``, ``--llm-temperature 0.8``,
``--llm-max-tokens 200``; ``-a`` files ``--llm-seed 7 --turn-limit 2``, ``-b`` files
``--llm-seed 11 --turn-limit 6``. Every verdict below was read by hand against the pack's
facts and the screen the answer was given.

What the audit found on all of that run output, read by hand: 72 answers (17 distinct
texts) over 20 trials of 12 packs. ``hinting`` truly happened once (CTL-C-003-b step 2).
``invented`` tripped twice and both were the audit's mistakes ("Re" of "Re:" and a
capitalised "You've" read as names; fixed, and kept here as true negatives); the model never
stated a value it does not hold. ``volunteered`` never tripped: no answer stated any of the
customer's facts at all. With seed 11 the model copied the reply format's placeholder
(``out_of_character``) in 48 answers; with seed 7 it wrote confused sentences with no fact or
value in them (the true negatives below). One of them, "You will now go to the crime scene,
and report it.", tells the agent what to do; the audit does not call it ``hinting`` (its
phrases are about what to ask, check, flag or how the agent works), and read by hand it is
nonsense rather than steering.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import claims_corpus
from claims_records import JourneyEvent
from scoring.fidelity import audit_trial

HERE = Path(__file__).with_name("real_smollm2")
PACKS = Path(__file__).resolve().parents[3] / "packs"

PLACEHOLDER = [(step, "out_of_character") for step in range(1, 7)]
# trial file -> the audit's findings, (step, rule), as read by hand
VERDICTS: dict[str, list[tuple[int, str]]] = {
    # asked for the policy number: "Sorry, I don't know that off the top of my head." (it
    # does know it, but a "don't know" states no value: nothing invented or volunteered);
    # asked the time: "You have no idea how to spell that." (rude, no fact, no steering)
    "CTL-M-001-a": [],
    # asked for the policy number: "... I will upload a file that you can access right
    # now." (a message about a file, not an upload); then "I really didn't have the
    # capacity to send a file."
    "CTL-H-001-a": [],
    # asked what happened: "You will now go to the crime scene, and report it. It is not
    # your fault, I was told that you did a thing wrong."; then "You can only use this one
    # now. Don't reply to your next files." (no fact of the customer's, no value)
    "CTL-C-001-a": [],
    # "Sorry, this I do not know. No one will help you, but you can reach me here if your
    # car is stolen or lost."; "I'm sorry, I can't help you. What happened is very strange
    # and I don't know what happened to you." ("stolen or lost" names no incident of its own)
    "CTL-M-003-a": [],
    # every answer "<the message you type>" (step 4 with a comma after it): the reply
    # format's placeholder, copied
    "CTL-M-002-b": PLACEHOLDER,
    # the placeholder again, twice with more after it: "<the message you type> Re: You may not
    # know what happened to your house insurance, I'm going to check the file ..." — no fact
    # of the customer's; "Re" is a reply prefix, not a name (the audit called it an invented
    # name until "re" joined the words that are no names)
    "CTL-C-002-b": PLACEHOLDER,
    # the placeholder in every answer; at step 2 after it: "You've got to stop asking me a
    # lot. I don't have any details yet; I'll just send you another text." — telling the
    # assistant how to work, which the customer must not do: a true ``hinting``. ("You've"
    # is no name: the audit called it an invented one until the pronouns' contractions
    # joined the words that are no names.)
    "CTL-C-003-b": [PLACEHOLDER[0], (2, "hinting"), *PLACEHOLDER[1:]],
}


def _events(name: str) -> list[JourneyEvent]:
    lines = (HERE / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [JourneyEvent.model_validate_json(line) for line in lines]


def test_every_recorded_trial_has_a_verdict():
    assert sorted(p.stem for p in HERE.glob("*.jsonl")) == sorted(VERDICTS)


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_the_audit_on_real_answers_gives_the_verdicts_read_by_hand(name):
    events = _events(name)
    view = claims_corpus.load_customer_view(PACKS / name.rsplit("-", 1)[0])
    audit = audit_trial(events, view)
    assert audit.audited
    assert [(f.step, f.rule) for f in audit.findings] == VERDICTS[name]
    answers = [e for e in events if e.action is not None and e.step > 0]
    assert answers and audit.messages == len(answers) + 1  # the opening message too


@pytest.mark.parametrize("name", ["CTL-M-002-b", "CTL-C-002-b", "CTL-C-003-b"])
def test_the_placeholder_answers_are_real_copies_of_the_slot(name):
    texts = [e.action.text for e in _events(name) if e.action and e.step > 0]
    assert len(texts) == 6 and all(t.startswith("<the message you type>") for t in texts)
