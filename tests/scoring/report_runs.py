"""Scored runs for reading the report as a reviewer would: a 100-pack run with the variety a
night brings (clean journeys, questions asked twice, lost facts, a wrongly fired review
signal, no claim number, a question left off the waiting list, product errors, slow replies)
and a defect run where most trials fail. Both are written through the runner's record formats
(``builders``) and scored by the real scorer."""

from __future__ import annotations

import json
import random
from pathlib import Path

import scoring

from .builders import Variant, make_labels, write_corpus, write_run

# (line, pack-id letter, packs, scenario kinds)
LINES = (("motor", "M", 50, ("rear_end_collision", "parked_car_hit", "theft", "windscreen",
                             "fire", "flood_damage")),
         ("home", "H", 30, ("escape_of_water", "storm_roof", "burglary", "subsidence")),
         ("contents", "C", 20, ("accidental_damage", "theft_away", "lost_jewellery")))
STYLES = ("plain", "many_facts", "emotional", "typos", "non_native", "wrong_product_term")


def _variant(rng: random.Random, defect: str | None = None) -> Variant:
    turn = round(rng.uniform(0.3, 6.0), 2)
    if defect == "lose_fact":
        return Variant(lose=("vehicle_registration",), turn_s=turn)
    roll = rng.random()
    if roll < 0.62:
        return Variant(turn_s=turn)
    if roll < 0.70:
        return Variant(ask_twice=True, turn_s=turn)
    if roll < 0.76:
        return Variant(lose=("incident_location",), turn_s=turn)
    if roll < 0.80:
        return Variant(flag=True, turn_s=turn)
    if roll < 0.84:
        return Variant(no_claim=True, turn_s=turn)
    if roll < 0.89:
        return Variant(customer_question="Will my premium go up?", question_on_list=False,
                       turn_s=turn)
    if roll < 0.93:
        return Variant(waiting=(("document_request", "Send the police report"),), turn_s=turn)
    if roll < 0.96:
        return Variant(status="product_error", detail="HTTP 502 from the chat endpoint",
                       turn_s=turn)
    return Variant(turn_s=turn * 4)  # a slow product


def _labels(index: int, line: str, letter: str, number: int, scenarios: tuple[str, ...]):
    return make_labels(f"CTL-{letter}-{number:03d}", line=line,
                       scenario=scenarios[number % len(scenarios)],
                       message_style=STYLES[index % len(STYLES)],
                       innocent_control=index % 10 == 7)


def hundred_pack_run(tmp_path: Path, trials: int = 3, seed: int = 41) -> Path:
    """A scored run of 100 packs × ``trials`` with honest variety; returns its folder."""
    rng = random.Random(seed)
    labels = []
    for line, letter, count, scenarios in LINES:
        for number in range(1, count + 1):
            labels.append(_labels(len(labels), line, letter, number, scenarios))
    corpus = write_corpus(tmp_path / "packs", labels)
    run_dir = write_run(tmp_path / "run-100", corpus,
                        [(lab, n, _variant(rng)) for lab in labels
                         for n in range(1, trials + 1)], run_id="run-100")
    scoring.score_run(run_dir)
    return run_dir


def defect_run(tmp_path: Path, fault: str = "lose_fact") -> Path:
    """A scored defect run of 10 packs × 2 trials with ``fault`` switched on: it loses a
    fact in 16 of the 20 trials, so most trials fail."""
    rng = random.Random(7)
    labels = [_labels(i, "motor", "M", i + 1, LINES[0][3]) for i in range(10)]
    corpus = write_corpus(tmp_path / "packs", labels)
    trials = [(lab, n, _variant(rng, fault) if (i * 2 + n) % 5
               else Variant(turn_s=round(rng.uniform(0.3, 6.0), 2)))
              for i, lab in enumerate(labels) for n in (1, 2)]
    run_dir = write_run(tmp_path / "run-defect", corpus, trials, run_id="run-defect")
    record = json.loads((run_dir / "run.json").read_text())
    record["product"]["faults"] = [fault]
    (run_dir / "run.json").write_text(json.dumps(record, indent=2))
    scoring.score_run(run_dir)
    return run_dir
