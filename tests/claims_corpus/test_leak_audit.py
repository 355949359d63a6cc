"""The input leak audit: a value only setup, the oracle or provenance holds, written into the
pack's own customer files, is reported by `corpus check` with pack, file and field."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import claims_corpus

from .conftest import PACK_ID


def _json(path: Path, change: Callable[[Any], Any]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _labels(pack: Path) -> dict:
    return json.loads((pack / "oracle/labels.json").read_text(encoding="utf-8"))


def _setup(pack: Path) -> dict:
    return json.loads((pack / "setup.json").read_text(encoding="utf-8"))


def _provenance(pack: Path) -> dict:
    return json.loads((pack / "provenance.json").read_text(encoding="utf-8"))


def _leaks(root: Path) -> list[claims_corpus.Problem]:
    return [p for p in claims_corpus.check_corpus(root).problems if "comes from" in p.message]


def _put(file: str, field: str, text: str) -> Callable[[Path], None]:
    """Write ``text`` into one customer-visible field (appended to what is there)."""
    def plant(pack: Path) -> None:
        if file == "input/initial_message.txt":
            path = pack / file
            path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + " " + text + "\n",
                            encoding="utf-8")
            return

        def change(d: dict) -> None:
            node = d
            *parents, last = field.split(".")
            for part in parents:
                node = node[int(part)] if part.isdigit() else node[part]
            node[last] = f"{node[last]} {text}"
        _json(pack / file, change)
    return plant


def _explanation_phrase(pack: Path) -> str:
    words = _labels(pack)["review"]["explanation"].split()
    return " ".join(words[-12:])


def _purpose_phrase(pack: Path) -> str:
    return " ".join(_provenance(pack)["materials"][0]["purpose"].split()[:8])


# (id, value to plant (from the pack), file, field, the source the report must name)
PLANTS = [
    ("system code in the persona", lambda p: "it should be fast_track", "input/persona.json",
     "personality", "system vocabulary"),
    ("a required reason", lambda p: _labels(p)["triage"]["required_reasons"][0],
     "input/facts.json", "facts.5.say", "reason"),
    ("a check outcome code", lambda p: "the quote check is not_checked",
     "input/materials.json", "materials.1.label", "check outcome"),
    ("an evidence kind", lambda p: "it is a repair_quote", "input/materials.json",
     "materials.1.label", "evidence kind"),
    ("the scenario", lambda p: _labels(p)["scenario"], "input/facts.json", "facts.4.topic",
     "scenario"),
    ("a review explanation phrase", _explanation_phrase, "input/initial_message.txt",
     "<text>", "review.explanation"),
    ("an assertion description", lambda p: _labels(p)["assertions"][0]["description"],
     "input/persona.json", "speaking_style", "assertions.0.description"),
    ("a provenance purpose phrase", _purpose_phrase, "input/materials.json",
     "materials.0.label", "purpose"),
    ("a printed field", lambda p: _provenance(p)["materials"][1]["printed_fields"]["reference"],
     "input/persona.json", "dont_know_phrase", "printed_fields.reference"),
    ("a setup-only date", lambda p: _setup(p)["collections"]["policies"][0]["start_date"],
     "input/persona.json", "personality", "setup.json collections.policies.0.start_date"),
    ("a prior claim date", lambda p: _setup(p)["collections"]["prior_claims"][0]["claim_date"],
     "input/initial_message.txt", "<text>", "prior_claims"),
    ("a seeded id", lambda p: _setup(p)["collections"]["prior_claims"][0]["_id"],
     "input/facts.json", "facts.0.say", "setup.json"),
    ("the customer's e-mail", lambda p: _setup(p)["collections"]["customers"][0]["email"],
     "input/persona.json", "personality", "setup.json"),
]


@pytest.mark.parametrize("case", PLANTS, ids=[c[0] for c in PLANTS])
def test_a_planted_value_is_reported_with_file_and_field(pack_copy, case):
    _, value, file, field, source = case
    assert _leaks(pack_copy.parent) == []  # clean before
    planted = value(pack_copy)
    _put(file, field, planted)(pack_copy)
    leaks = [p for p in _leaks(pack_copy.parent) if p.file == file and p.field == field]
    assert leaks, f"{planted!r} not reported in {file} {field}"
    assert all(p.pack == PACK_ID for p in leaks)
    assert any(source in p.message for p in leaks), [p.message for p in leaks]


def test_an_account_password_in_the_persona_is_reported(pack_copy):
    _json(pack_copy / "setup.json", lambda d: d.update(customer_credentials={
        "username": "daniel.carter@example.com", "password": "daniel-test-pass-9"}))
    _put("input/persona.json", "dont_know_phrase", "my password is daniel-test-pass-9")(
        pack_copy)
    leaks = _leaks(pack_copy.parent)
    hit = [p for p in leaks if p.field == "dont_know_phrase"]
    assert hit and "customer_credentials.password" in hit[0].message


def test_the_triage_class_is_reported_in_words_too(pack_copy):
    _json(pack_copy / "oracle/labels.json", lambda d: d["triage"].update(
        triage_class="fast_track"))
    _put("input/initial_message.txt", "<text>", "Please fast track this.")(pack_copy)
    leaks = _leaks(pack_copy.parent)
    assert any(p.file == "input/initial_message.txt" and "triage.triage_class" in p.message
               for p in leaks), [str(p) for p in leaks]


def test_the_allow_list_admits_what_the_customer_knows(pack_copy):
    email = _setup(pack_copy)["collections"]["customers"][0]["email"]
    _put("input/persona.json", "personality", f"Writes from {email}.")(pack_copy)
    assert _leaks(pack_copy.parent)
    _json(pack_copy / "oracle/labels.json", lambda d: d.update(customer_may_know=[email]))
    assert _leaks(pack_copy.parent) == []


def test_values_the_customer_knows_by_definition_pass(pack_copy):
    """Expected fact values, known ids and the persona's own name are the customer's."""
    setup = _setup(pack_copy)
    _put("input/persona.json", "personality",
         f"Knows {setup['known_ids']['policy_number']} by heart; the car is "
         f"{setup['collections']['policies'][0]['vehicle_registration']}.")(pack_copy)
    assert _leaks(pack_copy.parent) == []


def test_the_runtime_guard_is_run_on_the_first_prompt(pack_copy):
    _put("input/persona.json", "personality", "expects review_required")(pack_copy)
    problems = claims_corpus.check_corpus(pack_copy.parent).problems
    assert any(p.field == "<prompt>" and "review_required" in p.message for p in problems)


@pytest.mark.slow  # every pack of the corpus
def test_the_committed_corpus_has_no_leaks():
    from .conftest import PACKS

    assert _leaks(PACKS) == []
