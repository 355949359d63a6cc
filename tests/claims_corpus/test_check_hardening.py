"""corpus check refuses what a run or the seed route would refuse, names pack, file and field,
and never traces back."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import claims_corpus
import claims_records
from claims_cli import app
from claims_corpus import Problem

from .conftest import PACK_ID

PDF = "input/materials/repair-quote.pdf"
JPG = "input/materials/photo-rear-bumper.jpg"


def _json(path: Path, change: Callable[[Any], Any]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _check(root: Path) -> list[Problem]:
    return claims_corpus.check_corpus(root).problems


def _found(problems: list[Problem], file: str, field: str, *words: str) -> Problem:
    hits = [p for p in problems if p.pack == PACK_ID and p.file == file and p.field == field
            and all(w.lower() in p.message.lower() for w in words)]
    assert hits, f"nothing for {file} {field} {words}; got {[str(p) for p in problems]}"
    return hits[0]


def _fact(i: int, **change: Any) -> Callable[[Path], None]:
    return lambda pack: _json(pack / "input/facts.json", lambda d: d["facts"][i].update(change))


def _setup(change: Callable[[Any], None]) -> Callable[[Path], None]:
    return lambda pack: _json(pack / "setup.json", change)


def _persona(**change: Any) -> Callable[[Path], None]:
    return lambda pack: _json(pack / "input/persona.json", lambda d: d.update(change))


def _message(text: str) -> Callable[[Path], None]:
    return lambda pack: (pack / "input/initial_message.txt").write_text(text, encoding="utf-8")


def _add_object(key: str, file: str = PDF, content_type: str = "application/pdf"):
    return _setup(lambda d: d["objects"].append({"key": key, "file": file,
                                                 "content_type": content_type}))


def _truncate(rel: str, keep: int) -> Callable[[Path], None]:
    def cut(pack: Path) -> None:
        data = (pack / rel).read_bytes()
        (pack / rel).write_bytes(data[:keep])
    return cut


def _deep_json(rel: str, levels: int) -> Callable[[Path], None]:
    return lambda pack: (pack / rel).write_text('{"version": "0.2", "x": ' + "[" * levels
                                                + "]" * levels + "}", encoding="utf-8")


def _text_rule(pattern: str) -> Callable[[Path], None]:
    return lambda pack: _json(pack / "oracle/labels.json", lambda d: d["assertions"][1][
        "text"].update(pattern=pattern))


def _collections(**docs: Any) -> Callable[[Path], None]:
    return _setup(lambda d: d["collections"].update(docs))


# (id, mutation, file, field, words the message must hold)
MUTATIONS = [
    # files that would make the checker trace back
    ("truncated pdf", _truncate(PDF, 300), PDF, "<file>", ["cannot be read"]),
    ("pdf cut in half", lambda p: _truncate(PDF, (p / PDF).stat().st_size // 2)(p), PDF,
     "<file>", ["cannot be read"]),
    ("pdf that is not a pdf", lambda p: (p / PDF).write_bytes(b"hello"), PDF, "<file>",
     ["%PDF"]),
    ("truncated jpeg", lambda p: _truncate(JPG, (p / JPG).stat().st_size // 2)(p), JPG,
     "<content>", ["image"]),
    ("50k-deep facts.json", _deep_json("input/facts.json", 50_000), "input/facts.json", "<json>",
     ["nested deeper"]),
    ("100-deep setup.json", _deep_json("setup.json", 100), "setup.json",
     "x" + "[0]" * 19 + "…", ["nested deeper"]),
    ("NaN in facts.json", lambda p: (p / "input/facts.json").write_text(
        (p / "input/facts.json").read_text().replace('"yes"', "NaN", 1)), "input/facts.json",
     "<json>", ["NaN"]),
    ("repeated key", lambda p: (p / "input/persona.json").write_text(
        (p / "input/persona.json").read_text().replace(
            '"version": "0.3",', '"version": "0.3", "version": "0.3",')),
     "input/persona.json", "<json>", ["twice"]),
    ("10 MB persona", lambda p: (p / "input/persona.json").write_bytes(b" " * (10 << 20)),
     "input/persona.json", "<file>", ["larger than"]),
    # fact values in the wrong format for their kind
    ("date written 12/03/2026", _fact(1, value="12/03/2026"), "input/facts.json", "facts.1",
     ["calendar date"]),
    ("date that does not exist", _fact(1, value="2026-02-30"), "input/facts.json", "facts.1",
     ["calendar date"]),
    ("time 25:99", _fact(2, value="25:99"), "input/facts.json", "facts.2", ["24-hour"]),
    ("time without leading zero", _fact(2, value="7:40"), "input/facts.json", "facts.2",
     ["24-hour"]),
    ("yes/no maybe", _fact(7, value="maybe"), "input/facts.json", "facts.7", ["yes"]),
    ("yes/no as a boolean", _fact(8, value=True), "input/facts.json", "facts.8", ["true/false"]),
    ("money as text", lambda p: _json(p / "input/facts.json", lambda d: d["facts"].append(
        {"key": "items_value", "kind": "money", "value": "£250", "say": "About 250 pounds.",
         "topic": "what it was worth"})), "input/facts.json", "facts.10", ["not money"]),
    ("string coerced to a boolean", _persona(volunteers_information="yes"),
     "input/persona.json", "volunteers_information", ["boolean"]),
    ("string coerced to a number", lambda p: _json(
        p / "input/materials.json", lambda d: d["materials"][1].update(
            availability="later", later={"describe_before": "The garage will send it.",
                                         "arrives": {"after_messages": "3"}})),
     "input/materials.json", "materials.1.later.arrives.after_messages", ["integer"]),
    # assertions the scorer could not run
    ("invalid regex", _text_rule("NWF-(\\d{4}"), "oracle/labels.json",
     "assertions.1.text.pattern", ["regular expression"]),
    ("invalid regex quantifier", _text_rule("*claim"), "oracle/labels.json",
     "assertions.1.text.pattern", ["regular expression"]),
    # setup problems found only at run time before
    ("missing object file", _add_object("policies/pol-m001/quote.pdf",
                                        "input/materials/nope.pdf"),
     "setup.json", "objects[0].file", ["missing"]),
    ("escaping object file", _add_object("policies/q.pdf", "../CTL-M-001/setup.json"),
     "setup.json", "objects[0].file", [".."]),
    ("absolute object file", _add_object("policies/q.pdf", "/etc/passwd"), "setup.json",
     "objects[0].file", ["relative"]),
    ("../ in object key", _add_object("policies/../q.pdf"), "setup.json", "objects[0].key",
     ["'..'"]),
    ("NUL in object key", _add_object("policies/a\x00.pdf"), "setup.json", "objects[0].key",
     ["control"]),
    ("object key over 1024 bytes", _add_object("é" * 600), "setup.json", "objects[0].key",
     ["1024"]),
    ("content type with a newline", _add_object("policies/q.pdf", PDF, "application/pdf\nX: y"),
     "setup.json", "objects[0].content_type", ["content type"]),
    ("$-prefixed field", _setup(lambda d: d["collections"]["customers"][0].update(
        {"$set": {"x": 1}})), "setup.json", "collections.customers[0].$set", ["'$'"]),
    ("dotted field", _setup(lambda d: d["collections"]["customers"][0].update({"a.b": 1})),
     "setup.json", "collections.customers[0].a.b", ["'.'"]),
    ("duplicate _id", _setup(lambda d: d["collections"]["customers"].append(
        {"_id": "cust-m001"})), "setup.json", "collections.customers[1]._id", ["duplicate"]),
    ("redefines a baseline record", lambda p: _collections(staff=[
        {"_id": json.loads((p.parent / "baseline.json").read_text())["collections"]["staff"][
            0]["_id"]}])(p), "setup.json", "collections.staff[0]._id", ["baseline"]),
    ("reserved collection", _collections(_harness=[{"_id": "x"}]), "setup.json",
     "collections._harness", ["reserved"]),
    ("reserved collection other case", _collections(_ENVIRONMENT=[{"_id": "x"}]), "setup.json",
     "collections._ENVIRONMENT", ["reserved"]),
    ("override of a missing record", _setup(lambda d: d["overrides"].append(
        {"collection": "staff", "id": "nobody", "delete": True})), "setup.json",
     "overrides[0].id", ["neither"]),
    ("integer over 64 bits", _setup(lambda d: d["collections"]["policies"][0].update(
        excess=2**65)), "setup.json", "collections.policies[0].excess", ["64 bits"]),
    ("known id the customer does not know", _setup(lambda d: d["known_ids"].update(
        claim="CLM-9")), "setup.json", "known_ids.claim", ["facts"]),
    # relative dates the checker missed
    *[(f"relative date: {w}", _fact(1, say=f"It happened {w}."), "input/facts.json",
       "facts.1.say", [w]) for w in (
        "a fortnight ago", "the night before last", "48 hours ago", "this past Saturday",
        "over the weekend", "two weeks back", "on Sunday", "since Monday", "yesturday",
        "in the last few days", "the week before last", "a couple of nights ago")],
    ("relative date in the first message", _message("It was this past Saturday, near home."),
     "input/initial_message.txt", "<text>", ["relative date"]),
    ("relative date in a later material", lambda p: _json(
        p / "input/materials.json", lambda d: d["materials"][1].update(
            availability="later", later={"describe_before": "The garage sends it next week.",
                                         "arrives": {"after_messages": 3}})),
     "input/materials.json", "materials.1.later.describe_before", ["next week"]),
    # control characters and sizes
    ("NUL in the first message", _message("Hello\x00 there, on 12 March 2026."),
     "input/initial_message.txt", "<text>", ["control"]),
    ("ANSI escape in the persona", _persona(personality="Calm \x1b[31mred\x1b[0m person."),
     "input/persona.json", "personality", ["ANSI"]),
    ("bidi override in a label", lambda p: _json(p / "input/materials.json", lambda d: d[
        "materials"][0].update(label="my photo \u202eof the car")), "input/materials.json",
     "materials.0.label", ["control"]),
    ("zero-width space in a fact", _fact(4, say="At the\u200b junction."), "input/facts.json",
     "facts.4.say", ["control"]),
    ("first message too long", _message("word " * 1000), "input/initial_message.txt", "<text>",
     ["at most 4000"]),
    ("persona field too long", _persona(personality="x" * 3000), "input/persona.json",
     "personality", ["at most 2000"]),
    ("fact too long", _fact(5, say="y" * 1500), "input/facts.json", "facts.5.say",
     ["at most 1000"]),
    # links out of the pack
    ("symlinked material", lambda p: ((p / JPG).unlink(), (p / JPG).symlink_to("/etc/hostname")),
     JPG, "<file>", ["symbolic link", "out of the pack"]),
    ("symlinked facts file", lambda p: ((p / "input/facts.json").unlink(),
                                        (p / "input/facts.json").symlink_to("/dev/zero")),
     "input/facts.json", "<file>", ["symbolic link"]),
    ("symlinked folder", lambda p: (p / "input/materials/extra").symlink_to("/etc"),
     "input/materials/extra", "<file>", ["symbolic link"]),
]


@pytest.mark.parametrize("case", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_each_mutation_is_refused_with_pack_file_and_field(pack_copy, case):
    _, mutate, file, field, words = case
    mutate(pack_copy)
    _found(_check(pack_copy.parent), file, field, *words)


def test_the_cli_reports_instead_of_tracing_back(pack_copy):
    _truncate(PDF, 300)(pack_copy)
    _deep_json("input/facts.json", 50_000)(pack_copy)
    result = CliRunner().invoke(app, ["corpus", "check", str(pack_copy.parent)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert f"{PACK_ID}/{PDF}: <file>: PDF cannot be read" in result.output
    assert f"{PACK_ID}/input/facts.json: <json>:" in result.output


def test_a_symlinked_pack_is_not_read_through(pack_copy):
    (pack_copy / "input/facts.json").unlink()
    (pack_copy / "input/facts.json").symlink_to("/dev/zero")  # reading would never end
    problems = _check(pack_copy.parent)
    assert [p.file for p in problems if p.pack == PACK_ID] == ["input/facts.json"]


def test_a_checker_failure_is_a_problem_not_a_traceback(pack_copy, monkeypatch):
    def broken(*args):
        raise KeyError("surprise")

    monkeypatch.setattr("claims_corpus._check_extra.text_problems", broken)
    problems = _check(pack_copy.parent)
    hit = _found(problems, "<pack>", "<text check>", "KeyError")
    assert "cannot be called clean" in hit.message


def test_run_refuses_a_symlinked_material(pack_copy):
    (pack_copy / JPG).unlink()
    (pack_copy / JPG).symlink_to(os.path.realpath("/etc/hostname"))
    with pytest.raises(claims_records.PackError, match="symbolic link|missing"):
        claims_corpus.load_customer_view(pack_copy)


@pytest.mark.parametrize("value", ["12/03/2026", "25:99", "maybe"])
def test_the_run_refuses_wrong_fact_formats_too(pack_copy, value):
    index = {"12/03/2026": 1, "25:99": 2, "maybe": 7}[value]
    _fact(index, value=value)(pack_copy)
    with pytest.raises(claims_records.PackError) as err:
        claims_corpus.load_customer_view(pack_copy)
    assert err.value.context["file"] == "input/facts.json"
    assert err.value.context["field"].startswith(f"facts.{index}")


# --------------------------------------------------------------- every field, staff included

def _note(text: str) -> Callable[[Path], None]:
    return _setup(lambda d: d["staff_script"].update(note=text))


def _amend(currency: str, label_currency: str | None = None) -> Callable[[Path], None]:
    """The staff script settles 900 in ``currency``; the oracle expects that amount."""
    def change(pack: Path) -> None:
        _json(pack / "setup.json", lambda d: d["staff_script"].update(
            decision="amend_amount", amount={"amount": 900, "currency": currency}))
        _json(pack / "oracle/labels.json", lambda d: d["staff_decision"].update(
            customer_status="amended",
            note_amount={"amount": 900, "currency": label_currency or currency}))
    return change


def _labels(change: Callable[[Any], None]) -> Callable[[Path], None]:
    return lambda pack: _json(pack / "oracle/labels.json", change)


def _provenance(change: Callable[[Any], None]) -> Callable[[Path], None]:
    return lambda pack: _json(pack / "provenance.json", change)


def _add_fact(**fact: Any) -> Callable[[Path], None]:
    return lambda pack: _json(pack / "input/facts.json", lambda d: d["facts"].append(fact))


NOTE = "We have checked your report. Your claim is approved"
SETUP, LABELS, FACTS = "setup.json", "oracle/labels.json", "input/facts.json"

# (id, mutation, file, field, words the message must hold)
FIELD_RULES = [
    # control characters in the staff script's note
    ("NUL in the staff note", _note(NOTE + "\x00."), SETUP, "staff_script.note", ["control"]),
    ("ANSI colour in the staff note", _note("\x1b[31m" + NOTE + "\x1b[0m"), SETUP,
     "staff_script.note", ["ANSI"]),
    ("ANSI cursor move in the staff note", _note(NOTE + "\x1b[2J\x1b[H."), SETUP,
     "staff_script.note", ["ANSI"]),
    ("bidi override in the staff note", _note(NOTE + " \u202egbp 0001"), SETUP,
     "staff_script.note", ["control"]),
    ("bidi embedding in the staff note", _note("\u202a" + NOTE), SETUP, "staff_script.note",
     ["control"]),
    ("bidi isolate in the staff note", _note(NOTE + " \u2066x\u2069"), SETUP,
     "staff_script.note", ["control"]),
    ("C1 control in the staff note", _note(NOTE + "\x85"), SETUP, "staff_script.note",
     ["control"]),
    ("bell in the staff note", _note(NOTE + "\x07"), SETUP, "staff_script.note", ["control"]),
    ("backspace in the staff note", _note(NOTE + "\x08\x08\x08"), SETUP, "staff_script.note",
     ["control"]),
    # a note that says nothing
    ("staff note of 12 spaces", _note(" " * 12), SETUP, "staff_script.note", ["besides"]),
    ("staff note of line breaks and tabs", _note("\n\t \n\t \n\t \n\t "), SETUP,
     "staff_script.note", ["besides"]),
    ("staff note of 8 characters padded", _note("   Approved" + " " * 8), SETUP,
     "staff_script.note", ["besides"]),
    # currencies
    ("staff amount in ZZZ", _amend("ZZZ"), SETUP, "staff_script.amount.currency",
     ["'ZZZ'", "ISO 4217"]),
    ("staff amount in a withdrawn currency", _amend("HRK"), SETUP,
     "staff_script.amount.currency", ["'HRK'", "ISO 4217"]),
    ("staff amount in the no-currency code", _amend("XXX"), SETUP,
     "staff_script.amount.currency", ["no currency"]),
    ("staff amount in the testing code", _amend("XTS"), SETUP, "staff_script.amount.currency",
     ["testing"]),
    ("staff amount in lower case", _amend("gbp"), SETUP, "staff_script.amount.currency",
     ["did you mean 'GBP'"]),
    ("oracle note amount in ZZZ", _amend("GBP", "ZZZ"), LABELS,
     "staff_decision.note_amount.currency", ["'ZZZ'", "ISO 4217"]),
    ("fact money in ZZZ", _add_fact(key="items_value", kind="money", value={
        "amount": 250, "currency": "ZZZ"}, say="It was worth 250.", topic="its value"),
     FACTS, "facts.10.value.currency", ["'ZZZ'"]),
    ("document printed in ZZZ", _provenance(lambda d: d["materials"][1]["parameters"].update(
        currency="ZZZ")), "provenance.json", "materials.1.parameters.currency", ["'ZZZ'"]),
    ("seeded record in ZZZ", _setup(lambda d: d["collections"]["policies"][0].update(
        currency="ZZZ")), SETUP, "collections.policies[0].currency", ["'ZZZ'"]),
    # every other text field
    ("ANSI in the oracle's explanation", _labels(lambda d: d["review"].update(
        explanation="Clear \x1b[1mall\x1b[0m checks.")), LABELS, "review.explanation", ["ANSI"]),
    ("NUL in an assertion", _labels(lambda d: d["assertions"][0].update(
        description="A claim\x00 exists.")), LABELS, "assertions.0.description", ["control"]),
    ("bidi override in a provenance purpose", _provenance(lambda d: d["materials"][0].update(
        purpose="Shows the \u202ebumper.")), "provenance.json", "materials.0.purpose",
     ["control"]),
    ("bidi isolate in a seeded name", _setup(lambda d: d["collections"]["customers"][0].update(
        name="Daniel \u2067Carter")), SETUP, "collections.customers[0].name", ["control"]),
    ("ANSI in a seeded field name", _setup(lambda d: d["collections"]["customers"][0].update(
        {"nick\x1b[8m": "x"})), SETUP, "collections.customers[0].nick\\x1b[8m",
     ["field name", "ANSI"]),
    ("C1 control in the review file", lambda p: _json(p / "review.json", lambda d: d[
        "materials"][0]["assistant_check"].update(notes="Looks fine\x9b2J.")), "review.json",
     "materials.0.assistant_check.notes", ["control"]),
    ("escape in the baseline", lambda p: _json(p.parent / "baseline.json", lambda d: d[
        "collections"]["staff"][0].update(name="Sam\x1b]0;pwned\x07")), "baseline.json",
     "collections.staff.0.name", ["ANSI"]),
]


def _clean(root: Path) -> list[str]:
    """Every problem of a corpus whose packs were changed on purpose (manifest brought up to
    date first)."""
    claims_corpus.update_manifest(root)
    return [str(p) for p in _check(root)]


def _found_any(problems: list[Problem], pack: str | None, file: str, field: str,
               *words: str) -> Problem:
    hits = [p for p in problems if p.pack == pack and p.file == file and p.field == field
            and all(w.lower() in p.message.lower() for w in words)]
    assert hits, f"nothing for {file} {field} {words}; got {[str(p) for p in problems]}"
    return hits[0]


@pytest.mark.parametrize("case", FIELD_RULES, ids=[c[0] for c in FIELD_RULES])
def test_every_field_obeys_the_text_and_currency_rules(pack_copy, case):
    _, mutate, file, field, words = case
    mutate(pack_copy)
    found = _found_any(_check(pack_copy.parent), None if file == "baseline.json" else PACK_ID,
                       file, field, *words)
    line = str(found)
    assert "\n" not in line and line.isprintable(), line  # one line, nothing it warns about


@pytest.mark.parametrize("currency", ["GBP", "EUR", "JPY", "NZD", "CHF", "XCG"])
def test_a_staff_amount_in_a_current_iso_4217_currency_passes(pack_copy, currency):
    _amend(currency)(pack_copy)
    assert _clean(pack_copy.parent) == []


@pytest.mark.parametrize("note", [
    "Approved: 900 GBP",
    "  Approved..  ",
    "Your claim is approved.\n\nWe will pay the garage\tdirectly.\r\n",
    "Votre demande est acceptée — 900 € (réf. ÉTÉ-2026).",
])
def test_a_staff_note_of_plain_text_passes(pack_copy, note):
    _note(note)(pack_copy)
    assert _clean(pack_copy.parent) == []


def test_the_currency_list_is_iso_4217():
    from babel.numbers import is_currency

    from claims_corpus._currencies import ISO_4217_CODES, NOT_AN_AMOUNT, currency_problem

    assert all(len(c) == 3 and c.isupper() and c.isalpha() for c in ISO_4217_CODES)
    assert all(is_currency(c) for c in ISO_4217_CODES)  # no typo: every code exists
    assert NOT_AN_AMOUNT <= ISO_4217_CODES
    assert [c for c in ("EUR", "GBP", "JPY", "USD", "NZD", "INR") if currency_problem(c)] == []
    assert all(currency_problem(c) for c in ("ZZZ", "DEM", "HRK", "CNH", "gbp", "GB", ""))


# --------------------------------------------------------------- the fact-key vocabulary

FACT_KEYS = [
    ("misspelt fact key", _fact(1, key="incident_dat"), FACTS, "facts.1.key",
     ["unknown fact key 'incident_dat'", "did you mean 'incident_date'"]),
    ("fact key outside the vocabulary", _add_fact(
        key="pet_name", kind="text", value="Rex", say="My dog is Rex.", topic="the dog"),
     FACTS, "facts.10.key", ["unknown fact key 'pet_name'"]),
    ("claim fact of the wrong kind", _fact(4, kind="choice"), FACTS, "facts.4.kind",
     ["'text'"]),
    ("story fact of another kind", _add_fact(
        key="roofer_visit", kind="yes_no", value="yes", say="Yes, a roofer came.",
        topic="the roofer"), FACTS, "facts.10.kind", ["story fact"]),
    ("unknown key in expected_facts", _labels(lambda d: d["expected_facts"].update(
        incident_dat="2026-03-12")), LABELS, "expected_facts.incident_dat",
     ["unknown fact key", "did you mean 'incident_date'"]),
    ("unknown key in optional_facts", _labels(lambda d: d["optional_facts"].update(
        car_colour="blue")), LABELS, "optional_facts.car_colour", ["unknown fact key"]),
    ("unknown key in unknown_facts", _labels(lambda d: d["unknown_facts"].update(
        weather="Nobody noted it.")), LABELS, "unknown_facts.weather", ["unknown fact key"]),
    ("story fact in the oracle", _labels(lambda d: d["unknown_facts"].update(
        roofer_visit="No roofer came.")), LABELS, "unknown_facts.roofer_visit",
     ["story fact"]),
    ("explanation of a check that does not hit", _labels(
        lambda d: d["review"].update(customer_explanations={
            "quote_before_incident": "roofer_visit"})),
     LABELS, "review.customer_explanations.quote_before_incident", ["'clear', not 'hit'"]),
    ("explanation of a check no document carries", _labels(
        lambda d: d["review"].update(customer_explanations={"prior_claims_12m": "roofer_visit"})),
     LABELS, "review.customer_explanations.prior_claims_12m", ["no document check"]),
    ("explanation by a fact that is no story fact", _labels(
        lambda d: d["review"].update(customer_explanations={
            "quote_before_incident": "incident_description"})),
     LABELS, "review.customer_explanations.quote_before_incident", ["no story fact"]),
    ("explanation by a story fact the customer does not know", _labels(
        lambda d: d["review"].update(customer_explanations={
            "quote_before_incident": "receipt_reprint"})),
     LABELS, "review.customer_explanations.quote_before_incident", ["not in input/facts.json"]),
]


@pytest.mark.parametrize("case", FACT_KEYS, ids=[c[0] for c in FACT_KEYS])
def test_a_fact_key_outside_the_vocabulary_is_refused(pack_copy, case):
    _, mutate, file, field, words = case
    mutate(pack_copy)
    _found(_check(pack_copy.parent), file, field, *words)


def test_a_story_fact_the_standard_lists_passes(pack_copy):
    _add_fact(key="roofer_visit", kind="text", value="A roofer came on 2 March 2026.",
              say="A roofer came on 2 March 2026.", topic="the roofer")(pack_copy)
    assert _clean(pack_copy.parent) == []


def test_the_vocabulary_is_the_one_the_documents_give():
    import re

    from claims_corpus._check_keys import CLAIM_FACT_KEYS, STORY_FACT_KEYS

    repo = Path(__file__).resolve().parents[2]
    rules = (repo / "docs/claim-rules.md").read_text(encoding="utf-8")
    section = rules.split("## Fact keys", 1)[1].split("\n## ", 1)[0]
    table = dict(re.findall(r"^\| `([a-z_]+)` \| ([a-z_]+) \|", section, re.MULTILINE))
    assert table == CLAIM_FACT_KEYS
    standard = (repo / "packs/STANDARD.md").read_text(encoding="utf-8")
    listed = re.search(r"Story facts[^\n]*\n((?:[^\n]+\n)+)", standard)
    assert listed, "packs/STANDARD.md section 5 lists the story facts"
    assert set(re.findall(r"`([a-z_]+)`", listed.group(1))) >= STORY_FACT_KEYS
