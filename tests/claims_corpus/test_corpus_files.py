"""The corpus-level files beside the packs: acceptance.toml and the baseline's other customer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

import claims_corpus
from claims_corpus.formats import Baseline
from claims_records import AcceptanceConfig

from .conftest import PACK_ID, PACKS


def test_the_committed_acceptance_file_holds_the_standards_numbers() -> None:
    config = AcceptanceConfig.from_toml((PACKS / "acceptance.toml").read_text())
    assert config == AcceptanceConfig()
    assert config.no_further_contact.min_share == 0.8
    assert config.review_false_positives.max_false_positives == 0
    assert (config.report_duration.limit_s, config.questions.fewer_than) == (300, 10)
    cov = config.scenario_coverage
    assert (cov.motor, cov.home, cov.contents) == (5, 3, 2)


@pytest.mark.parametrize(("text", "field"), [
    ("[questions]\nfewer_than = 0\n", "questions.fewer_than"),
    ("[no_further_contact]\nmin_share = 1.5\n", "no_further_contact.min_share"),
    ("[questions]\nlimit = 10\n", "questions.limit"),
    ("decide_on = \"vibes\"\n", "decide_on"),
    ("[questions\n", "<file>"),
])
def test_a_broken_acceptance_file_is_reported_by_field(corpus_copy: Path, text: str,
                                                       field: str) -> None:
    (corpus_copy / "acceptance.toml").write_text(text)
    problems = claims_corpus.check_corpus(corpus_copy).problems
    assert [(p.pack, p.file, p.field) for p in problems] == [(None, "acceptance.toml", field)]


def test_the_other_customer_must_be_seeded_and_distinctive() -> None:
    base = json.loads((PACKS / "baseline.json").read_text())
    assert Baseline.model_validate(base).other_customer is not None
    unseeded = json.loads(json.dumps(base))
    unseeded["other_customer"]["identifiers"]["phone"] = "07700 111222"
    with pytest.raises(ValidationError, match="not in the baseline's collections"):
        Baseline.model_validate(unseeded)
    short = json.loads(json.dumps(base))
    short["other_customer"]["identifiers"]["initials"] = "RA"
    with pytest.raises(ValidationError, match="too short"):
        Baseline.model_validate(short)


def test_a_pack_holding_the_other_customers_identifier_is_refused(corpus_copy: Path) -> None:
    persona = corpus_copy / PACK_ID / "input" / "persona.json"
    data = json.loads(persona.read_text())
    data["name"] = "Rosalind Achterberg"
    persona.write_text(json.dumps(data, indent=2) + "\n")
    problems = [p for p in claims_corpus.check_corpus(corpus_copy).problems
                if p.file == "input/persona.json" and p.field == "<content>"]
    assert len(problems) == 1 and problems[0].pack == PACK_ID
    assert "other customer's name" in problems[0].message
