"""The first message states only the pack's facts: a contradicting date, time, amount,
registration or damage beyond repair is refused by pack, file and field; the same values as
the facts hold them, in other wordings, pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import claims_corpus
from claims_corpus._check_message import message_problems

from .conftest import PACKS

ORIGINAL = (PACKS / "CTL-M-001" / "input" / "initial_message.txt").read_text(encoding="utf-8")

# (message, what the refusal names; None: it passes). CTL-M-001's facts: 12 March 2026,
# 17:40, LK19 XRD, a collision, no money fact.
CASES = [
    (ORIGINAL, None),
    ("On 14 March 2026 a car drove into the back of mine in Sheffield; the car was written "
     "off.", ["the date '14 March 2026'", "the damage 'written off'"]),
    ("On 14 March 2026 a car drove into the back of mine.", ["the date '14 March 2026'"]),
    ("On 12 March 2026 a car hit mine and it's a total loss.", ["the damage 'total loss'"]),
    ("On 12/03/2026 a car drove into the back of mine.", None),
    ("On March 12, 2026 a car drove into the back of mine.", None),
    ("On 2026-03-12 a car drove into the back of mine.", None),
    ("On 12 March 2026 at 17:40 a car drove into me.", None),
    ("On 12 March 2026 at 5:40 pm a car drove into me.", None),
    ("On 12 March 2026 at 18:40 a car drove into me.", ["the time 18:40"]),
    ("My car LK19 XRD was hit on 12 March 2026.", None),
    ("My car LK19 XRE was hit on 12 March 2026.", ["the registration 'LK19 XRE'"]),
    ("A car hit mine on 12 March 2026; the repair is £5,000.", ["the amount £5000"]),
    ("A car hit mine on 12 March 2026 and dented 2 panels.", None),  # bare numbers: no amount
]


def _with_message(pack_copy: Path, message: str) -> None:
    (pack_copy / "input" / "initial_message.txt").write_text(message, encoding="utf-8")


@pytest.mark.parametrize(("message", "named"), CASES, ids=[c[0][:50] for c in CASES])
def test_the_first_message_states_only_the_facts(pack_copy: Path, message: str,
                                                 named: list[str] | None) -> None:
    _with_message(pack_copy, message)
    problems = message_problems(pack_copy.name, pack_copy)
    if named is None:
        assert problems == []
        return
    assert [(p.pack, p.file, p.field) for p in problems] == [
        ("CTL-M-001", "input/initial_message.txt", "<text>")]
    for what in named:
        assert what in problems[0].message
    assert "input/facts.json does not hold" in problems[0].message


def test_corpus_check_refuses_the_contradicting_copy(pack_copy: Path) -> None:
    _with_message(pack_copy, "Hello, on 14 March 2026 at a red light in Sheffield another car "
                  "drove into the back of mine. I think the car was written off.")
    claims_corpus.update_manifest(pack_copy.parent)
    problems = claims_corpus.check_corpus(pack_copy.parent).problems
    assert [(p.pack, p.file, p.field) for p in problems] == [
        ("CTL-M-001", "input/initial_message.txt", "<text>")]


def test_a_window_and_money_facts_allow_their_values(pack_copy: Path) -> None:
    path = pack_copy / "input" / "facts.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for f in data["facts"]:
        if f["key"] == "incident_time":
            f["value"] = {"earliest": "17:00", "latest": "18:00"}
            f["say"] = "Between 5pm and 6pm."
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    _with_message(pack_copy, "On 12 March 2026 at about 17:30 a car drove into mine.")
    assert message_problems(pack_copy.name, pack_copy) == []
    _with_message(pack_copy, "On 12 March 2026 at about 19:30 a car drove into mine.")
    assert "the time 19:30" in message_problems(pack_copy.name, pack_copy)[0].message


def test_a_second_claim_may_bring_its_own_values_beside_the_facts(pack_copy: Path) -> None:
    path = pack_copy / "oracle" / "labels.json"
    labels = json.loads(path.read_text(encoding="utf-8"))
    labels["pressure"] = ["two_claims"]
    path.write_text(json.dumps(labels, indent=2) + "\n", encoding="utf-8")
    _with_message(pack_copy, "On 12 March 2026 a car drove into mine; and separately my bike "
                  "was stolen on 1 April 2026.")
    assert message_problems(pack_copy.name, pack_copy) == []
    _with_message(pack_copy, "On 14 March 2026 a car drove into mine; and separately my bike "
                  "was stolen on 1 April 2026.")  # the claim's own date is missing
    assert "the date '14 March 2026'" in message_problems(pack_copy.name, pack_copy)[0].message


def test_the_shipped_corpus_states_only_its_facts() -> None:
    found = [str(p) for d in claims_corpus.list_packs(PACKS)
             for p in message_problems(d.name, d)]
    assert found == []
