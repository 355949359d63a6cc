"""Reserved collection names and the production marker.

Two collections belong to the environment rather than to the product's state: they survive
every reset and are left out of every dump.

- ``_harness`` holds the harness's own bookkeeping (the last reset: pack, time, duration).
- ``_environment`` may hold the document ``{"_id": "environment", "kind": "production"}``: a
  database carrying it is never reset, whatever its name.
"""

from __future__ import annotations

HARNESS_COLLECTION = "_harness"
ENVIRONMENT_COLLECTION = "_environment"
ENVIRONMENT_DOC_ID = "environment"
PRODUCTION_KIND = "production"
RESERVED_COLLECTIONS: frozenset[str] = frozenset({HARNESS_COLLECTION, ENVIRONMENT_COLLECTION})

# Refusal reasons (machine-readable, in {"detail": {"reason": ...}}).
REASON_DISABLED = "seed_route_disabled"
REASON_UNAUTHORIZED = "unauthorized"
REASON_DATABASE_NOT_ALLOWED = "database_not_allowed"
REASON_PRODUCTION_MARKER = "production_marker"
REASON_INVALID_SETUP = "invalid_setup"
REASON_STORE_ERROR = "store_error"
REASON_VERIFY_FAILED = "verify_failed"


def is_state_collection(name: str) -> bool:
    """True for collections that are part of the product's state (dumped, dropped on reset)."""
    return name not in RESERVED_COLLECTIONS and not name.startswith("system.")
