"""The store layer: one interface for every store of a product's state, used alike by the seed
route and by every direct reset.

``Store`` (``_base``): guard, plan, clear, load, verify, dump. Kinds: ``mongo`` (``_mongo``),
``sql`` (``sql/``, SQLite and PostgreSQL through SQLAlchemy), ``s3`` (``_bucket``, an
S3-compatible bucket) and ``folder`` (``_folder``, uploads kept as files), registered in
``_registry.KINDS`` and opened from a profile's settings through ``StoreSource``
(``_source``). ``StoreSet`` (``_set``) takes a reset's stores together: every guard and every
plan before anything is emptied. ``mapping/`` turns the canonical schema into a product's and
back.
"""

from ._base import (
    Documents,
    DocumentStore,
    DumpedCollections,
    NamePolicy,
    ObjectStore,
    ProductDocument,
    Ref,
    Store,
    StoreOptions,
    plain_documents,
)
from ._bucket import BucketStore, S3Options
from ._folder import MARKER_FILE, FolderStore
from ._mongo import MongoStore
from ._registry import KINDS, open_store
from ._set import Prepared, StoreSet
from ._source import StoreSource
from .mapping import (
    PRODUCT_PREFIX,
    ChildMap,
    CollectionMap,
    Mapping,
    as_json,
    canonical_collections,
    fill_template,
    product_tables,
    to_product,
    translate,
)
from .sql import SqlStore, SqlTarget, TableSpec

__all__ = [
    "KINDS",
    "MARKER_FILE",
    "PRODUCT_PREFIX",
    "BucketStore",
    "ChildMap",
    "CollectionMap",
    "DocumentStore",
    "Documents",
    "DumpedCollections",
    "FolderStore",
    "Mapping",
    "MongoStore",
    "NamePolicy",
    "ObjectStore",
    "Prepared",
    "ProductDocument",
    "Ref",
    "S3Options",
    "SqlStore",
    "SqlTarget",
    "Store",
    "StoreOptions",
    "StoreSet",
    "StoreSource",
    "TableSpec",
    "as_json",
    "canonical_collections",
    "fill_template",
    "open_store",
    "plain_documents",
    "product_tables",
    "to_product",
    "translate",
]
