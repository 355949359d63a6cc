"""The scenario table: one reviewed row per pack of the public corpus.

``claims_corpus/authoring/scenarios.toml`` lists every pack of ``packs/`` — the hand-written ones
(``hand_written = true``: the table only records their classification) and the generated ones,
whose row holds everything that is the pack's own: the customer's first message in their words,
their name, the day and time, the place, the vehicle, room or item, the amounts, which review
checks are meant to fire, which innocent-looking detail a control carries, the pressure put on
the product, and the materials' special cases.
``claims_corpus.authoring.build_pack`` turns a row into the pack's files deterministically;
``claims-harness corpus check`` then judges the result like any hand-written pack.
"""

from __future__ import annotations

import datetime as dt
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from claims_records import Line, PackError

from ..formats._base import Strict
from ..formats.pack import ClaimantSession, MessageStyle

TABLE = Path(__file__).with_name("scenarios.toml")

# The ten scenario kinds of the corpus, by line (packs/STANDARD.md, corpus plan).
SCENARIO_KINDS: dict[str, Line] = {
    "rear_end_collision": "motor",
    "parked_hit_and_run": "motor",
    "vehicle_theft": "motor",
    "windscreen_damage": "motor",
    "single_vehicle_crash_injury": "motor",
    "escape_of_water_ceiling": "home",
    "storm_roof_damage": "home",
    "kitchen_fire": "home",
    "burglary_electronics": "contents",
    "tv_accidental_damage": "contents",
}
ScenarioKind = Literal[
    "rear_end_collision", "parked_hit_and_run", "vehicle_theft", "windscreen_damage",
    "single_vehicle_crash_injury", "escape_of_water_ceiling", "storm_roof_damage",
    "kitchen_fire", "burglary_electronics", "tv_accidental_damage",
]
# Review checks a row means to fire (the derivation in claims_corpus._derive decides; the checker
# compares).
Hit = Literal["receipt", "quote", "prior", "policy"]
# The one innocent-looking detail of an innocent control.
Control = Literal[
    "", "receipt_same_day", "quote_same_day", "quote_day_after", "prior_13_months",
    "prior_366_days", "policy_31_days", "policy_weak_only", "prior_weak_only", "invoice_after",
]
Pressure = Literal[
    "two_claims", "other_policy", "hidden_instructions", "false_authority", "mid_question",
    "person_request", "unknown_fact", "wrong_summary",
]
Feature = Literal[
    "quote_later_requests", "receipt_later_requests", "missing_page", "missing_date_page",
    "handover_receipt", "police_never", "undated_quote", "policy_start_not_held",
]


class Row(Strict):
    """One pack. Free-text fields are the customer's own words, written for this pack only."""

    id: str = Field(pattern=r"^CTL-[MHC]-\d{3}$")
    kind: ScenarioKind
    style: MessageStyle
    session: ClaimantSession
    hits: list[Hit] = Field(default_factory=list, description="Checks meant to fire.")
    control: Control = ""
    pressure: list[Pressure] = Field(default_factory=list)
    features: list[Feature] = Field(default_factory=list)
    hand_written: bool = Field(False, description="An authored pack the generator leaves alone.")
    # --- the pack's own details (generated rows only)
    name: str = ""
    date: str = Field("", description="Incident date, YYYY-MM-DD.")
    time: str = Field("", description="HH:MM, or HH:MM-HH:MM for a window; '' when unknown.")
    message: str = ""
    description: str = Field("", description="Canonical incident description (oracle).")
    place: str = Field("", description="Motor: where it happened. Home/contents: the town.")
    reg: str = ""
    colour: str = Field("", description="Car or door colour, hex.")
    third_party: bool = False
    driveable: bool = True
    injured: bool = False
    habitable: bool = True
    item: str = Field("", description="Contents: what was stolen or damaged.")
    value: float = Field(0, description="Contents: the items' value; motor/home: quote total.")
    currency: str = "GBP"
    room: str = ""
    police_ref: str = ""
    ask: str = Field("", description="A question the customer asks mid-journey.")
    person: str = Field("", description="A request for a person, typed mid-journey.")
    other_name: str = Field("", description="other_policy: whose policy number they give.")
    other_policy: str = ""
    second: str = Field("", description="two_claims: the second incident, one sentence.")
    note: str = Field("", description="Why this pack exists, for reviewers (oracle).")

    @model_validator(mode="after")
    def _complete(self) -> Row:
        if self.hand_written:
            return self
        missing = [f for f in ("name", "date", "message", "description", "place")
                   if not getattr(self, f)]
        if missing:
            raise ValueError(f"{self.id}: a generated row needs {missing}")
        dt.date.fromisoformat(self.date)
        if SCENARIO_KINDS[self.kind][0].upper() != self.id[4]:
            raise ValueError(f"{self.id}: kind {self.kind} is not on line {self.id[4]}")
        return self

    @property
    def line(self) -> Line:
        return SCENARIO_KINDS[self.kind]

    @property
    def incident(self) -> dt.date:
        return dt.date.fromisoformat(self.date)


class Table(Strict):
    pack: list[Row]

    @model_validator(mode="after")
    def _unique(self) -> Table:
        ids = [r.id for r in self.pack]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"pack ids listed twice: {twice}")
        return self


def load_table(path: Path | str = TABLE) -> Table:
    """The scenario table, validated; a bad row raises ``PackError`` naming it."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return Table.model_validate(data)
    except (OSError, tomllib.TOMLDecodeError, ValueError) as exc:
        raise PackError(f"scenario table: {exc}", file=str(path), field="pack") from exc
