"""The seed plan: what baseline + setup + files would put in the stores, and every reason it
cannot be applied.

This is pure validation (no store, no network). The seed route calls it before touching any
store, and ``corpus check`` calls it on every pack with the corpus baseline, so a pack the
route would refuse is refused by the checker first.
"""

from ._build import BASELINE_FILE, SETUP_FILE, Plan, PlannedObject, SetupProblem, plan_setup
from ._names import (
    ENVIRONMENT_COLLECTION,
    HARNESS_COLLECTION,
    MAX_OBJECT_KEY_BYTES,
    RESERVED_COLLECTIONS,
    collection_name_problem,
    content_type_problem,
    object_key_problem,
)
from ._values import MAX_DOCUMENT_DEPTH, value_problems

__all__ = [
    "BASELINE_FILE",
    "ENVIRONMENT_COLLECTION",
    "HARNESS_COLLECTION",
    "MAX_DOCUMENT_DEPTH",
    "MAX_OBJECT_KEY_BYTES",
    "RESERVED_COLLECTIONS",
    "Plan",
    "PlannedObject",
    "SETUP_FILE",
    "SetupProblem",
    "collection_name_problem",
    "content_type_problem",
    "object_key_problem",
    "plan_setup",
    "value_problems",
]
