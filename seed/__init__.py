"""Seed route and stores: reset and load a pack's setup, dump and diff state.

``stores`` is the store layer every reset goes through (the seed route's and every direct
reset of a product's own stores): one ``Store`` interface, a registry of kinds, the mapping
between the canonical schema and a product's.
"""

from ._client import SeedClient
from ._guard import (
    DEFAULT_ALLOWED_DB_PATTERN,
    PRODUCTION_KINDS,
    check_bucket_name,
    check_database_allowed,
    check_not_production,
)
from ._jsonsafe import id_key, json_safe
from ._loader import SeedResult, lane_stores, last_reset, reset_and_load, unfinished_reset
from ._names import (
    ENVIRONMENT_COLLECTION,
    ENVIRONMENT_DOC_ID,
    HARNESS_COLLECTION,
    PRODUCTION_KIND,
)
from ._plan import InvalidSetupError, Plan, PlannedObject, build_plan
from ._route import SEED_PREFIX, create_seed_app, create_seed_router
from ._s3 import S3Config
from ._settings import ENV_PREFIX, SeedSettings, load_baseline_file
from ._state import compare_documents, diff_states, dump_state, load_state_dump

__all__ = [
    "Plan",
    "PlannedObject",
    "build_plan",
    "compare_documents",
    "id_key",
    "json_safe",
    "lane_stores",
    "DEFAULT_ALLOWED_DB_PATTERN",
    "ENV_PREFIX",
    "ENVIRONMENT_COLLECTION",
    "ENVIRONMENT_DOC_ID",
    "HARNESS_COLLECTION",
    "InvalidSetupError",
    "PRODUCTION_KIND",
    "PRODUCTION_KINDS",
    "S3Config",
    "SEED_PREFIX",
    "SeedClient",
    "SeedResult",
    "SeedSettings",
    "check_bucket_name",
    "check_database_allowed",
    "check_not_production",
    "create_seed_app",
    "create_seed_router",
    "diff_states",
    "dump_state",
    "last_reset",
    "load_baseline_file",
    "load_state_dump",
    "reset_and_load",
    "unfinished_reset",
]
