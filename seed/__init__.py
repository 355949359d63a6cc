"""Seed route and stores: reset and load a pack's setup, dump and diff state."""

from ._client import SeedClient
from ._direct import apply_scoped, check_database_name, dump_stores
from ._guard import (
    DEFAULT_ALLOWED_DB_PATTERN,
    PRODUCTION_KINDS,
    check_bucket_name,
    check_database_allowed,
    check_not_production,
)
from ._jsonsafe import id_key, json_safe
from ._loader import SeedResult, last_reset, reset_and_load, unfinished_reset
from ._local_model import TOOLS_CHAT_FORMAT, LocalModel, model_file, start_local_model
from ._names import (
    ENVIRONMENT_COLLECTION,
    ENVIRONMENT_DOC_ID,
    HARNESS_COLLECTION,
    PRODUCTION_KIND,
)
from ._objects import FolderObjects, ObjectStore, S3Objects
from ._plan import InvalidSetupError, Plan, PlannedObject, build_plan
from ._ports import free_port
from ._route import SEED_PREFIX, create_seed_app, create_seed_router
from ._server import BackgroundServer
from ._settings import SeedSettings, load_baseline_file
from ._state import compare_documents, diff_states, dump_state, load_state_dump
from .dev import (
    MODEL_SOURCES,
    RUNTIMES,
    DevEnvironment,
    Lane,
    ProductCommand,
    lane_names,
    start_dev,
    wants_local_model,
)
from .stores import (
    S3Config,
    Stores,
    open_stores,
    start_embedded_mongo,
    start_embedded_s3,
)

__all__ = [
    "Plan",
    "ProductCommand",
    "PlannedObject",
    "apply_scoped",
    "build_plan",
    "check_database_name",
    "compare_documents",
    "dump_stores",
    "id_key",
    "json_safe",
    "BackgroundServer",
    "FolderObjects",
    "ObjectStore",
    "S3Objects",
    "DEFAULT_ALLOWED_DB_PATTERN",
    "DevEnvironment",
    "ENVIRONMENT_COLLECTION",
    "ENVIRONMENT_DOC_ID",
    "HARNESS_COLLECTION",
    "InvalidSetupError",
    "Lane",
    "LocalModel",
    "MODEL_SOURCES",
    "PRODUCTION_KIND",
    "PRODUCTION_KINDS",
    "RUNTIMES",
    "S3Config",
    "SEED_PREFIX",
    "SeedClient",
    "SeedResult",
    "SeedSettings",
    "Stores",
    "TOOLS_CHAT_FORMAT",
    "check_bucket_name",
    "check_database_allowed",
    "check_not_production",
    "create_seed_app",
    "create_seed_router",
    "diff_states",
    "dump_state",
    "free_port",
    "lane_names",
    "last_reset",
    "load_baseline_file",
    "load_state_dump",
    "model_file",
    "open_stores",
    "reset_and_load",
    "start_dev",
    "start_embedded_mongo",
    "start_embedded_s3",
    "start_local_model",
    "unfinished_reset",
    "wants_local_model",
]
