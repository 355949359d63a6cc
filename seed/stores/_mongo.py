"""A MongoDB database as a store of a product's state (the seed route's, or a product's own).

Its guard refuses a name MongoDB would not take or the allowed pattern does not, a server that
does not answer, a database carrying the production marker and reserved collections in scope.
Its plan refuses a mapping's SQL shapes (rows the store numbers, ``key = "assigned"``; child
tables): a MongoDB document is kept by its ``_id``. A reset empties its scope — every state
collection (the seed route's lane, which holds nothing else) or the collections a profile
names and those written (a product's own database, whose other collections are never
touched) — and inserts the plan; the product's indexes stay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from bson.errors import BSONError
from pymongo import MongoClient
from pymongo.database import Database
from pymongo.errors import PyMongoError

from claims_records import ProfileError, SeedError

from .._guard import check_not_production, database_name_problem, mongo_cause
from .._jsonsafe import id_key, json_safe
from .._names import (
    REASON_DATABASE_NOT_ALLOWED,
    REASON_STORE_ERROR,
    is_state_collection,
)
from .._plan import PlannedObject
from .._state import compare_documents, dump_collections
from ._base import Documents, DocumentStore, DumpedCollections, NamePolicy, Ref, refuse
from ._source import StoreSource

Scope = Literal["all"] | tuple[str, ...]
"""What a reset empties: every state collection, or the collections named (and those it
writes)."""


@dataclass
class MongoPlan:
    """The documents a reset writes, per collection, and the collections it empties."""

    collections: dict[str, list[dict[str, Any]]]
    names: list[str] = field(default_factory=list)


class MongoStore(DocumentStore):
    """One MongoDB database. ``client`` is closed with the store when the store opened it."""

    kind = "mongo"

    def __init__(self, db: Database[Any], names: NamePolicy, scope: Scope = "all", *,
                 owns_client: bool = False) -> None:
        self.db = db
        self.name = db.name
        self.names = names
        self.scope = scope
        self._owns = owns_client

    @classmethod
    def connect(cls, uri: str, database: str, names: NamePolicy, scope: Scope = "all"
                ) -> MongoStore:
        """A store on the server at ``uri`` (the URI is never shown)."""
        client: MongoClient[dict[str, Any]] = MongoClient(
            uri, tz_aware=False, serverSelectionTimeoutMS=5000)
        return cls(client[database], names, scope, owns_client=True)

    def hosts(self) -> str:
        """The servers the URI names (``host:port``; never the URI, which may hold a
        password)."""
        servers = self.db.client.topology_description.server_descriptions()
        return ", ".join(f"{host}:{port}" for host, port in sorted(servers)) or "its URI"

    # ------------------------------------------------------------------ guard and plan
    def guard(self) -> None:
        problem = database_name_problem(self.name)
        if problem:
            raise refuse(problem, database=self.name, reason=REASON_DATABASE_NOT_ALLOWED)
        self.names.check(self.name)
        try:
            self.db.client.admin.command("ping")
        except PyMongoError as exc:
            raise refuse(f"MongoDB at {self.hosts()} cannot be reached: {mongo_cause(exc)}",
                         database=self.name, reason=REASON_STORE_ERROR) from exc
        check_not_production(self.db)
        if self.scope != "all":
            reserved = [n for n in self.scope if not is_state_collection(n)]
            if reserved:
                raise refuse("a reset may not empty reserved collections", database=self.name,
                             collections=reserved, reason=REASON_DATABASE_NOT_ALLOWED)

    def plan(self, documents: Documents, objects: list[PlannedObject]) -> MongoPlan:
        for name, docs in documents.items():
            keyless = next((d for d in docs if "_id" not in d.values), None)
            if keyless is not None:  # the mapping's key = "assigned" or a child table
                child = keyless.canonical_id is None
                raise ProfileError(
                    "MongoDB keeps every document by its _id: "
                    + ("child tables are" if child else "key = 'assigned' is")
                    + " for SQL stores", field=keyless.source + ("" if child else ".key"),
                    database=self.name, collection=name)
        keys = {(name, d.canonical_id): d.values.get("_id") for name, docs in documents.items()
                for d in docs if d.canonical_id is not None}
        collections = {name: [_resolve(d.values, keys) for d in docs]
                       for name, docs in documents.items()}
        written = [n for n, docs in collections.items() if docs]
        reserved = [n for n in written if not is_state_collection(n)]
        if reserved:
            raise refuse("a reset may not write reserved collections", database=self.name,
                         collections=reserved, reason=REASON_DATABASE_NOT_ALLOWED)
        names = sorted({*written, *(self.scope if self.scope != "all" else ())})
        return MongoPlan(collections, names)

    # ------------------------------------------------------------------ writing
    def _emptied(self, plan: MongoPlan) -> list[str]:
        if self.scope == "all":
            return [n for n in self.db.list_collection_names() if is_state_collection(n)]
        return plan.names

    def clear(self, plan: MongoPlan) -> None:
        try:
            for name in self._emptied(plan):
                self.db[name].delete_many({})
        except PyMongoError as exc:
            raise SeedError(f"MongoDB failed while emptying: {exc}", database=self.name,
                            reason=REASON_STORE_ERROR) from exc

    def load(self, plan: MongoPlan) -> None:
        try:
            for name, docs in plan.collections.items():
                if docs:
                    self.db[name].insert_many(docs, ordered=True)
        except (PyMongoError, BSONError, OverflowError) as exc:
            raise SeedError(f"MongoDB failed while loading: {type(exc).__name__}: {exc}",
                            database=self.name, reason=REASON_STORE_ERROR) from exc

    # ------------------------------------------------------------------ reading
    def verify(self, plan: MongoPlan) -> list[str]:
        expected = {n: docs for n, docs in plan.collections.items() if docs}
        if self.scope == "all":
            actual = self.dump()
            names = sorted(set(expected) | set(actual))
        else:
            names = plan.names
            actual = self.dump(names)
        return compare_documents(expected, actual, names)

    def dump(self, names: list[str] | None = None) -> DumpedCollections:
        try:
            if names is None:
                return dump_collections(self.db)
            out = {}
            for name in sorted(names):
                docs = {id_key(d["_id"]): json_safe(d) for d in self.db[name].find({})}
                if docs:
                    out[name] = dict(sorted(docs.items()))
            return out
        except PyMongoError as exc:
            raise SeedError(f"MongoDB cannot be read: {exc}", database=self.name,
                            reason=REASON_STORE_ERROR) from exc

    def key_field(self, collection: str) -> str | None:
        return "_id"

    def close(self) -> None:
        if self._owns:
            self.db.client.close()


def _resolve(values: Any, keys: dict[tuple[str, str], Any]) -> Any:
    """``values`` with every reference replaced by the referred document's ``_id``."""
    if isinstance(values, Ref):
        key = keys.get((values.collection, values.canonical_id))
        if key is None:
            raise ProfileError(f"a reference to {values.collection}/{values.canonical_id}, "
                               "which this reset does not write with an _id",
                               field=values.field)
        return key
    if isinstance(values, dict):
        return {k: _resolve(v, keys) for k, v in values.items()}
    if isinstance(values, list):
        return [_resolve(v, keys) for v in values]
    return values


def open_store(source: StoreSource) -> MongoStore:
    """The lane's database on the server the source's variable names."""
    if not source.database:
        raise ProfileError("a MongoDB store needs the lane's database", field="lanes.database")
    return MongoStore.connect(source.value(), source.database, source.names, source.scope())
