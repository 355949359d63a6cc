"""The registry of scoring components: one ordered list of declarations that gives the sheet its
names and order, the floor its tuple of known names, and a trial that ended in an error its
not-scored listing; each declaration's "applies" predicate decides when it is on a sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from claims_corpus.formats import Labels
from claims_records import COMPONENTS, RunRecord
from scoring import load_trial, score_trial
from scoring._record import PackContext, load_labels, load_pack_context
from scoring.components import REGISTRY, Component, applying

from .builders import MOTOR_FACTS, Variant, make_labels, write_run

PACKS = Path(__file__).resolve().parents[2] / "packs"
DECISION_PACK = "CTL-H-003"  # a staff script in setup.json, a staff_decision in its oracle
DECISION = ["routing", "target", "decision_state", "note", "follow_through", "audit"]
HIT = {"receipt_after_incident": "hit", "quote_before_incident": "not_applicable",
       "prior_claims_12m": "clear", "policy_start_30d": "clear"}
# Always on a sheet: no declaration of theirs has a condition.
ALWAYS = ["triage", "review", "facts", "journey", "waiting_list", "state", "agent_decision"]


def test_the_floor_knows_exactly_the_registry_names_in_order() -> None:
    assert tuple(c.name for c in REGISTRY) == COMPONENTS


def _without_incident(where: str) -> Labels:
    """The builders' oracle with the incident date and time nowhere, or only in ``where``."""
    facts = {k: v for k, v in MOTOR_FACTS.items() if k not in ("incident_date", "incident_time")}
    extra: dict[str, Any] = {}
    if where == "optional":
        extra["optional_facts"] = {"incident_time": "17:40"}
    elif where == "unknown":
        extra["unknown_facts"] = {"incident_time": "the customer was not there"}
    return make_labels(expected_facts=facts, **extra)


def _assertions(*kinds: str) -> Labels:
    return make_labels(assertions=[a for a in make_labels().assertions if a.judge in kinds])


def _decision_pack(script: bool, label: bool) -> tuple[Labels, PackContext]:
    """The builders' oracle and pack, with a real pack's staff script and oracle decision."""
    decided = load_labels(PACKS, DECISION_PACK).staff_decision
    staff_script = load_pack_context(PACKS, DECISION_PACK).staff_script
    return (make_labels(staff_decision=decided.model_dump() if label and decided else None),
            PackContext(staff_script=staff_script if script else None))


BASE = make_labels()
# (case, labels, pack, the components with a condition that apply)
CASES: list[tuple[str, Labels, PackContext, list[str]]] = [
    ("the builders' pack", BASE, PackContext(),
     ["incident_datetime", "assertions_state", "assertions_text", "assertions_human"]),
    ("a story explaining a check's hit",
     make_labels(review={"checks": HIT, "review_required": True,
                         "customer_explanations": {"receipt_after_incident": "reprint"}}),
     PackContext(), ["explanation", "incident_datetime", "assertions_state", "assertions_text",
                     "assertions_human"]),
    ("another customer seeded beside the pack", BASE,
     PackContext(other_customer={"name": "Priya Shah"}),
     ["incident_datetime", "privacy", "assertions_state", "assertions_text",
      "assertions_human"]),
    ("no incident date or time in the oracle", _without_incident(""), PackContext(),
     ["assertions_state", "assertions_text", "assertions_human"]),
    ("the incident time only optional", _without_incident("optional"), PackContext(),
     ["incident_datetime", "assertions_state", "assertions_text", "assertions_human"]),
    ("the incident time only unknown", _without_incident("unknown"), PackContext(),
     ["incident_datetime", "assertions_state", "assertions_text", "assertions_human"]),
    ("no assertions", _assertions(), PackContext(), ["incident_datetime"]),
    ("text assertions only", _assertions("text"), PackContext(),
     ["incident_datetime", "assertions_text"]),
    ("state and human assertions", _assertions("state", "human"), PackContext(),
     ["incident_datetime", "assertions_state", "assertions_human"]),
    ("a staff script and an oracle decision", *_decision_pack(script=True, label=True),
     ["incident_datetime", "assertions_state", "assertions_text", "assertions_human",
      *DECISION]),
    ("a staff script only", *_decision_pack(script=True, label=False),
     ["incident_datetime", "assertions_state", "assertions_text", "assertions_human",
      *DECISION]),
    ("an oracle decision only", *_decision_pack(script=False, label=True),
     ["incident_datetime", "assertions_state", "assertions_text", "assertions_human",
      *DECISION]),
    ("neither", *_decision_pack(script=False, label=False),
     ["incident_datetime", "assertions_state", "assertions_text", "assertions_human"]),
]


@pytest.mark.parametrize(("labels", "pack", "conditional"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_each_component_applies_when_its_declaration_says(labels: Labels, pack: PackContext,
                                                          conditional: list[str]) -> None:
    names = [c.name for c in applying(labels, pack)]
    assert names == [n for n in COMPONENTS if n in ALWAYS or n in conditional]


@pytest.mark.parametrize("status", ["harness_error", "product_error", "simulator_error",
                                    "completed"])
@pytest.mark.parametrize(("labels", "pack", "conditional"),
                         [CASES[1][1:], CASES[2][1:], CASES[6][1:]],
                         ids=[CASES[1][0], CASES[2][0], CASES[6][0]])
def test_a_sheet_lists_what_applies_whether_scored_or_not(
        tmp_path: Path, status: str, labels: Labels, pack: PackContext,
        conditional: list[str]) -> None:
    run_dir = write_run(tmp_path / "run", tmp_path / "packs",
                        [(labels, 1, Variant(status=status))])
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    sheet = score_trial(load_trial(run, run_dir, run.trials[0]), labels, pack=pack)
    assert [c.name for c in sheet.components] == [c.name for c in applying(labels, pack)]
    ended = [c.name for c in sheet.components if c.status == "not_scored"
             and c.explanation.startswith(f"trial ended in {status}")]
    assert ended == ([] if status == "completed" else [c.name for c in sheet.components])


def _check(t: object) -> Any:
    raise AssertionError("never run")


@pytest.mark.parametrize(("sources", "staff_reading", "message"), [
    (("staff_screen", "state"), True, "read from staff_screen or stores"),
    ((), True, "read from staff_screen or stores"),
    (("screen_text", "state"), False, "the one source"),
    ((), False, "the one source"),
])
def test_a_declaration_names_sources_it_can_have(sources: tuple[Any, ...], staff_reading: bool,
                                                 message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Component("made_up", sources, _check, staff_reading=staff_reading)
