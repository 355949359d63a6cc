"""Authoring the public corpus at scale: one reviewed scenario table (``scenarios.toml``, one
row per pack) and a deterministic generator that writes each generated row as a pack in the
pack format. The checker then judges generated packs like hand-written ones."""

from ._build import build_corpus, build_pack
from ._table import SCENARIO_KINDS, TABLE, Row, Table, load_table

__all__ = ["SCENARIO_KINDS", "TABLE", "Row", "Table", "build_corpus", "build_pack",
           "load_table"]
