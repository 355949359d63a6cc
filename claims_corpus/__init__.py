"""The pack format, loading, the corpus checker and the customer view.

This is the only package that opens pack files. The harness's decision loop reads a pack
only through ``load_customer_view``; everything else here is for the checker, the seed
route and the scorer.
"""

from claims_records import (
    HarnessError,
    LeakError,
    PackError,
    ProductError,
    ProfileError,
    RunRecordError,
    ScoringError,
    SeedError,
    SimulatorError,
)

from . import formats
from ._check import CheckReport, check_corpus
from ._check_pack import Problem
from ._corpora import Corpora, CorpusRef, open_corpora
from ._derive import (
    ExpectedReview,
    derive_review,
    document_outcome,
    policy_start_outcome,
    prior_claims_outcome,
    read_document_date,
)
from ._gate import PendingCheck, check_stamp, failing_corpora, running_anyway
from ._generate import generate_materials, render_material
from ._leak import Leak, LeakGuard, system_vocabulary
from ._loading import (
    Pack,
    corpus_identity,
    list_packs,
    load_baseline,
    load_labels,
    load_manifest,
    load_pack,
    load_provenance,
    load_setup,
    material_files,
    pack_file_hashes,
    pack_hash,
    setup_files,
)
from ._manifest import update_manifest
from ._migrate import migrate_corpus
from ._prompt import (
    PROMPT_VIEWS,
    build_customer_messages,
    build_repair_messages,
    without_product_text,
)
from ._prompt_grounded import build_grounded_messages
from ._review import (
    BlindLookReport,
    VisionSettings,
    blind_look,
    name_problem,
    resolve_packs,
    sign_off,
    write_review_page,
)
from ._schemas import render_schemas, stale_schemas, write_schemas
from ._strict_json import MAX_JSON_DEPTH, StrictJsonError, parse_strict_json
from ._view import CUSTOMER_FILES, CustomerMaterial, CustomerView, Progress, load_customer_view

__all__ = [
    "MAX_JSON_DEPTH",
    "StrictJsonError",
    "parse_strict_json",
    "BlindLookReport",
    "CheckReport",
    "Corpora",
    "CorpusRef",
    "open_corpora",
    "ExpectedReview",
    "derive_review",
    "document_outcome",
    "policy_start_outcome",
    "prior_claims_outcome",
    "read_document_date",
    "VisionSettings",
    "blind_look",
    "name_problem",
    "resolve_packs",
    "sign_off",
    "write_review_page",
    "Problem",
    "Leak",
    "LeakGuard",
    "PROMPT_VIEWS",
    "build_customer_messages",
    "build_grounded_messages",
    "build_repair_messages",
    "check_corpus",
    "system_vocabulary",
    "without_product_text",
    "generate_materials",
    "migrate_corpus",
    "render_material",
    "render_schemas",
    "stale_schemas",
    "update_manifest",
    "write_schemas",
    "CUSTOMER_FILES",
    "CustomerMaterial",
    "CustomerView",
    "PendingCheck",
    "HarnessError",
    "LeakError",
    "Pack",
    "PackError",
    "Progress",
    "ProductError",
    "ProfileError",
    "RunRecordError",
    "ScoringError",
    "SeedError",
    "SimulatorError",
    "corpus_identity",
    "formats",
    "list_packs",
    "load_baseline",
    "load_customer_view",
    "load_labels",
    "load_manifest",
    "load_pack",
    "load_provenance",
    "load_setup",
    "material_files",
    "pack_file_hashes",
    "pack_hash",
    "setup_files",
    "check_stamp",
    "failing_corpora",
    "running_anyway",
]
