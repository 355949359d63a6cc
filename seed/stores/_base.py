"""The one interface every store of a product's state implements, and the registry of kinds.

A reset of any kind — the seed route's, or a direct reset of a product's own stores, alone or
after the product's own clearing step — goes through the same six steps, in this order:

``guard``   every refusal that needs no plan: a database not named for tests, one carrying the
            production marker, a folder that is a file-system root, a store that cannot be
            reached. Reads only.
``plan``    what the reset will write, in the store's own terms (rows, documents, objects),
            checked against what the store has (tables, columns, types). Reads only.
``clear``   empty what the reset owns (the scope), nothing else.
``load``    write the plan.
``verify``  read back and compare with the plan: the differences, none when equal.
``dump``    read the state as it is now (for state diffs, and the staff side from the stores).

``StoreSet`` (``_set``) runs guard and plan of every store before anything is cleared, so a
refusal — or a product's own clearing step that comes between plan and clear — never follows
a write. A new kind of store is one module with a ``Store`` subclass and one line in
``_registry.KINDS``.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from claims_records import ObjectInfo, StoreRefusal

from .._jsonsafe import id_key
from .._names import REASON_DATABASE_NOT_ALLOWED
from .._plan import PlannedObject

Documents = dict[str, list["ProductDocument"]]
"""Documents to write, per collection (table), in the store's own names."""

DumpedCollections = dict[str, dict[str, dict[str, Any]]]
"""A dump: collection -> key -> document (JSON values)."""

Holds = Literal["documents", "objects"]


class StoreOptions(BaseModel):
    """Options a kind reads from a profile's ``[stores.<role>] options`` (none by default).
    A kind with options subclasses this with its own fields."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Store(ABC):
    """One store of a product's state: a database (``documents``) or an object store
    (``objects``). Subclasses set ``kind`` and ``holds``; ``name`` is what records show of
    it (the database's, the bucket's or the folder's name, never a URL)."""

    kind: ClassVar[str]
    holds: ClassVar[Holds]
    options: ClassVar[type[StoreOptions]] = StoreOptions
    name: str

    @abstractmethod
    def guard(self) -> None:
        """Refuse (``StoreRefusal``) a store that may not be reset; reads only."""

    @abstractmethod
    def plan(self, documents: Documents, objects: list[PlannedObject]) -> Any:
        """What a reset writes here, in the store's own terms, checked against the store;
        ``SeedError``/``ProfileError`` naming what does not fit. Reads only. A documents
        store takes ``documents``, an objects store ``objects``."""

    @abstractmethod
    def clear(self, plan: Any) -> None:
        """Empty what a reset owns (the collections in scope, the bucket, the folder)."""

    @abstractmethod
    def load(self, plan: Any) -> None:
        """Write ``plan`` (after ``clear``)."""

    @abstractmethod
    def verify(self, plan: Any) -> list[str]:
        """Differences between the store and ``plan``, each a short line; empty when it
        holds what the plan wrote (a value the store filled itself is not a difference)."""

    def replace(self, plan: Any) -> None:
        """``clear`` then ``load`` (a store that can do both in one transaction does)."""
        self.clear(plan)
        self.load(plan)

    def assigned(self, plan: Any) -> dict[tuple[str, str], str]:
        """(collection, key) -> canonical id of each row whose key the plan assigned."""
        return {}

    def close(self) -> None:  # noqa: B027 - most stores hold nothing to let go of
        """Let go of connections."""

    def location(self) -> str:
        """Where the store is, when its name does not say it (a SQLite database's file);
        '' otherwise. Never a URL."""
        return ""


class DocumentStore(Store):
    """A store of documents (a database): dumps collections."""

    holds: ClassVar[Holds] = "documents"

    @abstractmethod
    def dump(self, names: list[str] | None = None) -> DumpedCollections:
        """The collections ``names`` (every collection in the store's scope when None),
        non-empty ones only, keyed by each document's key."""

    def key_field(self, collection: str) -> str | None:
        """The field of a dumped document that holds its key (None: the key is composite)."""
        return "_id"


class ObjectStore(Store):
    """A store of files (a bucket, a folder): dumps objects by key."""

    holds: ClassVar[Holds] = "objects"

    @abstractmethod
    def dump(self) -> dict[str, ObjectInfo]:
        """Every object, by key."""


def refuse(message: str, **context: Any) -> StoreRefusal:
    """A ``StoreRefusal`` (built, not raised)."""
    return StoreRefusal(message, **context)


@dataclass(frozen=True)
class Ref:
    """A reference to another document of the same reset, by its canonical id: the store
    writes the key that document gets there (a row's integer key, a document's ``_id``)."""

    collection: str  # the product collection (table) referred to
    canonical_id: str
    field: str = ""  # the profile key it comes from, named in errors


@dataclass
class ProductDocument:
    """One document (row) to write, in the product's terms."""

    values: dict[str, Any]
    canonical_id: str | None = None  # the canonical id it holds (None: a child row)
    source: str = ""  # the profile key that produced it, named in errors ("mapping.claims")


def plain_documents(collections: dict[str, list[dict[str, Any]]], source: str = ""
                    ) -> Documents:
    """Documents already in the store's terms (the seed route's canonical ones)."""
    return {name: [ProductDocument(dict(d), id_key(d["_id"]) if "_id" in d else None, source)
                   for d in docs] for name, docs in collections.items()}


@dataclass(frozen=True)
class NamePolicy:
    """Which database names a reset may touch: ``pattern`` matched in full (``full``) or
    searched (``search``), named in refusals by ``setting`` (the profile key or variable)."""

    pattern: str
    mode: Literal["full", "search"] = "search"
    setting: str = "stores.allowed_database"

    def check(self, name: str, **context: Any) -> None:
        """``StoreRefusal`` unless ``name`` is allowed."""
        matched = (re.fullmatch if self.mode == "full" else re.search)(self.pattern, name)
        if not matched:
            raise refuse(f"database name {name!r} is not allowed for resets: it does not match "
                         f"{self.setting}", database=name, setting=self.setting,
                         pattern=self.pattern, reason=REASON_DATABASE_NOT_ALLOWED, **context)
