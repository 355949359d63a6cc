"""What a scoring component is: its name, when it applies, the sources it can be read from and
its check; and how one is scored, with the source its score came from.

A check is a pure function of ``CheckInput`` (the trial's record, the pack's oracle, what else
the scorer knows of the pack, a reviewer's verdicts). Whether a component applies to a pack is
a predicate over the pack's labels and context, decided before any check runs: the same
predicate decides what a scored sheet lists and what a trial that ended in an error lists as
not scored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import get_args

from claims_corpus.formats import Labels
from claims_records import ComponentResult, ScoreSource, StaffSource

from .._claim_checks import INCIDENT_KEYS, component
from .._record import CheckInput, PackContext

# Statuses that count: a component with one of them was read from its source.
SCORED: tuple[str, ...] = ("pass", "fail")
STAFF_SOURCES: tuple[str, ...] = get_args(StaffSource)


Applies = Callable[[Labels, PackContext], bool]
Check = Callable[[CheckInput], ComponentResult]


# --------------------------------------------------------------------- when a component applies


def always(labels: Labels, pack: PackContext) -> bool:
    """Every pack."""
    return True


def staff_decision(labels: Labels, pack: PackContext) -> bool:
    """The pack has a staff decision step (a staff script, or an oracle staff_decision)."""
    return pack.staff_script is not None or labels.staff_decision is not None


def explanations_told(labels: Labels, pack: PackContext) -> bool:
    """The pack's story explains a document check's hit (review.customer_explanations)."""
    return bool(labels.review.customer_explanations)


def other_customer_seeded(labels: Labels, pack: PackContext) -> bool:
    """The baseline seeds another customer beside the pack."""
    return bool(pack.other_customer)


def incident_facts(labels: Labels, pack: PackContext) -> bool:
    """The oracle has the incident date or time (expected, optional or unknown)."""
    keys = set(labels.expected_facts) | set(labels.optional_facts) | set(labels.unknown_facts)
    return bool(keys & set(INCIDENT_KEYS))


def assertions_judged(kind: str) -> Applies:
    """The oracle has assertions judged by ``kind`` (state, text, human)."""
    def applies(labels: Labels, pack: PackContext) -> bool:
        return any(a.judge == kind for a in labels.assertions)

    return applies


# ------------------------------------------------------------------------------ the declaration


@dataclass(frozen=True)
class Component:
    """One scoring component, declared.

    ``sources`` are the sources its score may be read from. A component with
    ``staff_reading`` reads staff.json, and its source is the reading's own
    (``StaffReading.source``): a reading from a source it does not list is scored
    ``not_implemented``, never checked. Any other component has one source, the one its
    evidence always comes from.
    """

    name: str
    sources: tuple[ScoreSource, ...]
    check: Check
    applies: Applies = always
    staff_reading: bool = False

    def __post_init__(self) -> None:
        if self.staff_reading and not (self.sources and set(self.sources) <= set(STAFF_SOURCES)):
            raise ValueError(f"{self.name}: a staff-side component is read from "
                             f"{' or '.join(STAFF_SOURCES)}, not {list(self.sources)}")
        if not self.staff_reading and len(self.sources) != 1:
            raise ValueError(f"{self.name}: a component that does not read staff.json names "
                             f"the one source it is read from, not {list(self.sources)}")

    def source_of(self, t: CheckInput) -> ScoreSource | None:
        """The source this trial's evidence for the component comes from (None: no staff
        reading was recorded)."""
        if not self.staff_reading:
            return self.sources[0]
        return t.staff.source if t.staff is not None else None


def _words(source: str) -> str:
    return source.replace("_", " ")


def refused(c: Component, source: ScoreSource) -> ComponentResult:
    """The result of a component asked to score a reading from a source it does not list."""
    allowed = " or ".join(f"the {_words(s)}" for s in c.sources)
    return component(c.name, "not_implemented", f"{c.name} is scored only from {allowed}; "
                     f"this trial's staff side was read from the product's {_words(source)}",
                     read_from=source, scored_from=list(c.sources))


def score_component(c: Component, t: CheckInput) -> ComponentResult:
    """Run one component's check, recording the source a pass or fail was read from."""
    source = c.source_of(t)
    if source is not None and source not in c.sources:
        return refused(c, source)
    result = c.check(t)
    return result.model_copy(update={"source": source if result.status in SCORED else None})
