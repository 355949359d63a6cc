"""Reserved collection names and the production marker.

Two collections belong to the environment rather than to the product's state: they survive
every reset and are left out of every dump.

- ``_harness`` holds the harness's own bookkeeping: the last reset (pack, time, duration) and,
  while a reset is under way or after one failed half-way, the mark of an unfinished reset.
- ``_environment`` may hold the document ``{"_id": "environment", "kind": "production"}``: a
  database carrying it is never reset, whatever its name (see ``seed._guard``).
"""

from __future__ import annotations

from claims_corpus.plan import ENVIRONMENT_COLLECTION as ENVIRONMENT_COLLECTION
from claims_corpus.plan import HARNESS_COLLECTION as HARNESS_COLLECTION
from claims_corpus.plan import RESERVED_COLLECTIONS

ENVIRONMENT_DOC_ID = "environment"
PRODUCTION_KIND = "production"
# Ids of the harness's own documents in ``_harness``.
LAST_RESET_ID = "last_reset"
UNFINISHED_RESET_ID = "unfinished_reset"

# Refusal reasons (machine-readable, in {"detail": {"reason": ...}}).
REASON_DISABLED = "seed_route_disabled"
REASON_UNAUTHORIZED = "unauthorized"
REASON_DATABASE_NOT_ALLOWED = "database_not_allowed"
REASON_PRODUCTION_MARKER = "production_marker"
REASON_INVALID_SETUP = "invalid_setup"
REASON_STORE_ERROR = "store_error"
REASON_VERIFY_FAILED = "verify_failed"
REASON_TOO_LARGE = "too_large"
REASON_INVALID_SETTINGS = "invalid_settings"
REASON_LANE_DIRTY = "lane_dirty"
REASON_INTERNAL = "internal_error"


def is_state_collection(name: str) -> bool:
    """True for collections that are part of the product's state (dumped, dropped on reset)."""
    return name not in RESERVED_COLLECTIONS and not name.startswith("system.")
