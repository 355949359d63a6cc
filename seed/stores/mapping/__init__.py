"""The canonical schema of the corpus <-> a product's own collections, tables and keys.

Setups and the scorer speak the canonical schema (``docs/reference-app.md``: ``policies``,
``claims.policy_number``, ``claims.status = "submitted"`` …). A profile's ``[mapping]`` says
how one product stores the same things (``_model``); setups are written through it
(``_forward``) and dumps are read back through its inverse (``_reverse``), so the scorer only
ever sees canonical terms. ``_paths`` handles dotted paths in documents.
"""

from ._forward import as_json, fill_template, product_tables, to_product
from ._model import ChildMap, CollectionMap, Mapping
from ._paths import MISSING, get_path, translate
from ._reverse import PRODUCT_PREFIX, Assigned, KeyFields, canonical_collections

__all__ = [
    "MISSING",
    "PRODUCT_PREFIX",
    "Assigned",
    "ChildMap",
    "CollectionMap",
    "KeyFields",
    "Mapping",
    "as_json",
    "canonical_collections",
    "fill_template",
    "get_path",
    "product_tables",
    "to_product",
    "translate",
]
