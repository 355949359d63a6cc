"""The one derivation of expected review-check outcomes (``claims_corpus.derive_review``), on edge
dates, and the corpus checker reporting a label that disagrees with it.

Edge dates: the same day, exactly 365 and 366 days, and the same calendar date a year earlier
across a 29 February (366 days). The reference app's rules must agree on every case.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

import claims_corpus
from claims_corpus._derive import DocumentDate
from claims_reference_app import rules

from .conftest import PACK_ID

D = dt.date


def _doc(date: D | None, status: str = "read") -> DocumentDate:
    return DocumentDate("x.pdf", "receipt", date, status, 1, (1,))


PRIOR = [
    # (incident, prior claim dates, outcome)
    (D(2026, 3, 14), [D(2026, 3, 14), D(2026, 1, 10)], "hit"),  # same day counts
    (D(2026, 3, 14), [D(2025, 3, 14), D(2026, 1, 10)], "hit"),  # exactly 365 days
    (D(2026, 3, 14), [D(2025, 3, 13), D(2026, 1, 10)], "clear"),  # 366 days
    (D(2028, 3, 1), [D(2027, 3, 1), D(2028, 2, 29)], "clear"),  # a year back over 29 Feb: 366
    (D(2028, 3, 1), [D(2027, 3, 2), D(2028, 2, 29)], "hit"),  # 365 days in a leap year
    (D(2026, 3, 14), [D(2026, 3, 15), D(2026, 4, 1)], "clear"),  # after the incident
    (D(2024, 2, 29), [D(2023, 3, 1), D(2024, 2, 28)], "hit"),  # incident on 29 Feb: 365 days
]


@pytest.mark.parametrize(("incident", "dates", "outcome"), PRIOR)
def test_prior_claims_on_edge_dates(incident: D, dates: list[D], outcome: str) -> None:
    assert claims_corpus.prior_claims_outcome(incident, True, dates) == outcome
    reference = rules.check_prior_claims_12m(True, [d.isoformat() for d in dates],
                                             incident.isoformat())
    assert reference.outcome == outcome  # the reference product follows the same rule


@pytest.mark.parametrize(("incident", "start", "outcome"), [
    (D(2026, 3, 14), D(2026, 3, 14), "hit"),  # the policy's first day
    (D(2026, 3, 14), D(2026, 2, 13), "hit"),  # 29 days
    (D(2026, 3, 14), D(2026, 2, 12), "clear"),  # 30 days
    (D(2024, 3, 14), D(2024, 2, 14), "hit"),  # 29 days across 29 February
    (D(2026, 3, 14), D(2026, 3, 20), "clear"),  # started after the incident
    (None, D(2026, 3, 1), "not_checked"),  # incident date not known
])
def test_policy_start_on_edge_dates(incident: D | None, start: D, outcome: str) -> None:
    assert claims_corpus.policy_start_outcome(incident, start) == outcome
    reference = rules.check_policy_start_30d(start.isoformat(),
                                             incident.isoformat() if incident else None)
    assert reference.outcome == outcome


@pytest.mark.parametrize(("doc_date", "status", "after", "before"), [
    (D(2026, 3, 14), "read", "clear", "clear"),  # same day is never a hit
    (D(2026, 3, 15), "read", "hit", "clear"),
    (D(2026, 3, 13), "read", "clear", "hit"),
    (None, "missing_page", "not_checked", "not_checked"),
])
def test_document_checks_on_edge_dates(doc_date: D | None, status: str, after: str,
                                       before: str) -> None:
    incident = D(2026, 3, 14)
    assert claims_corpus.document_outcome([_doc(doc_date, status)], incident, "after") == after
    assert claims_corpus.document_outcome([_doc(doc_date, status)], incident, "before") == before
    assert claims_corpus.document_outcome([], incident, "after") == "not_applicable"
    assert claims_corpus.document_outcome([_doc(D(2026, 3, 20))], None, "after") == "not_checked"


def test_several_documents_any_hit_wins_then_not_checked() -> None:
    incident = D(2026, 3, 14)
    docs = [_doc(D(2026, 3, 1)), _doc(None, "unreadable"), _doc(D(2026, 3, 20))]
    assert claims_corpus.document_outcome(docs, incident, "after") == "hit"
    assert claims_corpus.document_outcome(docs[:2], incident, "after") == "not_checked"


def test_every_committed_pack_follows_the_derivation() -> None:
    for pack_dir in claims_corpus.list_packs(Path(__file__).resolve().parents[2] / "packs"):
        pack = claims_corpus.load_pack(pack_dir)
        derived = claims_corpus.derive_review(pack).checks
        assert dict(pack.labels.review.checks) == derived, pack.pack_id


# --------------------------------------------------------------------------- the checker


def _edit(path: Path, change: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _problems(root: Path) -> list[str]:
    return [f"{p.file} {p.field}: {p.message}" for p in claims_corpus.check_corpus(root).problems
            if p.pack == PACK_ID]


def test_a_label_against_the_rules_is_reported(pack_copy: Path) -> None:
    _edit(pack_copy / "oracle/labels.json",
          lambda d: d["review"]["checks"].update(quote_before_incident="hit"))
    found = _problems(pack_copy.parent)
    assert any(p.startswith("oracle/labels.json review.checks.quote_before_incident: is hit "
                            "but the rules give clear") for p in found), found


def test_a_second_prior_claim_on_the_incident_day_makes_a_hit(pack_copy: Path) -> None:
    """Two prior claims, one on the incident day: the checker now wants prior_claims_12m hit
    (and the test of the corpus mix derives the same, from the same module)."""
    def add_claims(d: dict[str, Any]) -> None:
        customer = d["collections"]["policies"][0]["customer_id"]
        d["collections"]["prior_claims"] = [
            {"_id": f"pc-{i}", "customer_id": customer, "policy_number": "NWF-POL-100234",
             "claim_date": day, "line": "motor", "status": "settled"}
            for i, day in enumerate(("2026-03-12", "2025-06-01"))]

    _edit(pack_copy / "setup.json", add_claims)
    found = _problems(pack_copy.parent)
    assert any("review.checks.prior_claims_12m: is clear but the rules give hit" in p
               for p in found), found


def test_a_date_spelled_otherwise_is_reported(pack_copy: Path) -> None:
    def respell(d: dict[str, Any]) -> None:
        for m in d["materials"]:
            if m["file"] == "repair-quote.pdf":
                lines = m["parameters"]["pages"][0]["lines"]
                m["parameters"]["pages"][0]["lines"] = [
                    "Quote date: 13/03/2026" if ln.startswith("Quote date") else ln
                    for ln in lines]

    _edit(pack_copy / "provenance.json", respell)
    claims_corpus.generate_materials(pack_copy)
    found = _problems(pack_copy.parent)
    assert any(p.startswith("input/materials/repair-quote.pdf <date>: document date printed as "
                            "'13/03/2026'") for p in found), found


def test_an_unknown_fact_the_customer_knows_is_reported(pack_copy: Path) -> None:
    _edit(pack_copy / "oracle/labels.json", lambda d: (
        d["expected_facts"].pop("incident_time"),
        d["unknown_facts"].update(incident_time="they were asleep")))
    found = _problems(pack_copy.parent)
    assert any(p.startswith("oracle/labels.json unknown_facts.incident_time: the customer "
                            "knows") for p in found), found


def test_a_hand_over_of_a_file_that_is_not_listed_is_reported(pack_copy: Path) -> None:
    _edit(pack_copy / "input/persona.json", lambda d: d.update(
        hands_over=[{"file": "tow-invoice.pdf", "when": "with_first_upload"}]))
    found = _problems(pack_copy.parent)
    assert any(p.startswith("input/persona.json hands_over.0.file") for p in found), found
