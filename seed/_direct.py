"""Writing a validated plan straight into a product's own stores, and reading them back.

Used when a product has no seed route of its own and the harness resets it through its
MongoDB and its object store, a bucket or a folder ("direct stores"). Unlike the seed route,
only the collections named in ``scope`` are emptied: a product's other collections are never
touched. ``seed.sql`` does the same for SQL databases.
"""

from __future__ import annotations

import re
from typing import Any

from bson.errors import BSONError
from pymongo.database import Database
from pymongo.errors import PyMongoError

from claims_records import SeedError, StateDump

from ._guard import check_not_production, database_name_problem
from ._jsonsafe import id_key, json_safe
from ._names import REASON_DATABASE_NOT_ALLOWED, RESERVED_COLLECTIONS
from ._objects import ObjectStore
from ._plan import PlannedObject
from ._state import compare_documents, dump_collections, utc_now_iso


def check_database_name(name: str, pattern: str) -> None:
    """Refuse a database MongoDB would not accept, a system database, or one whose name does
    not match ``pattern`` (a regex, searched: the profile's default is bounded by separators,
    so ``latest_claims`` does not pass for ``test``)."""
    problem = database_name_problem(name)
    if problem:
        raise SeedError(problem, database=name, reason=REASON_DATABASE_NOT_ALLOWED)
    if not re.search(pattern, name):
        raise SeedError("database name is not allowed for direct resets", database=name,
                        pattern=pattern, reason=REASON_DATABASE_NOT_ALLOWED)


def apply_scoped(db: Database, store: ObjectStore | None,
                 collections: dict[str, list[dict[str, Any]]], objects: list[PlannedObject],
                 scope: list[str]) -> list[str]:
    """Empty the ``scope`` collections (and the object store), write the plan; return problems
    found when reading it back (empty: the stores hold exactly the plan)."""
    check_not_production(db)
    if store is not None:
        store.check()  # before anything is emptied
    names = sorted(set(scope) | {n for n, docs in collections.items() if docs})
    reserved = [n for n in names if n in RESERVED_COLLECTIONS or n.startswith("system.")]
    if reserved:
        raise SeedError("a direct reset may not write reserved collections",
                        collections=reserved)
    try:
        for name in names:
            db[name].delete_many({})
        for name, docs in collections.items():
            if docs:
                db[name].insert_many(docs, ordered=True)
    except (PyMongoError, BSONError, OverflowError) as exc:
        raise SeedError(f"MongoDB failed during a direct reset: {exc}", database=db.name) from exc
    if store is not None:
        store.replace(objects)
    problems = _differences(db, collections, names)
    return problems + (store.problems(objects) if store is not None else [])


def _differences(db: Database, collections: dict[str, list[dict[str, Any]]],
                 names: list[str]) -> list[str]:
    actual = {name: {id_key(d["_id"]): json_safe(d) for d in db[name].find({})}
              for name in names}
    return compare_documents(collections, actual, names)


def dump_stores(db: Database, store: ObjectStore | None) -> StateDump:
    """Every state collection of ``db`` and, when given, every object of ``store``."""
    try:
        collections = dump_collections(db)
    except PyMongoError as exc:
        raise SeedError(f"MongoDB unreachable: {exc}", database=db.name) from exc
    objects = store.dump() if store is not None else {}
    return StateDump(taken_at=utc_now_iso(), database=db.name,
                     bucket=store.name if store is not None else "",
                     collections=collections, objects=objects)
