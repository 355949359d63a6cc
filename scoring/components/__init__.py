"""Scoring components as declarations: one ordered registry of what a sheet scores.

A component is its name, when it applies to a pack (a predicate over the pack's labels and
context), the sources its score may be read from (``claims_records.ScoreSource``) and its
check, a pure function of ``CheckInput``. ``REGISTRY`` lists them in sheet order; the sheet's
names, the not-scored listing of a trial that ended in an error, and the floor's
``claims_records.COMPONENTS`` (kept equal by a test) all come from it. docs/scoring.md,
"Components as declarations", says how to add one.
"""

from ._declaration import SCORED, Component, score_component, staff_decision
from ._registry import REGISTRY, applying, score_components, unscored_components

__all__ = [
    "REGISTRY",
    "SCORED",
    "Component",
    "applying",
    "score_component",
    "score_components",
    "staff_decision",
    "unscored_components",
]
