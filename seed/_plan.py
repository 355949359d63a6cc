"""The seed route's view of the plan: ``claims_corpus.plan`` validates, this raises.

The validation itself lives in ``claims_corpus.plan`` so that ``corpus check`` refuses exactly
what a reset would refuse, without ``corpus`` importing the seed route.
"""

from __future__ import annotations

from claims_corpus.formats import Baseline, Setup
from claims_corpus.plan import Plan, PlannedObject, plan_setup
from claims_records import SeedError

__all__ = ["InvalidSetupError", "Plan", "PlannedObject", "build_plan"]


class InvalidSetupError(SeedError):
    """A baseline or setup cannot be applied (context: file, field, pack)."""


def build_plan(baseline: Baseline, setup: Setup, files: dict[str, bytes]) -> Plan:
    """The plan for the inputs; ``InvalidSetupError`` naming the first problem otherwise."""
    plan, problems = plan_setup(baseline, setup, files)
    if plan is None:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InvalidSetupError(f"{first.message}{more}", pack=setup.pack_id, file=first.file,
                                field=first.field)
    return plan
